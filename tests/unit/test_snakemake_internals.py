"""What the workflow and its tests rely on in Snakemake beyond its documented interface,
checked on the installed Snakemake.

Each use is named at its place with the reason it is needed. A Snakemake upgrade that
changes one of them fails here, by name, instead of changing a run's behaviour
unnoticed (a test run in the wrong folder).
"""

import subprocess
import sys

# tests/snakemake_server.py: Workflow._rundir

RUNDIR = """
import os
import snakemake.cli  # as the server does (snakemake.workflow alone is a circular import)
from snakemake.workflow import Workflow
print(Workflow._rundir == os.getcwd())
Workflow._rundir = "/elsewhere"
print(Workflow.__new__(Workflow).rundir)
"""


def test_the_run_directory_is_the_cwd_when_snakemake_workflow_is_imported(tmp_path):
    # The tests' Snakemake server imports snakemake.workflow once, then forks each run
    # in its own folder: it sets Workflow._rundir, which Workflow.rundir returns.
    completed = subprocess.run(
        [sys.executable, "-c", RUNDIR], cwd=tmp_path, capture_output=True, text=True, check=True
    )
    assert completed.stdout.split("\n") == ["True", "/elsewhere", ""]
