"""Step 2 (rule per_run): the per-run table, results/per_run.csv (aggregated_metrics.md §2).

One row per checked (case, subject, run, reviewer) tuple, sorted by (subject_id,
case_id, run_id, reviewer_id), written twice (tables.write_per_run): the published
CSV and the same typed rows for steps 3-4; beside it criterion_scores.csv (the six
criterion scores of each run) and a summary for the changes step.

The metrics' rows (per_run.table.json) are the consolidation's runs: per_run.csv's own
rows with one reviewer per run; under double review one per consolidated run, and
beside them per_run_consolidated.csv and pending_runs.csv (multi-reviewer.md).

It reads the loaded runs and golds, not the cross-check's verdict (which changes with
the telemetry too): what it stages is published only once the cross-check accepted
the corpus. On a corpus the cross-check refuses, a scored run of a case without a
(valid) gold is left out here and named there.
"""

from ro_metrics.contracts.files import step_logger, without_cycle_collector
from ro_metrics.contracts.records import (
    PerRunSummary,
    read_consolidation,
    read_golds_summary,
    read_scored_runs,
    write_per_run_summary,
)
from ro_metrics.contracts.tables import (
    CONSOLIDATED_COLUMNS,
    CRITERION_COLUMNS,
    PENDING_COLUMNS,
    write_csv,
    write_per_run,
)
from ro_metrics.contracts.vocabulary import newest_timestamp
from ro_metrics.formulas.per_run import (
    consolidated_rows,
    criterion_rows,
    pending_rows,
    per_run_rows,
)


def main(smk) -> None:
    without_cycle_collector()
    log = step_logger("per_run", smk.log[0])
    golds = read_golds_summary(smk.input.golds).golds
    runs = [run for path in smk.input.runs for run in read_scored_runs(path)]
    without_gold = [run for run in runs if run.case_id not in golds]
    if without_gold:
        log.info(
            "%d scored runs have no (valid) gold; the cross-check names them", len(without_gold)
        )
        runs = [run for run in runs if run.case_id in golds]
    rows = per_run_rows(runs, golds)
    # The runs the metrics count: the consolidation's when it ran (with one reviewer per
    # run, the same rows as per_run.csv's), else per_run.csv's own rows.
    if not smk.params.consolidated:
        write_per_run(rows, smk.output.csv, smk.output.table)
    else:
        consolidation = read_consolidation(smk.input.consolidation)
        counted = per_run_rows(consolidation.runs, golds)
        write_per_run(rows, smk.output.csv, smk.output.table, counted)
    if smk.params.double_review:
        write_csv(
            smk.output.consolidated,
            CONSOLIDATED_COLUMNS,
            consolidated_rows(consolidation.runs, golds),
        )
        write_csv(smk.output.pending, PENDING_COLUMNS, pending_rows(consolidation.pending))
        log.info(
            "%d consolidated runs, %d pending their review",
            len(consolidation.runs),
            len(consolidation.pending),
        )
    write_csv(smk.output.criteria, CRITERION_COLUMNS, criterion_rows(runs))
    newest = newest_timestamp(run.scoring_timestamp_utc for run in runs) if runs else ""
    write_per_run_summary(smk.output.summary, PerRunSummary(len(rows), newest))
    log.info("%d per-run rows written", len(rows))


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake's script directive
