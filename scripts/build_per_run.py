"""Step 2: the per-run table, results/per_run.csv (aggregated_metrics.md §2).

One row per checked (case, subject, run, reviewer) tuple, every derived value
computed by compute_metrics, rows sorted by (subject_id, case_id, run_id, reviewer_id).
Runs only after the cross-check accepted the corpus (its verdict is an input).
"""

from operator import itemgetter

import compute_metrics as cm
from step_io import read_json, step_logger, write_csv, write_json

PER_RUN_COLUMNS = [
    "subject_id",
    "subject_version",
    "case_id",
    "family",
    "run_id",
    "reviewer_id",
    "scoring_timestamp_utc",
    "rubric_floor",
    "rubric_ceiling",
    "raw_score",
    "clipped_score",
    "has_critical_fail",
    "has_recoverable_fail",
    "classification",
    "reported_confidence",
    "confidence_unit",
    "correctness",
]


def per_run_row(run: list, gold: dict, family: str) -> list:
    """One row from a scored run of step 1 and the public part of its case's gold."""
    (
        subject_id,
        version,
        case_id,
        run_id,
        reviewer_id,
        timestamp,
        scores,
        severities,
        confidence,
        correctness,
    ) = run
    raw = cm.raw_score(scores)
    clipped = cm.clipped_score(raw, gold["rubric_ceiling"])
    critical = cm.has_critical_fail(severities)
    recoverable = cm.has_recoverable_fail(severities)
    return [
        subject_id,
        version,
        case_id,
        family,
        run_id,
        reviewer_id,
        timestamp,
        gold["rubric_floor"],
        gold["rubric_ceiling"],
        raw,
        clipped,
        critical,
        recoverable,
        cm.classify(clipped, gold["rubric_floor"], critical, recoverable),
        confidence,
        cm.confidence_unit(confidence),
        float(correctness),
    ]


def per_run_rows(runs: list[list], golds: dict) -> list[list]:
    """Rows sorted by (subject_id, case_id, run_id, reviewer_id)."""
    families = {case_id: cm.family_of(case_id) for case_id in golds}
    ordered = sorted(runs, key=itemgetter(0, 2, 3, 4))
    return [per_run_row(run, golds[run[2]], families[run[2]]) for run in ordered]


def write_per_run(rows: list[list], csv_path, table_path) -> None:
    """The table twice: the published CSV, and the same typed rows for steps 3-4.

    Parsing 10^5 CSV rows costs each aggregate step more than its own work; the
    JSON copy carries exactly the same values and reads in a few milliseconds.
    """
    write_csv(csv_path, PER_RUN_COLUMNS, rows)
    write_json(table_path, {"columns": PER_RUN_COLUMNS, "rows": rows})


def main(smk) -> None:
    log = step_logger("per_run", smk.log[0])
    golds = read_json(smk.input.golds)["golds"]
    runs = [run for path in smk.input.runs for run in read_json(path)["scored_runs"]]
    rows = per_run_rows(runs, golds)
    write_per_run(rows, smk.output.csv, smk.output.table)
    log.info("%d per-run rows written", len(rows))


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake's script directive
