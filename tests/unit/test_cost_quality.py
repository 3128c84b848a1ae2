"""Cost, latency and quality (findings.md § 6): cost per case, ratios, the frontier.

Every expected value is worked by hand in the comment beside it.
"""

from fractions import Fraction

from ro_metrics.contracts.records import fraction_fact
from ro_metrics.formulas import cost_quality as cq
from ro_metrics.formulas.cost_quality import CostQualityPoint as Point

PRICE_1, PRICE_2, PRICE_5 = "0.0000010000", "0.0000020000", "0.0000050000"


def operational_row(version, mean_in, price_in, mean_out, price_out, median="1.00", p95="2.00"):
    return {
        "subject_id": version.removeprefix("v-"),
        "subject_version": version,
        "n_runs": "3",
        "mean_input_tokens": mean_in,
        "mean_output_tokens": mean_out,
        "output_to_input_ratio": "0.500",
        "median_latency_s": median,
        "p95_latency_s": p95,
        "price_per_input_token_usd": price_in,
        "price_per_output_token_usd": price_out,
    }


# v-a: 2000 · 1e-6 + 1000 · 5e-6 = 0.002 + 0.005 = 7/1000.
# v-f: 4000 · 1e-6 + 1000 · 5e-6 = 9/1000 (dearer than v-a and worse: dominated).
# v-d: 3000 · 5e-7 + 250 · 2e-6 = 0.0015 + 0.0005 = 2/1000; v-b: 1000 · 1e-6 + 500 · 2e-6
# = 2/1000 too, and the same Q_final: two equal points.
# v-c: no output price, so no cost; v-e: no telemetry row at all; v-x: telemetry of a
# version without scored runs (not on the leaderboard), the cheapest of all.
OPERATIONAL = [
    operational_row("v-a", "2000.0", PRICE_1, "1000.0", PRICE_5, "19.48", "22.76"),
    operational_row("v-b", "1000.0", PRICE_1, "500.0", PRICE_2),
    operational_row("v-c", "1500.0", PRICE_1, "900.0", "", "7.10", "9.05"),
    operational_row("v-d", "3000.0", "0.0000005000", "250.0", PRICE_2),
    operational_row("v-f", "4000.0", PRICE_1, "1000.0", PRICE_5),
    operational_row("v-x", "1.0", PRICE_1, "1.0", PRICE_1),
]
SUBJECTS = [
    {"subject_version": "v-a", "q_final": "0.6000", "leaderboard_status": "Eligible"},
    {"subject_version": "v-b", "q_final": "0.4000", "leaderboard_status": "Disqualified"},
    {"subject_version": "v-c", "q_final": "0.9000", "leaderboard_status": "Eligible"},
    {"subject_version": "v-d", "q_final": "0.4000", "leaderboard_status": "Eligible"},
    {"subject_version": "v-e", "q_final": "0.3000", "leaderboard_status": "Eligible"},
    {"subject_version": "v-f", "q_final": "0.5000", "leaderboard_status": "Eligible"},
]
# The leaderboard: the eligible by Q_final, then the disqualified.
ORDER = ["v-c", "v-a", "v-f", "v-d", "v-e", "v-b"]


def facts():
    return cq.cost_facts(OPERATIONAL, SUBJECTS, ORDER)


def test_per_version_cost_and_latency_null_without_a_price_or_a_row():
    versions = facts()["versions"]
    assert list(versions) == ORDER  # v-x, off the leaderboard, is not reported
    assert versions["v-a"] == {
        "cost_per_case_usd": {"num": 7, "den": 1000, "value": 0.007},
        "median_latency_s": 19.48,
        "p95_latency_s": 22.76,
    }
    # v-c has latencies but no output price: no cost.
    assert versions["v-c"] == {
        "cost_per_case_usd": None,
        "median_latency_s": 7.1,
        "p95_latency_s": 9.05,
    }
    assert versions["v-e"] == dict.fromkeys(
        ["cost_per_case_usd", "median_latency_s", "p95_latency_s"]
    )


def test_cheapest_and_most_expensive_among_priced_versions_with_ties():
    found = facts()
    # 2/1000 (v-d, v-b: a tie, in leaderboard order) < 7/1000 (v-a) < 9/1000 (v-f); the
    # unpriced v-c and v-e are neither, v-x is not on the leaderboard.
    assert found["cheapest"] == ["v-d", "v-b"]
    assert found["most_expensive"] == ["v-f"]


def test_ratio_of_every_priced_pair_exact():
    ratio = facts()["ratio"]
    assert sorted(ratio) == ["v-a", "v-b", "v-d", "v-f"]
    assert all(sorted(row) == sorted(set(ratio) - {version}) for version, row in ratio.items())
    # v-a / v-b = (7/1000) / (2/1000) = 7/2; v-f / v-a = 9/7 = 1.285714… → 1.2857;
    # v-b / v-d = 1; v-d / v-f = 2/9 = 0.2222….
    assert ratio["v-a"]["v-b"] == {"num": 7, "den": 2, "value": 3.5}
    assert ratio["v-f"]["v-a"] == {"num": 9, "den": 7, "value": 1.2857}
    assert ratio["v-b"]["v-d"] == fraction_fact(Fraction(1))
    assert ratio["v-d"]["v-f"] == {"num": 2, "den": 9, "value": 0.2222}


def test_pareto_frontier_over_all_and_eligible_versions():
    pareto = facts()["pareto"]
    # Points (cost, Q): v-d (0.002, 0.4), v-b (0.002, 0.4), v-a (0.007, 0.6), v-f (0.009,
    # 0.5). v-f: v-a is cheaper and better. v-d and v-b are equal, so neither beats the
    # other: both stay, in leaderboard order. v-c (Q 0.9) has no cost and is no point.
    assert pareto["all"] == ["v-d", "v-b", "v-a"]
    # Without the disqualified v-b.
    assert pareto["eligible"] == ["v-d", "v-a"]


def test_pareto_frontier_points_on_a_cost_tie_and_a_quality_tie():
    cheap_worse = Point("x", Fraction(1), Fraction(1, 2))
    cheap_better = Point("y", Fraction(1), Fraction(3, 5))
    dear_same_q = Point("z", Fraction(2), Fraction(3, 5))
    best = Point("w", Fraction(3), Fraction(4, 5))
    # x: same cost as y, lower Q (dominated); z: same Q as y, dearer (dominated); w: the
    # only one with Q 0.8.
    points = [best, dear_same_q, cheap_worse, cheap_better]
    assert cq.pareto_frontier(points) == [cheap_better, best]
    assert cq.pareto_frontier([]) == []


def test_a_zero_cost_makes_ratios_to_it_null():
    # A free version: others' ratios to it are null, its own to others are 0.
    rows = [
        operational_row("v-a", "2000.0", PRICE_1, "1000.0", PRICE_5),
        operational_row("v-d", "10.0", "0", "10.0", "0"),
    ]
    ratio = cq.cost_facts(rows, SUBJECTS, ORDER)["ratio"]
    assert ratio["v-a"]["v-d"] is None
    assert ratio["v-d"]["v-a"] == fraction_fact(Fraction(0))


def test_without_telemetry_only_a_reason():
    for rows in (None, []):
        found = cq.cost_facts(rows, SUBJECTS, ORDER)
        assert found == {"has_telemetry": False, "reason": cq.NO_TELEMETRY}
    assert not any(character.isdigit() for character in cq.NO_TELEMETRY)
