#!/usr/bin/env python3
"""Speed benchmark of the workflow on synthetic corpora of growing size, side by side
with the benchmark's own metrics script.

For each size it generates a corpus with scripts/tools/make_demo_corpus.py, copies the
workflow into a scratch folder and measures, several times, the wall time, the CPU time
(user + system) and the peak memory (summed RSS of the whole process tree, sampled) of:

- floor: one process that only reads and json-parses every file once, with a warm page
  cache (one read first, not counted, then the median of FLOOR_READS reads), as the
  workflow's scenarios find the corpus after the first run;
- engine: a no-op run of a one-rule Snakefile (Snakemake's own fixed cost on this
  machine, E: the unit of the targets at the benchmark's real size);
- reference: the benchmark's own script, compute_metrics.py, on the same corpus, run as
  ../shared/reference/README.md says: a scratch folder with scripts/ holding copies of
  the folder's .py files (copied at run time from --reference, never kept in this
  repository), an empty system/schemas/v1.0, symlinks to the corpus's responses,
  scoring, golds and subjects folders and `git init -q`; then, in it and with the
  Python that runs the bench, `scripts/compute_metrics.py --output-dir out --quiet`
  (its output to a file). It recomputes everything on every run: what the workflow's
  cold run and its reruns are compared with (column × reference). Without the folder,
  or if the script fails, its row says "not measured" and why;
- cold: a full run with no .snakemake/, no cache and no results (everything in the
  scratch folder but the copy of the workflow removed);
- noop: the same run again, nothing changed;
- one_scoring: a rerun after adding one scoring to one subject;
- one_gold: a rerun after changing one gold;
- site_cold: `snakemake site` right after the cold run (results up to date, no site
  yet: every subject-version page, case page and the index);
- site_one_scoring: `snakemake site` after adding one scoring to an up-to-date site;
  what the site adds to the rerun is this minus one_scoring (row site_added);
- changes_step: after a snapshot, one added and one re-scored scoring, a rerun; the
  time is that of the changes report alone, as the job that makes it logs it;
- findings_cold, findings_step: the findings job alone (its wall and CPU seconds from
  the start of its main, as its log's last line says) in the cold and the one_scoring
  scenarios' runs: what the findings add to a cold run and to one new scoring.

The rows of a job's own time (changes_step, findings_*) read the job's line, found by
its pattern in whatever file under the run's cache and log folders the run wrote (or in
the run's output), not in a file of a fixed name; none found: "not measured" and why.
The bench counts the jobs a run executed from Snakemake's output and assumes no rule
name but the user-facing targets (`site`, `snapshot`) and no cache path.

Size L2 is size L's corpus under double review (make_demo_corpus's double_review: two
primaries per scored run, arbiters on half the divergent runs, about 260k files), run
with `reviewers_per_run=2`, in the scenarios floor, engine, reference (which v1.0's
script refuses: several scorings per run), cold, noop and one_arbiter (a rerun after an
arbiter's scoring of one run pending arbitration). Issue 30 asks for its ratios to its
own floor, without a target.

Medians go to a Markdown table (docs/benchmarks.md) and a CSV, with each scenario's
ratios to the floor, to the engine floor and (for the runs that publish the results)
to the reference, the targets it must meet, the number of jobs it ran, and the size of
the site built.

    python scripts/tools/bench.py                  # sizes S, M, L, 3 repetitions
    python scripts/tools/bench.py --sizes L2 --repeat 1   # double review at size L
    python scripts/tools/bench.py --quick --out-dir /tmp/bench   # size S, 1 repetition
    python scripts/tools/bench.py --quick --reference /elsewhere/reference
"""

import argparse
import contextlib
import csv
import datetime as dt
import io
import json
import os
import platform
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from functools import cached_property
from importlib.metadata import version
from pathlib import Path

import psutil

from make_demo_corpus import SIZES, make_corpus

REPO = Path(__file__).resolve().parents[2]

WORKFLOW_PARTS = ["Snakefile", "workflow", "scripts", "config", "system", "profiles"]
# site_cold follows cold, which leaves neither a site nor a cache.
SCENARIOS = [
    "floor",
    "engine",
    "reference",
    "cold",
    "site_cold",
    "noop",
    "one_scoring",
    "site_one_scoring",
    "one_gold",
    "changes_step",
]
# Size L2's scenarios (double review): what issue 30 asks to measure.
DOUBLE_REVIEW_SCENARIOS = ["floor", "engine", "reference", "cold", "noop", "one_arbiter"]
# Bench size → (make_demo_corpus's size, double review).
BENCH_SIZES = {"S": ("S", False), "M": ("M", False), "L": ("L", False), "L2": ("L", True)}
# `make bench`'s sizes. L2 is not among them: with --repeat 1 it took 387 s (L 414 s)
# on the 2-core machine; three repetitions would take `make bench` past ~20 min
# (docs/performance.md).
DEFAULT_SIZES = "S,M,L"
# Targets (issues 11, 13, 14, 28; the reference's): per size, scenario → what it must
# meet, each a (base, largest ratio to the base's median), measured in the same run.
# Size S is the benchmark's real size (12 subject versions × 31 cases × 1 run),
# measured against the engine floor E; size L against the read floor, and its cold run
# also against the benchmark's own script. site_added = site_one_scoring - one_scoring
# (what the site adds to that rerun).
TARGETS = {
    "S": {
        "cold": [("engine", 3.0)],
        "noop": [("engine", 1.2)],
        "one_scoring": [("engine", 2.0)],
    },
    "L": {
        "cold": [("floor", 3.0), ("reference", 1.0)],
        "noop": [("floor", 0.5)],
        "one_scoring": [("floor", 1.0)],
        "one_gold": [("floor", 1.5)],
        "site_cold": [("floor", 3.0)],
        "site_added": [("floor", 0.3)],
        "changes_step": [("floor", 0.3)],
        # Issue 28: the findings step at most half the floor in a cold run, at most 0.3
        # of it in the rerun after a new scoring.
        "findings_cold": [("floor", 0.5)],
        "findings_step": [("floor", 0.3)],
    },
}
# The rows whose median is also a ratio to the reference's: the reference itself and
# the workflow's runs that publish up-to-date results (which the reference recomputes
# from scratch every time); not the floors, the site or a part of a run.
REFERENCE_ROWS = {"reference", "cold", "noop", "one_scoring", "one_gold", "one_arbiter"}
# The changes report's line (published_results.report_changes), wherever it is logged.
CHANGES_TIMES = re.compile(r"^.*\bINFO changes: .* in ([0-9.]+) s \(CPU ([0-9.]+) s\)$", re.M)
# The findings job's last line (release_findings.main).
FINDINGS_TIMES = re.compile(r"^.*\bINFO findings: .* in ([0-9.]+) s \(CPU ([0-9.]+) s\)$", re.M)
# Rows read from a job's line after a scenario's run: row → (scenario, its line).
LOGGED_STEPS = {
    "findings_cold": ("cold", FINDINGS_TIMES),
    "findings_step": ("one_scoring", FINDINGS_TIMES),
}
# A file of a run is a log if it is in a folder named so or its name ends in .log.
LOG_FOLDERS = {"log", "logs"}
MEMORY_TARGET_MIB = 1024
MEMORY_TARGET_SIZE = "L"
# The process tree is sampled for its memory. Each sample walks /proc: every 20 ms
# that took a sizeable share of one of the two cores from the run it measured.
SAMPLE_SECONDS = 0.1
# Reads of the corpus the floor takes the median of, after one warm-up read (odd: the
# median is one of them).
FLOOR_READS = 5
# The engine floor's workflow: one rule, its output present, so that a run does nothing.
ENGINE_SNAKEFILE = """
rule nothing:
    output:
        "nothing.txt",
    shell:
        "touch {output}"
"""

FLOOR_CODE = """
import json, os, sys
count = 0
for folder, _, names in os.walk(sys.argv[1]):
    for name in names:
        with open(os.path.join(folder, name), "rb") as handle:
            raw = handle.read()
        if name.endswith(".json"):
            json.loads(raw)
        count += 1
print(count)
"""

# The benchmark's own scripts (../shared/reference/README.md): where they are by
# default, the one run, the corpus folders it reads and the files it writes.
REFERENCE = REPO.parent / "shared" / "reference"
REFERENCE_SCRIPT = "compute_metrics.py"
REFERENCE_CORPUS_FOLDERS = ("responses", "scoring", "golds", "subjects")
REFERENCE_OUTPUTS = ("per_run.csv", "metrics_per_subject.csv", "metrics_per_family.csv")
# Its messages start with an ANSI colour, then ERROR (_validator_common's colours).
ANSI_COLOUR = re.compile(r"\x1b\[[0-9;]*m")


class NotMeasured(Exception):
    """A row that cannot be measured in this run; the message, which the table shows,
    says why."""


class CommandFailed(RuntimeError):
    def __init__(self, command: list[str], returncode: int, output: str):
        super().__init__(f"{' '.join(command)} failed:\n{output[-3000:]}")
        self.returncode = returncode


def jobs_run(output: str) -> int:
    """How many jobs a Snakemake run executed (the `all` target's included)."""
    return output.count("Finished jobid: ")


def measure(
    command: list[str], cwd: Path, output_file: Path | None = None
) -> tuple[float, float, str, float]:
    """Wall seconds, peak summed RSS (MiB), output and CPU seconds (user + system) of a
    command and all its descendants.

    The CPU time counts every descendant that was waited for (getrusage of the
    children): on a machine other work keeps busy it is a steadier measure than the
    wall time, which also counts the time spent waiting for a core. The peak is also
    at least the command's own (its rusage when it ends): a command that ends before
    the first sample still has one. With `output_file`, the command's output (stdout
    and stderr) goes to that file and the output returned is empty.
    """
    peak = 0
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    output = []
    with contextlib.ExitStack() as stack:
        sink = subprocess.PIPE
        if output_file is not None:
            sink = stack.enter_context(open(output_file, "w", encoding="utf-8"))
        start = time.perf_counter()
        process = subprocess.Popen(
            command, cwd=cwd, stdout=sink, stderr=subprocess.STDOUT, text=True
        )
        root = psutil.Process(process.pid)
        reader = None
        if output_file is None:
            reader = threading.Thread(target=lambda: output.append(process.stdout.read()))
            reader.start()
        # Waited for on a thread of its own: the end is timed when it happens, not at
        # the next sample.
        ended = {}

        def wait() -> None:
            _, ended["status"], ended["usage"] = os.wait4(process.pid, 0)
            ended["at"] = time.perf_counter()

        waiter = threading.Thread(target=wait)
        waiter.start()
        while waiter.is_alive():
            with contextlib.suppress(psutil.NoSuchProcess):
                tree = [root, *root.children(recursive=True)]
                peak = max(peak, sum(_rss(p) for p in tree))
            waiter.join(SAMPLE_SECONDS)
        wall = ended["at"] - start
        process.returncode = os.waitstatus_to_exitcode(ended["status"])
        peak = max(peak, ended["usage"].ru_maxrss * 1024)  # ru_maxrss: KiB on Linux
        if reader is not None:
            reader.join()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - used.ru_utime) + (after.ru_stime - used.ru_stime)
    if process.returncode != 0:
        if output_file is not None:
            output = [output_file.read_text("utf-8", errors="replace")]
        raise CommandFailed(command, process.returncode, "".join(output))
    return wall, peak / 2**20, "".join(output), cpu


def _rss(process: psutil.Process) -> int:
    try:
        return process.memory_info().rss
    except (psutil.NoSuchProcess, psutil.AccessDenied):
        return 0


def reference_checkout(folder: Path, reference: Path, corpus: Path) -> Path:
    """The layout ../shared/reference/README.md runs the benchmark's script in, built in
    `folder` for `corpus`: scripts/ with copies of the reference folder's .py files, an
    empty system/schemas/v1.0 (how the script finds its root), symlinks to the corpus's
    four folders, a git repository. NotMeasured if there is no script to copy."""
    script = reference / REFERENCE_SCRIPT
    if not reference.is_dir():
        raise NotMeasured(f"no folder {reference} (the benchmark's own scripts; --reference)")
    if not script.is_file():
        raise NotMeasured(f"no {script} (the benchmark's own script; --reference)")
    (folder / "scripts").mkdir(parents=True)
    (folder / "system" / "schemas" / "v1.0").mkdir(parents=True)
    for source in sorted(reference.glob("*.py")):
        shutil.copyfile(source, folder / "scripts" / source.name)
    for name in REFERENCE_CORPUS_FOLDERS:
        (folder / name).symlink_to(corpus.resolve() / name, target_is_directory=True)
    subprocess.run(["git", "init", "-q"], cwd=folder, check=True)
    return folder


def run_reference(checkout: Path) -> tuple[float, float, float]:
    """Wall seconds, peak RSS (MiB) and CPU seconds of one run of the benchmark's script
    in its checkout (reference_checkout), with the Python that runs the bench. Its
    output (a line per unscored response, one per problem) goes to a file. NotMeasured
    if it fails or does not write its three files."""
    out = checkout / "out"
    shutil.rmtree(out, ignore_errors=True)
    command = [sys.executable, f"scripts/{REFERENCE_SCRIPT}", "--output-dir", "out", "--quiet"]
    output_file = checkout / "output.txt"
    try:
        wall, peak, _, cpu = measure(command, checkout, output_file)
    except CommandFailed as failure:
        lines = ANSI_COLOUR.sub("", output_file.read_text("utf-8", errors="replace"))
        errors = [line for line in lines.splitlines() if line.startswith("ERROR")]
        first = errors[0] if errors else (lines.strip().splitlines() or ["no output"])[-1]
        raise NotMeasured(
            f"{REFERENCE_SCRIPT} exited with {failure.returncode}, "
            f"{len(errors)} ERROR line(s): {first[:300]}"
        ) from None
    missing = [name for name in REFERENCE_OUTPUTS if not (out / name).is_file()]
    if missing:
        raise NotMeasured(f"{REFERENCE_SCRIPT} wrote no {', '.join(missing)} in its out/")
    return wall, peak, cpu


class ReferenceScript:
    """The benchmark's own script on one corpus, in the layout its README describes
    (built once, in `folder`), and why it cannot be measured once that is known: a
    missing script or a failed run would not change from one repetition to the next."""

    def __init__(self, folder: Path, reference: Path, corpus: Path):
        self.problem = None
        try:
            self.checkout = reference_checkout(folder, reference, corpus)
        except NotMeasured as problem:
            self.problem = str(problem)

    def run(self) -> tuple[float, float, float]:
        """Wall seconds, peak RSS (MiB) and CPU seconds of one run (run_reference)."""
        if self.problem is None:
            try:
                return run_reference(self.checkout)
            except NotMeasured as problem:
                self.problem = str(problem)
        raise NotMeasured(self.problem)


def logged_times(workdir: Path, since: float, line: re.Pattern, output: str) -> tuple[float, float]:
    """A job's wall and CPU seconds from its line (`line`: two groups), as the run that
    started at `since` (time.time()) wrote it: in a log file it wrote under `workdir`
    (outside the copy of the workflow; a file in a folder named log or logs, or named
    *.log) or in its output. NotMeasured if none has the line, or if they disagree."""
    found = {}
    for path in _logs_written(workdir, since):
        matches = line.findall(path.read_text("utf-8", errors="replace"))
        if matches:
            found[str(path.relative_to(workdir))] = matches[-1]
    matches = line.findall(output)
    if matches:
        found["the run's output"] = matches[-1]
    if not found:
        raise NotMeasured(
            f"no line matching {line.pattern!r} in the run's output or in a log it wrote "
            f"under {workdir}"
        )
    if len(set(found.values())) > 1:
        raise NotMeasured(f"different times logged: {found}")
    [(wall, cpu)] = set(found.values())
    return float(wall), float(cpu)


def _logs_written(workdir: Path, since: float) -> list[Path]:
    logs = []
    for entry in workdir.iterdir():
        if entry.name in WORKFLOW_PARTS or not entry.is_dir():
            continue
        for path in entry.rglob("*"):
            relative = path.relative_to(workdir).parts[:-1]
            is_log = path.suffix == ".log" or LOG_FOLDERS.intersection(relative)
            if is_log and path.is_file() and path.stat().st_mtime >= since:
                logs.append(path)
    return sorted(logs)


class Bench:
    def __init__(
        self,
        scratch: Path,
        size: str,
        cores: int,
        workflow: Path = REPO,
        reference: Path = REFERENCE,
    ):
        self.size = size
        self.cores = cores
        self.corpus = scratch / f"corpus-{size}"
        self.workdir = scratch / f"workflow-{size}"
        corpus_size, self.double_review = BENCH_SIZES[size]
        self.counts = make_corpus(self.corpus, size=corpus_size, double_review=self.double_review)
        self.workdir.mkdir()
        for part in WORKFLOW_PARTS:
            source = workflow / part
            copy = shutil.copytree if source.is_dir() else shutil.copy2
            copy(source, self.workdir / part)
        self.started = 0.0  # time.time() at the start of the last run measured
        self.output = ""  # the last run's output
        self.golds = sorted((self.corpus / "golds/v1.0").glob("*_gold.md"))
        self.edits = 0
        self.engine = scratch / f"engine-{size}"
        self.engine.mkdir()
        (self.engine / "Snakefile").write_text(ENGINE_SNAKEFILE, "utf-8")
        subprocess.run(self.engine_command(), cwd=self.engine, capture_output=True, check=True)
        self.reference = ReferenceScript(scratch / f"reference-{size}", reference, self.corpus)

    def engine_command(self) -> list[str]:
        return [str(Path(sys.executable).parent / "snakemake"), "--cores", str(self.cores)]

    @property
    def scenarios(self) -> list[str]:
        return DOUBLE_REVIEW_SCENARIOS if self.double_review else SCENARIOS

    def snakemake(self, *targets: str) -> list[str]:
        return [
            str(Path(sys.executable).parent / "snakemake"),
            "--cores",
            str(self.cores),
            *targets,
            "--config",
            f"corpus={self.corpus}",
            "results=results",
            *(["reviewers_per_run=2"] if self.double_review else []),
        ]

    def logged_times(self, line: re.Pattern) -> tuple[float, float]:
        """A job's wall and CPU seconds from its line, written in the last run measured
        (an older line means the job did not run in it: not measured, not a stale
        number)."""
        return logged_times(self.workdir, self.started, line, self.output)

    def run(self, scenario: str) -> tuple[float, float, float, int]:
        """Wall seconds, peak RSS (MiB), CPU seconds and jobs run of one scenario."""
        self.started = time.time()
        self.output = ""
        if scenario == "floor":
            command = [sys.executable, "-c", FLOOR_CODE, str(self.corpus)]
            measure(command, REPO)  # warm-up: brings the corpus into the page cache
            reads = sorted(measure(command, REPO) for _ in range(FLOOR_READS))
            wall, peak, _, cpu = reads[FLOOR_READS // 2]  # the median read, by wall time
            return wall, peak, cpu, 0
        if scenario == "engine":
            wall, peak, output, cpu = measure(self.engine_command(), self.engine)
            if "Nothing to be done" not in output:
                raise RuntimeError(f"the engine floor's run ran jobs:\n{output[-3000:]}")
            return wall, peak, cpu, 0
        if scenario == "reference":
            return (*self.reference.run(), 0)
        targets = []
        if scenario == "cold":
            # Everything the runs left: .snakemake/, the cache, the results, the site.
            for entry in self.workdir.iterdir():
                if entry.name in WORKFLOW_PARTS:
                    continue
                if entry.is_dir() and not entry.is_symlink():
                    shutil.rmtree(entry)
                else:
                    entry.unlink()
        elif scenario in ("site_cold", "site_one_scoring"):
            targets = ["site"]
            if scenario == "site_one_scoring":
                measure(self.snakemake("site"), self.workdir)  # the site up to date first
                self._add_scoring()
        elif scenario == "one_scoring":
            self._add_scoring()
        elif scenario == "one_gold":
            self._change_gold()
        elif scenario == "one_arbiter":
            self._add_arbiter()
        elif scenario == "changes_step":
            # A snapshot dated before every scoring, then one added and one re-scored
            # scoring: the changes report then has a comparison to make.
            snapshot = [self.snakemake()[0], "snapshot", *self.snakemake()[1:]]
            measure([*snapshot, "snapshot_date=2000-01-01"], self.workdir)
            self._add_scoring()
            self._rescore()
            self.started = time.time()
            _, peak, self.output, _ = measure(self.snakemake(), self.workdir)
            wall, cpu = self.logged_times(CHANGES_TIMES)
            return wall, peak, cpu, jobs_run(self.output)
        wall, peak, self.output, cpu = measure(self.snakemake(*targets), self.workdir)
        if scenario == "noop" and "Nothing to be done" not in self.output:
            raise RuntimeError(f"the no-op rerun ran jobs:\n{self.output[-3000:]}")
        if scenario == "site_cold" and "Nothing to be done" in self.output:
            raise NotMeasured("the site was up to date after the cold run: nothing built")
        return wall, peak, cpu, jobs_run(self.output)

    @cached_property
    def unscored(self) -> list[Path]:
        """The responses without a scoring, the last one first to be scored."""
        scored = {
            (path.parent.name, path.name.split("__eval-")[0])
            for path in self.corpus.glob("scoring/v1.0/*/*.json")
        }
        return sorted(
            path
            for path in self.corpus.glob("responses/v1.0/*/*.json")
            if (path.parent.name, path.stem) not in scored
        )

    def _add_scoring(self) -> None:
        response = self.unscored.pop()
        subject = response.parent.name
        template = next((self.corpus / "scoring/v1.0" / subject).glob("*.json"))
        scoring = json.loads(template.read_text("utf-8"))
        answer = json.loads(response.read_text("utf-8"))
        scoring["response_ref"] = {
            key: answer[key] for key in ("case_id", "subject_id", "subject_version", "run_id")
        }
        # The benchmark's convention, unique within the subject's folder.
        case_id, run_id = response.stem.split("__")
        scoring["evaluation_id"] = f"eval-{case_id}-{run_id}-{scoring['reviewer_id']}"
        target = template.parent / f"{response.stem}__eval-{scoring['reviewer_id']}.json"
        target.write_text(json.dumps(scoring, indent=2), "utf-8")

    def _add_arbiter(self) -> None:
        """The arbiter R04 (never a primary) scores the first run pending arbitration of
        the published pending_runs.csv: a copy of its first primary's scoring, dated
        after every scoring of the corpus."""
        with open(self.workdir / "results/pending_runs.csv", encoding="utf-8") as handle:
            pending = [row for row in csv.DictReader(handle)]
        target = next((row for row in pending if row["status"] == "pending_arbitration"), None)
        if target is None:
            raise RuntimeError("one_arbiter: no run pending arbitration left in the corpus")
        folder = self.corpus / "scoring/v1.0" / target["subject_id"]
        name = f"{target['case_id']}__{target['run_id']}"
        first = target["primary_ids"].split(";")[0]
        scoring = json.loads((folder / f"{name}__eval-{first}.json").read_text("utf-8"))
        scoring.update(
            reviewer_id="R04",
            evaluation_id=f"eval-{target['case_id']}-{target['run_id']}-R04",
            scoring_timestamp_utc="2026-06-30T12:00:00Z",
        )
        (folder / f"{name}__eval-R04.json").write_text(json.dumps(scoring, indent=2), "utf-8")

    def _rescore(self) -> None:
        """One criterion of one scoring moved by one point."""
        self.edits += 1
        scorings = sorted((self.corpus / "scoring/v1.0").glob("*/*.json"))
        scoring = scorings[(self.edits * 7919) % len(scorings)]
        document = json.loads(scoring.read_text("utf-8"))
        criterion = document["criterion_scores"]["main_hypothesis"]
        criterion["score"] = 1 if criterion["score"] != 1 else 2
        scoring.write_text(json.dumps(document, indent=2), "utf-8")

    def _change_gold(self) -> None:
        gold = self.golds[self.edits % len(self.golds)]
        self.edits += 1
        with open(gold, "a", encoding="utf-8") as handle:
            handle.write(f"\nReviewed again (benchmark edit {self.edits}).\n")


def run_size(
    scratch: Path,
    size: str,
    cores: int,
    repeat: int,
    log,
    workflow: Path = REPO,
    reference: Path = REFERENCE,
) -> list[dict]:
    corpus_size, double_review = BENCH_SIZES[size]
    review = ", two reviewers per run" if double_review else ""
    log(f"size {size}: generating {SIZES[corpus_size]} (subjects, cases, runs{review})")
    bench = Bench(scratch, size, cores, workflow, reference)
    logged = {row: step for row, step in LOGGED_STEPS.items() if step[0] in bench.scenarios}
    samples = {scenario: [] for scenario in [*bench.scenarios, *logged]}
    problems = {scenario: [] for scenario in samples}  # why a repetition was not measured

    def not_measured(repetition: int, row: str, problem: NotMeasured) -> None:
        problems[row].append(str(problem))
        log(f"size {size} #{repetition} {row}: not measured: {problem}")

    for repetition in range(1, repeat + 1):
        for scenario in bench.scenarios:
            try:
                wall, peak, cpu, jobs = bench.run(scenario)
            except NotMeasured as problem:
                not_measured(repetition, scenario, problem)
                continue
            samples[scenario].append((wall, peak, cpu, jobs))
            log(
                f"size {size} #{repetition} {scenario}: {wall:.2f} s, {peak:.0f} MiB, "
                f"cpu {cpu:.2f} s, {jobs} jobs"
            )
            for row, (source, line) in logged.items():
                if source == scenario:
                    # The job's own time; the peak and the jobs of the scenario's run.
                    try:
                        step_wall, step_cpu = bench.logged_times(line)
                    except NotMeasured as problem:
                        not_measured(repetition, row, problem)
                        continue
                    samples[row].append((step_wall, peak, step_cpu, jobs))
                    log(f"size {size} #{repetition} {row}: {step_wall:.2f} s, cpu {step_cpu:.2f} s")
    # What the site adds to a rerun after one added scoring, repetition by repetition.
    site_added = ["site_added"] if "site_one_scoring" in bench.scenarios else []
    if site_added:
        samples["site_added"] = [
            (site - plain, max(site_peak, plain_peak), site_cpu - plain_cpu, site_jobs - plain_jobs)
            for (site, site_peak, site_cpu, site_jobs), (
                plain,
                plain_peak,
                plain_cpu,
                plain_jobs,
            ) in zip(samples["site_one_scoring"], samples["one_scoring"], strict=True)
        ]
        problems["site_added"] = []
    site_files = [path for path in (bench.workdir / "site").rglob("*.html") if path.is_file()]
    order = [*bench.scenarios, *site_added, *logged]
    return summary_rows(
        size,
        bench.counts,
        {row: samples[row] for row in order},
        problems,
        site_files,
    )


def summary_rows(
    size: str,
    counts: dict,
    samples: dict[str, list[tuple[float, float, float, int]]],
    problems: dict[str, list[str]],
    site_files: list[Path],
) -> list[dict]:
    """The table's rows of one size, in the order of `samples`: row → its (wall s, peak
    MiB, CPU s, jobs) in each repetition measured; `problems`: row → why a repetition
    was not measured. A row measured in no repetition has no numbers, and says why."""
    bases = {
        name: statistics.median(wall for wall, *_ in samples[name])
        for name in ("floor", "engine", "reference")
        if samples.get(name)
    }
    floor_cpu = statistics.median(cpu for _, _, cpu, _ in samples["floor"])
    rows = []
    for scenario, measured in samples.items():
        targets = TARGETS.get(size, {}).get(scenario, [])
        reasons = list(dict.fromkeys(problems.get(scenario, [])))
        if reasons and measured:
            repetitions = len(measured) + len(problems[scenario])
            reasons[0] = f"in {len(problems[scenario])} of {repetitions} repetitions: {reasons[0]}"
        row = {
            "size": size,
            "files": counts["total"],
            "scorings": counts["scorings"],
            "scenario": scenario,
            "jobs": "",
            "repetitions": len(measured),
            "median_s": "",
            "min_s": "",
            "max_s": "",
            "ratio_to_floor": "",
            "ratio_to_engine": "",
            "ratio_to_reference": "",
            "median_cpu_s": "",
            "cpu_ratio_to_floor": "",
            "target": " and ".join(f"{limit} × {base}" for base, limit in targets),
            "peak_rss_mib": "",
            "met": "",
            "not_measured": "; ".join(reasons),
            "site_files": len(site_files),
            "site_mib": round(sum(path.stat().st_size for path in site_files) / 2**20, 1),
        }
        if measured:
            walls = [wall for wall, *_ in measured]
            median = statistics.median(walls)
            cpu = statistics.median(cpu for _, _, cpu, _ in measured)
            peak = max(peak for _, peak, _, _ in measured)
            ratios = {
                name: median / base
                for name, base in bases.items()
                if name != "reference" or scenario in REFERENCE_ROWS
            }
            row.update(
                jobs=max(jobs for *_, jobs in measured),
                median_s=round(median, 2),
                min_s=round(min(walls), 2),
                max_s=round(max(walls), 2),
                ratio_to_floor=round(ratios["floor"], 2),
                ratio_to_engine=round(ratios["engine"], 2),
                ratio_to_reference=round(ratios["reference"], 2) if "reference" in ratios else "",
                median_cpu_s=round(cpu, 2),
                cpu_ratio_to_floor=round(cpu / floor_cpu, 2),
                peak_rss_mib=round(peak),
                met=_met(size, targets, ratios, peak),
            )
        rows.append(row)
    return rows


def _met(size: str, targets: list[tuple[str, float]], ratios: dict, peak: float) -> str:
    """What the met column says: yes; no, with the targets missed; or unknown, when a
    target cannot be checked (its base, the reference, not measured), naming it."""
    if not targets:
        return ""
    missed = [f"{limit} × {base}" for base, limit in targets if ratios.get(base, 0) > limit]
    if size == MEMORY_TARGET_SIZE and peak > MEMORY_TARGET_MIB:
        missed.append(f"peak RSS ≤ {MEMORY_TARGET_MIB} MiB")
    unknown = [f"{limit} × {base} not measured" for base, limit in targets if base not in ratios]
    if missed:
        return "; ".join([f"no: {', '.join(missed)}", *unknown])
    if unknown:
        return f"unknown: {', '.join(unknown)}"
    return "yes"


def markdown(rows: list[dict], machine: dict) -> str:
    lines = [
        "# Benchmarks",
        "",
        "Produced by `make bench` (`scripts/tools/bench.py`); do not edit by hand.",
        "",
        f"- date of the run: {machine['date']}",
        f"- cores: {machine['cores']} (`--cores {machine['cores']}`); {machine['platform']}",
        f"- Python {machine['python']}, Snakemake {machine['snakemake']}",
        f"- repetitions per scenario: {machine['repeat']}; times are medians (min-max)",
        f"- workflow measured: commit {machine['workflow']}",
        "",
        "Scenarios: **floor** = one process that only reads and json-parses every file "
        f"once, with a warm page cache (after one uncounted read, the median of {FLOOR_READS} "
        "reads); **engine** = a no-op run of a one-rule Snakefile (E, Snakemake's own fixed "
        "cost); **reference** = the benchmark's own `compute_metrics.py` on the same "
        "corpus, run with the same Python as `../shared/reference/README.md` says (it "
        "recomputes everything every time; **× ref** is a run's ratio to it); "
        "**cold** = full run without `.snakemake/`, cache or results; **noop** = rerun with "
        "no change; **one_scoring** = rerun after adding one scoring to one subject; "
        "**one_gold** = rerun after changing one gold; **site_cold** = `snakemake site` "
        "right after the cold run (results up to date, every page from scratch); "
        "**site_one_scoring** = `snakemake site` after adding one scoring to an "
        "up-to-date site; **site_added** = site_one_scoring − one_scoring, what the "
        "site adds to that rerun; **changes_step** = the changes report alone (its own "
        "time, as its job logs it), in a rerun "
        "after a snapshot, one added and one re-scored scoring; **findings_cold**, "
        "**findings_step** = the findings job alone (its own wall and CPU time, as it "
        "logs them) in the cold and the one_scoring runs. Size **L2** is size L's corpus "
        "with two reviewers per run (arbiters on half the divergent runs, the rest "
        "pending), run with `reviewers_per_run=2`; **one_arbiter** = rerun after an "
        "arbiter's scoring of one run pending arbitration; issue 30 asks for its ratios "
        "to its own floor, with no target. **jobs** = the jobs the "
        "scenario ran (the `all` target's included; for a job's own row, its scenario's). "
        "Size S is the benchmark's real size "
        "(12 subject versions × 31 cases × 1 run): its targets are ratios to E; those of "
        "size L are ratios to the floor (and cold's also to the reference), with peak RSS "
        f"≤ {MEMORY_TARGET_MIB} MiB; **met** names the targets missed. A row that could "
        "not be measured says why. "
        "Where a target is not met, [performance.md](performance.md) gives the profile "
        "and where the time goes.",
        "",
        "The CPU columns are the user + system time of the whole process tree (median),",
        "and its ratio to the floor's: steadier than the wall time when other work",
        "shares the machine.",
        "",
        "| size | files | scenario | jobs | median s | min-max s | × floor | × E | × ref "
        "| target | peak RSS MiB | met | CPU s | CPU × floor |",
        "|---|---:|---|---:|---:|---:|---:|---:|---:|---|---:|---|---:|---:|",
    ]
    for row in rows:
        target = f"≤ {row['target'].replace(' and ', ' and ≤ ')}" if row["target"] else ""
        # Not measured at all: why; in some repetitions: "in k of n repetitions: why".
        note = row["not_measured"]
        if note:
            note = f"not measured {note}" if row["repetitions"] else f"not measured: {note}"
        met = "; ".join(part for part in (row["met"], note) if part)
        times = ""
        if row["repetitions"]:
            times = f"{row['min_s']:.2f}-{row['max_s']:.2f}"
        cells = [
            row["size"],
            f"{row['files']:,}",
            row["scenario"],
            row["jobs"],
            _number(row["median_s"]),
            times,
            _number(row["ratio_to_floor"]),
            _number(row["ratio_to_engine"]),
            _number(row["ratio_to_reference"]),
            target,
            row["peak_rss_mib"],
            met.replace("|", "\\|"),
            _number(row["median_cpu_s"]),
            _number(row["cpu_ratio_to_floor"]),
        ]
        lines.append("| " + " | ".join(str(cell) for cell in cells) + " |")
    # Size L2 builds no site.
    sites = [row for row in rows if row["scenario"] == "floor" and row["site_files"]]
    if sites:
        lines += ["", "Size of the site (`site/`) after the last scenario:", ""]
        lines += ["| size | pages | MiB |", "|---|---:|---:|"]
    for row in sites:
        lines.append(f"| {row['size']} | {row['site_files']:,} | {row['site_mib']} |")
    return "\n".join(lines) + "\n"


def _number(value) -> str:
    """A median or a ratio to two decimals; empty where there is none."""
    return "" if value == "" else f"{value:.2f}"


def workflow_commit(checkout: Path) -> str:
    """The commit the measured workflow is at (with "+ changes" if its files differ)."""
    git = ["git", "-C", str(checkout)]
    head = subprocess.run([*git, "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    if head.returncode != 0:
        return "unknown (not a git checkout)"
    dirty = subprocess.run(
        [*git, "status", "--porcelain", "--", *WORKFLOW_PARTS], capture_output=True, text=True
    ).stdout.strip()
    return head.stdout.strip() + (" + uncommitted changes" if dirty else "")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--sizes",
        default=DEFAULT_SIZES,
        help=f"comma-separated sizes ({', '.join(BENCH_SIZES)}; L2: L with two reviewers)",
    )
    parser.add_argument("--repeat", type=int, default=3, help="repetitions per scenario")
    parser.add_argument("--quick", action="store_true", help="size S, one repetition")
    parser.add_argument("--cores", type=int, default=os.cpu_count())
    parser.add_argument("--out-dir", type=Path, default=REPO / "docs")
    parser.add_argument("--scratch", type=Path, help="where corpora go (default: a temp dir)")
    parser.add_argument(
        "--workflow",
        type=Path,
        default=REPO,
        help="the checkout whose workflow is measured (default: this one), e.g. an "
        "earlier commit's worktree for a before/after table with the same harness",
    )
    parser.add_argument(
        "--reference",
        type=Path,
        default=REFERENCE,
        help="the folder of the benchmark's own scripts, compute_metrics.py and what it "
        "imports, copied at run time (default: ../shared/reference beside this checkout; "
        "missing: the reference scenario is not measured)",
    )
    args = parser.parse_args(argv)
    sizes = ["S"] if args.quick else args.sizes.split(",")
    repeat = 1 if args.quick else args.repeat
    unknown = [size for size in sizes if size not in BENCH_SIZES]
    if unknown or repeat < 1:
        parser.error(f"unknown sizes {unknown} or repeat < 1")

    def log(message):
        print(message, file=sys.stderr, flush=True)

    machine = {
        "date": dt.date.today().isoformat(),
        "cores": args.cores,
        "platform": f"{platform.system()} {platform.machine()}",
        "python": platform.python_version(),
        "snakemake": version("snakemake"),
        "repeat": repeat,
        "workflow": workflow_commit(args.workflow),
    }
    rows = []
    with tempfile.TemporaryDirectory(dir=args.scratch) as scratch:
        for size in sizes:
            rows += run_size(
                Path(scratch), size, args.cores, repeat, log, args.workflow, args.reference
            )
    args.out_dir.mkdir(parents=True, exist_ok=True)
    (args.out_dir / "benchmarks.md").write_text(markdown(rows, machine), "utf-8")
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    (args.out_dir / "benchmarks.csv").write_text(buffer.getvalue(), "utf-8")
    log(f"wrote {args.out_dir / 'benchmarks.md'} and benchmarks.csv")
    return 0


if __name__ == "__main__":
    sys.exit(main())
