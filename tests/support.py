"""What the tests share: running the real workflow, and a headless browser.

Workflow runs: each run in its own copy of the workflow. A copy per run keeps
`.snakemake/` (its lock and metadata) and the cache of one test away from every other
test and from the developer's own runs.

Browser: Debian's headless Chromium for the tests that look at a page. No Selenium or
Playwright: `--dump-dom` prints the DOM after the page's scripts ran, `--screenshot`
writes a PNG. The flags keep it off the (closed) network.
"""

import csv
import hashlib
import io
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import pytest

from ro_metrics.contracts.tables import TELEMETRY_COLUMNS

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
    "leaderboard.csv",
    "leaderboard.html",
    "leaderboard.es.html",
    "leaderboard.md",
    "metadata.json",
    # Published because the demo corpus has telemetry (a corpus without has neither).
    "operational_per_subject.csv",
    "operational_per_family.csv",
]
# What a corpus without telemetry (the scaled sizes S, M, L) publishes.
PUBLISHED_WITHOUT_TELEMETRY = [name for name in PUBLISHED if not name.startswith("operational_")]
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


def planned_jobs(workdir: Path, **config) -> dict[str, int]:
    """Rule name → number of jobs in a dry run's plan (empty if nothing to do)."""
    run = run_workflow(workdir, "--dry-run", **config)
    assert run.returncode == 0, run.output
    if "Nothing to be done" in run.output:
        return {}
    stats = run.output.split("Job stats:", 1)[1].split("\n\n", 1)[0]
    return {rule: int(count) for rule, count in _JOB_STATS_ROW.findall(stats) if rule != "total"}


def planned_wildcards(workdir: Path, rule: str, **config) -> list[str]:
    run = run_workflow(workdir, "--dry-run", **config)
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


# The benchmark's operational tables (telemetry.md), implemented independently of
# ro_metrics: what the tests compare the workflow's operational_*.csv with.


def benchmark_tables(batch_logs: list[str]) -> dict[str, list[list[str]]]:
    """telemetry.md's computation as the benchmark does it today: every passing row whose
    prompt_tokens, completion_tokens and latency_ms are integers counts; no corpus."""
    rows = [row for text in batch_logs for row in csv.DictReader(io.StringIO(text, newline=""))]
    counted = [
        row
        for row in rows
        if row["status"] == "pass"
        and all(
            row[name].isdigit() for name in ("prompt_tokens", "completion_tokens", "latency_ms")
        )
    ]
    tables = {}
    for name, with_family in (("per_subject", False), ("per_family", True)):
        groups = defaultdict(list)
        for row in counted:
            key = (row["subject_id"], row["subject_version"])
            groups[key + ((row["case_id"].split("-")[1],) if with_family else ())].append(row)
        table = []
        for key in sorted(groups):
            members = groups[key]
            mean_in = statistics.fmean(int(row["prompt_tokens"]) for row in members)
            mean_out = statistics.fmean(int(row["completion_tokens"]) for row in members)
            latency = sorted(int(row["latency_ms"]) for row in members)
            if len(latency) == 1:
                p95 = latency[0]
            else:
                p95 = statistics.quantiles(latency, n=20, method="inclusive")[18]
            prices = []
            for column in ("price_per_input_token_usd", "price_per_output_token_usd"):
                known = [float(row[column]) for row in members if row[column]]
                prices.append(f"{statistics.fmean(known):.10f}" if known else "")
            table.append(
                [
                    *key,
                    str(len(members)),
                    f"{mean_in:.1f}",
                    f"{mean_out:.1f}",
                    f"{(mean_out / mean_in if mean_in else 0.0):.3f}",
                    f"{statistics.median(latency) / 1000:.2f}",
                    f"{p95 / 1000:.2f}",
                    *prices,
                ]
            )
        tables[name] = table
    return tables


# Unit prices per subject version of the generated telemetry: known, unknown, one known.
GENERATED_PRICES = [("1e-06", "5e-06"), ("", ""), ("2.5e-06", "1e-05"), ("3e-07", "")]


def one_call_per_response(rng, responses, *, batches: int = 3) -> list[str]:
    """Batch logs (CSV texts, telemetry.md's format) holding exactly one passing call per
    response (subject_id, subject_version, case_id, run_id), with random tokens, latency
    and per-version prices, some preceded by a failed attempt; spread over batches."""
    versions = sorted({(subject, version) for subject, version, _, _ in responses})
    prices = {key: GENERATED_PRICES[i % len(GENERATED_PRICES)] for i, key in enumerate(versions)}
    buffers = [io.StringIO() for _ in range(batches)]
    writers = [csv.writer(buffer, lineterminator="\r\n") for buffer in buffers]
    for writer in writers:
        writer.writerow(TELEMETRY_COLUMNS)
    for index, (subject, version, case, run) in enumerate(responses):
        price_in, price_out = prices[(subject, version)]
        prompt, completion = rng.randint(0, 6000), rng.randint(0, 9000)
        latency = rng.choice([rng.randint(100, 90000), 1000 * rng.randint(1, 90)])
        when = f"2026-05-12T{index // 3600 % 24:02d}:{index // 60 % 60:02d}:{index % 60:02d}Z"
        base = [when, case, subject, version, run, "classic", f"p/{version}", version]
        writer = rng.choice(writers)
        if rng.random() < 0.3:  # a failed attempt first: no number of it counts
            writer.writerow([*base, "", "", "", "", price_in, price_out, 60000, "fail", "Timeout"])
        cells = [prompt, completion, prompt + completion, "", price_in, price_out, latency]
        writer.writerow([*base, *cells, "pass", ""])
    return [buffer.getvalue() for buffer in buffers]
