"""The linters of the project's standards, run as tests so `make test` enforces them.

`snakemake --lint` starts Snakemake: tests/workflow/test_snakemake_lint.py.
"""

import subprocess
import sys
from pathlib import Path

from workflow_runs import REPO

BIN = Path(sys.executable).parent


def run(*command: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        command, cwd=REPO, capture_output=True, text=True, timeout=300, check=False
    )


def test_snakefmt_check():
    result = run(str(BIN / "snakefmt"), "--check", "Snakefile", "workflow/")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_check():
    result = run(str(BIN / "ruff"), "check", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format_check():
    result = run(str(BIN / "ruff"), "format", "--check", ".")
    assert result.returncode == 0, result.stdout + result.stderr
