"""Reading the per-run table back for the aggregate steps (steps 3 and 4)."""

import pandas as pd

from build_per_run import PER_RUN_COLUMNS

_TEXT = ["subject_id", "subject_version", "case_id", "family", "run_id", "reviewer_id"]
_TEXT += ["scoring_timestamp_utc", "classification"]
_INTEGER = ["rubric_floor", "rubric_ceiling", "raw_score", "clipped_score"]
_INTEGER += ["reported_confidence"]
_BOOLEAN = ["has_critical_fail", "has_recoverable_fail"]


def read_per_run(path) -> pd.DataFrame:
    """per_run.csv as written by step 2; text stays text ("NA" is a version, not NaN)."""
    table = pd.read_csv(
        path,
        dtype={
            **dict.fromkeys(_TEXT, str),
            **dict.fromkeys(_INTEGER, "int64"),
            "confidence_unit": "float64",
            "correctness": "float64",
        },
        keep_default_na=False,
        na_filter=False,
    )
    if list(table.columns) != PER_RUN_COLUMNS:
        raise ValueError(f"{path}: unexpected columns {list(table.columns)}")
    for column in _BOOLEAN:
        values = table[column].astype(str)
        if not values.isin(["True", "False"]).all():
            raise ValueError(f"{path}: {column} holds values other than True/False")
        table[column] = values == "True"
    return table


def groups(table: pd.DataFrame, keys: list[str]):
    """(key values, rows) per group, in the sorted order of the keys."""
    if table.empty:
        return
    yield from table.groupby(keys, sort=True)
