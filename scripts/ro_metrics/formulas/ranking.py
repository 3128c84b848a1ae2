"""The leaderboard's ordering, shared by the leaderboard and uncertainty.csv's ranks.

Eligible rows first by Q_final descending; rows whose published (4-decimal) Q_final is
equal share a rank (1, 2, 2, 4) and are ordered by subject_id, subject_version;
Disqualified rows follow, unranked, in the same order (aggregated_metrics.md §3.6).
Rows are those of metrics_per_subject.csv as text, so the ranking uses exactly the
published numbers.
"""

from ro_metrics.contracts.vocabulary import ELIGIBLE


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
