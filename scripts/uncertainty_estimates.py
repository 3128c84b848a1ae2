"""Rule uncertainty: results/uncertainty.csv, intervals beside every published metric.

The estimates are the texts of metrics_per_subject.csv: the same function computes
them from the same per-run table, so this step runs beside step 3 instead of after
it (ro_metrics.formulas.uncertainty_table; methods in
system/rubric/v1.0/uncertainty_methods.md).
"""

from ro_metrics.contracts.files import step_logger, without_cycle_collector
from ro_metrics.contracts.tables import (
    SUBJECT_COLUMNS,
    UNCERTAINTY_COLUMNS,
    read_per_run,
    write_csv,
)
from ro_metrics.formulas.aggregates import subject_rows
from ro_metrics.formulas.uncertainty import paired_case_bootstrap
from ro_metrics.formulas.uncertainty_table import subject_runs, uncertainty_rows


def main(smk) -> None:
    without_cycle_collector()
    log = step_logger("uncertainty", smk.log[0])
    per_run = read_per_run(smk.input.per_run)
    # The rows of metrics_per_subject.csv as their CSV texts (write_csv writes str()).
    metrics = [
        dict(zip(SUBJECT_COLUMNS, map(str, row), strict=True))
        for row in subject_rows(per_run, smk.params.alpha)
    ]
    statuses = {(r["subject_id"], r["subject_version"]): r["leaderboard_status"] for r in metrics}
    result = paired_case_bootstrap(
        subject_runs(per_run, statuses),
        alpha=smk.params.alpha,
        replicates=smk.params.replicates,
        seed=smk.params.seed,
    )
    rows = uncertainty_rows(metrics, result)
    write_csv(smk.output[0], UNCERTAINTY_COLUMNS, rows)
    log.info(
        "%d rows written (%d bootstrap replicates, seed %d)",
        len(rows),
        result.n_replicates,
        smk.params.seed,
    )


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake's script directive
