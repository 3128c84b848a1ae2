"""Shared test setup: the markers `unit` and `workflow`, given by the folder of a test.

tests/unit/ holds the tests that do not start Snakemake, tests/workflow/ those that
run the workflow (Snakemake, a subprocess run of it, or the bench harness). A test
file placed anywhere else is refused, so that every test is in one of the two sets
(`make test-fast` runs `-m unit`, `make test` runs both). The step modules are
importable through pyproject's pythonpath.
"""

from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
MARKER_OF_FOLDER = {"unit": pytest.mark.unit, "workflow": pytest.mark.workflow}


def pytest_collection_modifyitems(config, items):
    misplaced = set()
    for item in items:
        path = Path(item.path).resolve()
        folder = path.relative_to(TESTS).parts[0] if path.is_relative_to(TESTS) else None
        marker = MARKER_OF_FOLDER.get(folder)
        if marker is None:
            misplaced.add(str(path))
        else:
            item.add_marker(marker)
    if misplaced:
        raise pytest.UsageError(
            "tests must be in tests/unit/ or tests/workflow/: " + ", ".join(sorted(misplaced))
        )
