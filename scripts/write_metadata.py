"""results/metadata.json: what produced the published results.

The parameters, a digest of every input file's content and the versions of the
tools, and nothing that changes between two runs on the same inputs (no clock).
"""

import hashlib
import sys
from importlib.metadata import version
from pathlib import Path

from step_io import read_json, step_logger, write_json

TOOLS = ("snakemake", "pandas", "jsonschema", "fastjsonschema", "orjson", "PyYAML")


def file_digest(path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def metadata(checked: dict, params, rubric: str, schemas: list[str]) -> dict:
    return {
        "alpha": params.alpha,
        "benchmark_version": params.benchmark_version,
        "strict": params.strict,
        "inputs": {
            "digest": f"sha256:{checked['inputs_digest']}",
            "n_files": checked["n_files"],
            "n_scored_runs": len(checked["runs"]),
        },
        "rubric": {
            "document": f"system/rubric/{params.benchmark_version}/aggregated_metrics.md",
            "digest": f"sha256:{file_digest(rubric)}",
        },
        "schemas": {Path(path).name: f"sha256:{file_digest(path)}" for path in sorted(schemas)},
        "tools": {
            "python": f"{sys.version_info.major}.{sys.version_info.minor}",
            **{tool: version(tool) for tool in TOOLS},
        },
    }


def main(smk) -> None:
    log = step_logger("metadata", smk.log[0])
    document = metadata(
        read_json(smk.input.checked), smk.params, smk.input.rubric, list(smk.input.schemas)
    )
    write_json(smk.output[0], document, pretty=True)
    log.info("inputs digest %s", document["inputs"]["digest"])


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake's script directive
