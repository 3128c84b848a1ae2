"""Step 3: results/metrics_per_subject.csv, one row per (subject_id, subject_version).

Every value derives from per_run.csv (aggregated_metrics.md §3); a version with no
scored run has no row.
"""

import compute_metrics as cm
from per_run_table import column, groups, read_per_run
from step_io import format_metric, step_logger, write_csv

SUBJECT_COLUMNS = [
    "subject_id",
    "subject_version",
    "n_runs",
    "n_pass",
    "n_conditional",
    "n_fail",
    "n_critical_fails",
    "n_recoverable_fails",
    "pass_rate",
    "mean_clipped_score",
    "brier",
    "ece",
    "alpha",
    "q_final",
    "leaderboard_status",
]


def subject_row(subject_id: str, subject_version: str, runs, alpha: float) -> list:
    classifications = column(runs, "classification")
    clipped = column(runs, "clipped_score")
    confidences = column(runs, "reported_confidence")
    correctness = column(runs, "correctness")
    critical = column(runs, "has_critical_fail")
    return [
        subject_id,
        subject_version,
        len(runs),
        classifications.count(cm.PASS),
        classifications.count(cm.CONDITIONAL),
        classifications.count(cm.FAIL),
        cm.n_critical_fails(critical),
        sum(column(runs, "has_recoverable_fail")),
        format_metric(cm.pass_rate(classifications)),
        format_metric(cm.mean_clipped_score(clipped)),
        format_metric(cm.brier_score(confidences, correctness)),
        format_metric(cm.expected_calibration_error(confidences, correctness)),
        format_metric(alpha),
        format_metric(cm.q_final(classifications, clipped, alpha)),
        cm.leaderboard_status(critical),
    ]


def subject_rows(per_run, alpha: float) -> list[list]:
    return [
        subject_row(subject_id, subject_version, runs, alpha)
        for (subject_id, subject_version), runs in groups(
            per_run, ["subject_id", "subject_version"]
        )
    ]


def main(smk) -> None:
    log = step_logger("metrics_per_subject", smk.log[0])
    rows = subject_rows(read_per_run(smk.input.per_run), smk.params.alpha)
    write_csv(smk.output[0], SUBJECT_COLUMNS, rows)
    log.info("%d subject versions written", len(rows))


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake's script directive
