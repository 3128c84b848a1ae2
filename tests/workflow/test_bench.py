"""The benchmark harness in its quick mode (size S, one repetition), so it cannot rot."""

import csv
import subprocess
import sys

from workflow_runs import REPO

BENCH = REPO / "scripts" / "tools" / "bench.py"

SCENARIOS = ["floor", "engine", "cold", "site_cold", "noop", "one_scoring", "site_one_scoring"]
SCENARIOS += ["one_gold"]
SCENARIOS += ["changes_step", "site_added"]  # site_added = site_one_scoring - one_scoring


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
    floor = float(rows[0]["median_s"])
    engine = float(by_scenario["engine"]["median_s"])
    for row in rows:
        assert float(row["min_s"]) <= float(row["median_s"]) <= float(row["max_s"])
        assert 0 < float(row["peak_rss_mib"]) < 1024
        # The ratio is of the unrounded medians; recomputed from the rounded ones (to
        # 0.01 s), it can differ by what that rounding moves it, and its own rounding.
        median = float(row["median_s"])
        slack = 0.005 / engine + median * 0.005 / (engine * (engine - 0.005)) + 0.005
        assert abs(float(row["ratio_to_engine"]) - median / engine) <= slack
    for row in rows[1:-1]:
        # The workflow always costs more than reading the files once.
        assert float(row["median_s"]) > floor
    # Size S is the benchmark's real size: three targets, as ratios to the engine floor.
    targets = {row["scenario"]: row["target"] for row in rows if row["target"]}
    assert targets == {
        "cold": "3.0 × engine",
        "noop": "1.2 × engine",
        "one_scoring": "2.0 × engine",
    }
    assert {by_scenario[name]["met"] for name in targets} <= {"yes", "no"}
    assert {row["met"] for row in rows if not row["target"]} == {""}
    # Jobs: with one partition (the demo size), a cold run is the 12 steps and `all`; an
    # added scoring reruns all but the golds' and the telemetry's loads; the site target
    # is its two page jobs and `site` (instead of `all`).
    jobs = {row["scenario"]: int(row["jobs"]) for row in rows}
    assert jobs == {
        "floor": 0,
        "engine": 0,
        "cold": 13,
        "site_cold": 3,
        "noop": 0,
        "one_scoring": 11,
        "site_one_scoring": 13,
        "one_gold": 11,
        "changes_step": 11,
        "site_added": 2,
    }
    added = float(by_scenario["site_one_scoring"]["median_s"]) - float(
        by_scenario["one_scoring"]["median_s"]
    )
    assert abs(float(rows[-1]["median_s"]) - added) <= 0.02  # medians of 1 repetition
    # The site of size S: an index, the findings page, the report's page, 12
    # subject-version pages, 31 case pages; in English and in Spanish.
    assert {row["site_files"] for row in rows} == {"92"}
    table = (tmp_path / "benchmarks.md").read_text("utf-8")
    assert table.count("\n| S | 758 |") == len(SCENARIOS)
    assert "- cores: " in table and "- date of the run: " in table
