"""Settings of the Snakemake engine itself that the command line cannot give, and of
the Python processes it runs.

No method of Snakemake is patched here: a patched private method keeps its name under
a later Snakemake while its behaviour changes unnoticed. A setting that relies on how
Snakemake uses an attribute has a test of that use on the installed Snakemake
(tests/unit/test_snakemake_internals.py), which fails when an upgrade changes it.

Layer-free: it imports nothing of the package (workflow/rules/common.smk applies it
while the workflow is parsed).
"""

import atexit
import gc


def skip_collector_at_exit() -> None:
    """Let this process's exit skip the cyclic garbage collector's passes over the
    objects alive now.

    Python's finalization runs full collections, even with the collector disabled.
    Each one walks every live container. At the end of a run, Snakemake's main process
    holds ~10^5 of them: its 1,000 modules, the workflow and the DAG, more at size L.
    Its exit took 0.25–0.35 s after the last atexit handler, even for a one-rule
    workflow (docs/performance.md).

    `gc.freeze()`, registered here as an atexit handler, moves them to the permanent
    generation, which no collection visits. They are still freed by reference counting
    as the modules are torn down; only a cycle among them is left to the end of the
    process. Objects that later atexit handlers make are collected as usual. Applied
    again, it stays one handler (a test process applies it once per step it runs).
    """
    atexit.unregister(gc.freeze)
    atexit.register(gc.freeze)


def shorten_rate_limiter_timer(settings) -> None:
    """Keep Snakemake's default job rate (100 jobs/s) on a 50 ms window instead of 1 s.

    settings: the run's scheduling settings (`workflow.scheduling_settings`), at onstart.
    The limiter re-checks the queue on a timer thread with the window as delay, and
    the interpreter waits for that thread at exit: with a 1 s window every run that
    executes a job ends up to 1 s late, a third of an incremental run here. The
    command line cannot say it (`10ms` parses as 10 minutes in Snakemake 9.27), and an
    explicit --max-jobs-per-timespan is left as given.

    It changes the settings' MaxJobsPerTimespan in place: Snakemake's JobRateLimiter
    keeps that very object and reads its window at each check, and "100/1s" is the
    command line's default (both checked in tests/unit/test_snakemake_internals.py).
    """
    limit = getattr(settings, "max_jobs_per_timespan", None)
    if limit is not None and (limit.max_jobs, limit.timespan) == (100, 1):
        limit.max_jobs, limit.timespan = 5, 0.05
