"""Snakemake's params check, as common.smk sets it: the same text, no pandas import."""

import subprocess
import sys

from ro_metrics.engine_settings import hash_params_without_pandas
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


def serialized(mode: str) -> str:
    completed = subprocess.run(
        [sys.executable, "-c", CHECK, mode],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": str(REPO / "scripts")},
    )
    return completed.stdout.strip()


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
