import hashlib
import sys
from pathlib import Path

from snakemake.exceptions import WorkflowError
from snakemake.utils import validate

sys.path.insert(0, str(Path(workflow.basedir) / "scripts"))

from corpus_layout import partition_ids, refresh_manifests


def validate_config(config):
    """Validate the configuration; a bad value is a one-line error."""
    try:
        validate(config, "../schemas/config.schema.yaml")
    except WorkflowError as error:
        cause = next((arg for arg in error.args if hasattr(arg, "message")), None)
        if cause is None:
            raise
        where = ".".join(str(part) for part in cause.absolute_path) or "config"
        raise WorkflowError(f"Invalid configuration: {where}: {cause.message}") from None


validate_config(config)

CORPUS = str(Path(config["corpus"]).absolute())
RESULTS = config["results"].rstrip("/")
VERSION = config["benchmark_version"]
PARTITIONS = partition_ids(config["partitions"])
SCHEMAS = f"{workflow.basedir}/system/schemas/{VERSION}"

# One cache folder per (corpus, results, version): runs on other corpora never
# overwrite each other's manifests or intermediate files.
_CACHE_KEY = hashlib.sha256(
    "\n".join([CORPUS, str(Path(RESULTS).absolute()), VERSION]).encode("utf-8")
).hexdigest()[:16]
CACHE = f"{config['cache'].rstrip('/')}/{_CACHE_KEY}"
MANIFESTS = f"{CACHE}/manifests"
LOGS = f"{CACHE}/logs"

if not Path(CORPUS).is_dir():
    raise WorkflowError(f"Invalid configuration: corpus: {CORPUS} is not a folder")
if not Path(SCHEMAS).is_dir():
    raise WorkflowError(
        f"Invalid configuration: benchmark_version: no schemas for {VERSION} " f"in system/schemas/"
    )

# Job processes (cluster executors) reuse the manifests the main process wrote.
if workflow.is_main_process:
    refresh_manifests(Path(CORPUS), VERSION, config["partitions"], Path(MANIFESTS))
