"""Step 3 (rule metrics_per_subject): results/metrics_per_subject.csv.

One row per (subject_id, subject_version) with a scored run, every value derived
from the per-run table (aggregated_metrics.md §3; ro_metrics.formulas.aggregates).
"""

from ro_metrics.contracts.files import step_logger, without_cycle_collector
from ro_metrics.contracts.tables import SUBJECT_COLUMNS, read_per_run, write_csv
from ro_metrics.formulas.aggregates import subject_rows


def main(smk) -> None:
    without_cycle_collector()
    log = step_logger("metrics_per_subject", smk.log[0])
    rows = subject_rows(read_per_run(smk.input.counted), smk.params.alpha)
    write_csv(smk.output[0], SUBJECT_COLUMNS, rows)
    log.info("%d subject versions written", len(rows))


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake's script directive
