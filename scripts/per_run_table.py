"""Reading the per-run table back for the aggregate steps (steps 3 and 4).

The standard csv module is enough here and keeps each aggregate job free of a
0.4 s pandas import, which would cost more than the aggregation itself.
"""

import csv
from collections.abc import Iterator
from itertools import groupby
from operator import itemgetter

from build_per_run import PER_RUN_COLUMNS

_INTEGER = ("rubric_floor", "rubric_ceiling", "raw_score", "clipped_score")
_INTEGER += ("reported_confidence",)
_FLOAT = ("confidence_unit", "correctness")
_BOOLEAN = ("has_critical_fail", "has_recoverable_fail")


class PerRunTableError(ValueError):
    """per_run.csv is not what step 2 writes."""


def read_per_run(path) -> list[dict]:
    """per_run.csv as written by step 2, one typed dict per row; text stays text."""
    with open(path, encoding="utf-8", newline="") as handle:
        reader = csv.reader(handle)
        header = next(reader, None)
        if header != PER_RUN_COLUMNS:
            raise PerRunTableError(f"{path}: unexpected columns {header}")
        rows = []
        for number, values in enumerate(reader, start=2):
            row = dict(zip(PER_RUN_COLUMNS, values, strict=True))
            try:
                for column in _INTEGER:
                    row[column] = int(row[column])
                for column in _FLOAT:
                    row[column] = float(row[column])
                for column in _BOOLEAN:
                    row[column] = {"True": True, "False": False}[row[column]]
            except (ValueError, KeyError) as error:
                raise PerRunTableError(f"{path}, line {number}: {error}") from None
            rows.append(row)
    return rows


def column(rows: list[dict], name: str) -> list:
    return [row[name] for row in rows]


def groups(rows: list[dict], keys: list[str]) -> Iterator[tuple[tuple, list[dict]]]:
    """(key values, rows) per group, in the sorted order of the keys."""
    key = itemgetter(*keys)
    for values, members in groupby(sorted(rows, key=key), key=key):
        yield values, list(members)
