"""Rule uncertainty: results/uncertainty.csv, intervals beside every published metric,
and rankings.json, what the same bootstrap says of the order (ranks of every version on
Q_final, Brier and ECE, Spearman's ρ, the leaderboard's neighbour tests).

The estimates and the statuses are those of metrics_per_subject.csv, read from its
partitions' fragments as publish assembles them; the bootstrap reads each partition's
per-case sums (case_sums.json, written by per_run), never the per-run rows
(ro_metrics.formulas.uncertainty_table; methods in
system/rubric/v1.0/uncertainty_methods.md).
"""

from ro_metrics.contracts.files import step_logger, without_cycle_collector
from ro_metrics.contracts.records import read_case_sums, write_ranking_evidence
from ro_metrics.contracts.tables import (
    SUBJECT_COLUMNS,
    UNCERTAINTY_COLUMNS,
    assembled_table,
    read_annotations,
    write_csv,
)
from ro_metrics.formulas.rank_evidence import ranking_evidence, replicates_without_common_cases
from ro_metrics.formulas.ranking import active, left_out
from ro_metrics.formulas.uncertainty import bootstrap_result, bootstrap_sample, restricted
from ro_metrics.formulas.uncertainty_table import subject_cases, uncertainty_rows


def main(smk) -> None:
    without_cycle_collector()
    log = step_logger("uncertainty", smk.log[0])
    # The rows of metrics_per_subject.csv as their CSV texts.
    metrics = assembled_table(smk.input.metrics_per_subject, SUBJECT_COLUMNS)
    statuses = {(r["subject_id"], r["subject_version"]): r["leaderboard_status"] for r in metrics}
    case_sums = [sums for path in smk.input.case_sums for sums in read_case_sums(path)]
    # Withdrawn and invalidated versions keep their intervals but leave every ranking.
    left = left_out(read_annotations(smk.input.annotations))
    # One draw for both outputs: the rankings read the very replicates of the intervals.
    sample = bootstrap_sample(
        subject_cases(case_sums, statuses, left),
        alpha=smk.params.alpha,
        replicates=smk.params.replicates,
        seed=smk.params.seed,
    )
    result = bootstrap_result(sample)
    rows = uncertainty_rows(metrics, result, left)
    write_csv(smk.output.table, UNCERTAINTY_COLUMNS, rows)
    log.info(
        "%d rows written (%d bootstrap replicates, seed %d)",
        len(rows),
        result.n_replicates,
        smk.params.seed,
    )
    # Ranks, neighbour tests and correlations over the versions in active comparisons.
    comparing = active(metrics, left)
    keys = {(row["subject_id"], row["subject_version"]) for row in comparing}
    evidence = ranking_evidence(restricted(sample, keys), comparing)
    write_ranking_evidence(smk.output.rankings, evidence)
    separable = sum(test.separable for test in evidence.neighbours)
    log.info(
        "rankings: %d ranks, %d neighbour tests (%d separable), %s",
        len(evidence.ranks),
        len(evidence.neighbours),
        separable,
        ", ".join(
            f"Spearman {c.metric} over {c.n_versions} versions ({c.n_undefined} undefined)"
            for c in evidence.correlations
        ),
    )
    for test in evidence.neighbours:
        log.info(
            "neighbours %s · %s > %s · %s: %d common cases, %d replicates without one",
            test.upper_subject_id,
            test.upper_subject_version,
            test.lower_subject_id,
            test.lower_subject_version,
            test.n_common_cases,
            replicates_without_common_cases(sample, test),
        )


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake's script directive
