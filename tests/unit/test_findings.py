"""ro_metrics/formulas/findings.py against values derived by hand.

The corpus below (α = 0.5) has three versions:

    version  subject  status        runs (case, clipped, classification, confidence, correctness)
    b-1      beta     Eligible      OXID-001 11 Pass 70 1 · OXID-002 6 Fail 50 0
    a-1      alpha    Eligible      OXID-001 10 Pass 80 1 · OXID-002 8 Conditional 60 0.5
                                    · NOWE-001 4 Fail 90 0
    c-1      gamma    Disqualified  OXID-001 12 Fail (critical) 100 1
                                    · OXID-002 9 Conditional 40 0.5

Published Q_final: b-1 0.6042 (rank 1), a-1 0.4722 (rank 2), c-1 0.4722 (unranked; ties
a-1 on the ungated ranking). b-1 and a-1 share the published Brier 0.15 (both Brier rank
1 in the bootstrap step's record).
"""

import dataclasses
from fractions import Fraction
from statistics import NormalDist

import orjson
import pytest

from ro_metrics.contracts.records import (
    BootstrapRank,
    GroupTally,
    NeighbourTest,
    RankCorrelation,
    RankingEvidence,
    Tally,
    Track,
    Verdict,
    read_group_tallies,
    write_group_tallies,
)
from ro_metrics.contracts.tables import (
    FAMILY_HEATMAP_COLUMNS,
    PER_RUN_COLUMNS,
    SUBJECT_COLUMNS,
    Rows,
    table_bytes,
)
from ro_metrics.contracts.vocabulary import CRITERIA
from ro_metrics.formulas import aggregates
from ro_metrics.formulas import findings as fd
from ro_metrics.formulas.answer_structure import structure_facts

# (subject_id, subject_version, case_id, clipped, critical, classification, confidence,
# correctness)
RUNS = [
    ("beta", "b-1", "RO-OXID-001", 11, False, "Pass", 70, 1.0),
    ("beta", "b-1", "RO-OXID-002", 6, False, "Fail", 50, 0.0),
    ("alpha", "a-1", "RO-OXID-001", 10, False, "Pass", 80, 1.0),
    ("alpha", "a-1", "RO-OXID-002", 8, False, "Conditional", 60, 0.5),
    ("alpha", "a-1", "RO-NOWE-001", 4, False, "Fail", 90, 0.0),
    ("gamma", "c-1", "RO-OXID-001", 12, True, "Fail", 100, 1.0),
    ("gamma", "c-1", "RO-OXID-002", 9, False, "Conditional", 40, 0.5),
]


def per_run(runs=RUNS) -> Rows:
    """The typed per-run rows of the runs (the columns findings.py does not read are
    placeholders)."""
    records = []
    for subject_id, version, case_id, clipped, critical, classification, c, k in runs:
        row = dict.fromkeys(PER_RUN_COLUMNS, "")
        row |= {
            "subject_id": subject_id,
            "subject_version": version,
            "case_id": case_id,
            "family": case_id.split("-")[1],
            "run_id": "run-2026-05-12-001",
            "reviewer_id": "R01",
            "clipped_score": clipped,
            "has_critical_fail": critical,
            "classification": classification,
            "reported_confidence": c,
            "confidence_unit": c / 100,
            "correctness": k,
        }
        records.append([row[name] for name in PER_RUN_COLUMNS])
    return Rows(records, range(len(records)))


def subject_row(subject_id, version, q_final, brier, ece, status) -> dict[str, str]:
    row = dict.fromkeys(SUBJECT_COLUMNS, "0")
    return row | {
        "subject_id": subject_id,
        "subject_version": version,
        "q_final": q_final,
        "brier": brier,
        "ece": ece,
        "leaderboard_status": status,
    }


SUBJECTS = [
    subject_row("alpha", "a-1", "0.4722", "0.15", "0.2", "Eligible"),
    subject_row("beta", "b-1", "0.6042", "0.15", "0.1", "Eligible"),
    subject_row("gamma", "c-1", "0.4722", "0.3", "0.25", "Disqualified"),
]


def rank(subject_id, version, metric, value, low, high, p_first=0.0) -> BootstrapRank:
    return BootstrapRank(subject_id, version, metric, value, low, high, p_first)


EVIDENCE = RankingEvidence(
    n_replicates=2000,
    seed=20260512,
    ranks=[
        rank("beta", "b-1", "q_final", 1, 1, 2),
        rank("alpha", "a-1", "q_final", 2, 1, 3),
        rank("gamma", "c-1", "q_final", 2, 1, 3),
        rank("alpha", "a-1", "brier", 1, 1, 2, 0.4),
        rank("beta", "b-1", "brier", 1, 1, 3, 0.6),
        rank("gamma", "c-1", "brier", 3, 2, 3),
        rank("beta", "b-1", "ece", 1, 1, 2, 0.3),
        rank("alpha", "a-1", "ece", 2, 1, 3, 0.7),
        rank("gamma", "c-1", "ece", 3, 2, 3),
    ],
    neighbours=[
        NeighbourTest("beta", "b-1", "alpha", "a-1", 2, "1/8", -0.1, 0.35, "3/5", "3/5", False)
    ],
    correlations=[
        RankCorrelation("brier", -0.5, -1.0, 1.0, 3, 10),
        RankCorrelation("ece", -0.86602540378, None, None, 3, 2000),
    ],
)

VERDICT = Verdict(
    inputs_digest="abc",
    n_files=0,
    n_scored_runs=7,
    coverage=[],
    subjects={
        "alpha": {"provider": "P1", "versions": {"a-1": {"access_type": "api"}}},
        "beta": {
            "provider": "P1",
            "versions": {"b-1": {"access_type": "local_weights", "weights": "open"}},
        },
        "gamma": {"provider": "P2", "versions": {"c-1": {"access_type": "api"}}},
    },
    tracks=[
        Track("alpha", "a-1", "classic"),
        Track("beta", "b-1", "reasoning"),
        Track("gamma", "c-1", "classic"),
    ],
    has_telemetry=True,
)

CRITICAL_ROWS = [
    [
        "gamma",
        "c-1",
        "RO-OXID-001",
        "run-2026-05-12-001",
        "R01",
        "generic",
        "recommended_action",
        "shock chlorinate",
        "exact",
        "Cita: 'shock chlorinate'",
    ]
]


def fraction(num, den):
    """A fraction fact as findings.json writes it."""
    value = Fraction(num, den)
    return {"num": value.numerator, "den": value.denominator, "value": float(round(value, 4))}


@pytest.fixture
def tallies():
    return fd.tally_runs(per_run())


@pytest.fixture
def board():
    return fd.Leaderboard.of(SUBJECTS)


def wilson_by_hand(successes, n):
    """The textbook Wilson score interval (an independent implementation)."""
    z = NormalDist().inv_cdf(0.975)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * (p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5
    return [round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4)]


def test_population_sd_by_hand():
    assert fd.population_sd([Fraction(3)]) == 0.0  # one version: no spread
    assert fd.population_sd([Fraction(0), Fraction(1)]) == 0.5  # sqrt(1/4)
    # 1/2, 1/2, 0: mean 1/3, squares 1/36 + 1/36 + 4/36 = 1/6, / 3 = 1/18 → 0.23570
    assert fd.population_sd([Fraction(1, 2), Fraction(1, 2), Fraction(0)]) == 0.2357
    assert fd.population_sd([]) is None  # no version: nothing to spread


def test_families_and_criteria_spread_with_one_population_sd(tallies, board):
    # § 2's spread of OXID's per-version pass rates (b-1 1/2, a-1 1/2, c-1 0) and § 5's
    # spread of a criterion whose per-version means are 1/2, 1/2, 0 (b-1 scores 1 and 0,
    # a-1 0 and 1, c-1 0 and 0): sqrt(1/18) = 0.2357 both.
    scores = {"b-1": (1, 0), "a-1": (0, 1), "c-1": (0, 0)}
    criterion_rows = [
        dict.fromkeys(CRITERIA, "2") | {"subject_version": version, "main_hypothesis": str(k)}
        for version, ks in scores.items()
        for k in ks
    ]
    structure = structure_facts([], {}, criterion_rows, list(scores))
    oxid = fd.family_facts(tallies, board)["OXID"]
    assert structure["criteria"]["main_hypothesis"]["spread"] == 0.2357
    assert oxid["spread"]["pass_rate"] == 0.2357


# Consolidated runs of one version and family (means of two primaries): clipped 8.5, 9,
# 10.5 and 0.5; one Pass; confidences 80, 85, 88, 81 (one ECE bin, [0.8, 0.9));
# correctness 0.75, 0.5, 1 and 0.25.
HALVES = [
    ("alpha", "a-1", "RO-OXID-001", 8.5, False, "Conditional", 80, 0.75),
    ("alpha", "a-1", "RO-OXID-002", 9, False, "Conditional", 85, 0.5),
    ("alpha", "a-1", "RO-OXID-003", 10.5, False, "Pass", 88, 1.0),
    ("alpha", "a-1", "RO-OXID-004", 0.5, False, "Fail", 81, 0.25),
]


def test_the_metrics_tables_and_the_findings_share_pass_rate_and_mean_clipped_score():
    # Σ clipped = 28.5, i.e. 57 halves, over 4 runs: 57/8 = 7.125; 1 Pass of 4: 1/4;
    # Q_final = 0.5 · 1/4 + 0.5 · (57/8) / 12 = 1/8 + 19/64 = 27/64 = 0.421875 → 0.4219.
    table = per_run(HALVES)
    for record in table.records:  # read by the metrics, not by findings.py
        record[PER_RUN_COLUMNS.index("has_recoverable_fail")] = False
    tallies = fd.tally_runs(table)
    board = fd.Leaderboard.of([subject_row("alpha", "a-1", "0.4219", "0.1", "0.1", "Eligible")])
    assert tallies.version("a-1").clipped_halves == 57
    # findings.json (§ 2's heatmap, § 7's groups) and family_heatmap.csv ...
    [heatmap] = fd.heatmap_facts(tallies, board)
    assert (heatmap["pass_rate"], heatmap["mean_clipped_score"]) == (
        fraction(1, 4),
        fraction(57, 8),
    )
    group = fd.group_facts(["a-1"], tallies, board, None)
    assert (group["pass_rate"], group["mean_clipped_score"]) == (fraction(1, 4), fraction(57, 8))
    [heatmap_row] = fd.heatmap_rows(tallies, board)
    assert heatmap_row[-2:] == ["0.25", "7.125"]
    # ... and metrics_per_family.csv, metrics_per_subject.csv.
    assert aggregates.family_rows(table) == [["alpha", "a-1", "OXID", 4, 1, 2, 1, "0.25", "7.125"]]
    [subject] = aggregates.subject_rows(table, 0.5)
    published = dict(zip(SUBJECT_COLUMNS, subject, strict=True))
    assert [published[name] for name in ("pass_rate", "mean_clipped_score", "q_final")] == [
        "0.25",
        "7.125",
        "0.4219",
    ]


def test_the_reliability_diagram_and_the_findings_share_mean_confidence_and_correctness():
    # The four runs fill one bin: conf = (80 + 85 + 88 + 81) / 400 = 334/400 = 167/200;
    # acc = (0.75 + 0.5 + 1 + 0.25) / 4 = 5/8; over-confidence 167/200 − 125/200 = 21/100.
    table = per_run(HALVES)
    bins = aggregates.calibration_of_subjects(table)
    assert bins == {("alpha", "a-1"): [(9, 4, Fraction(167, 200), Fraction(5, 8))]}
    facts = fd.confidence_facts(fd.tally_runs(table).version("a-1"))
    assert (facts["mean_confidence"], facts["mean_correctness"], facts["overconfidence"]) == (
        fraction(167, 200),
        fraction(5, 8),
        fraction(21, 100),
    )


def test_leaderboard_order_puts_the_disqualified_after_the_ranked(board):
    assert board.order == ["b-1", "a-1", "c-1"]
    assert [board.rank(v) for v in board.order] == [1, 2, None]


def test_safety_counts_events_per_version_and_family_and_the_ungated_ranking(tallies, board):
    facts = fd.safety_facts(tallies, board, CRITICAL_ROWS, EVIDENCE)
    assert facts["critical_fail_events"] == 1
    assert facts["versions_with_critical_fail"] == 1
    assert facts["n_critical_fails"] == 1
    assert facts["n_reviewer_flags"] == 1
    # Its quote is in recommended_action.
    assert facts["events_per_trigger"] == {
        "recommended_action": 1,
        "diagnosis": 0,
        "other_field": 0,
        "not_located": 0,
    }
    # One reviewer per run: nothing pending.
    assert facts["pending"] == {
        "n_runs": 0,
        "n_pending_arbitration": 0,
        "n_awaiting_second_review": 0,
        "n_critical_disagreement": 0,
        "per_version": {},
        "runs": [],
    }
    # Every version and every family with runs, 0 included.
    assert facts["events_per_version"] == {"b-1": 0, "a-1": 0, "c-1": 1}
    assert facts["events_per_family"] == {"OXID": 1, "NOWE": 0}
    assert facts["events"] == [
        dict(
            zip(
                [
                    "subject_id",
                    "subject_version",
                    "case_id",
                    "run_id",
                    "reviewer_ids",
                    "fail_type",
                    "response_field",
                    "quote",
                    "match",
                    "reviewer_justification",
                ],
                CRITICAL_ROWS[0],
                strict=True,
            )
        )
        | {"family": "OXID", "reviewer_ids": ["R01"], "trigger": "recommended_action"}
    ]
    assert facts["disqualified"] == {"count": 1, "versions": ["c-1"]}
    assert facts["eligible"] == {"count": 2, "versions": ["b-1", "a-1"]}
    # a-1 and c-1 tie at rank 2 without the gate: by subject_id (alpha, gamma).
    ungated = facts["ungated_ranking"]
    ranks = [(r["subject_version"], r["rank"], r["leaderboard_rank"]) for r in ungated]
    assert ranks == [("b-1", 1, 1), ("a-1", 2, 2), ("c-1", 2, None)]
    assert facts["ungated_ranking"][2] == {
        "subject_id": "gamma",
        "subject_version": "c-1",
        "status": "Disqualified",
        "q_final": 0.4722,
        "rank": 2,
        "rank_low": 1,
        "rank_high": 3,
        "leaderboard_rank": None,
    }


def test_families_pool_rates_spread_and_order(tallies, board):
    facts = fd.family_facts(tallies, board)
    # NOWE 0/1 is harder than OXID 2/6.
    assert facts["order"] == ["NOWE", "OXID"]
    oxid = facts["OXID"]
    # Passes: b-1 OXID-001, a-1 OXID-001 → 2 of 6; clipped 11+6+10+8+12+9 = 56 → 56/6.
    assert (oxid["n_runs"], oxid["n_pass"], oxid["n_versions"]) == (6, 2, 3)
    assert oxid["pooled_pass_rate"] == fraction(1, 3)
    assert oxid["pooled_pass_rate_ci"] == wilson_by_hand(2, 6)
    assert oxid["mean_clipped_score"] == fraction(28, 3)
    assert oxid["critical_fail_events"] == 1
    assert oxid["case_ids"] == ["RO-OXID-001", "RO-OXID-002"]
    # Eligible only (b-1, a-1): 2 passes of 4 runs, clipped 11+6+10+8 = 35 → 35/4.
    assert oxid["eligible"] == {
        "n_runs": 4,
        "n_pass": 2,
        "pooled_pass_rate": fraction(1, 2),
        "pooled_pass_rate_ci": wilson_by_hand(2, 4),
        "mean_clipped_score": fraction(35, 4),
    }
    # Per-version pass rates 1/2, 1/2, 0: sd sqrt(1/18) = 0.2357; mean clipped 17/2, 9,
    # 21/2 around 28/3: squares (25 + 4 + 49)/36 = 78/36, / 3 = 13/18, sd = 0.8498.
    assert oxid["spread"] == {"pass_rate": 0.2357, "mean_clipped_score": 0.8498}
    assert oxid["hardest_version"] == ["c-1"]
    assert oxid["easiest_version"] == ["b-1", "a-1"]  # a tie, leaderboard order
    # A family with one version: no spread; it is both the hardest and the easiest.
    nowe = facts["NOWE"]
    assert nowe["spread"] == {"pass_rate": 0.0, "mean_clipped_score": 0.0}
    assert nowe["hardest_version"] == nowe["easiest_version"] == ["a-1"]
    # 0 of 1: low 0, high = z² / (1 + z²) = 3.841459 / 4.841459 = 0.7935.
    assert nowe["pooled_pass_rate_ci"] == [0.0, 0.7935]


def test_eligible_pool_of_a_family_only_the_disqualified_have_is_undefined(board):
    runs = [*RUNS, ("gamma", "c-1", "RO-FOUL-001", 5, False, "Fail", 30, 0.0)]
    foul = fd.family_facts(fd.tally_runs(per_run(runs)), board)["FOUL"]
    assert foul["n_runs"] == 1
    assert foul["eligible"] == {
        "n_runs": 0,
        "n_pass": 0,
        "pooled_pass_rate": None,
        "pooled_pass_rate_ci": None,
        "mean_clipped_score": None,
    }


def test_family_order_ties_on_pass_rate_break_on_mean_clipped_score_then_code(board):
    # MECH and SCAL both 0 of 1: MECH's clipped 6 < SCAL's 7, so MECH first; FOUL and
    # NOWE 0 of 1 with clipped 4: by code.
    runs = [
        ("alpha", "a-1", "RO-SCAL-001", 7, False, "Conditional", 50, 0.5),
        ("alpha", "a-1", "RO-MECH-001", 6, False, "Fail", 50, 0.5),
        ("alpha", "a-1", "RO-NOWE-001", 4, False, "Fail", 50, 0.5),
        ("alpha", "a-1", "RO-FOUL-001", 4, False, "Fail", 50, 0.5),
    ]
    assert fd.family_order(fd.tally_runs(per_run(runs))) == ["FOUL", "NOWE", "MECH", "SCAL"]


def test_heatmap_rows_in_leaderboard_order_families_hardest_first(tallies, board):
    rows = fd.heatmap_rows(tallies, board)
    assert rows == [
        ["beta", "b-1", "Eligible", "OXID", 2, 1, "0.5", "8.5"],
        ["alpha", "a-1", "Eligible", "NOWE", 1, 0, "0.0", "4.0"],
        ["alpha", "a-1", "Eligible", "OXID", 2, 1, "0.5", "9.0"],
        ["gamma", "c-1", "Disqualified", "OXID", 2, 0, "0.0", "10.5"],
    ]
    assert table_bytes(FAMILY_HEATMAP_COLUMNS, rows).splitlines()[:2] == [
        b"subject_id,subject_version,leaderboard_status,family,n_runs,n_pass,pass_rate,"
        b"mean_clipped_score",
        b"beta,b-1,Eligible,OXID,2,1,0.5,8.5",
    ]
    assert fd.heatmap_facts(tallies, board)[3] == {
        "subject_id": "gamma",
        "subject_version": "c-1",
        "leaderboard_status": "Disqualified",
        "family": "OXID",
        "n_runs": 2,
        "n_pass": 0,
        "pass_rate": fraction(0, 1),
        "mean_clipped_score": fraction(21, 2),
    }


def test_calibration_confidence_correctness_and_ranks(tallies, board):
    facts = fd.calibration_facts(tallies, board, EVIDENCE)
    a = facts["versions"]["a-1"]
    # Confidence (80 + 60 + 90) / 300 = 23/30; correctness (1 + 0.5 + 0) / 3 = 1/2;
    # 23/30 − 15/30 = 4/15. One run with correctness 0 (NOWE-001, 90), the same Fail.
    assert a == {
        "brier": 0.15,
        "ece": 0.2,
        "brier_rank": 1,
        "brier_rank_low": 1,
        "brier_rank_high": 2,
        "ece_rank": 2,
        "ece_rank_low": 1,
        "ece_rank_high": 3,
        "brier_p_lowest": 0.4,
        "ece_p_lowest": 0.7,
        # Bins 7 (60: 60 − 25·2 = +10), 9 (80: 80 − 100 = −20), 10 (90: +90): the
        # gaps' signs differ, so ECE (120/300) is not the offset (|80|/300).
        "ece_bins": 3,
        "ece_is_offset": False,
        "mean_confidence": fraction(23, 30),
        "mean_correctness": fraction(1, 2),
        "overconfidence": fraction(4, 15),
        "n_wrong": 1,
        "mean_confidence_wrong": fraction(9, 10),
        "n_fail": 1,
        "mean_confidence_fail": fraction(9, 10),
    }
    # c-1: (100 + 40) / 200 = 7/10 against (1 + 0.5) / 2 = 3/4: under-confident by 1/20;
    # no run with correctness 0; its Fail is the critical one (100).
    c = facts["versions"]["c-1"]
    assert c["overconfidence"] == fraction(-1, 20)
    assert (c["n_wrong"], c["mean_confidence_wrong"]) == (0, None)
    assert (c["n_fail"], c["mean_confidence_fail"]) == (1, fraction(1, 1))
    # b-1 and a-1 share Brier rank 1: both best, in leaderboard order.
    assert facts["best_brier"] == ["b-1", "a-1"]
    assert facts["best_ece"] == ["b-1"]
    # ... but a-1 is lowest on ECE in more bootstrap draws (0.7 against 0.3).
    assert facts["brier_most_often_lowest"] == ["b-1"]
    assert facts["ece_most_often_lowest"] == ["a-1"]
    # b-1: bins 8 (70: −30) and 6 (50: +50): not the offset; c-1: bins 10 (100: 0) and
    # 5 (40: −10): no opposite signs, its ECE is its offset.
    assert (facts["ece_bins_min"], facts["ece_bins_max"]) == (2, 3)
    assert facts["ece_is_offset"] == ["c-1"]
    assert facts["spearman"] == {
        "brier": {"rho": -0.5, "ci_low": -1.0, "ci_high": 1.0, "n_versions": 3, "n_undefined": 10},
        "ece": {
            "rho": -0.866,
            "ci_low": None,
            "ci_high": None,
            "n_versions": 3,
            "n_undefined": 2000,
        },
    }
    assert "competition ranking" in facts["tie_rule"]


def test_neighbours_are_the_bootstrap_step_s_tests_as_facts(board):
    pairs, summary = fd.neighbour_facts(board, EVIDENCE)
    assert pairs == [
        {
            "upper": "b-1",
            "upper_subject_id": "beta",
            "upper_rank": 1,
            "lower": "a-1",
            "lower_subject_id": "alpha",
            "lower_rank": 2,
            "n_common_cases": 2,
            "delta_q_final": fraction(1, 8),
            "ci_low": -0.1,
            "ci_high": 0.35,
            "p_value": fraction(3, 5),
            "p_holm": fraction(3, 5),
            "separable": False,
            "p_method": "exact",
            "p_draws": 0,
        }
    ]
    assert summary == {
        "n_pairs": 1,
        "n_separable": 0,
        "n_exact": 1,
        "n_monte_carlo": 0,
        "monte_carlo_draws": 0,
        "exact_max_cases": 62,
    }


def test_a_neighbour_test_without_common_cases_has_null_facts(board):
    undefined = RankingEvidence(
        2000,
        1,
        EVIDENCE.ranks,
        [NeighbourTest("beta", "b-1", "alpha", "a-1", 0, "", None, None, "1/1", "1/1", False)],
        [RankCorrelation("brier", None, None, None, 1, 2000)],
    )
    (pair,), _ = fd.neighbour_facts(board, undefined)
    assert (pair["n_common_cases"], pair["delta_q_final"]) == (0, None)
    assert (pair["ci_low"], pair["ci_high"], pair["p_value"]) == (None, None, fraction(1, 1))
    spearman = fd.calibration_facts(fd.tally_runs(per_run()), board, undefined)["spearman"]
    assert spearman["brier"]["rho"] is None


def test_dimensions_group_versions_and_say_not_declared(tallies, board):
    costs = {"a-1": Fraction(1, 100), "b-1": None, "c-1": Fraction(3, 100)}
    facts = fd.dimension_facts(VERDICT, tallies, board, costs)
    assert {d: {v: g["versions"] for v, g in values.items()} for d, values in facts.items()} == {
        "provider": {"P1": ["b-1", "a-1"], "P2": ["c-1"]},
        "track": {"classic": ["a-1", "c-1"], "reasoning": ["b-1"]},
        "access_type": {"api": ["a-1", "c-1"], "local_weights": ["b-1"]},
        # Declared by b-1 only; local_weights does not make a-1 or c-1 "open".
        "weights": {"not declared": ["a-1", "c-1"], "open": ["b-1"]},
    }
    p1 = facts["provider"]["P1"]
    # b-1 and a-1: 5 runs, 2 passes; clipped 11+6+10+8+4 = 39; mean Q_final of the
    # published 0.6042 and 0.4722 = 0.5382; confidence 350/500 − correctness 5/10 = 1/5.
    assert p1 == {
        "versions": ["b-1", "a-1"],
        "n_versions": 2,
        "n_scored_runs": 5,
        "n_pass": 2,
        "pass_rate": fraction(2, 5),
        "mean_clipped_score": fraction(39, 5),
        "family_pass_rates": {"OXID": fraction(1, 2), "NOWE": fraction(0, 1)},
        "critical_fail_events": 0,
        "n_disqualified": 0,
        "n_eligible": 2,
        "best_q_final_versions": ["b-1"],
        "mean_q_final": 0.5382,
        "mean_brier": 0.15,
        "mean_ece": 0.15,
        "overconfidence": fraction(1, 5),
        # a-1's price only: b-1 has no price.
        "n_priced": 1,
        "mean_cost_per_case_usd": fraction(1, 100),
    }
    p2 = facts["provider"]["P2"]
    assert (p2["critical_fail_events"], p2["n_disqualified"], p2["best_q_final_versions"]) == (
        1,
        1,
        [],
    )
    assert p2["family_pass_rates"] == {"OXID": fraction(0, 1), "NOWE": None}
    api = facts["access_type"]["api"]
    assert (api["n_priced"], api["mean_cost_per_case_usd"]) == (2, fraction(1, 50))
    # Without telemetry there is no cost at all.
    unpriced = fd.dimension_facts(VERDICT, tallies, board, None)["access_type"]["api"]
    assert (unpriced["n_priced"], unpriced["mean_cost_per_case_usd"]) == (0, None)


def test_a_version_the_registry_does_not_describe_is_not_declared_everywhere(board):
    bare = Verdict("abc", 0, 7, [], {}, [], False)
    values = fd.dimension_values(bare, board)
    assert values == {
        d: dict.fromkeys(["b-1", "a-1", "c-1"], "not declared") for d in fd.DIMENSIONS
    }


def test_the_document_assembles_every_section():
    findings = fd.findings_document(
        benchmark_version="v1.0",
        verdict=VERDICT,
        tallies=fd.tally_runs(per_run()),
        subjects=SUBJECTS,
        critical_rows=CRITICAL_ROWS,
        evidence=EVIDENCE,
        structure={"alternatives": {}},
        cost={"has_telemetry": False, "reason": "no telemetry"},
        costs=None,
    )
    document = findings.document
    assert {key: document[key] for key in ("benchmark_version", "inputs_digest", "n_versions")} == {
        "benchmark_version": "v1.0",
        "inputs_digest": "sha256:abc",
        "n_versions": 3,
    }
    # OXID-001, OXID-002, NOWE-001.
    assert (document["n_cases"], document["n_scored_runs"]) == (3, 7)
    assert document["bootstrap"] == {"seed": 20260512, "replicates": 2000}
    assert document["structure"] == {"alternatives": {}}
    assert document["cost"] == {"has_telemetry": False, "reason": "no telemetry"}
    assert sorted(document) == sorted(
        [
            "benchmark_version",
            "inputs_digest",
            "n_versions",
            "versions",
            "n_cases",
            "n_scored_runs",
            "bootstrap",
            "safety",
            "families",
            "heatmap",
            "calibration",
            "neighbours",
            "neighbours_summary",
            "top",
            "limitations",
            "structure",
            "cost",
            "dimensions",
        ]
    )
    assert len(findings.heatmap_rows) == 4
    # JSON as written: every key a text, every value a JSON type.
    assert orjson.loads(orjson.dumps(document, option=orjson.OPT_SORT_KEYS)) == document


def test_inputs_that_do_not_fit_are_every_problem_at_once():
    evidence = RankingEvidence(
        2000,
        1,
        [r for r in EVIDENCE.ranks if r.subject_version != "a-1" or r.metric != "ece"],
        [NeighbourTest("beta", "b-1", "gamma", "c-1", 2, "0/1", 0.0, 0.0, "1/1", "1/1", False)],
        [],
    )
    runs = [*RUNS, ("delta", "d-1", "RO-OXID-001", 5, False, "Fail", 30, 0.0)]
    with pytest.raises(fd.FindingsInputError) as raised:
        fd.findings_document(
            benchmark_version="v1.0",
            verdict=VERDICT,
            tallies=fd.tally_runs(per_run(runs)),
            subjects=SUBJECTS,
            critical_rows=[],
            evidence=evidence,
            structure={},
            cost={},
            costs=None,
        )
    assert raised.value.problems == [
        ("metrics_per_subject", "no row of subject_version 'd-1'"),
        ("rankings", "neighbour test of 'c-1', not a ranked subject_version"),
        ("rankings", "no ece rank of subject_version 'a-1'"),
    ]


def test_the_per_run_step_sums_a_partitions_runs_per_subject_version_and_family():
    # a-1's OXID runs: clipped 10 + 8 = 18 (36 halves), one Pass, confidences 80 + 60,
    # correctness 1 + 0.5 (quarters 4 + 2); its NOWE run: a Fail, wrong, confidence 90.
    groups = fd.group_tallies(per_run())
    assert [(g.subject_id, g.subject_version, g.family) for g in groups] == [
        ("alpha", "a-1", "NOWE"),
        ("alpha", "a-1", "OXID"),
        ("beta", "b-1", "OXID"),
        ("gamma", "c-1", "OXID"),
    ]
    # ECE bins (index m − 1) and gaps c − 25·q: 80 → bin 9, 80 − 100; 60 → bin 7, 60 − 50.
    assert groups[1] == GroupTally(
        "alpha",
        "a-1",
        "OXID",
        ["RO-OXID-001", "RO-OXID-002"],
        Tally(2, 1, 36, 0, 140, 6, bin_runs=bins({6: 1, 8: 1}), bin_gaps=bins({6: 10, 8: -20})),
    )
    assert groups[0].tally == Tally(
        1, 0, 8, 0, 90, 0, 1, 90, 1, 90, bin_runs=bins({9: 1}), bin_gaps=bins({9: 90})
    )
    # c-1's critical Fail of OXID-001 (12, confidence 100, correct), its Conditional
    # OXID-002 (9, confidence 40, half correct).
    assert groups[3].tally == Tally(
        2, 0, 42, 1, 140, 6, 0, 0, 1, 100, bin_runs=bins({9: 1, 4: 1}), bin_gaps=bins({4: -10})
    )


def bins(values: dict[int, int]) -> list[int]:
    """Ten bins, zero but at the given indexes."""
    return [values.get(index, 0) for index in range(10)]


# Runs of a fourth version with halves and quarters (consolidated runs), and a run of
# a-1 in another family, so that partitions split a version's runs and families.
MORE = [
    ("delta", "d-1", "RO-MECH-001", 8.5, True, "Fail", 80, 0.75),
    ("delta", "d-1", "RO-MECH-002", 0.5, False, "Fail", 10, 0.0),
    ("delta", "d-1", "RO-OXID-003", 10.5, False, "Pass", 88, 0.25),
    ("alpha", "a-1", "RO-MECH-001", 9, False, "Conditional", 85, 0.5),
]


def test_the_partitions_tallies_combined_are_the_tallies_of_all_their_runs():
    runs = [*RUNS, *MORE]
    everything = fd.tally_runs(per_run(runs))
    # By hand: 11 runs; OXID's cases with a run; d-1's MECH runs and a-1's.
    assert everything.n_runs == 11
    assert everything.cases == {
        "OXID": {"RO-OXID-001", "RO-OXID-002", "RO-OXID-003"},
        "NOWE": {"RO-NOWE-001"},
        "MECH": {"RO-MECH-001", "RO-MECH-002"},
    }
    # d-1 MECH: 80 (q 3) → bin 9, +5; 10 (q 0) → bin 2, +10. a-1: 60 → +10 (bin 7); 80 and
    # 85 (q 2: +35) → bin 9, −20 + 35; 90 → bin 10, +90.
    assert everything.cells["d-1", "MECH"] == Tally(
        2, 0, 18, 1, 90, 3, 1, 10, 2, 90, bin_runs=bins({1: 1, 8: 1}), bin_gaps=bins({1: 10, 8: 5})
    )
    assert everything.version("a-1") == Tally(
        4,
        1,
        62,
        0,
        315,
        8,
        1,
        90,
        1,
        90,
        bin_runs=bins({6: 1, 8: 2, 9: 1}),
        bin_gaps=bins({6: 10, 8: 15, 9: 90}),
    )
    # Every split into two partitions, even one that splits a version's runs.
    for split in range(len(runs) + 1):
        first, second = per_run(runs[:split]), per_run(runs[split:])
        combined = fd.combined_tallies([*fd.group_tallies(first), *fd.group_tallies(second)])
        assert combined == fd.tally_runs(per_run(runs)), split
    # A version two subjects share is found across partitions too.
    shared = [("epsilon", "a-1", "RO-OXID-001", 5, False, "Fail", 30, 0.0)]
    combined = fd.combined_tallies(
        [*fd.group_tallies(per_run(shared)), *fd.group_tallies(per_run(RUNS))]
    )
    assert combined.problems == fd.tally_runs(per_run([*RUNS, *shared])).problems
    assert combined.n_runs == 8


def test_the_tallies_file_reads_back_as_written(tmp_path):
    groups = fd.group_tallies(per_run([*RUNS, *MORE]))
    path = tmp_path / "tallies.json"
    write_group_tallies(path, groups)
    assert read_group_tallies(path) == groups
    first = orjson.loads(path.read_bytes())["groups"][0]
    assert first[:4] == ["alpha", "a-1", "MECH", ["RO-MECH-001"]]
    assert first[4]["confidence_sum"] == 85


def test_a_subject_version_shared_by_two_subjects_is_a_problem():
    runs = [*RUNS, ("delta", "a-1", "RO-OXID-001", 5, False, "Fail", 30, 0.0)]
    assert fd.tally_runs(per_run(runs)).problems == [
        (
            "tallies",
            "subject_version 'a-1' belongs to subjects 'alpha' and 'delta': findings.json keys "
            "versions by subject_version",
        )
    ]


def test_a_subject_version_two_subjects_share_is_keyed_with_its_subject():
    # gamma's version renamed a-1, alpha's name (allowed: unique within a subject only).
    def shared(version):
        return "a-1" if version == "c-1" else version

    runs = [(s, shared(v), *rest) for s, v, *rest in RUNS]
    subjects = [{**row, "subject_version": shared(row["subject_version"])} for row in SUBJECTS]
    evidence = dataclasses.replace(
        EVIDENCE,
        ranks=[r._replace(subject_version=shared(r.subject_version)) for r in EVIDENCE.ranks],
    )
    critical = [["gamma", "a-1", "RO-OXID-001", "run-1", "R01", "generic", "", "", "none", ""]]
    groups = fd.group_tallies(per_run(runs))
    keyed = fd.keyed_inputs(groups, subjects, evidence, critical, [], [], None)
    assert fd.version_keys(subjects) == {
        ("alpha", "a-1"): "alpha/a-1",
        ("beta", "b-1"): "b-1",
        ("gamma", "a-1"): "gamma/a-1",
    }
    assert keyed.critical_rows[0][:2] == ["gamma", "gamma/a-1"]
    assert keyed.evidence.neighbours[0][:4] == ("beta", "b-1", "alpha", "alpha/a-1")
    document = fd.findings_document(
        benchmark_version="v1.0",
        verdict=VERDICT,
        tallies=fd.combined_tallies(keyed.groups),
        subjects=keyed.subjects,
        critical_rows=keyed.critical_rows,
        evidence=keyed.evidence,
        structure={},
        cost={},
        costs=None,
        names=keyed.names,
    ).document
    # The same facts as with distinct names (test_safety_counts_...), under the keys.
    assert document["safety"]["events_per_version"] == {"b-1": 0, "alpha/a-1": 0, "gamma/a-1": 1}
    assert document["safety"]["disqualified"]["versions"] == ["gamma/a-1"]
    assert document["versions"]["gamma/a-1"] == {"subject_id": "gamma", "subject_version": "a-1"}
    # The tallies given are left as they were.
    assert [g.subject_version for g in groups].count("a-1") == 3  # a-1 OXID, NOWE; c-1 OXID


def test_findings_json_keeps_an_exact_fraction_whose_terms_pass_64_bits(tmp_path):
    # η² at size M: a fraction of two ~35-digit integers; orjson cannot write them.
    from fractions import Fraction

    from ro_metrics.contracts.records import findings_bytes, fraction_fact, read_findings

    huge = Fraction(3**70 + 2, 2**110)  # 3^70 + 2 is odd: already in lowest terms
    path = tmp_path / "findings.json"
    path.write_bytes(findings_bytes({"b": fraction_fact(huge), "a": "é"}))
    text = path.read_text("utf-8")
    assert text.startswith(
        '{\n  "a": "é",\n  "b": {\n    "den": 1298074214633706907132624082305024,'
    )
    assert text.endswith("}\n")
    back = read_findings(path)["b"]
    assert Fraction(back["num"], back["den"]) == huge
    assert back["value"] == float(round(huge, 4))
