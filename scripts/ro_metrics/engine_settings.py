"""How the Python processes of a run exit: Snakemake's main process and each step's.

Only public standard-library calls: the workflow patches nothing of Snakemake (a
patched private method would change behaviour unnoticed under a later Snakemake).

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
