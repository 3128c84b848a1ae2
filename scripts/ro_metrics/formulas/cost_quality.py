"""Cost, latency and quality (findings.md § 6): the `cost` subtree of findings.json.

findings.md § 6: "From `operational_per_subject.csv` joined with the metrics: cost per
case: mean_input_tokens × price_per_input_token_usd + mean_output_tokens ×
price_per_output_token_usd (empty when a price is missing); median and p95 latency; the
cheapest and the most expensive version, and the ratio of any two; the Pareto frontier
on (cost per case ↓, Q_final ↑), over all versions and over eligible versions: the
versions no other version beats on both. [...] Without telemetry the section says so and
has no numbers."

Every value comes from the published texts (operational_per_subject.csv,
metrics_per_subject.csv) read as exact decimals, so a reader can redo each fact from the
CSVs: cost and Q_final are Fractions, ratios exact. Plain Python, no table library.
"""

from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import NamedTuple

from ro_metrics.contracts.records import fraction_fact
from ro_metrics.contracts.vocabulary import ELIGIBLE
from ro_metrics.formulas.operational import cost_per_case

NO_TELEMETRY = (
    "No scored version has runner telemetry (telemetry.md's batch logs), so cost per case "
    "and latency are not known: this section has no numbers."
)


class CostQualityPoint(NamedTuple):
    """A priced version on the cost × quality plane (the frontier's and the chart's)."""

    subject_version: str
    cost_per_case_usd: Fraction
    q_final: Fraction


def cost_ratio(cost_a: Fraction, cost_b: Fraction) -> Fraction | None:
    """The ratio of two versions' costs ("A costs N× B"): N = cost_a / cost_b; None when
    cost_b is 0 (no multiple of nothing)."""
    return cost_a / cost_b if cost_b else None


def cheapest(costs: dict[str, Fraction]) -> list[str]:
    """The cheapest version: every version whose cost is the least (ties: all of them,
    in the order of `costs`)."""
    least = min(costs.values(), default=None)
    return [version for version, cost in costs.items() if cost == least]


def most_expensive(costs: dict[str, Fraction]) -> list[str]:
    """The most expensive version: every version whose cost is the greatest (ties: all
    of them, in the order of `costs`)."""
    most = max(costs.values(), default=None)
    return [version for version, cost in costs.items() if cost == most]


def dominates(a: CostQualityPoint, b: CostQualityPoint) -> bool:
    """a beats b on both: cost_a ≤ cost_b and Q_a ≥ Q_b, one of them strict."""
    no_worse = a.cost_per_case_usd <= b.cost_per_case_usd and a.q_final >= b.q_final
    better = a.cost_per_case_usd < b.cost_per_case_usd or a.q_final > b.q_final
    return no_worse and better


def pareto_frontier(points: Sequence[CostQualityPoint]) -> list[CostQualityPoint]:
    """The Pareto frontier on (cost per case ↓, Q_final ↑): the points no other point
    dominates, sorted by cost ascending (then Q_final descending, then the order of
    `points`: two equal points are both on it, neither beating the other)."""
    frontier = [p for p in points if not any(dominates(other, p) for other in points)]
    return sorted(frontier, key=lambda p: (p.cost_per_case_usd, -p.q_final))


def cost_facts(
    operational_rows: list[dict[str, str]] | None,
    subjects: list[dict[str, str]],
    order: list[str],
) -> dict:
    """The `cost` subtree of findings.json (docs/findings-json.md).

    operational_rows: operational_per_subject.csv's rows as texts, None (or none) without
    telemetry; subjects: metrics_per_subject.csv's rows as texts (q_final,
    leaderboard_status); order: the subject_versions in the leaderboard's order, which
    every list follows and which alone are reported (a telemetry row of another version
    has no scored run to compare).
    """
    if not operational_rows:
        return {"has_telemetry": False, "reason": NO_TELEMETRY}
    by_version = {row["subject_version"]: row for row in operational_rows}
    subject_of = {row["subject_version"]: row for row in subjects}
    versions, costs = {}, {}
    for version in order:
        row = by_version.get(version)
        cost = None if row is None else cost_per_case(row)
        if cost is not None:
            costs[version] = cost
        versions[version] = {
            "cost_per_case_usd": fraction_fact(cost),
            "median_latency_s": None if row is None else float(row["median_latency_s"]),
            "p95_latency_s": None if row is None else float(row["p95_latency_s"]),
        }
    points = [
        CostQualityPoint(version, cost, Fraction(subject_of[version]["q_final"]))
        for version, cost in costs.items()
    ]
    eligible = [
        p for p in points if subject_of[p.subject_version]["leaderboard_status"] == ELIGIBLE
    ]
    return {
        "has_telemetry": True,
        "versions": versions,
        "cheapest": cheapest(costs),
        "most_expensive": most_expensive(costs),
        "ratio": {
            a: {b: fraction_fact(cost_ratio(costs[a], costs[b])) for b in costs if b != a}
            for a in costs
        },
        "pareto": {
            "all": frontier_versions(points),
            "eligible": frontier_versions(eligible),
        },
    }


def frontier_versions(points: Iterable[CostQualityPoint]) -> list[str]:
    return [point.subject_version for point in pareto_frontier(list(points))]
