"""The whole workflow on the demo corpus: deterministic, and equal to results/."""

import pytest
from workflow_runs import (
    COMMITTED_RESULTS,
    DEMO_CORPUS,
    PUBLISHED,
    run_workflow,
    tree_digest,
    workflow_copy,
)


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory):
    outputs = []
    for name in ("first", "second"):
        workdir = workflow_copy(tmp_path_factory.mktemp(name))
        results = workdir / "out"
        run = run_workflow(workdir, corpus=DEMO_CORPUS, results=results)
        assert run.returncode == 0, run.output
        assert "Traceback" not in run.output
        outputs.append(results)
    return outputs


def test_two_runs_are_byte_identical(two_runs):
    first, second = two_runs
    assert tree_digest(first) == tree_digest(second)


def test_outputs_equal_the_committed_results(two_runs):
    produced = two_runs[0]
    assert sorted(path.name for path in produced.iterdir()) == sorted(PUBLISHED)
    for name in PUBLISHED:
        assert (produced / name).read_bytes() == (COMMITTED_RESULTS / name).read_bytes(), name


def test_csv_dialect(two_runs):
    for name in PUBLISHED:
        if not name.endswith(".csv"):
            continue
        raw = (two_runs[0] / name).read_bytes()
        assert not raw.startswith(b"\xef\xbb\xbf"), name
        assert raw.endswith(b"\r\n"), name
        assert raw.count(b"\n") == raw.count(b"\r\n"), name


def test_headers_are_the_published_contract(two_runs):
    headers = {
        name: (two_runs[0] / name).read_bytes().decode("utf-8").split("\r\n", 1)[0]
        for name in PUBLISHED
        if name.endswith(".csv")
    }
    assert headers == {
        "per_run.csv": "subject_id,subject_version,case_id,family,run_id,reviewer_id,"
        "scoring_timestamp_utc,rubric_floor,rubric_ceiling,raw_score,clipped_score,"
        "has_critical_fail,has_recoverable_fail,classification,reported_confidence,"
        "confidence_unit,correctness",
        "metrics_per_subject.csv": "subject_id,subject_version,n_runs,n_pass,n_conditional,"
        "n_fail,n_critical_fails,n_recoverable_fails,pass_rate,mean_clipped_score,brier,ece,"
        "alpha,q_final,leaderboard_status",
        "metrics_per_family.csv": "subject_id,subject_version,family,n_runs,n_pass,"
        "n_conditional,n_fail,pass_rate_family,mean_clipped_score_family",
        "coverage.csv": "subject_id,subject_version,n_responses,n_scored,n_unscored",
    }


def test_gold_prose_never_reaches_an_output(two_runs):
    # Every private text of the demo golds carries a GOLDCANARY marker.
    assert "GOLDCANARY" in (DEMO_CORPUS / "golds/v1.0/RO-FOUL-001_gold.md").read_text("utf-8")
    for path in two_runs[0].iterdir():
        assert b"GOLDCANARY" not in path.read_bytes(), path.name


def test_disqualified_version_and_its_sibling(two_runs):
    rows = (two_runs[0] / "metrics_per_subject.csv").read_text("utf-8").splitlines()
    status = {tuple(row.split(",")[:2]): row.split(",")[-1] for row in rows[1:]}
    # Disqualification is per subject_version: the later version starts clean.
    assert status[("borealis-xl", "borealis-xl-2026-01-15")] == "Disqualified"
    assert status[("borealis-xl", "borealis-xl-2026-04-02")] == "Eligible"
    # A version with responses but no scored run has no metrics row.
    assert not any(key[0] == "fjord-13b" for key in status)
