"""The operational step in the real workflow: tables equal to the benchmark's own rules,
optional publication, malformed telemetry reported with every other problem, and the
incremental plans (a telemetry change, a scoring change).
"""

import json
import random
import shutil

import pytest

from naive_oracle import benchmark_tables, one_call_per_response
from workflow_runs import corpus_copy, planned_jobs, run_workflow, tree_digest, workflow_copy

BATCH_LOGS = "logs/batch_logs"
OPERATIONAL = ["operational_per_subject.csv", "operational_per_family.csv"]


def responses_of(corpus) -> list[tuple[str, str, str, str]]:
    """(subject_id, subject_version, case_id, run_id) of every response of the corpus."""
    found = []
    for path in sorted((corpus / "responses/v1.0").glob("*/*.json")):
        document = json.loads(path.read_text("utf-8"))
        found.append(
            (
                document["subject_id"],
                document["subject_version"],
                document["case_id"],
                document["run_id"],
            )
        )
    return found


def test_one_call_per_response_publishes_the_benchmarks_own_tables(tmp_path):
    corpus = corpus_copy(tmp_path / "corpus")
    shutil.rmtree(corpus / BATCH_LOGS)
    (corpus / BATCH_LOGS).mkdir()
    rng = random.Random(20260512)  # noqa: S311 (reproducible test data, not crypto)
    texts = one_call_per_response(rng, responses_of(corpus), batches=4)
    for number, text in enumerate(texts):
        name = f"2026-05-1{number}T00-00-00Z.csv"
        (corpus / BATCH_LOGS / name).write_bytes(text.encode("utf-8"))
    workdir = workflow_copy(tmp_path / "workflow")
    run = run_workflow(workdir, corpus=corpus, results=workdir / "out")
    assert run.returncode == 0, run.output
    expected = benchmark_tables(texts)
    for name, key in zip(OPERATIONAL, ["per_subject", "per_family"], strict=True):
        published = (workdir / "out" / name).read_bytes()
        lines = published.decode("utf-8").split("\r\n")
        assert lines[-1] == ""
        assert [line.split(",") for line in lines[1:-1]] == expected[key], name
    # Every response has its call: nothing is left out, nothing warned.
    assert "operational tables count only" not in run.output
    coverage = (workdir / "out/coverage.csv").read_text("utf-8").splitlines()
    for row in coverage[1:]:
        cells = row.split(",")
        n_responses, operational, *gaps = (int(cell) for cell in [cells[2], *cells[5:]])
        assert (operational, gaps) == (n_responses, [0, 0, 0]), row


@pytest.fixture(scope="module")
def demo_run(tmp_path_factory):
    """One run on a copy of the demo corpus, shared by the two tests below, which change
    that copy in turn (the plans first, then the removal of the telemetry)."""
    tmp = tmp_path_factory.mktemp("operational")
    corpus = corpus_copy(tmp / "corpus")
    workdir = workflow_copy(tmp / "workflow")
    config = {"corpus": corpus, "results": workdir / "out"}
    run = run_workflow(workdir, **config)
    assert run.returncode == 0, run.output
    return workdir, corpus, config


def test_telemetry_change_plan_and_scoring_change_plan(demo_run):
    workdir, corpus, config = demo_run
    log = sorted((corpus / BATCH_LOGS).iterdir())[0]
    original = log.read_bytes()
    edited = original.replace(b",14730,pass,", b",14731,pass,")
    assert edited != original
    log.write_bytes(edited)
    # A telemetry change: the operational step, the cross-check (it reports telemetry
    # problems; the inputs digest covers the telemetry), metadata.json and the changes
    # report (which read that digest), the findings (cost and latency) and the
    # leaderboard (the operational table), the report rendered from the findings, and
    # publish; not the loads, the per-run tables, the metrics or the uncertainty.
    assert planned_jobs(workdir, **config) == {
        "operational": 1,
        "cross_check": 1,
        "metadata": 1,
        "changes": 1,
        "findings": 1,
        "leaderboard": 1,
        "findings_report": 1,
        "publish": 1,
    }
    log.write_bytes(original)
    # Restored content with a new change time is still a change of the listing: run it.
    run = run_workflow(workdir, **config)
    assert run.returncode == 0, run.output
    assert planned_jobs(workdir, **config) == {}

    # A scoring change: its partition and the aggregates, never the operational step.
    scoring = sorted((corpus / "scoring/v1.0/atlas-7b").glob("*.json"))[0]
    document = json.loads(scoring.read_text("utf-8"))
    document["reviewer_notes"] = "edited by the test"
    scoring.write_text(json.dumps(document, indent=2), "utf-8")
    plan = planned_jobs(workdir, **config)
    assert plan["load_partition"] == 1
    assert "operational" not in plan
    assert {"cross_check", "per_run", "publish"} <= set(plan)


def test_without_telemetry_no_operational_table_is_published_and_old_ones_go(demo_run):
    workdir, corpus, config = demo_run
    out = config["results"]
    assert all((out / name).is_file() for name in OPERATIONAL)
    shutil.rmtree(corpus / "logs")
    run = run_workflow(workdir, **config)
    assert run.returncode == 0, run.output
    assert not any((out / name).exists() for name in OPERATIONAL)
    page = (out / "leaderboard.html").read_text("utf-8")
    assert 'id="operational"' not in page and "Operational characteristics" not in page
    assert "Características operativas" not in (out / "leaderboard.es.html").read_text("utf-8")
    assert "## Operational characteristics" not in (out / "leaderboard.md").read_text("utf-8")
    coverage = (out / "coverage.csv").read_text("utf-8").splitlines()
    assert coverage[1] == "atlas-7b,atlas-7b-2026-03-q4,40,38,2,,,,"
    assert "operational tables count only" not in run.output
    assert "Traceback" not in run.output


def test_malformed_telemetry_is_reported_with_every_other_problem(tmp_path):
    corpus = corpus_copy(tmp_path / "corpus")
    workdir = workflow_copy(tmp_path / "workflow")
    config = {"corpus": corpus, "results": workdir / "out"}
    assert run_workflow(workdir, **config).returncode == 0
    published = tree_digest(workdir / "out")
    corpus_before = tree_digest(corpus)

    log = corpus / BATCH_LOGS / "2026-05-13T08-06-28Z.csv"
    lines = log.read_bytes().decode("utf-8").split("\r\n")
    assert lines[2].split(",")[8].isdigit()
    cells = lines[2].split(",")
    cells[8] = "many"  # prompt_tokens of line 3
    lines[2] = ",".join(cells)
    lines[5] = ",".join(lines[5].split(",")[:-2])  # line 6 loses two fields
    # Line 4: the call that produced a response, under the subject's other version.
    cells = lines[3].split(",")
    case, run_id = cells[1], cells[4]
    assert cells[3] == "borealis-xl-2026-04-02" and case != "RO-NOWE-002"
    cells[3] = "borealis-xl-2026-01-15"
    lines[3] = ",".join(cells)
    log.write_bytes("\r\n".join(lines).encode("utf-8"))
    response = corpus / "responses/v1.0/atlas-7b/RO-FOUL-003__run-2026-05-12-001.json"
    document = json.loads(response.read_text("utf-8"))
    document["confidence"] = 101
    response.write_text(json.dumps(document, indent=2), "utf-8")
    corpus_broken = tree_digest(corpus)

    run = run_workflow(workdir, **config)
    assert run.returncode != 0
    assert "Traceback" not in run.output
    assert "The corpus has 4 problem(s); nothing was published" in run.output
    prefix = f"{corpus}/{BATCH_LOGS}/2026-05-13T08-06-28Z.csv"
    assert (
        f"{prefix}: line 3, column 9 (prompt_tokens): 'many' is not a non-negative integer "
        "(or empty)"
    ) in run.output
    assert f"{prefix}: line 6: 15 fields where the header has 17" in run.output
    assert (
        f"{prefix}: line 4, column 4 (subject_version): 'borealis-xl-2026-01-15' but its "
        f"response responses/v1.0/borealis-xl/{case}__{run_id}.json has 'borealis-xl-2026-04-02'"
    ) in run.output
    assert "RO-FOUL-003__run-2026-05-12-001.json: confidence: 101 is greater than the maximum" in (
        run.output
    )
    assert tree_digest(workdir / "out") == published
    assert tree_digest(corpus) == corpus_broken != corpus_before
