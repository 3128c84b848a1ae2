"""`snakemake --lint`, the workflow's linter, run as a test so `make test` enforces it.

The other linters (snakefmt, ruff) are in tests/unit/test_code_quality.py.
"""

import subprocess

from workflow_runs import REPO, SNAKEMAKE


def test_snakemake_lint():
    result = subprocess.run(
        [SNAKEMAKE, "--lint"], cwd=REPO, capture_output=True, text=True, timeout=300, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr
    output = result.stdout + result.stderr
    assert "Congratulations, your workflow is in a good condition!" in output
    assert "not present" not in output  # e.g. a local rule that no longer exists
