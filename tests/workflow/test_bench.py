"""The benchmark harness in its quick mode (size S, one repetition), so it cannot rot."""

import csv
import subprocess
import sys

from support import REPO

BENCH = REPO / "scripts" / "tools" / "bench.py"

SCENARIOS = ["floor", "cold", "site_cold", "noop", "one_scoring", "site_one_scoring", "one_gold"]
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
    floor = float(rows[0]["median_s"])
    for row in rows:
        assert float(row["min_s"]) <= float(row["median_s"]) <= float(row["max_s"])
        assert 0 < float(row["peak_rss_mib"]) < 1024
        assert row["met"] == ""  # the targets are for size L only
    for row in rows[1:-1]:
        # The workflow always costs more than reading the files once.
        assert float(row["median_s"]) > floor
    added = float(rows[5]["median_s"]) - float(rows[4]["median_s"])
    assert abs(float(rows[-1]["median_s"]) - added) <= 0.02  # medians of 1 repetition
    # The site of size S: an index, 12 subject-version pages, 31 case pages; in English
    # and in Spanish.
    assert {row["site_files"] for row in rows} == {"88"}
    table = (tmp_path / "benchmarks.md").read_text("utf-8")
    assert table.count("\n| S | 758 |") == len(SCENARIOS)
    assert "- cores: " in table and "- date of the run: " in table
