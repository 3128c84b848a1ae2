"""The benchmark harness in its quick mode (size S, one repetition), so it cannot rot;
and the scaled double-reviewed corpus its size L2 measures, on a tiny size."""

import csv
import json
import subprocess
import sys
from collections import Counter

import yaml

from make_demo_corpus import make_corpus
from ro_metrics.site.site_files import site_page_paths
from workflow_runs import ONE_PARTITION, REPO, read_csv, run_workflow, tree_digest, workflow_copy

BENCH = REPO / "scripts" / "tools" / "bench.py"

# The benchmark's own script (../shared/reference), timed in the same run when it is there.
REFERENCE = REPO.parent / "shared" / "reference"

SCENARIOS = ["floor", "engine", "reference", "cold", "site_cold", "noop", "one_scoring"]
SCENARIOS += ["site_one_scoring"]
SCENARIOS += ["one_gold"]
SCENARIOS += ["changes_step", "site_added"]  # site_added = site_one_scoring - one_scoring
# The findings job's own time, from its log, in the cold and the one_scoring runs.
SCENARIOS += ["findings_cold", "findings_step"]
# Rows that time a part of a run (a job, a difference): not a whole run of the workflow.
PARTS = {"changes_step", "site_added", "findings_cold", "findings_step"}
# The rows with a ratio to the reference: it, and the runs that publish the results.
REFERENCE_ROWS = {"reference", "cold", "noop", "one_scoring", "one_gold"}


def test_quick_bench_writes_every_scenario(tmp_path):
    completed = subprocess.run(
        [
            sys.executable,
            str(REPO / "scripts/tools/bench.py"),
            "--quick",
            "--out-dir",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    with open(tmp_path / "benchmarks.csv", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert [row["scenario"] for row in rows] == SCENARIOS
    assert {row["size"] for row in rows} == {"S"}
    assert {row["files"] for row in rows} == {"758"}  # 1 + 31 golds + 372 + 354
    by_scenario = {row["scenario"]: row for row in rows}
    reference = by_scenario["reference"]
    if not REFERENCE.is_dir():
        # Not measured, and why: the folder it looked for, in the row.
        assert reference["median_s"] == "" and str(REFERENCE) in reference["not_measured"]
        rows.remove(reference)
    # Measured when the folder is there: the benchmark's script ran on the same corpus.
    assert {row["not_measured"] for row in rows} == {""}
    floor = float(rows[0]["median_s"])
    engine = float(by_scenario["engine"]["median_s"])
    if REFERENCE.is_dir():
        assert float(reference["median_s"]) > 0 and float(reference["median_cpu_s"]) > 0
        assert reference["repetitions"] == "1" and reference["jobs"] == "0"
        for row in rows:
            if row["scenario"] in REFERENCE_ROWS:
                ratio = float(row["median_s"]) / float(reference["median_s"])
                # Of the unrounded medians: up to what their rounding to 0.01 s moves it.
                slack = 0.005 * (1 + ratio) / (float(reference["median_s"]) - 0.005) + 0.005
                assert abs(float(row["ratio_to_reference"]) - ratio) <= slack
            else:
                assert row["ratio_to_reference"] == ""
    for row in rows:
        assert float(row["min_s"]) <= float(row["median_s"]) <= float(row["max_s"])
        assert 0 < float(row["peak_rss_mib"]) < 1024
        # The ratio is of the unrounded medians; recomputed from the rounded ones (to
        # 0.01 s), it can differ by what that rounding moves it, and its own rounding.
        median = float(row["median_s"])
        slack = 0.005 / engine + median * 0.005 / (engine * (engine - 0.005)) + 0.005
        assert abs(float(row["ratio_to_engine"]) - median / engine) <= slack
    for row in rows[1:]:
        if row["scenario"] not in PARTS:
            # The workflow always costs more than reading the files once.
            assert float(row["median_s"]) > floor
    # Size S is the benchmark's real size: three targets, as ratios to the engine floor.
    targets = {row["scenario"]: row["target"] for row in rows if row["target"]}
    assert targets == {
        "cold": "3.0 × engine",
        "noop": "1.2 × engine",
        "one_scoring": "2.0 × engine",
    }
    # The met column names the target missed.
    for name, target in targets.items():
        assert by_scenario[name]["met"] in {"yes", f"no: {target}"}
    assert {row["met"] for row in rows if not row["target"]} == {""}
    # Jobs: a cold run runs every step; a rerun after an added scoring, a changed gold
    # (one partition at this size: its per-run steps either way) or the changes_step's
    # changes reruns all but two loads (the telemetry's and the golds' or the
    # partition's) and the annotations step (it reads only the registry and
    # subjects/annotations.yaml); the site adds its own jobs to a rerun; a job's own row
    # has its scenario's jobs; nothing runs in the no-op and the floors.
    jobs = {row["scenario"]: int(row["jobs"]) for row in rows if row["scenario"] != "reference"}
    assert jobs["floor"] == jobs["engine"] == jobs["noop"] == 0
    assert jobs["one_scoring"] == jobs["one_gold"] == jobs["changes_step"] == jobs["cold"] - 3
    assert (
        jobs["site_one_scoring"] == jobs["one_scoring"] + jobs["site_added"] > jobs["one_scoring"]
    )
    assert jobs["site_cold"] > 0
    assert (jobs["findings_cold"], jobs["findings_step"]) == (jobs["cold"], jobs["one_scoring"])
    # The findings job is a part of its scenario's run, whose peak memory it reports.
    for row, scenario in (("findings_cold", "cold"), ("findings_step", "one_scoring")):
        job, run = by_scenario[row], by_scenario[scenario]
        assert 0 < float(job["median_s"]) < float(run["median_s"])
        assert 0 <= float(job["median_cpu_s"]) < float(run["median_cpu_s"])
        assert job["peak_rss_mib"] == run["peak_rss_mib"]
    added = float(by_scenario["site_one_scoring"]["median_s"]) - float(
        by_scenario["one_scoring"]["median_s"]
    )
    # Medians of 1 repetition: the difference, up to the rounding of each to 0.01 s.
    assert abs(float(by_scenario["site_added"]["median_s"]) - added) <= 0.02
    # The site of size S: its page set (site_files.site_page_paths) for the corpus's 31
    # cases and 12 subject versions.
    pages = site_page_paths([f"case-{n}" for n in range(31)], [("s", f"v{n}") for n in range(12)])
    assert {row["site_files"] for row in rows} == {str(len(pages))}
    table = (tmp_path / "benchmarks.md").read_text("utf-8")
    assert table.count("\n| S | 758 |") == len(SCENARIOS)
    assert table.count("\n| S | 758 | reference | 0 | ") == REFERENCE.is_dir()
    assert "- cores: " in table and "- date of the run: " in table


def test_scaled_double_reviewed_corpus(tmp_path):
    """make_corpus(double_review=True) at a scaled size, 3 subjects × 10 cases × 1 run:
    two primaries on every scored run but the plan's one-review ones, an arbiter only on
    a divergent run (the workflow refuses any other), reviewers.yaml registers every
    reviewer, the same files from the same seed, and the workflow accepts it all."""
    corpus = tmp_path / "corpus"
    counts = make_corpus(corpus, size="S", subjects=3, cases=10, runs=1, double_review=True)
    again = tmp_path / "again"
    make_corpus(again, size="S", subjects=3, cases=10, runs=1, double_review=True)
    assert tree_digest(again) == tree_digest(corpus)

    reviewers = yaml.safe_load((corpus / "subjects/reviewers.yaml").read_text("utf-8"))
    roles = {entry["reviewer_id"]: set(entry["roles"]) for entry in reviewers["reviewers"]}
    assert roles == {
        "R01": {"primary"},
        "R02": {"primary", "arbiter"},
        "R03": {"primary"},
        "R04": {"arbiter"},
    }
    scorings = {}  # (subject folder, case__run) → its reviewers, by scoring time
    for path in sorted((corpus / "scoring/v1.0").glob("*/*.json")):
        document = json.loads(path.read_text("utf-8"))
        run = (path.parent.name, path.name.split("__eval-")[0])
        when = document["scoring_timestamp_utc"]
        scorings.setdefault(run, []).append((when, document["reviewer_id"]))
    assert counts["scorings"] == sum(len(found) for found in scorings.values())
    # 30 responses, 30 // 20 = 1 left unscored: 29 scored runs. The plan (12 kinds in
    # turn over the runs sorted by their first scoring's path) leaves the 11th and the
    # 23rd with one review.
    runs = sorted(scorings)
    assert len(runs) == 29
    assert {run for run in runs if len(scorings[run]) == 1} == {runs[10], runs[22]}
    arbitrated = set()
    for run in runs:
        ordered = [reviewer for _, reviewer in sorted(scorings[run])]
        assert len(ordered) in (1, 2, 3)
        assert all("primary" in roles[reviewer] for reviewer in ordered[:2])
        assert len(set(ordered)) == len(ordered)
        if len(ordered) == 3:
            assert "arbiter" in roles[ordered[2]]
            arbitrated.add(run)
    assert arbitrated

    workdir = workflow_copy(tmp_path / "workflow")
    results = workdir / "results"
    config = {"corpus": corpus, "results": results, "reviewers_per_run": 2, **ONE_PARTITION}
    run = run_workflow(workdir, **config)
    assert run.returncode == 0, run.output
    # The workflow's own reading: every arbitrated run is divergent, counted by its
    # arbiter's scoring; the other divergent runs wait for one (the bench's one_arbiter
    # scores one of them).
    divergent = {
        (row["subject_id"], f"{row['case_id']}__{row['run_id']}")
        for row in read_csv(results / "divergent_runs.csv")
    }
    assert arbitrated < divergent
    consolidated = read_csv(results / "per_run_consolidated.csv")
    by_arbiter = {
        (row["subject_id"], f"{row['case_id']}__{row['run_id']}")
        for row in consolidated
        if row["method"] == "arbiter"
    }
    assert by_arbiter == arbitrated
    statuses = Counter(row["status"] for row in read_csv(results / "pending_runs.csv"))
    assert statuses == {
        "pending_arbitration": len(divergent - arbitrated),
        "awaiting_second_review": 2,
    }
