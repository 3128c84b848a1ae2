"""The changes report on the demo corpus: snapshot, add one scoring and re-score
another, rerun; the report names both with their causes. One history shared by the
tests that only read it (module fixture); tests that change it work on their own.
"""

import json
import shutil
from pathlib import Path

import pytest

from workflow_runs import corpus_copy, run_workflow, tree_digest, workflow_copy

SCORINGS = "scoring/v1.0/atlas-7b"
RESCORED = "RO-MECH-001__run-2026-05-12-001__eval-R01.json"
ADDED = "RO-MECH-004__run-2026-05-12-002__eval-R02.json"

EXPECTED_CSV = (
    "scope,change,subject_id,subject_version,case_id,run_id,field,old,new,outside_old_ci95,cause\r\n"
    "version,changed,atlas-7b,atlas-7b-2026-03-q4,,,pass_rate,0.1842,0.1795,False,"
    "1 run(s) added (RO-MECH-004 run-2026-05-12-002); "
    "1 run(s) re-scored (RO-MECH-001 run-2026-05-12-001)\r\n"
    "version,changed,atlas-7b,atlas-7b-2026-03-q4,,,mean_clipped_score,7.5789,7.6154,False,"
    "1 run(s) added (RO-MECH-004 run-2026-05-12-002); "
    "1 run(s) re-scored (RO-MECH-001 run-2026-05-12-001)\r\n"
    "version,changed,atlas-7b,atlas-7b-2026-03-q4,,,brier,0.1538,0.153,False,"
    "1 run(s) added (RO-MECH-004 run-2026-05-12-002); "
    "1 run(s) re-scored (RO-MECH-001 run-2026-05-12-001)\r\n"
    "version,changed,atlas-7b,atlas-7b-2026-03-q4,,,ece,0.1637,0.1623,False,"
    "1 run(s) added (RO-MECH-004 run-2026-05-12-002); "
    "1 run(s) re-scored (RO-MECH-001 run-2026-05-12-001)\r\n"
    "version,changed,atlas-7b,atlas-7b-2026-03-q4,,,q_final,0.4079,0.4071,False,"
    "1 run(s) added (RO-MECH-004 run-2026-05-12-002); "
    "1 run(s) re-scored (RO-MECH-001 run-2026-05-12-001)\r\n"
    "run,changed,atlas-7b,atlas-7b-2026-03-q4,RO-MECH-001,run-2026-05-12-001,main_hypothesis,"
    f"2,1,,re-scored: {SCORINGS}/{RESCORED} changed\r\n"
    "run,changed,atlas-7b,atlas-7b-2026-03-q4,RO-MECH-001,run-2026-05-12-001,classification,"
    "Pass,Conditional,,main_hypothesis 2 → 1\r\n"
    "run,added,atlas-7b,atlas-7b-2026-03-q4,RO-MECH-004,run-2026-05-12-002,classification,,"
    f"Pass,,{SCORINGS}/{ADDED} added\r\n"
)


def add_and_rescore(corpus):
    """Re-score main_hypothesis 2 → 1 of a Pass run (raw 10 → 9) and score an unscored
    response (a copy of another Pass scoring), both dated after the snapshot."""
    folder = corpus / SCORINGS
    rescored = json.loads((folder / RESCORED).read_text("utf-8"))
    assert rescored["criterion_scores"]["main_hypothesis"]["score"] == 2
    rescored["criterion_scores"]["main_hypothesis"]["score"] = 1
    rescored["scoring_timestamp_utc"] = "2026-05-17T08:00:00Z"
    (folder / RESCORED).write_text(json.dumps(rescored, ensure_ascii=False, indent=2) + "\n")
    added = json.loads((folder / "RO-MECH-001__run-2026-05-12-002__eval-R01.json").read_text())
    added["evaluation_id"] = "eval-RO-MECH-004-run-2026-05-12-002-R02"
    added["reviewer_id"] = "R02"
    added["response_ref"].update(case_id="RO-MECH-004", run_id="run-2026-05-12-002")
    added["scoring_timestamp_utc"] = "2026-05-17T09:00:00Z"
    (folder / ADDED).write_text(json.dumps(added, ensure_ascii=False, indent=2) + "\n")


@pytest.fixture(scope="module")
def history(tmp_path_factory):
    root = workflow_copy(tmp_path_factory.mktemp("changes") / "wf")
    corpus = corpus_copy(root / "corpus")
    first = run_workflow(root, corpus="corpus")
    assert first.returncode == 0, first.output
    snapshot = run_workflow(root, "snapshot", corpus="corpus")
    assert snapshot.returncode == 0, snapshot.output
    frozen = tree_digest(root / "results" / "historico")
    add_and_rescore(corpus)
    rerun = run_workflow(root, corpus="corpus")
    assert rerun.returncode == 0, rerun.output
    return root, corpus, frozen


def test_the_report_names_the_added_and_the_rescored_scoring(history):
    root, _, _ = history
    assert (root / "results" / "changes.csv").read_bytes().decode("utf-8") == EXPECTED_CSV
    report = (root / "results" / "changes.md").read_text("utf-8")
    assert report.startswith("# Changes since the snapshot of 2026-05-15\n")
    assert "Inputs: scorings 1 added, 1 changed (415 files now)." in report
    assert r"RO-MECH-004\_\_run-2026-05-12-002\_\_eval-R02.json added" in report


def test_the_page_shows_the_section(history):
    root, _, _ = history
    page = (root / "results" / "leaderboard.html").read_text("utf-8")
    section = page.split('<section id="changes">', 1)[1].split("</section>", 1)[0]
    assert "Changes since the snapshot of 2026-05-15" in section
    assert f"{SCORINGS}/{ADDED} added" in section
    assert section.count("<tr>") == 2 + 5 + 3


def test_snapshots_are_never_modified_and_the_report_is_reproducible(history):
    root, _, frozen = history
    published = {
        name: (root / "results" / name).read_bytes()
        for name in ("changes.csv", "changes.md", "leaderboard.html")
    }
    again = run_workflow(root, "--forcerun", "publish", corpus="corpus")
    assert again.returncode == 0, again.output
    for name, content in published.items():
        assert (root / "results" / name).read_bytes() == content, name
    assert tree_digest(root / "results" / "historico") == frozen


def test_an_older_snapshot_without_per_file_digests_still_compares(history, tmp_path):
    root, _, _ = history
    copy = workflow_copy(tmp_path / "wf")
    shutil.copytree(root / "corpus", copy / "corpus")
    shutil.copytree(root / "results" / "historico", copy / "results" / "historico")
    snapshot = copy / "results" / "historico" / "2026-05-15"
    for name in ("input_files.csv", "criterion_scores.csv", "changes.csv", "changes.md"):
        (snapshot / name).unlink()
    run = run_workflow(copy, corpus="corpus")
    assert run.returncode == 0, run.output
    rows = (copy / "results" / "changes.csv").read_text("utf-8").splitlines()
    unknown = "cause unknown at file level (the snapshot records no per-file digests)"
    assert (
        "run,changed,atlas-7b,atlas-7b-2026-03-q4,RO-MECH-001,run-2026-05-12-001,raw_score,"
        f"10,9,,re-scored (criteria not recorded by the snapshot): {unknown}"
    ) in rows
    assert "which files changed is unknown" in (copy / "results" / "changes.md").read_text()


def test_changes_since_must_name_a_date_with_a_snapshot(history):
    root, _, _ = history
    early = run_workflow(root, "--dry-run", corpus="corpus", changes_since="2026-01-01")
    assert early.returncode != 0
    assert (
        "Invalid configuration: changes_since: no snapshot in results/historico/ is dated on "
        "or before 2026-01-01 (snapshots: 2026-05-15)"
    ) in early.output
    assert "Traceback" not in early.output
    malformed = run_workflow(root, "--dry-run", corpus="corpus", changes_since="16/05/2026")
    assert malformed.returncode != 0
    assert "Invalid configuration: changes_since:" in malformed.output


def test_a_broken_snapshot_is_named_and_nothing_is_published(history, tmp_path):
    root, _, _ = history
    copy = workflow_copy(tmp_path / "wf")
    shutil.copytree(root / "corpus", copy / "corpus")
    shutil.copytree(root / "results", copy / "results")
    published = tree_digest(copy / "results")
    snapshot = copy / "results" / "historico" / "2026-05-15"
    (snapshot / "per_run.csv").unlink()
    # Any change of an input makes the changes step run again.
    scoring = copy / "corpus" / SCORINGS / RESCORED
    scoring.write_text(scoring.read_text("utf-8").replace('"R01"', '"R01"', 1) + " ", "utf-8")
    run = run_workflow(copy, corpus="corpus")
    assert run.returncode != 0
    assert f"Cannot compare with the snapshot {Path('results/historico/2026-05-15')}" in run.output
    assert "per_run.csv: missing from the snapshot" in run.output
    assert "Traceback" not in run.output
    del published["historico/2026-05-15/per_run.csv"]
    assert tree_digest(copy / "results") == published


def test_the_report_leaks_no_gold_reference_or_premium_text(history):
    root, corpus, _ = history
    private = set()
    for path in (corpus / "scoring/v1.0").rglob("*.json"):
        document = json.loads(path.read_text("utf-8"))
        private |= {fail["reference"] for fail in document["automatic_fails_triggered"]}
        private |= {
            criterion["justification_long"]
            for criterion in document["criterion_scores"].values()
            if "justification_long" in criterion
        }
    assert private  # the demo corpus has both kinds
    published = [path for path in (root / "results").rglob("*") if path.is_file()]
    for path in published:
        text = path.read_text("utf-8")
        assert "GOLDCANARY" not in text, path
        assert not [secret for secret in private if secret in text], path


def test_a_scoring_on_the_snapshot_day_is_compared_with_that_snapshot(tmp_path):
    # The demo's newest scoring is of 2026-05-15: the snapshot is historico/2026-05-15.
    root = workflow_copy(tmp_path / "wf")
    corpus = corpus_copy(root / "corpus")
    assert run_workflow(root, corpus="corpus").returncode == 0
    assert run_workflow(root, "snapshot", corpus="corpus").returncode == 0
    added = corpus / SCORINGS / ADDED
    scoring = json.loads(
        (corpus / SCORINGS / "RO-MECH-001__run-2026-05-12-002__eval-R01.json").read_text()
    )
    scoring["evaluation_id"] = "eval-RO-MECH-004-run-2026-05-12-002-R02"
    scoring["reviewer_id"] = "R02"
    scoring["response_ref"].update(case_id="RO-MECH-004", run_id="run-2026-05-12-002")
    scoring["scoring_timestamp_utc"] = "2026-05-15T18:00:00Z"  # later the same day
    added.write_text(json.dumps(scoring, ensure_ascii=False, indent=2) + "\n")
    same_day = run_workflow(root, corpus="corpus")
    assert same_day.returncode == 0, same_day.output
    report = (root / "results" / "changes.md").read_text("utf-8")
    assert report.startswith(
        "# Changes since the snapshot of 2026-05-15\n\nThe results of 2026-05-15 compared with "
        "historico/2026-05-15/, the snapshot of the same day, which holds other results"
    )
    assert r"RO-MECH-004\_\_run-2026-05-12-002\_\_eval-R02.json added" in report
    # Back to the snapshot's results: it is never the base (taking it changed nothing
    # published), and a later snapshot of other results is named with its changes_since.
    later = run_workflow(root, "snapshot", corpus="corpus", snapshot_date="2026-06-01")
    assert later.returncode == 0, later.output
    added.unlink()
    back = run_workflow(root, corpus="corpus")
    assert back.returncode == 0, back.output
    assert (root / "results" / "changes.md").read_text("utf-8").splitlines()[2] == (
        "No earlier snapshot: historico/ has none of other results dated on or before "
        "2026-05-15, only later ones (2026-06-01); nothing to compare. To compare with one, "
        "set changes\\_since to its date (changes\\_since=2026-06-01)."
    )
    # On the terminal, the command with the run's own settings.
    assert (
        "changes: no snapshot of other results dated on or before 2026-05-15; to compare "
        "with historico/2026-06-01/: snakemake --cores 1 --config corpus=corpus "
        "results=results changes_since=2026-06-01"
    ) in back.output.splitlines()
