"""What the tests share: running the real workflow, and a headless browser.

Workflow runs: each run in its own copy of the workflow. A copy per run keeps
`.snakemake/` (its lock and metadata) and the cache of one test away from every other
test and from the developer's own runs.

Browser: Debian's headless Chromium for the tests that look at a page. No Selenium or
Playwright: `--dump-dom` prints the DOM after the page's scripts ran, `--screenshot`
writes a PNG. The flags keep it off the (closed) network.
"""

import hashlib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DEMO_CORPUS = REPO / "demo" / "corpus"
COMMITTED_RESULTS = REPO / "results"
WORKFLOW_PARTS = ["Snakefile", "workflow", "scripts", "config", "system", "profiles"]
PUBLISHED = [
    "per_run.csv",
    "metrics_per_subject.csv",
    "metrics_per_family.csv",
    "coverage.csv",
    "uncertainty.csv",
    "critical_fails.csv",
    "leaderboard.csv",
    "leaderboard.html",
    "metadata.json",
]
SNAKEMAKE = str(Path(sys.executable).parent / "snakemake")


@dataclass
class Run:
    returncode: int
    output: str


def workflow_copy(destination: Path) -> Path:
    destination.mkdir(parents=True, exist_ok=True)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for part in WORKFLOW_PARTS:
        source = REPO / part
        if source.is_dir():
            shutil.copytree(source, destination / part, ignore=ignore)
        else:
            shutil.copy2(source, destination / part)
    return destination


def corpus_copy(destination: Path) -> Path:
    shutil.copytree(DEMO_CORPUS, destination)
    return destination


def run_workflow(workdir: Path, *args: str, **config) -> Run:
    command = [SNAKEMAKE, "--cores", "4", *args]
    if config:
        command += ["--config", *(f"{key}={value}" for key, value in config.items())]
    completed = subprocess.run(
        command, cwd=workdir, capture_output=True, text=True, timeout=600, check=False
    )
    return Run(completed.returncode, completed.stdout + completed.stderr)


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


def planned_jobs(workdir: Path, *targets: str, **config) -> dict[str, int]:
    """Rule name → number of jobs in a dry run's plan (empty if nothing to do)."""
    run = run_workflow(workdir, "--dry-run", *targets, **config)
    assert run.returncode == 0, run.output
    if "Nothing to be done" in run.output:
        return {}
    stats = run.output.split("Job stats:", 1)[1].split("\n\n", 1)[0]
    return {rule: int(count) for rule, count in _JOB_STATS_ROW.findall(stats) if rule != "total"}


def planned_wildcards(workdir: Path, rule: str, *targets: str, **config) -> list[str]:
    run = run_workflow(workdir, "--dry-run", *targets, **config)
    return sorted(w for name, w in _PLANNED_JOB.findall(run.output) if name == rule)


def tree_digest(root: Path) -> dict[str, str]:
    """Relative path → SHA-256 of every file below root."""
    return {
        str(path.relative_to(root)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }


CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
CHROMIUM_TIMEOUT = 90


def require_chromium(*, module_level: bool = False) -> None:
    """Skip without Chromium on a developer's machine; in CI (CI set) it must be there."""
    if CHROMIUM.exists():
        return
    if os.environ.get("CI"):
        pytest.fail(f"{CHROMIUM} is missing: CI must install chromium (apt)", pytrace=False)
    pytest.skip(
        f"{CHROMIUM} is not installed (apt install chromium)", allow_module_level=module_level
    )


def chromium(tmp: Path, *args: str, timeout: int = CHROMIUM_TIMEOUT) -> bytes:
    """Run headless Chromium with a fresh profile; its stdout. Killed (whole group) on timeout."""
    profile = tempfile.mkdtemp(prefix="chromium-profile-", dir=tmp)
    command = [str(CHROMIUM), *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *args]
    with subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True
    ) as process:
        try:
            out, err = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            raise AssertionError(f"chromium took more than {timeout} s: {args}") from None
    assert process.returncode == 0, err.decode("utf-8", "replace")[-3000:]
    return out
