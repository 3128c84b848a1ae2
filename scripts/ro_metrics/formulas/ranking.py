"""The leaderboard's ordering, shared by the leaderboard and uncertainty.csv's ranks.

Eligible rows first by Q_final descending; rows whose published (4-decimal) Q_final is
equal share a rank (1, 2, 2, 4) and are ordered by subject_id, subject_version;
Disqualified rows follow, unranked, in the same order (aggregated_metrics.md §3.6).
Rows are those of metrics_per_subject.csv as text, so the ranking uses exactly the
published numbers.

Versions with a withdrawn or invalidated annotation (shared/spec/lifecycle.md,
``left_out``) keep their row and values but leave every active comparison: they are
unranked and come last, in the same order, and rank nobody down.
"""

from ro_metrics.contracts.vocabulary import ELIGIBLE, LEAVES_COMPARISONS

Key = tuple[str, str]


def left_out(annotations) -> frozenset[Key]:
    """The versions that leave every active comparison: those with a withdrawn or
    invalidated annotation (rows of annotations.csv)."""
    return frozenset(
        (row["subject_id"], row["subject_version"])
        for row in annotations
        if row["label"] in LEAVES_COMPARISONS
    )


def active(rows, left: frozenset[Key]) -> list:
    """The rows (dicts with subject_id and subject_version) of versions in active
    comparisons: the inputs of every ranking, interval over ranks, neighbour test and
    findings comparison."""
    return [row for row in rows if (row["subject_id"], row["subject_version"]) not in left]


def ranked(
    subjects: list[dict[str, str]], left: frozenset[Key] = frozenset()
) -> list[dict[str, str]]:
    """Leaderboard order with competition ranks on the published Q_final (module doc);
    ``left``: the versions left out of active comparisons (``left_out``)."""
    by_name = sorted(subjects, key=lambda row: (row["subject_id"], row["subject_version"]))
    comparing = active(by_name, left)
    eligible = [row for row in comparing if row["leaderboard_status"] == ELIGIBLE]
    # sorted() is stable: equal Q_final keeps the (subject_id, subject_version) order.
    eligible.sort(key=lambda row: -float(row["q_final"]))
    ordered = []
    for position, row in enumerate(eligible, start=1):
        tied_with_previous = ordered and float(ordered[-1]["q_final"]) == float(row["q_final"])
        rank = ordered[-1]["rank"] if tied_with_previous else str(position)
        ordered.append({**row, "rank": rank})
    ordered += [{**row, "rank": ""} for row in comparing if row["leaderboard_status"] != ELIGIBLE]
    comparing_keys = {(row["subject_id"], row["subject_version"]) for row in comparing}
    ordered += [
        {**row, "rank": ""}
        for row in by_name
        if (row["subject_id"], row["subject_version"]) not in comparing_keys
    ]
    return ordered


def with_rank_intervals(ordered, uncertainty) -> list[dict[str, str]]:
    """Each row with its 95 % rank interval (empty for a Disqualified row)."""
    rows = []
    for row in ordered:
        interval = uncertainty.get((row["subject_id"], row["subject_version"], "rank"), {})
        rows.append(
            {
                **row,
                "rank_low": interval.get("ci_low", ""),
                "rank_high": interval.get("ci_high", ""),
            }
        )
    return rows


def tie_groups(rows) -> list[int | None]:
    """Tie group of each row: consecutive Eligible rows share one while each row's rank
    interval overlaps the previous row's (uncertainty_methods.md §4); None if unranked."""
    groups, group, previous = [], 0, None
    for row in rows:
        if not row["rank"] or not row["rank_low"]:
            groups.append(None)
            continue
        low, high = int(row["rank_low"]), int(row["rank_high"])
        if previous is None or not (low <= previous[1] and previous[0] <= high):
            group += 1
        groups.append(group)
        previous = (low, high)
    return groups
