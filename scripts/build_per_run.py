"""Step 2: the per-run table, results/per_run.csv (aggregated_metrics.md §2).

One row per checked (case, subject, run, reviewer) tuple, every derived value
computed by compute_metrics, rows sorted by (subject_id, case_id, run_id, reviewer_id).
"""

import compute_metrics as cm
from step_io import read_json, step_logger, write_csv

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


def per_run_row(run: dict) -> list:
    raw = cm.raw_score(run["criterion_scores"])
    clipped = cm.clipped_score(raw, run["rubric_ceiling"])
    critical = cm.has_critical_fail(run["fail_severities"])
    recoverable = cm.has_recoverable_fail(run["fail_severities"])
    return [
        run["subject_id"],
        run["subject_version"],
        run["case_id"],
        cm.family_of(run["case_id"]),
        run["run_id"],
        run["reviewer_id"],
        run["scoring_timestamp_utc"],
        run["rubric_floor"],
        run["rubric_ceiling"],
        raw,
        clipped,
        critical,
        recoverable,
        cm.classify(clipped, run["rubric_floor"], critical, recoverable),
        run["confidence"],
        cm.confidence_unit(run["confidence"]),
        float(run["correctness"]),
    ]


def per_run_rows(runs: list[dict]) -> list[list]:
    ordered = sorted(
        runs, key=lambda r: (r["subject_id"], r["case_id"], r["run_id"], r["reviewer_id"])
    )
    return [per_run_row(run) for run in ordered]


def main(smk) -> None:
    log = step_logger("per_run", smk.log[0])
    rows = per_run_rows(read_json(smk.input.checked)["runs"])
    write_csv(smk.output[0], PER_RUN_COLUMNS, rows)
    log.info("%d per-run rows written", len(rows))


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake's script directive
