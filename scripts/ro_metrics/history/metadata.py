"""metadata.json: what produced the published results (parameters, digests, tools)."""

import hashlib
import sys
from importlib.metadata import version
from pathlib import Path

from ro_metrics.contracts.records import Verdict

TOOLS = (
    "snakemake",
    "jsonschema",
    "fastjsonschema",
    "orjson",
    "PyYAML",
    "numpy",
    "pandas",
)
# The version of this workflow's computations. Raise it with any change that can
# change a published value for the same inputs (a formula, a rounding, a new column),
# so that the changes report of the next run names it as the cause instead of
# leaving the moved numbers unexplained. Refactorings that change no output keep it.
WORKFLOW_VERSION = "1.1"
# The published table of per-file input digests, named in metadata.json.
INPUT_FILES_TABLE = "input_files.csv"


def file_digest(path) -> str:
    return f"sha256:{hashlib.sha256(Path(path).read_bytes()).hexdigest()}"


def provenance(params, rubric, methods, schemas) -> dict:
    """Everything besides the inputs that the published values depend on: parameters,
    the workflow's version, the rubric, methods and schemas it follows, its tools."""
    return {
        "alpha": params.alpha,
        "benchmark_version": params.benchmark_version,
        "uncertainty": {
            "bootstrap_replicates": params.bootstrap_replicates,
            "bootstrap_seed": params.bootstrap_seed,
            "document": f"system/rubric/{params.benchmark_version}/uncertainty_methods.md",
            "digest": file_digest(methods),
        },
        "strict": params.strict,
        "rubric": {
            "document": f"system/rubric/{params.benchmark_version}/aggregated_metrics.md",
            "digest": file_digest(rubric),
        },
        "schemas": {Path(path).name: file_digest(path) for path in sorted(schemas)},
        "tools": {
            "python": f"{sys.version_info.major}.{sys.version_info.minor}",
            **{tool: version(tool) for tool in TOOLS},
        },
        "workflow_version": WORKFLOW_VERSION,
    }


def metadata(
    verdict: Verdict,
    newest_scoring_utc: str,
    params,
    rubric,
    methods,
    schemas,
    optional_inputs: dict[str, str] | None = None,
) -> dict:
    """What produced the results: parameters, input digests, tools; never a clock.

    The only time in it is the newest scoring's timestamp (the page's "Last update"
    and the default snapshot date), a property of the inputs. The digest of each
    input file is in input_files.csv beside it (at 10^5 files, a map here would make
    this small document 20 MB). optional_inputs: the optional corpus files present
    (path in the corpus → the file, subjects/annotations.yaml), each digest under
    inputs.optional_files; the key is absent when there is none.
    """
    inputs = {
        "digest": f"sha256:{verdict.inputs_digest}",
        "files": INPUT_FILES_TABLE,
        "n_files": verdict.n_files,
        "n_scored_runs": verdict.n_scored_runs,
    }
    if optional_inputs:
        inputs["optional_files"] = {
            name: file_digest(path) for name, path in sorted(optional_inputs.items())
        }
    return {
        **provenance(params, rubric, methods, schemas),
        "newest_scoring_utc": newest_scoring_utc,
        "inputs": inputs,
    }
