"""The rows of the per-run table (aggregated_metrics.md §2), one per scored run."""

from operator import attrgetter

from ro_metrics.contracts.records import PublicGold, ScoredRun
from ro_metrics.contracts.vocabulary import family_of
from ro_metrics.formulas import metrics as cm


def per_run_row(run: ScoredRun, gold: PublicGold, family: str) -> list:
    """One row (tables.PER_RUN_COLUMNS) from a scored run and its case's public gold."""
    raw = cm.raw_score(run.criterion_scores)
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


def in_table_order(runs: list[ScoredRun]) -> list[ScoredRun]:
    """The order of the per-run table: (subject_id, case_id, run_id, reviewer_id)."""
    return sorted(runs, key=attrgetter("subject_id", "case_id", "run_id", "reviewer_id"))


def per_run_rows(runs: list[ScoredRun], golds: dict[str, PublicGold]) -> list[list]:
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
