"""A leaderboard row's life on the benchmark's own corpus (shared/spec/lifecycle.md,
issue 38), each on a copy of ../shared/benchmark-v1.0/corpus:

- withdraw claude-opus-4-7: its row stays, marked, unranked and last; gpt-5.5 ranks
  first; the neighbour tests and rank intervals are those of the other versions;
  changes.csv names the annotation as the cause;
- invalidate a disqualified version: marked, and out of the findings;
- correct a version after a re-scored run: published with the `corrected` annotation;
  without it a warning naming the version and the values, an error under strict=true;
- remove or edit an annotation a snapshot holds: refused, named, nothing written;
- a subject with 5 versions registered in one year: the warning.
"""

import hashlib
import json
import re
from pathlib import Path

import pytest

from workflow_runs import REPO, run_workflow, tree_digest, workflow_copy, writable_copy
from workflow_runs import read_csv as rows

BENCHMARK = REPO.parent / "shared" / "benchmark-v1.0"
pytestmark = pytest.mark.skipif(
    not (BENCHMARK / "corpus").is_dir(), reason=f"the benchmark's v1.0 data is not at {BENCHMARK}"
)

WITHDRAW = """annotations:
  - subject_id: claude-opus-4-7
    subject_version: claude-opus-4-7
    label: withdrawn
    date: 2026-06-10
    note: "Withdrawn by the submitter after publication."
    link: https://example.org/withdrawals/2026-001
"""
INVALIDATE = """  - subject_id: claude-haiku-4-5
    subject_version: claude-haiku-4-5-20251001
    label: invalidated
    date: 2026-06-11
    note: "Contamination of the evaluation set found by the committee."
"""
CORRECT = """annotations:
  - subject_id: gpt-5
    subject_version: gpt-5-2025-08-07
    label: corrected
    date: 2026-06-02
    note: "Re-scored RO-FOUL-001 after an upheld appeal."
    link: https://example.org/appeals/2026-003
"""
RESCORED = "scoring/v1.0/gpt-5/RO-FOUL-001__run-2026-05-08-001__eval-R01.json"


def by_version(path: Path) -> dict[str, dict[str, str]]:
    return {row["subject_version"]: row for row in rows(path)}


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    return workflow_copy(tmp_path_factory.mktemp("lifecycle") / "workflow")


def setup(workdir: Path, root: Path, name: str):
    corpus = writable_copy(BENCHMARK / "corpus", root / f"{name}-corpus")
    config = {"corpus": corpus, "results": root / f"{name}-results", "cache": root / "cache"}
    return corpus, config


def test_withdraw_and_invalidate_then_an_annotation_is_never_removed(workdir, tmp_path):
    corpus, config = setup(workdir, tmp_path, "withdraw")
    results = config["results"]
    assert run_workflow(workdir, **config).returncode == 0
    before = rows(results / "leaderboard.csv")
    assert [(r["rank"], r["subject_version"]) for r in before[:2]] == [
        ("1", "claude-opus-4-7"),
        ("2", "gpt-5.5-2026-04-23"),
    ]
    assert "annotations.csv" not in {p.name for p in results.iterdir()}
    assert run_workflow(workdir, "snapshot", **config, snapshot_date="2026-05-13").returncode == 0

    (corpus / "subjects/annotations.yaml").write_text(WITHDRAW + INVALIDATE, "utf-8")
    run = run_workflow(workdir, **config)
    assert run.returncode == 0, run.output
    after = rows(results / "leaderboard.csv")
    ranked = [(r["rank"], r["rank_low"], r["rank_high"], r["subject_version"]) for r in after[:4]]
    assert ranked == [
        ("1", "1", "2", "gpt-5.5-2026-04-23"),
        ("2", "1", "2", "gpt-5-2025-08-07"),
        ("3", "3", "3", "gemini-2.5-pro"),
        ("4", "4", "4", "mistral-medium-2505"),
    ]
    # The left-out rows last, unranked, with their values and annotations.
    assert [(r["rank"], r["subject_version"], r["q_final"]) for r in after[-2:]] == [
        ("", "claude-haiku-4-5-20251001", "0.8401"),
        ("", "claude-opus-4-7", "0.9113"),
    ]
    assert after[-1]["annotations"] == (
        "withdrawn 2026-06-10: Withdrawn by the submitter after publication. "
        "https://example.org/withdrawals/2026-001"
    )
    assert after[-2]["annotations"].startswith("invalidated 2026-06-11: Contamination")
    assert after[-2]["leaderboard_status"] == "Disqualified"
    # Neighbour tests over the other versions: gpt-5.5 against gpt-5 first.
    markdown = (results / "leaderboard.md").read_text("utf-8")
    pairs = re.findall(r"^\| (\S+) · (\S+) \| (\S+) · (\S+) \|", markdown, re.M)
    assert [(p[1], p[3]) for p in pairs] == [
        ("gpt-5.5-2026-04-23", "gpt-5-2025-08-07"),
        ("gpt-5-2025-08-07", "gemini-2.5-pro"),
        ("gemini-2.5-pro", "mistral-medium-2505"),
    ]
    assert "Withdrawn 2026-06-10" in markdown and "Invalidated 2026-06-11" in markdown
    uncertainty = {(r["subject_version"], r["metric"]) for r in rows(results / "uncertainty.csv")}
    assert ("claude-opus-4-7", "q_final") in uncertainty
    assert ("claude-opus-4-7", "rank") not in uncertainty
    assert ("claude-opus-4-7", "p_rank_1") not in uncertainty
    findings = json.loads((results / "findings.json").read_text("utf-8"))
    assert "claude-opus-4-7" not in findings["versions"]
    assert "claude-haiku-4-5-20251001" not in findings["safety"]["disqualified"]["versions"]
    assert [a["label"] for a in findings["annotations"]] == ["withdrawn", "invalidated"]
    assert "## Annotations" in (results / "findings.md").read_text("utf-8")
    page = (results / "leaderboard.html").read_text("utf-8")
    assert page.count('class="badge annotation withdrawn"') == 1
    assert "https://example.org/withdrawals/2026-001" in page
    changes = rows(results / "changes.csv")
    assert {
        (c["subject_version"], c["field"], c["old"], c["new"], c["cause"])
        for c in changes
        if c["subject_version"] == "claude-opus-4-7" and c["field"] == "rank"
    } == {
        (
            "claude-opus-4-7",
            "rank",
            "1",
            "",
            "annotation withdrawn 2026-06-10: left out of active comparisons",
        )
    }
    assert any(c["cause"] == "annotation invalidated 2026-06-11" for c in changes)
    assert rows(results / "annotations.csv")[0]["label"] == "withdrawn"
    # The annotations are an input: in input_files.csv, so in the inputs digest.
    digests = {row["path"]: row["digest"] for row in rows(results / "input_files.csv")}
    expected = hashlib.sha256((corpus / "subjects/annotations.yaml").read_bytes()).hexdigest()
    assert digests["subjects/annotations.yaml"] == f"sha256:{expected}"

    # A snapshot with the annotations; removing or editing one is refused.
    assert run_workflow(workdir, "snapshot", **config, snapshot_date="2026-06-11").returncode == 0
    published = tree_digest(results)
    (corpus / "subjects/annotations.yaml").write_text(WITHDRAW, "utf-8")
    run = run_workflow(workdir, **config)
    assert run.returncode != 0
    assert (
        "subjects/annotations.yaml: the annotation invalidated 2026-06-11 of claude-haiku-4-5 · "
        "claude-haiku-4-5-20251001 published in the snapshot 2026-06-11 was removed"
    ) in run.output
    assert "nothing was published" in run.output and "Traceback" not in run.output
    edited = (WITHDRAW + INVALIDATE).replace("after publication", "after its publication")
    (corpus / "subjects/annotations.yaml").write_text(edited, "utf-8")
    run = run_workflow(workdir, **config)
    assert run.returncode != 0
    assert "withdrawn 2026-06-10 of claude-opus-4-7 · claude-opus-4-7" in run.output
    assert "was edited (note 'Withdrawn by the submitter after publication.' →" in run.output
    assert tree_digest(results) == published


def rescore(corpus: Path) -> None:
    """RO-FOUL-001 of gpt-5 re-scored: requested_data 1 → 2, on 2026-06-02."""
    path = corpus / RESCORED
    scoring = json.loads(path.read_text("utf-8"))
    scoring["criterion_scores"]["requested_data"]["score"] = 2
    scoring["scoring_timestamp_utc"] = "2026-06-02T09:00:00Z"
    path.write_text(json.dumps(scoring, ensure_ascii=False, indent=2), "utf-8")


def test_a_correction_publishes_with_its_annotation_and_warns_or_stops_without(workdir, tmp_path):
    corpus, config = setup(workdir, tmp_path, "correct")
    results = config["results"]
    assert run_workflow(workdir, **config).returncode == 0
    assert run_workflow(workdir, "snapshot", **config).returncode == 0
    old = by_version(results / "metrics_per_subject.csv")["gpt-5-2025-08-07"]
    rescore(corpus)

    # Without the annotation, strict: an error naming the values, nothing published.
    published = tree_digest(results)
    run = run_workflow(workdir, **config, strict="true")
    assert run.returncode != 0
    line = (
        "gpt-5 · gpt-5-2025-08-07 changed since the snapshot 2026-05-14 without a 'corrected' "
        "annotation dated after it: "
    )
    assert line in run.output
    assert f"mean_clipped_score {old['mean_clipped_score']} → 10.9032" in run.output
    assert tree_digest(results) == published
    # Not strict: a warning, and published.
    run = run_workflow(workdir, **config)
    assert run.returncode == 0, run.output
    assert f"Warning: {line}" in run.output
    assert by_version(results / "metrics_per_subject.csv")["gpt-5-2025-08-07"] != old
    # With the annotation: no warning, the annotation shown and the cause of the change.
    (corpus / "subjects/annotations.yaml").write_text(CORRECT, "utf-8")
    run = run_workflow(workdir, **config, strict="true")
    assert run.returncode == 0, run.output
    assert "Warning" not in run.output
    row = by_version(results / "leaderboard.csv")["gpt-5-2025-08-07"]
    assert row["rank"] == "3" and row["mean_clipped_score"] == "10.9032"
    assert row["annotations"].startswith("corrected 2026-06-02: Re-scored RO-FOUL-001")
    causes = {
        c["field"]: c["cause"]
        for c in rows(results / "changes.csv")
        if c["subject_version"] == "gpt-5-2025-08-07" and c["scope"] == "version"
    }
    assert causes["annotation"] == "annotation corrected 2026-06-02"
    assert causes["mean_clipped_score"].startswith(
        "annotation corrected 2026-06-02; 1 run(s) re-scored"
    )


def test_bad_annotations_are_every_one_named_and_a_quota_is_a_warning(workdir, tmp_path):
    corpus, config = setup(workdir, tmp_path, "bad")
    (corpus / "subjects/annotations.yaml").write_text(
        WITHDRAW + "  - {subject_id: gpt-5, subject_version: gpt-5-2099, label: corrected,"
        " date: 2026-06-02, note: x}\n"
        "  - {subject_id: gpt-5, subject_version: gpt-5-2025-08-07, label: retracted,"
        " date: 2026-06-02, note: x}\n"
        "  - {subject_id: gpt-5, subject_version: gpt-5-2025-08-07, label: corrected,"
        " date: 2026-02-30, note: x}\n",
        "utf-8",
    )
    run = run_workflow(workdir, **config)
    assert run.returncode != 0
    assert "The corpus has 3 problem(s); nothing was published" in run.output
    for message in (
        "annotations.1.subject_version: 'gpt-5-2099' is not a version of 'gpt-5'",
        "annotations.2.label: 'retracted' is not one of",
        "annotations.3.date: '2026-02-30' is not a date",
    ):
        assert f"{corpus}/subjects/annotations.yaml: {message}" in run.output
    assert "Traceback" not in run.output
    assert not config["results"].exists()

    registry = corpus / "subjects/registry.yaml"
    anchor = (
        "        notes: First v1.0 evaluation snapshot served by OpenAI's gpt-5 alias on "
        "2026-05-08.\n"
    )
    added = "".join(
        f'      - subject_version: gpt-5-2026-0{m}-01\n        registered_at: "2026-0{m}-01"\n'
        "        access_type: api\n        sampling_policy:\n          kind: classic\n"
        for m in (6, 7, 8, 9)
    )
    registry.write_text(registry.read_text("utf-8").replace(anchor, anchor + added), "utf-8")
    (corpus / "subjects/annotations.yaml").unlink()
    run = run_workflow(workdir, **config)
    assert run.returncode == 0, run.output
    assert (
        "Warning: subject gpt-5 registered 5 versions in 2026, above the 4 a calendar year "
        "allows: gpt-5-2025-08-07, gpt-5-2026-06-01, gpt-5-2026-07-01, gpt-5-2026-08-01, "
        "gpt-5-2026-09-01"
    ) in run.output
