"""The leaderboard's ordering, shared by the leaderboard and uncertainty.csv's ranks,
and the reading of the published tables both use.

Eligible rows first by Q_final descending; rows whose published (4-decimal) Q_final is
equal share a rank (1, 2, 2, 4) and are ordered by subject_id, subject_version;
Disqualified rows follow, unranked, in the same order (aggregated_metrics.md §3.6).
"""

import csv

ELIGIBLE = "Eligible"
# The columns of uncertainty.csv, here rather than beside the bootstrap so that the
# leaderboard can read the file without importing numpy.
UNCERTAINTY_COLUMNS = [
    "subject_id",
    "subject_version",
    "metric",
    "estimate",
    "ci_low",
    "ci_high",
    "method",
]


class PublishedTableError(ValueError):
    """A published CSV of the earlier steps is not in the expected format."""


def read_table(path, header: list[str]) -> list[dict[str, str]]:
    """The rows of a CSV written by write_csv, as text, after checking its header."""
    with open(path, encoding="utf-8", newline="") as handle:
        reader = csv.reader(handle)
        found = next(reader, None)
        if found != header:
            raise PublishedTableError(f"{path}: header {found} is not {header}")
        return [dict(zip(header, row, strict=True)) for row in reader]


def ranked(subjects: list[dict[str, str]]) -> list[dict[str, str]]:
    """Leaderboard order with competition ranks on the published Q_final (module doc)."""
    by_name = sorted(subjects, key=lambda row: (row["subject_id"], row["subject_version"]))
    eligible = [row for row in by_name if row["leaderboard_status"] == ELIGIBLE]
    # sorted() is stable: equal Q_final keeps the (subject_id, subject_version) order.
    eligible.sort(key=lambda row: -float(row["q_final"]))
    ordered = []
    for position, row in enumerate(eligible, start=1):
        tied_with_previous = ordered and float(ordered[-1]["q_final"]) == float(row["q_final"])
        rank = ordered[-1]["rank"] if tied_with_previous else str(position)
        ordered.append({**row, "rank": rank})
    ordered += [{**row, "rank": ""} for row in by_name if row["leaderboard_status"] != ELIGIBLE]
    return ordered
