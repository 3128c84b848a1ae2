"""Settings of the Snakemake engine itself that the command line cannot give, and of
the Python processes it runs.

Layer-free: it imports nothing of the package (workflow/rules/common.smk applies it
while the workflow is parsed).
"""

import atexit
import gc
import sys


def hash_params_without_pandas(persistence_class) -> bool:
    """Compare params with Snakemake's builtin serializer, without importing pandas;
    True if applied.

    To record and compare each job's params (the `params` rerun trigger), Snakemake
    picks a serializer that imports pandas whenever pandas is installed, only to hash
    DataFrame params: 0.3 s of every run, a no-op included, in this environment (where
    the changes step needs pandas). Our params are numbers, strings and a dict of
    paths, for which that serializer returns the builtin one's text (repr): the
    recorded params and their comparison are unchanged. Applied only if Snakemake
    still has both (pinned 9.27; a later version keeps its own behaviour).
    """
    chooser = getattr(persistence_class, "_serialize_param", None)
    if not isinstance(chooser, property) or not hasattr(
        persistence_class, "_serialize_param_builtin"
    ):
        return False
    persistence_class._serialize_param = property(lambda self: self._serialize_param_builtin)
    return True


# The modules Snakemake's script preamble looks for among a job's params.
_PARAM_LIBRARIES = ("pandas", "numpy", "polars")


def store_script_params_without_importing(snakemake_class) -> bool:
    """Write a script job's params without importing pandas, numpy or polars; True if
    applied.

    For the preamble of every script job, Snakemake stores the job's params through
    Snakemake._safely_store_params, which imports pandas, numpy and polars to convert
    any DataFrame, Series or array among them: in the main process, on the first
    script job of every run, ~0.5 s (pandas) before that job can start. A param can
    only be one of those objects if its library is imported already, so a library
    not imported yet is reported missing to that method (as when it is not installed)
    and its conversion, which could not apply, is skipped: the stored params are the
    same. Applied only if Snakemake still has that method (pinned 9.27).
    """
    original = getattr(snakemake_class, "_safely_store_params", None)
    if not callable(original):
        return False

    def store_params(self, params):
        missing = [name for name in _PARAM_LIBRARIES if name not in sys.modules]
        for name in missing:
            sys.modules[name] = None  # `import name` raises ModuleNotFoundError
        try:
            return original(self, params)
        finally:
            for name in missing:
                if sys.modules.get(name) is None:
                    del sys.modules[name]

    snakemake_class._safely_store_params = store_params
    return True


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
