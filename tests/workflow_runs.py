"""Running the real workflow in the tests: each run in its own copy of the workflow,
from the command line, as users run it.

A copy per run keeps `.snakemake/` (its lock and metadata) and the cache of one test
away from every other test and from the developer's own runs. Also: the shared demo run
(conftest's `demo_run`), dry-run plans, and digests of a folder's files.
"""

import csv
import fcntl
import hashlib
import json
import os
import re
import shutil
import stat
import subprocess
import sys
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from ro_metrics.contracts.published import published_files

REPO = Path(__file__).resolve().parents[1]
DEMO_CORPUS = REPO / "demo" / "corpus"
# Copies of the spec's sample files (response, scoring, gold, registry).
SAMPLES = REPO / "tests" / "data" / "samples"
COMMITTED_RESULTS = REPO / "results"
WORKFLOW_PARTS = ["Snakefile", "workflow", "scripts", "config", "system", "profiles"]
# What a run on the demo corpus publishes (it has telemetry, one reviewer per run), and
# a corpus without telemetry (the scaled sizes S, M, L): the registry's names.
PUBLISHED = [entry.name for entry in published_files(has_telemetry=True, double_review=False)]
PUBLISHED_WITHOUT_TELEMETRY = [
    entry.name for entry in published_files(has_telemetry=False, double_review=False)
]
SNAKEMAKE = str(Path(sys.executable).parent / "snakemake")
# The SLURM executor plugin, installed apart by `make test` (requirements-slurm.txt says
# why): on Snakemake's path only in the runs given `plugins=SLURM_PLUGIN`.
SLURM_PLUGIN = Path(sys.prefix) / "slurm-plugin"


@dataclass
class Run:
    returncode: int
    output: str


# For a run whose checks do not depend on how the corpus is split for loading: one load
# job (what `partitions: auto` gives the demo corpus too, whatever its default becomes).
ONE_PARTITION = {"partitions": 1}
# For the tests of the partitioning itself (a change re-runs its partition only, every
# load job is submitted, problems come from several load jobs): the demo's subjects
# spread over 4 of 8 partitions.
EIGHT_PARTITIONS = {"partitions": 8}


def files_below(folder: Path) -> list[str]:
    """Every file below a folder, as sorted relative POSIX paths (charts/x.svg)."""
    return sorted(
        path.relative_to(folder).as_posix() for path in folder.rglob("*") if path.is_file()
    )


def workflow_copy(destination: Path) -> Path:
    """A copy of the workflow, the library's bytecode included (`make test` compiles it
    first): without it every process of a run on the copy compiles the library again.
    A copied .pyc is used only while its source keeps its size and mtime (copy2 keeps
    them), so a test that edits a module in its copy runs the edited source."""
    destination.mkdir(parents=True, exist_ok=True)
    for part in WORKFLOW_PARTS:
        source = REPO / part
        if source.is_dir():
            shutil.copytree(source, destination / part)
        else:
            shutil.copy2(source, destination / part)
    return destination


def corpus_copy(destination: Path) -> Path:
    shutil.copytree(DEMO_CORPUS, destination)
    return destination


def run_workflow(
    workdir: Path, *args: str, plugins: Path | None = None, env: dict | None = None, **config
) -> Run:
    """`snakemake` on the command line in workdir with args and config; `plugins`: a
    folder of executor plugins put on its path (PYTHONPATH) for this run; `env`:
    variables set for this run."""
    command = [SNAKEMAKE, "--cores", "4", *args]
    if config:
        command += ["--config", *(f"{key}={value}" for key, value in config.items())]
    environment = {**os.environ, **(env or {})}
    if plugins is not None:
        assert plugins.is_dir(), f"{plugins} is missing: `make test` installs it"
        environment["PYTHONPATH"] = str(plugins)
    completed = subprocess.run(
        command,
        cwd=workdir,
        env=environment,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    return Run(completed.returncode, completed.stdout + completed.stderr)


@contextmanager
def exclusive(lock: Path):
    """Hold an exclusive lock on a file: one process at a time (pytest-xdist workers too)."""
    with open(lock, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


@dataclass
class DemoRun:
    """A run of the workflow on a copy of the demo corpus, and what it changed around it."""

    workdir: Path  # the copy of the workflow it ran in; results in workdir / "out"
    corpus: Path  # the copy of the demo corpus it read
    run: Run
    workdir_before: set[str]  # names in workdir before the run
    workdir_after: set[str]  # ... and right after it
    beside_after: set[str]  # names in the folder holding corpus and workdir, right after
    corpus_before: dict[str, str]  # tree_digest of the corpus before the run

    @property
    def results(self) -> Path:
        return self.workdir / "out"

    @property
    def config(self) -> dict:
        return {"corpus": self.corpus, "results": self.results}

    def exclusive(self):
        """Held around any later Snakemake in workdir (its lock would refuse a second)."""
        return exclusive(self.workdir.parent.parent / "demo-run-snakemake.lock")

    def save(self, path: Path) -> None:
        record = {
            "workdir": str(self.workdir),
            "corpus": str(self.corpus),
            "run": [self.run.returncode, self.run.output],
            "workdir_before": sorted(self.workdir_before),
            "workdir_after": sorted(self.workdir_after),
            "beside_after": sorted(self.beside_after),
            "corpus_before": self.corpus_before,
        }
        path.write_text(json.dumps(record), "utf-8")

    @classmethod
    def load(cls, path: Path) -> "DemoRun":
        record = json.loads(path.read_text("utf-8"))
        return cls(
            Path(record["workdir"]),
            Path(record["corpus"]),
            Run(*record["run"]),
            set(record["workdir_before"]),
            set(record["workdir_after"]),
            set(record["beside_after"]),
            record["corpus_before"],
        )


def run_on_demo_copy(root: Path) -> DemoRun:
    """Run the workflow once on a copy of the demo corpus, in root/workflow.

    The tests that only read what a run on the demo corpus wrote share one such run
    (the session fixture `demo_run` of conftest.py, made once for all pytest-xdist
    workers); a test that changes the corpus, the workflow or the results runs its own
    copy.
    """
    root.mkdir()
    corpus = corpus_copy(root / "corpus")
    workdir = workflow_copy(root / "workflow")
    corpus_before = tree_digest(corpus)
    workdir_before = {path.name for path in workdir.iterdir()}
    run = run_workflow(workdir, corpus=corpus, results=workdir / "out")
    return DemoRun(
        workdir,
        corpus,
        run,
        workdir_before,
        {path.name for path in workdir.iterdir()},
        {path.name for path in root.iterdir()},
        corpus_before,
    )


def start_workflow(workdir: Path, *, capture: bool = False, **config) -> subprocess.Popen:
    """A run in the background (its own process group, so a test can kill all of it)."""
    command = [SNAKEMAKE, "--cores", "2", "--config"]
    command += [f"{key}={value}" for key, value in config.items()]
    output = subprocess.PIPE if capture else subprocess.DEVNULL
    return subprocess.Popen(
        command,
        cwd=workdir,
        stdout=output,
        stderr=subprocess.STDOUT if capture else subprocess.DEVNULL,
        text=capture,
        start_new_session=True,
    )


_PLANNED_JOB = re.compile(r"^(?:local)?rule (\w+):\n(?:    .*\n)*?    wildcards: (.*)$", re.M)
_JOB_STATS_ROW = re.compile(r"^(\w+)\s+(\d+)$", re.M)


@dataclass
class Plan:
    """What a dry run would do."""

    output: str

    def jobs(self) -> dict[str, int]:
        """Rule name → number of jobs of a step (empty if nothing to do): not the target
        rules (`all`, which Snakemake lists when what it collects changes) nor the total."""
        if "Nothing to be done" in self.output:
            return {}
        stats = self.output.split("Job stats:", 1)[1].split("\n\n", 1)[0]
        rows = _JOB_STATS_ROW.findall(stats)
        return {rule: int(count) for rule, count in rows if rule not in ("total", "all")}

    def wildcards(self, rule: str) -> list[str]:
        return sorted(w for name, w in _PLANNED_JOB.findall(self.output) if name == rule)


def plan(workdir: Path, *targets: str, **config) -> Plan:
    run = run_workflow(workdir, "--dry-run", *targets, **config)
    assert run.returncode == 0, run.output
    return Plan(run.output)


def planned_jobs(workdir: Path, *targets: str, **config) -> dict[str, int]:
    """Rule name → number of jobs in a dry run's plan (empty if nothing to do)."""
    return plan(workdir, *targets, **config).jobs()


def planned_wildcards(workdir: Path, rule: str, *targets: str, **config) -> list[str]:
    return plan(workdir, *targets, **config).wildcards(rule)


def tree_digest(root: Path) -> dict[str, str]:
    """Relative path → SHA-256 of every file below root."""
    return {
        str(path.relative_to(root)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }


def writable_copy(source: Path, destination: Path) -> Path:
    """A copy of the corpus we may change: ../shared is laid out without write bits."""
    shutil.copytree(source, destination, copy_function=shutil.copyfile)
    for folder in [destination, *(path for path in destination.rglob("*") if path.is_dir())]:
        folder.chmod(folder.stat().st_mode | stat.S_IWUSR)
    return destination


def read_csv(path: Path) -> list[dict[str, str]]:
    with open(path, encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))
