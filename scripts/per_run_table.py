"""The per-run table as steps 3 and 4 read it: the columns step 2 wrote beside the CSV."""

from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass

from build_per_run import PER_RUN_COLUMNS
from step_io import read_json


class PerRunTableError(ValueError):
    """The per-run table is not what step 2 writes."""


@dataclass(frozen=True)
class Rows:
    """Some rows of the per-run table (all of them by default)."""

    records: list[list]
    indices: range | list[int]

    def column(self, name: str) -> list:
        position = PER_RUN_COLUMNS.index(name)
        records = self.records
        return [records[index][position] for index in self.indices]

    def __len__(self) -> int:
        return len(self.indices)


def read_per_run(path) -> Rows:
    """The per-run table written by step 2 (build_per_run.write_per_run)."""
    table = read_json(path)
    if table.get("columns") != PER_RUN_COLUMNS:
        raise PerRunTableError(f"{path}: not the per-run table of step 2")
    return Rows(table["rows"], range(len(table["rows"])))


def column(rows: Rows, name: str) -> list:
    return rows.column(name)


def groups(rows: Rows, keys: list[str]) -> Iterator[tuple[tuple, Rows]]:
    """(key values, rows) per group, in the sorted order of the keys."""
    members = defaultdict(list)
    keys_of_rows = zip(*(rows.column(name) for name in keys), strict=True)
    for index, key in zip(rows.indices, keys_of_rows, strict=True):
        members[key].append(index)
    for key in sorted(members):
        yield key, Rows(rows.records, members[key])
