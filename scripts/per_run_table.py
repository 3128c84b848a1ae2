"""Step 2 (rule per_run, one job per partition): the partition's per-run tables.

The runs the metrics count are consolidated here (ro_metrics.corpus.reviewers.consolidate,
multi-reviewer.md): with one reviewer per run each run is its one scoring (method
"single", the identity), under double review the mean of two agreeing primaries or an
arbiter's scoring, or pending and left out. From them and the public golds:

- per_run.csv's rows (aggregated_metrics.md §2): one per checked (case, subject, run,
  reviewer), every scoring, sorted by (subject_id, case_id, run_id, reviewer_id); and
  criterion_scores.csv's, in the same order;
- per_run_consolidated.csv's and pending_runs.csv's rows (published under double review);
- critical_fails.csv's rows: each critical fail of a scoring that counts, with the model's
  own words behind it (ro_metrics.formulas.evidence);
- counted.json: the per-run rows of the runs that count, typed, for the metrics;
- tallies.json (records.GroupTally): those rows summed per (subject, version, family),
  integers, for the findings (formulas.findings.group_tallies);
- case_sums.json (records.CaseSums): each subject version's counted runs reduced to
  integer sums per case, all the uncertainty step's bootstrap reads of them;
- consolidation.json: which scoring of each run counts, for the site's pages;
- reviews.json (records.PartitionReviews): the reviews' problems and pending scorings,
  the review pairs, the pending runs and the newest scoring, for the global steps.

It reads the loaded runs and golds, not the cross-check's verdict (which changes with the
telemetry too): what it makes is published only once the cross-check accepted the
corpus. A scored run of a case without a (valid) gold is left out here and named there.
"""

from pathlib import Path

from ro_metrics.contracts.files import step_logger, without_cycle_collector
from ro_metrics.contracts.records import (
    PartitionReviews,
    read_critical_fails,
    read_golds_summary,
    read_scored_runs,
    write_case_sums,
    write_consolidation,
    write_group_tallies,
    write_partition_reviews,
)
from ro_metrics.contracts.tables import (
    CONSOLIDATED_COLUMNS,
    CRITERION_COLUMNS,
    CRITICAL_FAIL_COLUMNS,
    PENDING_COLUMNS,
    PER_RUN_COLUMNS,
    Rows,
    write_csv,
    write_per_run_table,
)
from ro_metrics.contracts.vocabulary import newest_timestamp
from ro_metrics.corpus.layout import REVIEWERS, response_path, scoring_path
from ro_metrics.corpus.reviewers import consolidate, read_reviewers
from ro_metrics.formulas.consolidation import ReviewPolicy, counted_scorings
from ro_metrics.formulas.evidence import critical_fail_rows
from ro_metrics.formulas.findings import group_tallies
from ro_metrics.formulas.per_run import (
    consolidated_rows,
    criterion_rows,
    pending_rows,
    per_run_rows,
)
from ro_metrics.formulas.uncertainty_table import version_case_sums


def main(smk) -> None:
    without_cycle_collector()
    log = step_logger("per_run", smk.log[0])
    policy = ReviewPolicy(**smk.params.policy)
    policy = policy._replace(divergence_rules=tuple(policy.divergence_rules))
    golds = read_golds_summary(smk.input.golds).golds
    runs = read_scored_runs(smk.input.runs)
    without_gold = [run for run in runs if run.case_id not in golds]
    if without_gold:
        log.info(
            "%d scored runs have no (valid) gold; the cross-check names them", len(without_gold)
        )
        runs = [run for run in runs if run.case_id in golds]

    corpus = Path(smk.params.corpus)
    registry_problems = []
    reviewers = read_reviewers(
        corpus,
        smk.input.reviewers_schema,
        smk.params.max_file_bytes,
        lambda path, message: registry_problems.append((path, message)),
    )
    result = consolidate(
        runs,
        golds,
        reviewers,
        policy,
        smk.params.benchmark_version,
        registry_missing=not (corpus / REVIEWERS).is_file(),
    )
    consolidation = result.consolidation

    write_csv(smk.output.per_run, PER_RUN_COLUMNS, per_run_rows(runs, golds))
    write_csv(smk.output.criterion_scores, CRITERION_COLUMNS, criterion_rows(runs))
    write_csv(
        smk.output.per_run_consolidated,
        CONSOLIDATED_COLUMNS,
        consolidated_rows(consolidation.runs, golds),
    )
    version = smk.params.benchmark_version

    def files_of(run):
        return response_path(version, run.subject_id, run.case_id, run.run_id), [
            scoring_path(version, run.subject_id, run.case_id, run.run_id, reviewer)
            for reviewer in run.primary_ids
        ]

    write_csv(
        smk.output.pending_runs, PENDING_COLUMNS, pending_rows(consolidation.pending, files_of)
    )
    counted = counted_scorings(consolidation.runs)
    fails = [
        fail
        for fail in read_critical_fails(smk.input.critical_fails)
        if (fail.subject_id, fail.case_id, fail.run_id, fail.reviewer_id) in counted
    ]
    write_csv(smk.output.critical_fails, CRITICAL_FAIL_COLUMNS, critical_fail_rows(fails))
    counted_rows = per_run_rows(consolidation.runs, golds)
    write_per_run_table(smk.output.counted, counted_rows)
    counted_table = Rows(counted_rows, range(len(counted_rows)))
    write_group_tallies(smk.output.tallies, group_tallies(counted_table))
    write_case_sums(smk.output.case_sums, version_case_sums(counted_table))
    write_consolidation(smk.output.consolidation, consolidation)
    newest = newest_timestamp(run.scoring_timestamp_utc for run in runs) if runs else ""
    write_partition_reviews(
        smk.output.reviews,
        PartitionReviews(
            reviewers_per_run=policy.reviewers_per_run,
            problems=sorted([*registry_problems, *result.problems]),
            pending_scorings=result.pending,
            pairs=result.pairs,
            pending=consolidation.pending,
            newest_scoring_utc=newest,
            unneeded_arbiters=result.unneeded_arbiters,
        ),
    )
    log.info(
        "%d per-run rows, %d runs counted, %d pending their review, %d review pairs, "
        "%d critical fails of the scorings that count, %d problem(s)",
        len(runs),
        len(consolidation.runs),
        len(consolidation.pending),
        len(result.pairs),
        len(fails),
        len(registry_problems) + len(result.problems),
    )


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake's script directive
