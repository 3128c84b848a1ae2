"""Answer structure (findings.md § 5): counts per response and the criteria's η².

Every expected value is worked by hand in the comment beside it.
"""

from fractions import Fraction

import pytest

from ro_metrics.contracts.records import AnswerShape, fraction_fact
from ro_metrics.contracts.vocabulary import CRITERIA
from ro_metrics.formulas import answer_structure as st

RUN = "run-2026-05-12-001"
FAMILIES = {"RO-NOWE-001": "NOWE", "RO-NOWE-002": "NOWE", "RO-SCAL-001": "SCAL"}
VERSIONS = ["v-a", "v-b"]  # the leaderboard's order

# (version, case, alternatives, key_signals). RO-FOUL-001 has no gold (not in FAMILIES):
# per_run.csv leaves its run out, and so do the facts.
SHAPES = [
    AnswerShape("a", "v-a", "RO-NOWE-001", RUN, 3, 5),
    AnswerShape("a", "v-a", "RO-NOWE-002", RUN, 4, 2),
    AnswerShape("a", "v-a", "RO-SCAL-001", RUN, 5, 4),
    AnswerShape("b", "v-b", "RO-NOWE-001", RUN, 2, 4),
    AnswerShape("b", "v-b", "RO-SCAL-001", RUN, 4, 4),
    AnswerShape("b", "v-b", "RO-FOUL-001", RUN, 9, 9),
]

# Criterion scores (the rubric's order) of the five runs with a gold: v-a's three, v-b's
# two. Each column is built to show one case, worked below.
SCORES = {
    "v-a": [(2, 2, 0, 1, 0, 1), (2, 2, 1, 1, 0, 2), (1, 2, 2, 1, 0, 1)],
    "v-b": [(0, 2, 2, 1, 2, 1), (1, 2, 0, 2, 2, 2)],
}


def criterion_rows() -> list[dict[str, str]]:
    rows = []
    for version, runs in SCORES.items():
        for index, scores in enumerate(runs):
            ids = {
                "subject_id": version[-1],
                "subject_version": version,
                "case_id": f"RO-NOWE-00{index + 1}",
                "run_id": RUN,
                "reviewer_id": "R01",
            }
            rows.append(ids | {c: str(score) for c, score in zip(CRITERIA, scores, strict=True)})
    return rows


def fact(num, den):
    return fraction_fact(Fraction(num, den))


@pytest.fixture(scope="module")
def facts():
    return st.structure_facts(SHAPES, FAMILIES, criterion_rows(), VERSIONS)


def test_alternatives_overall_per_version_and_per_family(facts):
    alternatives = facts["alternatives"]
    # Overall 3, 4, 5, 2, 4 (the FOUL run's 9 left out): Σ 18 / 5 = 18/5; min 2, max 5;
    # 4 or more: 4, 5, 4 → 3/5.
    assert alternatives["overall"] == {
        "mean": {"num": 18, "den": 5, "value": 3.6},
        "min": 2,
        "max": 5,
        "distribution": {"2": 1, "3": 1, "4": 2, "5": 1},
        "share_at_least_4": fact(3, 5),
        "n_responses": 5,
    }
    # v-a 3, 4, 5: mean 12/3 = 4, ≥ 4: two of three. v-b 2, 4: mean 3, ≥ 4: one of two.
    assert alternatives["versions"]["v-a"] == {
        "mean": fact(4, 1),
        "min": 3,
        "max": 5,
        "distribution": {"3": 1, "4": 1, "5": 1},
        "share_at_least_4": {"num": 2, "den": 3, "value": 0.6667},
        "n_responses": 3,
    }
    assert alternatives["versions"]["v-b"]["mean"] == fact(3, 1)
    assert alternatives["versions"]["v-b"]["share_at_least_4"] == fact(1, 2)
    # NOWE 3, 4, 2: mean 3, ≥ 4: 1/3. SCAL 5, 4: mean 9/2, ≥ 4: both.
    nowe, scal = alternatives["families"]["NOWE"], alternatives["families"]["SCAL"]
    assert (nowe["mean"], nowe["share_at_least_4"], nowe["distribution"]) == (
        fact(3, 1),
        fact(1, 3),
        {"2": 1, "3": 1, "4": 1},
    )
    assert (scal["mean"], scal["min"], scal["max"], scal["share_at_least_4"]) == (
        {"num": 9, "den": 2, "value": 4.5},
        4,
        5,
        fact(1, 1),
    )
    # Only the families of the golds: FOUL has no gold here.
    assert sorted(alternatives["families"]) == ["NOWE", "SCAL"]


def test_key_signals_counted_likewise(facts):
    # 5, 2, 4, 4, 4: Σ 19 / 5; ≥ 4: four of five.
    overall = facts["key_signals"]["overall"]
    assert overall["mean"] == {"num": 19, "den": 5, "value": 3.8}
    assert overall["distribution"] == {"2": 1, "4": 3, "5": 1}
    assert overall["share_at_least_4"] == fact(4, 5)
    assert (overall["min"], overall["max"]) == (2, 5)
    # v-b 4, 4: every response has at least 4.
    assert facts["key_signals"]["versions"]["v-b"]["share_at_least_4"] == fact(1, 1)


def test_eta_squared_and_spread_worked_by_hand(facts):
    criteria = facts["criteria"]
    # main_hypothesis: v-a 2, 2, 1 (mean 5/3), v-b 0, 1 (mean 1/2); all five: mean 6/5.
    # SS_total = 0.8² + 0.8² + 0.2² + 1.2² + 0.2² = 2.8 = 14/5.
    # SS_between = 3 · (5/3 − 6/5)² + 2 · (1/2 − 6/5)² = 3 · 49/225 + 2 · 49/100 = 49/30.
    # η² = (49/30) / (14/5) = 7/12. Spread of 5/3 and 1/2: half their gap, 7/12 = 0.5833.
    assert criteria["main_hypothesis"] == {
        "version_means": {"v-a": fact(5, 3), "v-b": fact(1, 2)},
        "spread": 0.5833,
        "eta_squared": {"num": 7, "den": 12, "value": 0.5833},
    }
    # recommended_action: v-a 1, 1, 1 (mean 1), v-b 1, 2 (mean 3/2); all: 6/5.
    # SS_total = 4 · (1/5)² + (4/5)² = 4/5; SS_between = 3 · (1/5)² + 2 · (3/10)² = 3/10;
    # η² = 3/8. Spread: (3/2 − 1) / 2 = 0.25.
    assert criteria["recommended_action"]["eta_squared"] == fact(3, 8)
    assert criteria["recommended_action"]["spread"] == 0.25
    # requested_data: v-a 0, 0, 0 and v-b 2, 2: all the variance is between versions,
    # η² = 1; spread (2 − 0) / 2 = 1.
    assert criteria["requested_data"]["eta_squared"] == fact(1, 1)
    assert criteria["requested_data"]["spread"] == 1.0
    # decision_change_condition: v-a 1, 2, 1 (4/3), v-b 1, 2 (3/2); all: 7/5.
    # SS_total = 3 · (2/5)² + 2 · (3/5)² = 6/5; SS_between = 3 · (1/15)² + 2 · (1/10)²
    # = 1/30; η² = (1/30) / (6/5) = 1/36. Spread (3/2 − 4/3) / 2 = 1/12 = 0.0833.
    assert criteria["decision_change_condition"]["eta_squared"] == fact(1, 36)
    assert criteria["decision_change_condition"]["spread"] == 0.0833


def test_versions_that_agree_give_eta_zero_or_null(facts):
    criteria = facts["criteria"]
    # alternatives: v-a 0, 1, 2 and v-b 2, 0 both have mean 1: the version explains none
    # of the variance that there is (SS_total = 1 + 0 + 1 + 1 + 1 = 4, SS_between = 0),
    # so η² = 0.
    assert criteria["alternatives"] == {
        "version_means": {"v-a": fact(1, 1), "v-b": fact(1, 1)},
        "spread": 0.0,
        "eta_squared": {"num": 0, "den": 1, "value": 0.0},
    }
    # key_signals: every run scores 2, SS_total = 0: no variance to explain, and 0/0 is
    # not a share of it, so η² is null (and the spread 0).
    assert criteria["key_signals"]["eta_squared"] is None
    assert criteria["key_signals"]["spread"] == 0.0


def test_criteria_ordered_by_eta_descending_null_last(facts):
    # 1 > 7/12 > 3/8 > 1/36 > 0, then key_signals (null).
    assert facts["criteria_order"] == [
        "requested_data",
        "main_hypothesis",
        "recommended_action",
        "decision_change_condition",
        "alternatives",
        "key_signals",
    ]


def test_criteria_order_ties_follow_the_rubric():
    # key_signals and requested_data tie at 1/2: the rubric's order (key_signals is 2nd,
    # requested_data 5th); two nulls likewise, after every number.
    etas = dict.fromkeys(CRITERIA, Fraction(0))
    etas |= {"requested_data": Fraction(1, 2), "key_signals": Fraction(1, 2)}
    etas |= {"decision_change_condition": None, "main_hypothesis": None}
    assert st.criteria_order(etas) == [
        "key_signals",
        "requested_data",
        "alternatives",
        "recommended_action",
        "main_hypothesis",
        "decision_change_condition",
    ]


def test_a_version_without_runs_has_empty_facts():
    facts = st.structure_facts(SHAPES[:3], FAMILIES, criterion_rows()[:3], ["v-a", "v-b"])
    assert facts["alternatives"]["versions"]["v-b"] == {
        "mean": None,
        "min": None,
        "max": None,
        "distribution": {},
        "share_at_least_4": None,
        "n_responses": 0,
    }
    # One version with runs: its mean alone, a spread of 0, and η² over one group is
    # SS_between = 0 of main_hypothesis's SS_total (2, 2, 1: > 0), so 0.
    main = facts["criteria"]["main_hypothesis"]
    assert main["version_means"] == {"v-a": fact(5, 3), "v-b": None}
    assert (main["spread"], main["eta_squared"]) == (0.0, fact(0, 1))


def test_a_version_off_the_leaderboard_is_an_error():
    with pytest.raises(ValueError, match="not on the leaderboard: v-b"):
        st.structure_facts(SHAPES, FAMILIES, [], ["v-a"])
    with pytest.raises(ValueError, match="subject_version 'v-b' is not a version"):
        st.structure_facts(SHAPES[:3], FAMILIES, criterion_rows(), ["v-a"])


def test_eta_squared_is_one_minus_the_within_share():
    # An independent route on the main_hypothesis column: η² = 1 − SS_within / SS_total;
    # SS_within = (1/3)² + (1/3)² + (2/3)² + 2 · (1/2)² = 2/3 + 1/2 = 7/6, and
    # 1 − (7/6) / (14/5) = 1 − 5/12 = 7/12.
    assert st.eta_squared([[2, 2, 1], [0, 1]]) == 1 - Fraction(7, 6) / Fraction(14, 5)
