"""The GitHub Actions workflow runs the project's CI checks, and is a valid workflow file.

Validated with the GitHub-workflow schema that check-jsonschema ships, so a broken
file fails here, offline, instead of on the next push.
"""

import subprocess
import sys
from pathlib import Path

import yaml

from workflow_runs import REPO

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
    assert [step["run"] for step in steps if "run" in step][-1] == "bash .ci/run"
    checkout = next(step for step in steps if step.get("uses", "").startswith("actions/checkout"))
    assert checkout["with"]["fetch-depth"] == 0  # the commit checker reads all history


def test_workflow_gives_the_benchmark_corpus_test_the_benchmarks_data_at_the_pinned_commit():
    """Where there is no ../shared, the real-corpus test runs on the benchmark's repository
    at the commit its v1.0 data was published from (../shared/benchmark-v1.0/README.md)."""
    steps = yaml.safe_load(WORKFLOW.read_text("utf-8"))["jobs"]["checks"]["steps"]
    [benchmark] = [step for step in steps if step.get("with", {}).get("repository")]
    assert benchmark["with"] == {
        "repository": "blumind/benchmark",
        "ref": "c59b4ee41a054c759a08006551fa3d94a8825bbb",
        "path": "benchmark-checkout",
    }
    [layout] = [step for step in steps if "benchmark_data.py" in step.get("run", "")]
    assert "scripts/tools/benchmark_data.py benchmark-checkout" in layout["run"]
    assert 'BENCHMARK_V1_DIR=$RUNNER_TEMP/benchmark-v1.0" >> "$GITHUB_ENV"' in layout["run"]
    [tests] = [step for step in steps if step.get("run") == "bash .ci/run"]
    assert steps.index(benchmark) < steps.index(layout) < steps.index(tests)
