"""Rule publish: the results folder, once every step has succeeded.

Writes coverage.csv and metadata.json from the cross-check's verdict and copies the
staged CSVs of steps 2-4, uncertainty.csv, critical_fails.csv and the leaderboard (CSV
and page). Each file is replaced atomically (written beside it, then renamed), so a
reader or a killed run never sees a half-written file, and results/ changes only after
the whole set was computed.
"""

from pathlib import Path

from ro_metrics.contracts.files import (
    remove_stale_staging,
    step_logger,
    write_bytes_atomic,
    write_json,
)
from ro_metrics.contracts.records import read_leaderboard_summary, read_verdict
from ro_metrics.contracts.tables import COVERAGE_COLUMNS, write_csv
from ro_metrics.publishing.metadata import metadata


def main(smk) -> None:
    log = step_logger("publish", smk.log[0])
    remove_stale_staging(Path(smk.output.metadata).parent, [Path(f).name for f in smk.output])
    verdict = read_verdict(smk.input.verdict)
    copied = ["per_run", "metrics_per_subject", "metrics_per_family", "uncertainty"]
    copied.append("critical_fails")
    for name in [*copied, "leaderboard_csv", "leaderboard_html"]:
        write_bytes_atomic(smk.output[name], Path(smk.input[name]).read_bytes())
    write_csv(smk.output.coverage, COVERAGE_COLUMNS, verdict.coverage)
    leaderboard = read_leaderboard_summary(smk.input.leaderboard_summary)
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
