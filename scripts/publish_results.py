"""Publish the results folder, once every step has succeeded.

Writes coverage.csv and metadata.json from the cross-check's verdict and copies the staged
CSVs of steps 2-4 and the leaderboard (CSV and page). Each file is replaced atomically
(written beside it, then renamed), so a reader or a killed run never sees a half-written
file, and results/ changes only after the whole set was computed.
"""

import hashlib
import sys
from importlib.metadata import version
from pathlib import Path

from step_io import read_json, step_logger, write_bytes_atomic, write_csv, write_json

COVERAGE_COLUMNS = ["subject_id", "subject_version", "n_responses", "n_scored", "n_unscored"]
TOOLS = ("snakemake", "jsonschema", "fastjsonschema", "orjson", "PyYAML", "matplotlib", "numpy")


def file_digest(path) -> str:
    return f"sha256:{hashlib.sha256(Path(path).read_bytes()).hexdigest()}"


def metadata(verdict: dict, leaderboard: dict, params, rubric, methods, schemas) -> dict:
    """What produced the results: parameters, input digest, tools; never a clock.

    The only time in it is the newest scoring's timestamp (the page's "Last update"
    and the default snapshot date), a property of the inputs.
    """
    return {
        "alpha": params.alpha,
        "benchmark_version": params.benchmark_version,
        "newest_scoring_utc": leaderboard["newest_scoring_utc"],
        "uncertainty": {
            "bootstrap_replicates": params.bootstrap_replicates,
            "bootstrap_seed": params.bootstrap_seed,
            "document": f"system/rubric/{params.benchmark_version}/uncertainty_methods.md",
            "digest": file_digest(methods),
        },
        "strict": params.strict,
        "inputs": {
            "digest": f"sha256:{verdict['inputs_digest']}",
            "n_files": verdict["n_files"],
            "n_scored_runs": verdict["n_scored_runs"],
        },
        "rubric": {
            "document": f"system/rubric/{params.benchmark_version}/aggregated_metrics.md",
            "digest": file_digest(rubric),
        },
        "schemas": {Path(path).name: file_digest(path) for path in sorted(schemas)},
        "tools": {
            "python": f"{sys.version_info.major}.{sys.version_info.minor}",
            **{tool: version(tool) for tool in TOOLS},
        },
    }


def remove_stale_staging(folder: Path, names) -> None:
    """Temporary files a killed run left beside the published ones (see write_bytes_atomic)."""
    for name in names:
        for stale in folder.glob(f".{name}.*.tmp"):
            stale.unlink(missing_ok=True)


def main(smk) -> None:
    log = step_logger("publish", smk.log[0])
    remove_stale_staging(Path(smk.output.metadata).parent, [Path(f).name for f in smk.output])
    verdict = read_json(smk.input.verdict)
    copied = ["per_run", "metrics_per_subject", "metrics_per_family", "uncertainty"]
    for name in [*copied, "leaderboard_csv", "leaderboard_html"]:
        write_bytes_atomic(smk.output[name], Path(smk.input[name]).read_bytes())
    write_csv(smk.output.coverage, COVERAGE_COLUMNS, verdict["coverage"])
    leaderboard = read_json(smk.input.leaderboard_summary)
    document = metadata(
        verdict,
        leaderboard,
        smk.params,
        smk.input.rubric,
        smk.input.uncertainty_methods,
        list(smk.input.schemas),
    )
    write_json(smk.output.metadata, document, pretty=True)
    log.info("published %s (inputs %s)", Path(smk.output.metadata).parent, document["inputs"])


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake's script directive
