"""An interrupt (Ctrl-C: SIGINT) ends a rule script's process without a Python
traceback, once it has called contracts.files.step_logger (every rule script calls it
first); any other uncaught exception still shows its traceback."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


def script_process(tmp_path, body: str) -> subprocess.Popen:
    """A Python process as a rule script: step_logger, then `body`; SIGINT at its default
    (as from a terminal)."""
    code = (
        "import time\n"
        "from ro_metrics.contracts.files import step_logger\n"
        f"log = step_logger('step', {str(tmp_path / 'step.log')!r})\n"
        "print('ready', flush=True)\n"
        f"{body}\n"
    )
    return subprocess.Popen(
        [sys.executable, "-c", code],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(SCRIPTS)},
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


def test_sigint_ends_the_step_without_a_traceback(tmp_path):
    process = script_process(tmp_path, "time.sleep(60)")
    assert process.stdout.readline() == "ready\n"
    time.sleep(0.1)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=30)
    # Python ends a process interrupted by SIGINT by that signal, which Snakemake reports.
    assert process.returncode == -signal.SIGINT
    assert err == ""


def test_any_other_error_keeps_its_traceback(tmp_path):
    process = script_process(tmp_path, "raise ValueError('a bug')")
    _, err = process.communicate(timeout=30)
    assert process.returncode == 1
    assert err.startswith("Traceback (most recent call last):")
    assert err.endswith("ValueError: a bug\n")
