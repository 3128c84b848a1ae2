"""Step 4 (rule metrics_per_family): results/metrics_per_family.csv (aggregated_metrics.md §4).

One row per (subject version, family) with at least one scored run, sorted by
(subject_id, family), subject_version breaking ties (ro_metrics.formulas.aggregates).
"""

from ro_metrics.contracts.files import step_logger, without_cycle_collector
from ro_metrics.contracts.tables import FAMILY_COLUMNS, read_per_run, write_csv
from ro_metrics.formulas.aggregates import family_rows


def main(smk) -> None:
    without_cycle_collector()
    log = step_logger("metrics_per_family", smk.log[0])
    rows = family_rows(read_per_run(smk.input.counted))
    write_csv(smk.output[0], FAMILY_COLUMNS, rows)
    log.info("%d (subject version, family) rows written", len(rows))


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake's script directive
