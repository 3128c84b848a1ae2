"""Shared test setup: the markers `unit` and `workflow`, given by the folder of a test.

tests/unit/ holds the tests that do not start Snakemake, tests/workflow/ those that
run the workflow (Snakemake, a subprocess run of it, or the bench harness). A test
file placed anywhere else is refused, so that every test is in one of the two sets
(`make test-fast` runs `-m unit`, `make test` runs both). The step modules are
importable through pyproject's pythonpath.
"""

import json
import os
from pathlib import Path

import pytest

import workflow_runs

TESTS = Path(__file__).resolve().parent
MARKER_OF_FOLDER = {"unit": pytest.mark.unit, "workflow": pytest.mark.workflow}


# pytest-xdist (pyproject.toml: `-n auto`) sends the tests of a file to one worker, so
# that its module fixtures are built once, except the files below: their tests share no
# costly fixture and go one by one to whichever worker is free.
SPREAD = {"test_fuzz.py", "test_incremental.py", "test_config.py"}


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    from xdist.scheduler import LoadFileScheduling

    class FileOrTestScheduling(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            path = nodeid.split("::", 1)[0]
            return nodeid if Path(path).name in SPREAD else path

    return FileOrTestScheduling(config, log)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    misplaced = set()
    for item in items:
        path = Path(item.path).resolve()
        folder = path.relative_to(TESTS).parts[0] if path.is_relative_to(TESTS) else None
        marker = MARKER_OF_FOLDER.get(folder)
        if marker is None:
            misplaced.add(str(path))
            continue
        item.add_marker(marker)
    if misplaced:
        raise pytest.UsageError(
            "tests must be in tests/unit/ or tests/workflow/: " + ", ".join(sorted(misplaced))
        )
    # The workflow tests first (pyproject.toml: --no-loadscope-reorder): their files take
    # longest, and the many short unit tests then keep both workers busy to the end.
    # Stable, so the same order on every worker.
    items.sort(key=lambda item: item.get_closest_marker("workflow") is None)


@pytest.fixture(scope="session")
def demo_run(tmp_path_factory) -> workflow_runs.DemoRun:
    """One run of the workflow on a copy of the demo corpus, for the tests that only read
    what it wrote (workflow_runs.run_on_demo_copy); it succeeded. Made once per session: under
    pytest-xdist, by the first worker that needs it, in the session's folder, which every
    worker's own temporary folder is in; the others read its record."""
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent
    with workflow_runs.exclusive(base / "demo-run.lock"):
        record = base / "demo-run.json"
        if record.exists():
            shared = workflow_runs.DemoRun.load(record)
        else:
            shared = workflow_runs.run_on_demo_copy(base / "demo-run")
            shared.save(record)
    assert shared.run.returncode == 0, shared.run.output
    return shared


@pytest.fixture(scope="session")
def demo_site(demo_run) -> workflow_runs.DemoRun:
    """demo_run, with `snakemake site` run after it in its workdir (the site in
    workdir/site, built from the results in workdir/out), for the tests that only read
    the site. Made once per session, like demo_run: the first worker that needs it
    builds it and records the run's output beside demo_run's record."""
    with demo_run.exclusive():
        record = demo_run.workdir.parent.parent / "demo-site.json"
        if record.exists():
            returncode, output = json.loads(record.read_text("utf-8"))
        else:
            run = workflow_runs.run_workflow(demo_run.workdir, "site", **demo_run.config)
            returncode, output = run.returncode, run.output
            record.write_text(json.dumps([returncode, output]), "utf-8")
    assert returncode == 0, output
    assert "Traceback" not in output
    return demo_run
