"""The workflow's numbers against an independent, naive reading of the spec, in-process.

The naive side (tests/naive_oracle.py) is written straight from aggregated_metrics.md; it
imports nothing from scripts/. The workflow side here is the real code in-process: the
library functions of steps 2-4 (ro_metrics.formulas.per_run and .aggregates) around a
real per_run.csv. End to end, a full ``snakemake`` run on a small valid corpus written
on disk: tests/workflow/test_metrics_property_workflow.py. The rounding rule of the
comparison is explained in tests/naive_oracle.py.
"""

import tempfile
from pathlib import Path

from hypothesis import example, given, settings

from naive_oracle import (
    FAMILY_HEADER,
    PER_RUN_HEADER,
    SUBJECT_HEADER,
    TIMESTAMPS,
    alphas,
    assert_existence,
    assert_rows,
    corpora,
    edge_corpus,
    naive_tables,
    per_run_cells,
    read_csv_rows,
)
from naive_oracle import METRICS_PROFILE as PROFILE
from ro_metrics.contracts import tables
from ro_metrics.contracts.records import PublicGold, ScoredRun
from ro_metrics.formulas import aggregates
from ro_metrics.formulas import per_run as per_run_formulas

IN_PROCESS_EXAMPLES = 200

# --------------------------------------------------------------------------------------
# Level 1: the step functions, in-process.
# --------------------------------------------------------------------------------------


def step_one_output(runs: list[dict]) -> tuple[list[ScoredRun], dict[str, PublicGold]]:
    """The runs as step 1 hands them to step 2: scored runs and public gold fields."""
    fields = ["subject_id", "subject_version", "case_id", "run_id", "reviewer_id"]
    fields += ["scoring_timestamp_utc", "criterion_scores", "fail_severities"]
    fields += ["confidence", "correctness"]
    golds = {
        run["case_id"]: PublicGold(
            family="",
            case_type="",
            rubric_floor=run["rubric_floor"],
            rubric_ceiling=run["rubric_ceiling"],
        )
        for run in runs
    }
    return [ScoredRun(*(run[field] for field in fields)) for run in runs], golds


def check_steps(runs: list[dict], alpha) -> None:
    """Push runs through the real steps 2-4 and compare every cell with the naive side."""
    per_run, subjects, families = naive_tables(runs, alpha)

    rows = per_run_formulas.per_run_rows(*step_one_output(runs))
    assert_rows(rows, [per_run_cells(r) for r in per_run], as_text=False, table="per_run")

    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "per_run.csv"
        tables.write_csv(path, tables.PER_RUN_COLUMNS, rows)
        tables.write_per_run_table(Path(scratch) / "counted.json", rows)
        header, written = read_csv_rows(path)
        assert header == PER_RUN_HEADER
        assert_rows(written, [per_run_cells(r) for r in per_run], as_text=True, table="per_run")
        table = tables.read_per_run(Path(scratch) / "counted.json")

    subject_rows = aggregates.subject_rows(table, alpha)
    family_rows = aggregates.family_rows(table)
    assert tables.SUBJECT_COLUMNS == SUBJECT_HEADER
    assert tables.FAMILY_COLUMNS == FAMILY_HEADER
    assert_rows(subject_rows, subjects, as_text=False, table="subject")
    assert_rows(family_rows, families, as_text=False, table="family")
    assert_existence(runs, subject_rows, family_rows)


@settings(PROFILE, max_examples=IN_PROCESS_EXAMPLES)
@given(corpus=corpora(), alpha=alphas)
@example(corpus=edge_corpus(), alpha=0.3)
def test_steps_match_naive_implementation(corpus, alpha):
    check_steps(corpus[0], alpha)


def test_every_pair_of_adjacent_confidences_is_binned_as_the_spec_says():
    # One subject per c in 0..99 with two runs, confidence c (correctness 0) and c + 1
    # (correctness 1): their ECE differs according as the spec's literal bins put c and
    # c + 1 together or apart, so every bin edge, and every non-edge, is checked once.
    runs = []
    for c in range(100):
        for number, (confidence, correctness) in enumerate([(c, 0.0), (c + 1, 1.0)], 1):
            runs.append(
                {
                    "subject_id": f"s{c:03d}",
                    "subject_version": "v1",
                    "case_id": "RO-MECH-001",
                    "run_id": f"run-2026-05-12-{number:03d}",
                    "reviewer_id": "R01",
                    "scoring_timestamp_utc": TIMESTAMPS[0],
                    "rubric_floor": 0,
                    "rubric_ceiling": 12,
                    "criterion_scores": [2, 2, 2, 2, 1, 1],
                    "fail_severities": [],
                    "confidence": confidence,
                    "correctness": correctness,
                }
            )
    check_steps(runs, 0.5)
