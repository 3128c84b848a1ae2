"""The GitHub Actions workflow runs the project's CI checks, and is a valid workflow file.

Validated with the GitHub-workflow schema that check-jsonschema ships, so a broken
file fails here, offline, instead of on the next push.
"""

import subprocess
import sys
from pathlib import Path

import yaml

from support import REPO

WORKFLOW = REPO / ".github" / "workflows" / "ci.yml"
CHECK = Path(sys.executable).parent / "check-jsonschema"


def check(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(CHECK), "--builtin-schema", "vendor.github-workflows", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_workflow_file_is_valid_against_githubs_schema():
    result = check(WORKFLOW)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "ok -- validation done" in result.stdout


def test_a_broken_workflow_file_is_refused(tmp_path):
    broken = yaml.safe_load(WORKFLOW.read_text("utf-8"))
    del broken["jobs"]["checks"]["runs-on"]  # a job must say where it runs
    path = tmp_path / "ci.yml"
    path.write_text(yaml.safe_dump(broken), "utf-8")
    assert check(path).returncode != 0


def test_workflow_runs_the_ci_script_on_push_and_pull_request_with_pip_cache():
    workflow = yaml.safe_load(WORKFLOW.read_text("utf-8"))
    triggers = workflow[True]  # YAML 1.1 reads the key `on` as true
    assert set(triggers) == {"push", "pull_request"}
    steps = workflow["jobs"]["checks"]["steps"]
    setup = next(step for step in steps if step.get("uses", "").startswith("actions/setup-python"))
    assert setup["with"]["cache"] == "pip"
    assert setup["with"]["python-version"] == "3.11"
    assert [step["run"] for step in steps if "run" in step] == ["bash .ci/run"]
    checkout = next(step for step in steps if step.get("uses", "").startswith("actions/checkout"))
    assert checkout["with"]["fetch-depth"] == 0  # the commit checker reads all history
