"""What the workflow and its tests rely on in Snakemake beyond its documented interface,
checked on the installed Snakemake.

Each use is named at its place with the reason it is needed. A Snakemake upgrade that
changes one of them fails here, by name, instead of changing a run's behaviour
unnoticed (a run ending a second late, a test run in the wrong folder).
"""

import subprocess
import sys
import time
from types import SimpleNamespace

from snakemake.cli import get_argument_parser
from snakemake.scheduling.job_scheduler import JobRateLimiter
from snakemake.settings.types import MaxJobsPerTimespan

from ro_metrics.engine_settings import shorten_rate_limiter_timer

# engine_settings.shorten_rate_limiter_timer: the scheduling settings' MaxJobsPerTimespan


def test_the_command_lines_default_rate_is_100_jobs_per_second():
    limit = get_argument_parser().parse_args([]).max_jobs_per_timespan
    assert (limit.max_jobs, limit.timespan) == (100, 1)


def test_a_window_in_milliseconds_cannot_be_given_on_the_command_line():
    # `10ms` is read as 10 minutes: the reason the window is set in code.
    assert MaxJobsPerTimespan.parse_choice("5/50ms").timespan == 50 * 60


def test_the_rate_limiter_reads_the_window_shortened_after_it_was_made():
    limit = MaxJobsPerTimespan(100)
    limiter = JobRateLimiter(limit)
    shorten_rate_limiter_timer(SimpleNamespace(max_jobs_per_timespan=limit))
    assert (limiter.max_jobs, limiter.timespan) == (5, 0.05)
    limiter.register_jobs(5)
    assert limiter.get_free_jobs() == 0
    time.sleep(0.06)
    assert limiter.get_free_jobs() == 5


def test_a_rate_given_on_the_command_line_is_left_as_given():
    arguments = get_argument_parser().parse_args(["--max-jobs-per-timespan", "10/1s"])
    given = arguments.max_jobs_per_timespan
    shorten_rate_limiter_timer(SimpleNamespace(max_jobs_per_timespan=given))
    assert (given.max_jobs, given.timespan) == (10, 1)
    shorten_rate_limiter_timer(SimpleNamespace(max_jobs_per_timespan=None))  # no limiter: no-op


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
