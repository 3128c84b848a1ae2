"""The exit of a run's processes as engine_settings sets it: the collector skips what is
alive at exit, and still collects what later exit handlers make."""

import subprocess
import sys

from workflow_runs import REPO


def printed(code: str, mode: str) -> str:
    """What the code prints in a fresh interpreter (mode: applied, step or as-shipped)."""
    completed = subprocess.run(
        [sys.executable, "-c", code, mode],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": str(REPO / "scripts")},
    )
    return completed.stdout.strip()


EXIT_CHECK = """
import atexit, gc, sys


class Noted:
    def __del__(self):
        print("collected")


def at_the_end():
    # Registered first, so it runs after every handler registered later.
    print("frozen", gc.get_freeze_count() > 0)
    made = Noted()
    made.itself = made  # a cycle made after the freeze: collected as usual
    del made
    gc.collect()


atexit.register(at_the_end)
from ro_metrics.contracts.files import without_cycle_collector  # noqa: E402
from ro_metrics.engine_settings import skip_collector_at_exit  # noqa: E402

if sys.argv[1] == "applied":
    skip_collector_at_exit()
elif sys.argv[1] == "step":
    without_cycle_collector()
"""


def test_the_exit_skips_the_collector_over_what_is_alive_once_applied():
    assert printed(EXIT_CHECK, "as-shipped").split("\n") == ["frozen False", "collected"]
    # A step's process applies it with the collector off.
    for mode in ("applied", "step"):
        assert printed(EXIT_CHECK, mode).split("\n") == ["frozen True", "collected"]
