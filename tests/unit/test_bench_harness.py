"""scripts/tools/bench.py without Snakemake: the reference scenario's scratch layout
(../shared/reference/README.md) with a tiny fake of the benchmark's script, "not
measured" when there is none, the met column of a row with two targets, and a job's
logged line found wherever the run wrote it."""

import os
import re
import sys
import time

import pytest

import bench

# A stand-in for the benchmark's compute_metrics.py: it checks, from where it runs, the
# layout the README describes (its root found as the benchmark's script finds it), then
# writes the three files, each with what it saw.
FAKE_SCRIPT = """
import sys
from pathlib import Path

import helper  # copied beside it: scripts/ is on its path

root = Path.cwd()
assert (root / "system" / "schemas" / "v1.0").is_dir()
assert (root / ".git").is_dir()
responses = sorted(p.name for p in (root / "responses").rglob("*.json"))
out = root / sys.argv[sys.argv.index("--output-dir") + 1]
out.mkdir()
for name in ("per_run.csv", "metrics_per_subject.csv", "metrics_per_family.csv"):
    (out / name).write_text(
        f"{helper.WHO}\\n{sys.executable}\\n{' '.join(sys.argv[1:])}\\n{responses}\\n"
    )
"""

FAILING_SCRIPT = """
import sys
with open("runs.txt", "a") as runs:
    runs.write("run\\n")
print("\\033[33mWARN\\033[0m  response a.json has no scoring yet")
print("\\033[31mERROR\\033[0m multiple scorings for run-1", file=sys.stderr)
print("\\033[31mERROR\\033[0m multiple scorings for run-2", file=sys.stderr)
sys.exit(1)
"""


def fake_reference(folder, script=FAKE_SCRIPT):
    folder.mkdir()
    (folder / "compute_metrics.py").write_text(script, "utf-8")
    (folder / "helper.py").write_text('WHO = "the fake reference"\n', "utf-8")
    (folder / "README.md").write_text("not a script\n", "utf-8")
    return folder


def fake_corpus(folder):
    for name in ("scoring/v1.0/s", "golds/v1.0", "subjects"):
        (folder / name).mkdir(parents=True)
    (folder / "responses/v1.0/s").mkdir(parents=True)
    (folder / "responses/v1.0/s/C-1__run-1.json").write_text("{}", "utf-8")
    return folder


def test_the_reference_runs_in_the_readme_layout_with_copies_of_its_scripts(tmp_path):
    reference = fake_reference(tmp_path / "reference")
    corpus = fake_corpus(tmp_path / "corpus")
    checkout = bench.reference_checkout(tmp_path / "scratch", reference, corpus)
    assert checkout == tmp_path / "scratch"
    # Copies of the .py files (not links: nothing run points back into the folder).
    scripts = checkout / "scripts"
    assert sorted(path.name for path in scripts.iterdir()) == ["compute_metrics.py", "helper.py"]
    for path in scripts.iterdir():
        assert not path.is_symlink()
        assert path.read_bytes() == (reference / path.name).read_bytes()
    assert list((checkout / "system/schemas/v1.0").iterdir()) == []
    for name in ("responses", "scoring", "golds", "subjects"):
        assert (checkout / name).is_symlink()
        assert os.readlink(checkout / name) == str(corpus.resolve() / name)
    assert (checkout / ".git").is_dir()

    wall, peak, cpu = bench.run_reference(checkout)
    assert wall > 0 and peak > 0 and cpu > 0
    expected = (
        f"the fake reference\n{sys.executable}\n--output-dir out --quiet\n['C-1__run-1.json']\n"
    )
    for name in bench.REFERENCE_OUTPUTS:
        assert (checkout / "out" / name).read_text("utf-8") == expected
    # A second run starts from no out/ (the fake refuses an existing one).
    assert bench.run_reference(checkout)[0] > 0


def test_no_reference_folder_or_script_is_not_measured_and_says_why(tmp_path):
    corpus = fake_corpus(tmp_path / "corpus")
    missing = tmp_path / "nowhere"
    with pytest.raises(bench.NotMeasured, match="^" + re.escape(f"no folder {missing} ")):
        bench.reference_checkout(tmp_path / "scratch", missing, corpus)
    empty = tmp_path / "empty"
    empty.mkdir()
    script = empty / "compute_metrics.py"
    with pytest.raises(bench.NotMeasured, match="^" + re.escape(f"no {script} ")):
        bench.reference_checkout(tmp_path / "scratch", empty, corpus)
    assert not (tmp_path / "scratch").exists()
    # The bench's scenario: not measured, with the reason, in every repetition.
    script = bench.ReferenceScript(tmp_path / "scratch", missing, corpus)
    for _ in range(2):
        with pytest.raises(bench.NotMeasured) as raised:
            script.run()
        assert str(raised.value).startswith(f"no folder {missing} ")


def test_a_failing_or_incomplete_reference_is_not_measured_and_says_why(tmp_path):
    corpus = fake_corpus(tmp_path / "corpus")
    failing = fake_reference(tmp_path / "failing", FAILING_SCRIPT)
    checkout = bench.reference_checkout(tmp_path / "one", failing, corpus)
    with pytest.raises(bench.NotMeasured) as raised:
        bench.run_reference(checkout)
    assert str(raised.value) == (
        "compute_metrics.py exited with 1, 2 ERROR line(s): ERROR multiple scorings for run-1"
    )
    # Once failed, the bench's scenario does not run it again: the same reason.
    script = bench.ReferenceScript(tmp_path / "three", failing, corpus)
    for _ in range(2):
        with pytest.raises(bench.NotMeasured) as again:
            script.run()
        assert str(again.value) == str(raised.value)
    assert (tmp_path / "three" / "runs.txt").read_text("utf-8") == "run\n"
    silent = fake_reference(tmp_path / "silent", "import pathlib; pathlib.Path('out').mkdir()\n")
    checkout = bench.reference_checkout(tmp_path / "two", silent, corpus)
    with pytest.raises(bench.NotMeasured) as raised:
        bench.run_reference(checkout)
    assert str(raised.value) == (
        "compute_metrics.py wrote no per_run.csv, metrics_per_subject.csv, "
        "metrics_per_family.csv in its out/"
    )


def test_a_row_with_two_targets_says_which_one_it_missed():
    targets = bench.TARGETS["L"]["cold"]
    assert targets == [("floor", 3.0), ("reference", 1.0)]
    met = bench._met
    assert met("L", targets, {"floor": 3.0, "reference": 1.0}, 1024) == "yes"
    assert met("L", targets, {"floor": 3.01, "reference": 0.5}, 100) == "no: 3.0 × floor"
    assert met("L", targets, {"floor": 2.0, "reference": 1.2}, 100) == "no: 1.0 × reference"
    assert met("L", targets, {"floor": 4.0, "reference": 1.2}, 2000) == (
        "no: 3.0 × floor, 1.0 × reference, peak RSS ≤ 1024 MiB"
    )
    assert met("L", targets, {"floor": 2.0}, 100) == "unknown: 1.0 × reference not measured"
    assert met("L", targets, {"floor": 4.0}, 100) == (
        "no: 3.0 × floor; 1.0 × reference not measured"
    )
    # The memory target is size L's only.
    assert met("S", [("engine", 3.0)], {"engine": 2.9}, 2000) == "yes"
    assert met("S", [], {"engine": 9.0}, 100) == ""


def test_rows_and_table_of_a_reference_not_measured():
    counts = {"total": 758, "scorings": 354}
    samples = {
        "floor": [(0.5, 10.0, 0.4, 0)],
        "engine": [(1.0, 50.0, 0.9, 0)],
        "reference": [],
        "cold": [(2.0, 100.0, 3.0, 12)],
    }
    problems = {"reference": ["no folder /x/reference (the benchmark's own scripts; --reference)"]}
    rows = bench.summary_rows("L", counts, samples, problems, [])
    by_scenario = {row["scenario"]: row for row in rows}
    reference = by_scenario["reference"]
    assert reference["median_s"] == reference["ratio_to_floor"] == reference["met"] == ""
    assert reference["repetitions"] == 0
    assert reference["not_measured"] == problems["reference"][0]
    cold = by_scenario["cold"]
    assert (cold["ratio_to_floor"], cold["ratio_to_engine"], cold["ratio_to_reference"]) == (
        4.0,
        2.0,
        "",
    )
    assert cold["target"] == "3.0 × floor and 1.0 × reference"
    assert cold["met"] == "no: 3.0 × floor; 1.0 × reference not measured"
    table = bench.markdown(
        rows,
        dict.fromkeys(("date", "platform", "python"), "x")
        | {"cores": 2, "snakemake": "9", "repeat": 1, "workflow": "abc"},
    )
    assert (
        "| L | 758 | reference |  |  |  |  |  |  |  |  | not measured: no folder "
        "/x/reference (the benchmark's own scripts; --reference) |  |  |"
    ) in table
    assert (
        "| L | 758 | cold | 12 | 2.00 | 2.00-2.00 | 4.00 | 2.00 |  "
        "| ≤ 3.0 × floor and ≤ 1.0 × reference | 100 "
        "| no: 3.0 × floor; 1.0 × reference not measured | 3.00 | 7.50 |"
    ) in table


def test_rows_with_the_reference_measured_have_their_ratio_to_it():
    counts = {"total": 10, "scorings": 4}
    samples = {
        "floor": [(0.5, 10.0, 0.4, 0)],
        "engine": [(1.0, 50.0, 0.9, 0)],
        "reference": [(2.0, 80.0, 1.9, 0)],
        "cold": [(1.5, 100.0, 3.0, 12)],
        "site_cold": [(1.0, 100.0, 1.0, 3)],
        "changes_step": [],
    }
    problems = {"changes_step": ["no line matching 'x' in the run's output"]}
    rows = {row["scenario"]: row for row in bench.summary_rows("L", counts, samples, problems, [])}
    assert rows["reference"]["ratio_to_reference"] == 1.0
    assert rows["cold"]["ratio_to_reference"] == 0.75
    assert (rows["cold"]["ratio_to_floor"], rows["cold"]["met"]) == (3.0, "yes")
    assert rows["site_cold"]["ratio_to_reference"] == rows["floor"]["ratio_to_reference"] == ""
    assert rows["changes_step"]["not_measured"] == problems["changes_step"][0]
    assert rows["changes_step"]["met"] == ""


def test_a_jobs_line_is_found_in_whatever_log_the_run_wrote(tmp_path):
    line = bench.CHANGES_TIMES
    text = "INFO changes: compared with snapshot s: 2 change(s) in 0.412 s (CPU 0.300 s)\n"
    workdir = tmp_path / "workflow"
    (workdir / "scripts").mkdir(parents=True)  # a copy of the workflow: never a log
    (workdir / "scripts" / "changes.log").write_text(text.replace("0.412", "9"), "utf-8")
    old = workdir / ".cache" / "abc" / "logs" / "publish.log"
    old.parent.mkdir(parents=True)
    old.write_text(text.replace("0.412", "7"), "utf-8")
    os.utime(old, (time.time() - 60, time.time() - 60))
    since = time.time() - 30
    with pytest.raises(bench.NotMeasured, match=r"^no line matching "):
        bench.logged_times(workdir, since, line, "other output\n")
    # Under another folder, another name: found as long as the run wrote it.
    new = workdir / "run-logs" / "logs" / "changes" / "report.txt"
    new.parent.mkdir(parents=True)
    new.write_text(f"INFO start\n{text}", "utf-8")
    assert bench.logged_times(workdir, since, line, "") == (0.412, 0.3)
    # In the run's output only (a job without a log file), with a prefix before INFO.
    new.unlink()
    output = f"[Mon Jan 1] 2026-01-01 12:00:00 {text}"
    assert bench.logged_times(workdir, since, line, output) == (0.412, 0.3)
    # Two lines that disagree: not a number to trust.
    other = workdir / ".cache" / "changes.log"
    other.write_text(text.replace("0.412", "0.5"), "utf-8")
    with pytest.raises(bench.NotMeasured, match=r"^different times logged"):
        bench.logged_times(workdir, since, line, output)
