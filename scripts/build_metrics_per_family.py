"""Step 4: results/metrics_per_family.csv (aggregated_metrics.md §4).

One row per (subject version, family) with at least one scored run, sorted by
(subject_id, family), subject_version breaking ties.
"""

import compute_metrics as cm
from per_run_table import column, groups, read_per_run
from step_io import format_metric, step_logger, write_csv

FAMILY_COLUMNS = [
    "subject_id",
    "subject_version",
    "family",
    "n_runs",
    "n_pass",
    "n_conditional",
    "n_fail",
    "pass_rate_family",
    "mean_clipped_score_family",
]


def family_rows(per_run) -> list[list]:
    rows = []
    for (subject_id, family, subject_version), runs in groups(
        per_run, ["subject_id", "family", "subject_version"]
    ):
        classifications = column(runs, "classification")
        rows.append(
            [
                subject_id,
                subject_version,
                family,
                len(runs),
                classifications.count(cm.PASS),
                classifications.count(cm.CONDITIONAL),
                classifications.count(cm.FAIL),
                format_metric(cm.pass_rate(classifications)),
                format_metric(cm.mean_clipped_score(column(runs, "clipped_score"))),
            ]
        )
    return rows


def main(smk) -> None:
    log = step_logger("metrics_per_family", smk.log[0])
    rows = family_rows(read_per_run(smk.input.per_run))
    write_csv(smk.output[0], FAMILY_COLUMNS, rows)
    log.info("%d (subject version, family) rows written", len(rows))


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake's script directive
