"""The rows of uncertainty.csv: intervals beside every published metric.

One row per (subject_id, subject_version, metric), sorted by subject_id,
subject_version, then METRIC_ORDER. The estimates are the texts of
metrics_per_subject.csv and the ranks those of the leaderboard; the intervals follow
system/rubric/v1.0/uncertainty_methods.md (formulas/uncertainty.py computes them).
"""

from ro_metrics.contracts.records import CaseSums
from ro_metrics.contracts.tables import Rows, column, format_metric, groups
from ro_metrics.contracts.vocabulary import ELIGIBLE
from ro_metrics.formulas import uncertainty as un
from ro_metrics.formulas.intervals import wilson_interval
from ro_metrics.formulas.metrics import leaderboard_status
from ro_metrics.formulas.ranking import ranked

METRIC_ORDER = [
    "pass_rate",
    "mean_clipped_score",
    "q_final",
    "brier",
    "ece",
    "critical_fail_rate",
    "rank",
    "p_rank_1",
]


def version_case_sums(per_run: Rows) -> list[CaseSums]:
    """Each subject version's per-case sums of its runs (uncertainty.case_sums), sorted by
    (subject_id, subject_version): a partition's case_sums.json."""
    return [
        un.case_sums(
            un.SubjectRuns(
                subject_id=subject_id,
                subject_version=subject_version,
                case_ids=column(runs, "case_id"),
                classifications=column(runs, "classification"),
                clipped_scores=column(runs, "clipped_score"),
                confidences=column(runs, "reported_confidence"),
                correctness=column(runs, "correctness"),
                # Not stored: the uncertainty step reads the status metrics_per_subject
                # publishes (the same leaderboard_status).
                eligible=leaderboard_status(column(runs, "has_critical_fail")) == ELIGIBLE,
            )
        )
        for (subject_id, subject_version), runs in groups(
            per_run, ["subject_id", "subject_version"]
        )
    ]


def subject_cases(case_sums: list[CaseSums], statuses, left=frozenset()) -> list[un.SubjectCases]:
    """The bootstrap's input: each subject version's per-case sums, and whether it is
    ranked (its leaderboard_status in metrics_per_subject.csv, ``statuses``, is Eligible
    and it is not ``left`` out of active comparisons: ranking.left_out)."""
    return [
        un.SubjectCases(
            sums,
            statuses[sums.subject_id, sums.subject_version] == ELIGIBLE
            and (sums.subject_id, sums.subject_version) not in left,
        )
        for sums in case_sums
    ]


def interval(bounds) -> list[str]:
    """Interval ends as published; empty when no replicate defined them."""
    low, high = bounds
    if low != low or high != high:  # NaN: the subject had no run in any replicate
        return ["", ""]
    return [format_metric(low), format_metric(high)]


def pass_rate_interval(row) -> tuple[float, float]:
    return wilson_interval(int(row["n_pass"]), int(row["n_runs"]))


def uncertainty_rows(metrics, result: un.BootstrapResult, left=frozenset()) -> list[list]:
    """The rows of uncertainty.csv from metrics_per_subject.csv rows and the bootstrap;
    ``left``: the versions left out of active comparisons (no rank, no p_rank_1)."""
    ranks = {
        (row["subject_id"], row["subject_version"]): row["rank"] for row in ranked(metrics, left)
    }
    rows = []
    for row in sorted(metrics, key=lambda r: (r["subject_id"], r["subject_version"])):
        key = (row["subject_id"], row["subject_version"])
        n_runs = int(row["n_runs"])
        n_critical = int(row["n_critical_fails"])
        values = {
            "pass_rate": [row["pass_rate"], *map(format_metric, pass_rate_interval(row))],
            "critical_fail_rate": [
                format_metric(n_critical / n_runs),
                format_metric(0.0),
                format_metric(un.clopper_pearson_upper(n_critical, n_runs)),
            ],
        }
        for name in un.BOOTSTRAP_METRICS:
            values[name] = [row[name], *interval(result.intervals[key][name])]
        if key in result.rank_intervals:
            low, high = result.rank_intervals[key]
            values["rank"] = [ranks[key], low, high]
            values["p_rank_1"] = [format_metric(result.p_rank_1[key]), "", ""]
        rows += [
            [*key, name, *values[name], un.METHODS[name]] for name in METRIC_ORDER if name in values
        ]
    return rows
