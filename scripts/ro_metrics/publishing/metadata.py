"""metadata.json: what produced the published results (parameters, digests, tools)."""

import hashlib
import sys
from importlib.metadata import version
from pathlib import Path

from ro_metrics.contracts.records import LeaderboardSummary, Verdict

TOOLS = ("snakemake", "jsonschema", "fastjsonschema", "orjson", "PyYAML", "matplotlib", "numpy")


def file_digest(path) -> str:
    return f"sha256:{hashlib.sha256(Path(path).read_bytes()).hexdigest()}"


def metadata(
    verdict: Verdict, leaderboard: LeaderboardSummary, params, rubric, methods, schemas
) -> dict:
    """What produced the results: parameters, input digest, tools; never a clock.

    The only time in it is the newest scoring's timestamp (the page's "Last update"
    and the default snapshot date), a property of the inputs.
    """
    return {
        "alpha": params.alpha,
        "benchmark_version": params.benchmark_version,
        "newest_scoring_utc": leaderboard.newest_scoring_utc,
        "uncertainty": {
            "bootstrap_replicates": params.bootstrap_replicates,
            "bootstrap_seed": params.bootstrap_seed,
            "document": f"system/rubric/{params.benchmark_version}/uncertainty_methods.md",
            "digest": file_digest(methods),
        },
        "strict": params.strict,
        "inputs": {
            "digest": f"sha256:{verdict.inputs_digest}",
            "n_files": verdict.n_files,
            "n_scored_runs": verdict.n_scored_runs,
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
