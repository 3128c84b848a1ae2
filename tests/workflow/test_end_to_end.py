"""The whole workflow on the demo corpus: deterministic, and equal to results/."""

import shutil

import pytest

from workflow_runs import (
    COMMITTED_RESULTS,
    DEMO_CORPUS,
    ONE_PARTITION,
    PUBLISHED,
    REPO,
    files_below,
    run_workflow,
    tree_digest,
    workflow_copy,
)


@pytest.fixture(scope="module")
def two_runs(demo_run, tmp_path_factory):
    """The shared run on a copy of the demo corpus, and a second one on demo/corpus itself,
    on one core: its jobs run one after the other, in another order."""
    assert "Traceback" not in demo_run.run.output
    workdir = workflow_copy(tmp_path_factory.mktemp("second"))
    results = workdir / "out"
    run = run_workflow(workdir, "--cores", "1", corpus=DEMO_CORPUS, results=results)
    assert run.returncode == 0, run.output
    assert "Traceback" not in run.output
    return [demo_run.results, results]


def test_two_runs_are_byte_identical(two_runs):
    first, second = two_runs
    assert tree_digest(first) == tree_digest(second)


def test_outputs_equal_the_committed_results(two_runs):
    produced = two_runs[0]
    assert files_below(produced) == sorted(PUBLISHED)
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
        "family_heatmap.csv": "subject_id,subject_version,leaderboard_status,family,n_runs,"
        "n_pass,pass_rate,mean_clipped_score",
        "coverage.csv": "subject_id,subject_version,n_responses,n_scored,n_unscored,"
        "n_operational_runs,n_responses_without_call,n_calls_without_usage,"
        "n_calls_without_response",
        "uncertainty.csv": "subject_id,subject_version,metric,estimate,ci_low,ci_high,method",
        "critical_fails.csv": "subject_id,subject_version,case_id,run_id,reviewer_id,"
        "fail_type,response_field,quote,match,reviewer_justification",
        "leaderboard.csv": "rank,rank_low,rank_high,p_rank_1,subject_id,subject_version,"
        "provider,track,q_final,pass_rate,mean_clipped_score,brier,ece,n_runs,n_pass,n_conditional,n_fail,"
        "n_critical_fails,leaderboard_status,benchmark_version",
        "criterion_scores.csv": "subject_id,subject_version,case_id,run_id,reviewer_id,"
        "main_hypothesis,key_signals,alternatives,recommended_action,requested_data,"
        "decision_change_condition",
        "input_files.csv": "path,digest",
        "changes.csv": "scope,change,subject_id,subject_version,case_id,run_id,field,old,new,"
        "outside_old_ci95,cause",
        "operational_per_subject.csv": "subject_id,subject_version,n_runs,mean_input_tokens,"
        "mean_output_tokens,output_to_input_ratio,median_latency_s,p95_latency_s,"
        "price_per_input_token_usd,price_per_output_token_usd",
        "operational_per_family.csv": "subject_id,subject_version,family,n_runs,"
        "mean_input_tokens,mean_output_tokens,output_to_input_ratio,median_latency_s,"
        "p95_latency_s,price_per_input_token_usd,price_per_output_token_usd",
    }


def test_gold_prose_never_reaches_an_output_a_log_or_the_cache(demo_run):
    # Every private text of the demo golds carries a GOLDCANARY marker.
    assert "GOLDCANARY" in (demo_run.corpus / "golds/v1.0/RO-FOUL-001_gold.md").read_text("utf-8")
    workdir = demo_run.workdir
    written = [*demo_run.results.iterdir(), *(workdir / ".cache").rglob("*")]
    written += (workdir / ".snakemake/log").rglob("*")
    files = [path for path in written if path.is_file()]
    assert len(files) > 20
    for path in files:
        assert b"GOLDCANARY" not in path.read_bytes(), path


def test_disqualified_version_and_its_sibling(two_runs):
    rows = (two_runs[0] / "metrics_per_subject.csv").read_text("utf-8").splitlines()
    status = {tuple(row.split(",")[:2]): row.split(",")[-1] for row in rows[1:]}
    # Disqualification is per subject_version: the later version starts clean.
    assert status[("borealis-xl", "borealis-xl-2026-01-15")] == "Disqualified"
    assert status[("borealis-xl", "borealis-xl-2026-04-02")] == "Eligible"
    # A version with responses but no scored run has no metrics row.
    assert not any(key[0] == "fjord-13b" for key in status)


def test_the_published_samples_reproduce_the_spec_example_row(tmp_path):
    """The real sample files, in the published layout, give the spec's example row."""
    samples = REPO / "tests/data/samples"
    corpus = tmp_path / "corpus"
    subject = "claude-haiku-4-5"
    run_name = "RO-FOUL-008__run-2026-05-12-001"
    for folder, name, target in [
        ("responses", f"response.{run_name}.json", f"{run_name}.json"),
        ("scoring", f"scoring.{run_name}__eval-R01.json", f"{run_name}__eval-R01.json"),
    ]:
        (corpus / folder / "v1.0" / subject).mkdir(parents=True)
        shutil.copy(samples / name, corpus / folder / "v1.0" / subject / target)
    (corpus / "subjects").mkdir()
    shutil.copy(samples / "registry.yaml", corpus / "subjects/registry.yaml")
    (corpus / "golds/v1.0").mkdir(parents=True)
    shutil.copy(samples / "gold.RO-OXID-006_gold.md", corpus / "golds/v1.0/RO-OXID-006_gold.md")
    # The spec's example row has floor 0 and ceiling 10 for RO-FOUL-008.
    gold = (samples / "gold.RO-OXID-006_gold.md").read_text("utf-8")
    gold = gold.replace("RO-OXID-006", "RO-FOUL-008").replace('"OXID"', '"FOUL"')
    gold = gold.replace('"rubric_floor": 3', '"rubric_floor": 0')
    (corpus / "golds/v1.0/RO-FOUL-008_gold.md").write_text(gold, "utf-8")
    (corpus / "responses/v1.0/.gitkeep").touch()
    errors = corpus / "responses/v1.0" / subject / "_errors"
    errors.mkdir()
    (errors / "run-2026-05-12-002.txt").write_text("503 Service Unavailable\n", "utf-8")

    workdir = workflow_copy(tmp_path / "workflow")
    run = run_workflow(workdir, corpus=corpus, results=tmp_path / "out", **ONE_PARTITION)
    assert run.returncode == 0, run.output
    assert (tmp_path / "out/per_run.csv").read_bytes().split(b"\r\n")[1] == (
        b"claude-haiku-4-5,claude-haiku-4-5-20251001,RO-FOUL-008,FOUL,run-2026-05-12-001,R01,"
        b"2026-05-13T10:38:10Z,0,10,10,10,True,False,Fail,82,0.82,1.0"
    )
    # One run, a Fail with a critical fail: P = 0, s̄ = 10, BS = (0.82 - 1)^2 = 0.0324,
    # ECE = |0.82 - 1| = 0.18, Q_final = 0.5·0 + 0.5·10/12 = 0.41666… → 0.4167.
    assert (tmp_path / "out/metrics_per_subject.csv").read_bytes().split(b"\r\n")[1] == (
        b"claude-haiku-4-5,claude-haiku-4-5-20251001,1,0,0,1,1,0,0.0,10.0,0.0324,0.18,0.5,"
        b"0.4167,Disqualified"
    )


def test_writes_only_results_cache_and_snakemake_and_never_the_corpus(demo_run):
    parts = demo_run.workdir_before
    assert demo_run.workdir_after == parts | {"out", ".cache", ".snakemake"}
    assert tree_digest(demo_run.corpus) == demo_run.corpus_before
    assert demo_run.beside_after == {"corpus", "workflow"}
