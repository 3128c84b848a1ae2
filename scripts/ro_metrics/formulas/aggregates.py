"""The rows of the per-subject and per-family tables (aggregated_metrics.md §3-4) and
the calibration bins of the reliability diagrams, from the per-run table."""

from ro_metrics.contracts.tables import Rows, column, format_metric, groups
from ro_metrics.formulas import metrics as cm


def classification_counts(classifications: list[str]) -> list[int]:
    """n_pass, n_conditional, n_fail of some runs."""
    return [classifications.count(name) for name in (cm.PASS, cm.CONDITIONAL, cm.FAIL)]


def subject_row(subject_id: str, subject_version: str, runs: Rows, alpha: float) -> list:
    """One row of metrics_per_subject.csv (tables.SUBJECT_COLUMNS)."""
    classifications = column(runs, "classification")
    clipped = column(runs, "clipped_score")
    confidences = column(runs, "reported_confidence")
    correctness = column(runs, "correctness")
    critical = column(runs, "has_critical_fail")
    return [
        subject_id,
        subject_version,
        len(runs),
        *classification_counts(classifications),
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


def subject_rows(per_run: Rows, alpha: float) -> list[list]:
    """One row per subject version with a scored run, sorted by (subject_id, version)."""
    return [
        subject_row(subject_id, subject_version, runs, alpha)
        for (subject_id, subject_version), runs in groups(
            per_run, ["subject_id", "subject_version"]
        )
    ]


def family_rows(per_run: Rows) -> list[list]:
    """Rows of metrics_per_family.csv (tables.FAMILY_COLUMNS), sorted by (subject_id,
    family), subject_version breaking ties."""
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
                *classification_counts(classifications),
                format_metric(cm.pass_rate(classifications)),
                format_metric(cm.mean_clipped_score(column(runs, "clipped_score"))),
            ]
        )
    return rows


def calibration_of_subjects(per_run: Rows) -> dict[tuple[str, str], list]:
    """(subject_id, subject_version) → its non-empty ECE bins."""
    return {
        key: cm.calibration_bins(column(runs, "reported_confidence"), column(runs, "correctness"))
        for key, runs in groups(per_run, ["subject_id", "subject_version"])
    }
