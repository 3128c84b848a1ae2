"""The rows of the per-run table (aggregated_metrics.md §2), one per scored run, and
under double review those of the consolidated per-run table and of the pending runs
(multi-reviewer.md)."""

from operator import attrgetter

from ro_metrics.contracts.records import ConsolidatedRun, PendingRun, PublicGold, ScoredRun
from ro_metrics.contracts.tables import pending_order
from ro_metrics.contracts.vocabulary import family_of
from ro_metrics.formulas import metrics as cm
from ro_metrics.formulas.consolidation import exact_number


def per_run_row(run: ScoredRun | ConsolidatedRun, gold: PublicGold, family: str) -> list:
    """One row (tables.PER_RUN_COLUMNS) from a scored run and its case's public gold.

    A consolidated run's mean raw score may be a half (written 8.5; an integral one 9).
    """
    raw = exact_number(cm.raw_score(run.criterion_scores))
    clipped = cm.clipped_score(raw, gold.rubric_ceiling)
    critical = cm.has_critical_fail(run.fail_severities)
    recoverable = cm.has_recoverable_fail(run.fail_severities)
    return [
        run.subject_id,
        run.subject_version,
        run.case_id,
        family,
        run.run_id,
        run.reviewer_id,
        run.scoring_timestamp_utc,
        gold.rubric_floor,
        gold.rubric_ceiling,
        raw,
        clipped,
        critical,
        recoverable,
        cm.classify(clipped, gold.rubric_floor, critical, recoverable),
        run.reported_confidence,
        cm.confidence_unit(run.reported_confidence),
        float(run.correctness),
    ]


def in_table_order(runs: list) -> list:
    """The order of the per-run table: (subject_id, case_id, run_id, reviewer_id)."""
    return sorted(runs, key=attrgetter("subject_id", "case_id", "run_id", "reviewer_id"))


def per_run_rows(
    runs: list[ScoredRun] | list[ConsolidatedRun], golds: dict[str, PublicGold]
) -> list[list]:
    """Rows sorted by (subject_id, case_id, run_id, reviewer_id)."""
    families = {case_id: family_of(case_id) for case_id in golds}
    return [
        per_run_row(run, golds[run.case_id], families[run.case_id]) for run in in_table_order(runs)
    ]


def criterion_rows(runs: list[ScoredRun]) -> list[list]:
    """The rows of criterion_scores.csv (tables.CRITERION_COLUMNS), in per-run order."""
    return [
        [
            run.subject_id,
            run.subject_version,
            run.case_id,
            run.run_id,
            run.reviewer_id,
            *run.criterion_scores,
        ]
        for run in in_table_order(runs)
    ]


def consolidated_rows(runs: list[ConsolidatedRun], golds: dict[str, PublicGold]) -> list[list]:
    """The rows of per_run_consolidated.csv (tables.CONSOLIDATED_COLUMNS), one per run the
    metrics count, by (subject_id, case_id, run_id): per_run.csv's values of the run, its
    method and reviewers."""
    rows = []
    for run in sorted(runs, key=attrgetter("subject_id", "case_id", "run_id")):
        row = per_run_row(run, golds[run.case_id], family_of(run.case_id))
        rows.append(
            [
                *row[:5],
                run.method,
                ";".join(run.primary_ids),
                run.arbiter_id,
                *row[7:],
            ]
        )
    return rows


def pending_rows(pending: list[PendingRun], files_of) -> list[list]:
    """The rows of pending_runs.csv (tables.PENDING_COLUMNS), the committee's worklist:
    every run left out of R for its review, with its files (files_of(run): the response
    file and the primaries' scoring files, paths in the corpus), the second review's
    timestamp, the eligible arbiters and the primaries who raised a critical fail;
    pending critical-fail disagreements first, then by (subject_id, subject_version,
    case_id, run_id)."""
    rows = []
    for run in pending:
        response_file, scoring_files = files_of(run)
        rows.append(
            [
                run.subject_id,
                run.subject_version,
                run.case_id,
                family_of(run.case_id),
                run.run_id,
                run.status,
                ";".join(run.primary_ids),
                ";".join(run.divergent),
                run.critical_disagreement,
                run.second_review_utc,
                ";".join(run.eligible_arbiters),
                ";".join(outcome[0] for outcome in run.outcomes if outcome[3]),
                response_file,
                ";".join(scoring_files),
            ]
        )
    return sorted(rows, key=pending_order)
