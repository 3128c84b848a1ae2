"""Snakemake's params check, as common.smk sets it: the same text, no pandas import."""

import subprocess
import sys

from ro_metrics.engine_settings import (
    hash_params_without_pandas,
    store_script_params_without_importing,
)
from support import REPO

CHECK = """
import sys
from snakemake.persistence import PersistenceBase
from snakemake.persistence.file import FilePersistence
from ro_metrics.engine_settings import hash_params_without_pandas
if sys.argv[1] == "applied":
    assert hash_params_without_pandas(PersistenceBase)
persistence = FilePersistence.__new__(FilePersistence)  # the serializers only
texts = [persistence._serialize_param(value) for value in (0.5, "v1.0", 2000, {"a": "b"})]
print(texts, "pandas" in sys.modules)
"""


def printed(code: str, mode: str) -> str:
    """What the code prints in a fresh interpreter (mode: applied or as-shipped)."""
    completed = subprocess.run(
        [sys.executable, "-c", code, mode],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": str(REPO / "scripts")},
    )
    return completed.stdout.strip()


def serialized(mode: str) -> str:
    return printed(CHECK, mode)


def test_params_are_serialized_as_before_without_importing_pandas():
    texts = "['0.5', \"'v1.0'\", '2000', \"{'a': 'b'}\"]"
    # Snakemake's own choice imports pandas (installed here for the changes step).
    assert serialized("as-shipped") == f"{texts} True"
    assert serialized("applied") == f"{texts} False"


def test_nothing_is_changed_in_a_snakemake_without_the_two_serializers():
    class Other:
        _serialize_param = None

    assert not hash_params_without_pandas(Other)
    assert Other._serialize_param is None


SCRIPT_PARAMS = """
import pickle, sys
from snakemake.iocontainers import InputFiles, Log, OutputFiles, Params, Wildcards
from snakemake.iocontainers import Snakemake
from ro_metrics.engine_settings import store_script_params_without_importing
if sys.argv[1] == "applied":
    assert store_script_params_without_importing(Snakemake)
params = Params(fromdict={"alpha": 0.5, "site": "/s", "paths": {"a": "b"}, "n": [1, 2]})
job = Snakemake(
    InputFiles(["in"]), OutputFiles(["out"]), params, Wildcards(), 1, {"mem_mb": 1}, Log(),
    {"k": 1}, "rule", None, "/scripts",
)
print(pickle.dumps(job, protocol=4).hex(), "pandas" in sys.modules)
"""


def script_params(mode: str) -> tuple[str, str]:
    pickled, imported = printed(SCRIPT_PARAMS, mode).split()
    return pickled, imported


def test_a_script_jobs_params_are_stored_as_before_without_importing_pandas():
    shipped, applied = script_params("as-shipped"), script_params("applied")
    assert shipped[1] == "True"  # Snakemake's own method imports pandas
    assert applied == (shipped[0], "False")  # the same bytes for the script, no pandas


def test_a_loaded_library_is_still_used_and_a_missing_method_changes_nothing():
    import pandas  # noqa: F401 - loaded, as for a job whose params could hold a DataFrame

    class Job:
        def _safely_store_params(self, params):
            import pandas as loaded  # what the original does

            return loaded.__name__

    assert store_script_params_without_importing(Job)
    assert Job()._safely_store_params([]) == "pandas"
    assert sys.modules["pandas"] is not None

    class Other:
        pass

    assert not store_script_params_without_importing(Other)


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
