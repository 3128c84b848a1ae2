"""formulas/agreement.py and agreement_tables.py against hand values and statsmodels.

Tables are n_ij with rows reviewer_a (the lower id) and columns reviewer_b; r_i, c_j
their totals. The hand values:

- 2 × 2, [[20, 5], [10, 15]], n = 50: p_o = 35/50 = 0.7; r = (25, 25), c = (30, 20),
  p_e = (25·30 + 25·20)/50² = 1250/2500 = 0.5; κ = (0.7 − 0.5)/(1 − 0.5) = 2/5.
- 3 × 3, THREE = [[20, 5, 1], [3, 15, 4], [0, 2, 10]], n = 60: diagonal 45, p_o = 3/4;
  r = (26, 22, 12), c = (23, 22, 15); Σ r_i c_i = 598 + 484 + 180 = 1262, so
  κ = (2700 − 1262)/(3600 − 1262) = 1438/2338 = 719/1169 (≈ 0.61506).
  Weighted, κ_w = (Σ w r_i c_j − n Σ w n_ij)/Σ w r_i c_j with integer weights:
  cells one apart hold 5 + 3 + 4 + 2 = 14 runs, two apart 1 + 0 = 1;
  Σ_{|i−j|=1} r_i c_j = 26·22 + 22·23 + 22·15 + 12·22 = 572 + 506 + 330 + 264 = 1672,
  Σ_{|i−j|=2} r_i c_j = 26·15 + 12·23 = 390 + 276 = 666.
  linear (w = |i − j|): Σ w n = 14 + 2 = 16, Σ w r c = 1672 + 2·666 = 3004,
  κ = (3004 − 60·16)/3004 = 2044/3004 = 511/751 (≈ 0.68043);
  quadratic (w = (i − j)²): Σ w n = 14 + 4 = 18, Σ w r c = 1672 + 4·666 = 4336,
  κ = (4336 − 60·18)/4336 = 3256/4336 = 407/542 (≈ 0.75092).
- A rare flag: a = 1 both, b = 1 only reviewer_a, c = 1 only reviewer_b, d = 47, n = 50:
  PSA = 2/(2 + 2) = 1/2; NSA = 94/(94 + 2) = 47/48;
  AC1: p_o = 48/50 = 0.96, π = (2 + 1 + 1)/100 = 0.04, p_e = 2·0.04·0.96 = 0.0768,
  AC1 = (0.96 − 0.0768)/(1 − 0.0768) = 0.8832/0.9232 = 552/577 (≈ 0.95667);
  κ: r = c = (2, 48), p_e = (4 + 2304)/2500, κ = (2400 − 2308)/(2500 − 2308) = 92/192
  = 23/48 (≈ 0.479): the prevalence paradox that the note on κ warns of.
"""

import csv
import random
import warnings
from fractions import Fraction
from types import SimpleNamespace

import numpy as np
import pytest
import reviewer_agreement
from statsmodels.stats.inter_rater import cohens_kappa as statsmodels_kappa

from ro_metrics.contracts.records import (
    PartitionReviews,
    ReviewPair,
    read_partition_reviews,
    write_partition_reviews,
)
from ro_metrics.contracts.tables import (
    AGREEMENT_COLUMNS,
    AGREEMENT_GRID_COLUMNS,
    DIVERGENT_RUN_COLUMNS,
    REVIEWER_SEVERITY_COLUMNS,
)
from ro_metrics.formulas import agreement as ag
from ro_metrics.formulas import agreement_tables as at
from ro_metrics.formulas.uncertainty import draw_case_multiplicities, order_statistic_bounds

TWO = [[20, 5], [10, 15]]
THREE = [[20, 5, 1], [3, 15, 4], [0, 2, 10]]
RARE_FLAG = [[1, 1], [1, 47]]


def value(ratio):
    return ag.full_sample_estimate(ratio).value


# --- The formulas on one table ----------------------------------------------------------


def test_cohens_kappa_of_a_two_by_two_table_by_hand():
    assert value(ag.cohens_kappa(TWO)) == Fraction(2, 5)
    assert value(ag.observed_agreement(TWO)) == Fraction(7, 10)


def test_cohens_kappa_of_a_three_by_three_table_by_hand():
    assert value(ag.cohens_kappa(THREE)) == Fraction(719, 1169)
    assert value(ag.observed_agreement(THREE)) == Fraction(3, 4)


def test_weighted_kappa_of_a_three_by_three_table_by_hand():
    assert value(ag.linear_kappa(THREE)) == Fraction(511, 751)
    assert value(ag.quadratic_kappa(THREE)) == Fraction(407, 542)


def test_kappa_agrees_with_statsmodels_on_the_hand_table_and_random_ones():
    rng = np.random.default_rng(7)
    # THREE, then random tables of the sizes the variables have (2, 3 and 13 categories),
    # some with empty rows or columns.
    tables = [np.array(THREE)] + [
        rng.integers(0, 9, size=(k, k)) * (rng.random((k, k)) < 0.7) for k in (2, 3, 3, 13, 13)
    ]
    for table in tables:
        for ours, weights in (
            (ag.cohens_kappa, None),
            (ag.linear_kappa, "linear"),
            (ag.quadratic_kappa, "quadratic"),
        ):
            with warnings.catch_warnings():
                # statsmodels' variance of κ divides by zero on some tables; κ itself is fine.
                warnings.simplefilter("ignore", RuntimeWarning)
                theirs = statsmodels_kappa(table, wt=weights).kappa
            assert float(value(ours(table))) == pytest.approx(theirs, rel=1e-12, abs=1e-15)


def test_the_rare_flag_by_hand():
    assert value(ag.positive_specific_agreement(RARE_FLAG)) == Fraction(1, 2)
    assert value(ag.negative_specific_agreement(RARE_FLAG)) == Fraction(47, 48)
    assert value(ag.gwet_ac1(RARE_FLAG)) == Fraction(552, 577)
    assert value(ag.cohens_kappa(RARE_FLAG)) == Fraction(23, 48)


def test_agreement_within_one_and_the_differences_by_hand():
    # Scores 0-2, THREE: runs more than one apart are the (0, 2) cell's 1 of 60, so
    # within 1 = 59/60. |b − a|: 14 runs one apart + 1 run two apart = 16 → 16/60 = 4/15.
    # b − a: above the diagonal +5 +4 +2·1 = 11, below −3 −2 −2·0 = −5 → 6/60 = 1/10.
    assert value(ag.agreement_within_one(THREE)) == Fraction(59, 60)
    assert value(ag.mean_absolute_difference(THREE)) == Fraction(4, 15)
    assert value(ag.mean_signed_difference(THREE)) == Fraction(1, 10)


def test_one_category_for_everything_leaves_kappa_undefined_with_the_reason():
    everyone_pass = [[7, 0, 0], [0, 0, 0], [0, 0, 0]]
    for statistic in (ag.cohens_kappa, ag.linear_kappa, ag.quadratic_kappa):
        assert ag.full_sample_estimate(statistic(everyone_pass)) == (None, ag.UNDEFINED_KAPPA)
    # Observed agreement is defined (and perfect); so is AC1 (its denominator ≥ n²).
    assert value(ag.observed_agreement(everyone_pass)) == 1
    never_flagged = [[0, 0], [0, 12]]
    assert ag.full_sample_estimate(ag.positive_specific_agreement(never_flagged)) == (
        None,
        ag.UNDEFINED_PSA,
    )
    assert value(ag.gwet_ac1(never_flagged)) == 1
    assert ag.full_sample_estimate(ag.negative_specific_agreement([[3, 0], [0, 0]])) == (
        None,
        ag.UNDEFINED_NSA,
    )
    assert ag.full_sample_estimate(ag.cohens_kappa([[0, 0], [0, 0]])) == (
        None,
        ag.UNDEFINED_NO_RUNS,
    )


def test_contingency_table_from_two_label_lists():
    table = ag.contingency_table(
        ["Pass", "Pass", "Fail", "Conditional"],
        ["Pass", "Fail", "Fail", "Pass"],
        ("Pass", "Conditional", "Fail"),
    )
    assert table.tolist() == [[1, 0, 1], [1, 0, 0], [0, 0, 1]]
    with pytest.raises(ValueError, match="outside the categories"):
        ag.contingency_table(["Pass"], ["Maybe"], ("Pass", "Fail"))


def test_replicate_values_are_the_correctly_rounded_exact_values():
    rng = np.random.default_rng(11)
    tables = rng.integers(0, 50, size=(300, 13, 13))
    for statistic in (ag.cohens_kappa, ag.quadratic_kappa, ag.mean_signed_difference):
        values, defined = ag.replicate_values(statistic(tables))
        assert defined.all()
        assert values.tolist() == [float(value(statistic(table))) for table in tables]


# --- The case bootstrap -----------------------------------------------------------------


def pair(case_id="RO-OXID-001", run=1, subject="sub-a", version="v1", **fields):
    """A ReviewPair with agreeing defaults; `fields` override any of its fields."""
    values = {
        "subject_id": subject,
        "subject_version": version,
        "case_id": case_id,
        "family": case_id.split("-")[1],
        "run_id": f"run-2026-05-01-{run:03d}",
        "reviewer_a": "R01",
        "reviewer_b": "R02",
        "classification_a": "Pass",
        "classification_b": "Pass",
        "criteria_a": [2, 2, 2, 1, 1, 1],
        "criteria_b": [2, 2, 2, 1, 1, 1],
        "raw_score_a": 9,
        "raw_score_b": 9,
        "correctness_a": 1.0,
        "correctness_b": 1.0,
        "critical_a": False,
        "critical_b": False,
        "divergent": [],
        "arbiter_id": "",
        "decision": "mean",
    }
    values.update(fields)
    return ReviewPair(**values)


def test_the_bootstrap_resamples_cases_with_all_their_runs():
    # Case 001 has two runs that disagree (Pass vs Fail), case 002 one that agrees. A
    # replicate counts both runs of 001 each time it draws it: the (Pass, Fail) cell is
    # 2 · W[b, 0], always even (a run-level bootstrap would give odd counts too).
    disagree = {"classification_b": "Fail", "raw_score_b": 3}
    pairs = [
        pair("RO-OXID-001", 1, **disagree),
        pair("RO-OXID-001", 2, **disagree),
        pair("RO-OXID-002", 3),
    ]
    scope = at.scope_tables("overall", pairs, 500, 42)
    weights = draw_case_multiplicities(2, 500, 42)
    classes = scope.replicates["classification"]
    assert (classes[:, 0, 2] == 2 * weights[:, 0]).all()
    assert (classes[:, 0, 0] == weights[:, 1]).all()
    assert len(set(classes[:, 0, 2].tolist())) == 3  # 0, 2 or 4: the draws do vary
    assert (scope.n_runs, scope.n_cases) == (3, 2)


def test_the_interval_is_the_order_statistics_of_the_exact_replicates():
    # An independent slow bootstrap: each replicate's runs listed out, κ by Fractions.
    rng = random.Random(5)  # noqa: S311 (reproducible test data, not crypto)
    classes = ("Pass", "Conditional", "Fail")
    pairs = [
        pair(
            f"RO-SCAL-{case:03d}",
            run,
            classification_a=rng.choice(classes),
            classification_b=rng.choice(classes),
        )
        for case in range(1, 9)
        for run in range(1, rng.randint(2, 5))
    ]
    replicates, seed = 60, 3
    scope = at.scope_tables("overall", pairs, replicates, seed)
    interval = ag.percentile_interval(ag.cohens_kappa(scope.replicates["classification"]))
    cases = sorted({p.case_id for p in pairs})
    exact_values, undefined = [], 0
    for weights in draw_case_multiplicities(len(cases), replicates, seed):
        runs = [p for p in pairs for _ in range(weights[cases.index(p.case_id)])]
        table = ag.contingency_table(
            [p.classification_a for p in runs], [p.classification_b for p in runs], classes
        )
        kappa = value(ag.cohens_kappa(table))
        if kappa is None:
            undefined += 1
        else:
            exact_values.append(kappa)
    exact_values.sort()
    low, high = order_statistic_bounds(len(exact_values))
    assert interval == (exact_values[low - 1], exact_values[high - 1], undefined)


def test_the_same_seed_gives_the_same_rows_and_another_seed_other_intervals():
    rng = random.Random(8)  # noqa: S311 (reproducible test data, not crypto)
    pairs = [
        pair(
            f"RO-FOUL-{case:03d}",
            run,
            raw_score_a=rng.randint(0, 12),
            raw_score_b=rng.randint(0, 12),
        )
        for case in range(1, 13)
        for run in range(1, 3)
    ]

    def rows(seed):
        return at.agreement_rows(at.agreement_scopes(pairs, 400, seed))

    assert rows(1) == rows(1)
    different = [(a, b) for a, b in zip(rows(1), rows(2), strict=True) if a != b]
    assert different
    # Only the interval ends move with the seed, never the estimates.
    assert all(a[:4] == b[:4] and a[6:] == b[6:] for a, b in different)


# --- agreement.csv and the grid ---------------------------------------------------------


def pairs_of_table(table, categories, field, case_ids):
    """One pair per run of the table, the runs dealt round-robin over the cases."""
    pairs = []
    for i, a in enumerate(categories):
        for j, b in enumerate(categories):
            for _ in range(table[i][j]):
                run = len(pairs) + 1
                case = case_ids[run % len(case_ids)]
                pairs.append(pair(case, run, **{f"{field}_a": a, f"{field}_b": b}))
    return pairs


def test_agreement_rows_of_the_class_table_and_the_rare_flag():
    pairs = pairs_of_table(
        THREE, ("Pass", "Conditional", "Fail"), "classification", ["RO-MECH-001", "RO-MECH-002"]
    )
    rows = at.agreement_rows(at.agreement_scopes(pairs, 200, 1))
    by_statistic = {(r[0], r[1], r[2]): r for r in rows}
    kappa = by_statistic["overall", "classification", "kappa"]
    # 719/1169 = 0.61505…, 511/751 = 0.68042…; 60 runs in 2 cases.
    assert kappa[3] == 0.6151 and kappa[6:9] == [60, 2, 0]
    assert kappa[4] <= kappa[5]
    assert by_statistic["overall", "classification", "linear_kappa"][3] == 0.6804
    assert by_statistic["overall", "classification", "observed_agreement"][3] == 0.75
    assert by_statistic["overall", "classification", "confusion_Pass_Fail"][3:] == [
        1, "", "", 60, 2, "", ""
    ]  # fmt: skip
    # The family scope is the overall one here: MECH holds every pair.
    assert by_statistic["MECH", "classification", "kappa"][3] == 0.6151
    # The flag was never raised: counts, and the rest "counts only".
    assert by_statistic["overall", "critical_fail", "n_neither"][3] == 60
    ac1 = by_statistic["overall", "critical_fail", "gwet_ac1"]
    assert ac1[3:6] == ["", "", ""]
    assert ac1[9] == "counts only: 0 runs flagged (fewer than 5)"
    assert len({len(row) for row in rows}) == 1 and len(rows[0]) == len(AGREEMENT_COLUMNS)


def test_the_rare_flag_with_five_positives_gets_its_statistics_and_the_note_on_kappa():
    # a = 3 both, b = 1, c = 1, d = 45: five runs flagged. PSA = 6/8 = 0.75,
    # NSA = 90/92 = 0.978260… → 0.9783; κ: r = c = (4, 46), p_e = (16 + 2116)/2500,
    # p_o = 48/50, κ = (2400 − 2132)/(2500 − 2132) = 268/368 = 0.728260… → 0.7283.
    pairs = pairs_of_table([[3, 1], [1, 45]], (True, False), "critical", ["RO-NOWE-001"])
    rows = {r[2]: r for r in at.agreement_rows(at.agreement_scopes(pairs, 100, 1))}
    assert rows["n_both"][3] == 3 and rows["n_one"][3] == 2 and rows["n_neither"][3] == 45
    assert rows["positive_specific_agreement"][3] == 0.75
    assert rows["negative_specific_agreement"][3] == 0.9783
    assert rows["kappa"][3] == 0.7283
    assert rows["kappa"][9] == at.NOTE_CRITICAL_KAPPA
    # One case: every replicate draws it once, so the interval is the estimate.
    assert rows["kappa"][4:6] == [0.7283, 0.7283]


def test_an_undefined_kappa_has_no_estimate_no_interval_and_says_why():
    pairs = [pair("RO-OXID-001", run) for run in range(1, 4)]  # everyone Pass, scores equal
    rows = {(r[1], r[2]): r for r in at.agreement_rows(at.agreement_scopes(pairs, 50, 1))}
    assert rows["classification", "kappa"][3:] == ["", "", "", 3, 1, 50, ag.UNDEFINED_KAPPA]
    assert rows["classification", "observed_agreement"][3] == 1.0


def test_grid_rows_per_family_and_criterion():
    # OXID: main_hypothesis scored (2, 1) and (0, 0): quadratic κ over scores 0-2 with
    # n = 2, r = (1, 0, 1), c = (1, 1, 0): Σ w n = 1 (the (2, 1) cell), Σ w r c =
    # r0c1·1 + r2c0·4 + r2c1·1 = 1 + 4 + 1 = 6, κ = (6 − 2·1)/6 = 2/3 → 0.6667;
    # MAD = 1/2. The other criteria agree on (2 2 1 1 1) in both runs: one category
    # each, κ undefined. SCAL's rows follow OXID's (the order of FAMILIES).
    pairs = [
        pair("RO-OXID-001", 1, criteria_a=[2, 2, 2, 1, 1, 1], criteria_b=[1, 2, 2, 1, 1, 1]),
        pair("RO-OXID-002", 2, criteria_a=[0, 2, 2, 1, 1, 1], criteria_b=[0, 2, 2, 1, 1, 1]),
        pair("RO-SCAL-001", 3),
    ]
    rows = at.grid_rows(at.agreement_scopes(pairs, 100, 1))
    assert [row[:2] for row in rows[:7]] == [
        ["OXID", "main_hypothesis"],
        ["OXID", "key_signals"],
        ["OXID", "alternatives"],
        ["OXID", "recommended_action"],
        ["OXID", "requested_data"],
        ["OXID", "decision_change_condition"],
        ["SCAL", "main_hypothesis"],
    ]
    assert rows[0][2] == 0.6667 and rows[0][5] == 0.5 and rows[0][6:8] == [2, 2]
    assert rows[1][2:6] == ["", "", "", 0.0] and rows[1][9] == ag.UNDEFINED_KAPPA
    assert len(rows) == 12 and len(rows[0]) == len(AGREEMENT_GRID_COLUMNS)


# --- reviewer_severity.csv and divergent_runs.csv ---------------------------------------

# P1: R01 Pass 10 vs R02 Fail 4, arbiter R03 says Pass: sided with R01, against R02.
# P2: R01 Conditional 7 vs R03 Conditional 8 (diverged on the flag), arbiter R02 says
#     Fail: the primaries' classes are equal, so neither.
# P3: R02 Pass 9 vs R03 Conditional 8, pending.
# P4: R04 Fail 3 vs R05 Pass 10, arbiter R09 says Conditional, a third class: neither.
SEVERITY_PAIRS = [
    pair(
        run=1,
        classification_a="Pass",
        classification_b="Fail",
        raw_score_a=10,
        raw_score_b=4,
        divergent=["classification"],
        arbiter_id="R03",
        decision="arbiter",
        arbiter_classification="Pass",
    ),
    pair(
        run=2,
        reviewer_b="R03",
        classification_a="Conditional",
        classification_b="Conditional",
        raw_score_a=7,
        raw_score_b=8,
        critical_b=True,
        divergent=["critical_fail"],
        arbiter_id="R02",
        decision="arbiter",
        arbiter_classification="Fail",
    ),
    pair(
        run=3,
        reviewer_a="R02",
        reviewer_b="R03",
        classification_b="Conditional",
        raw_score_b=8,
        divergent=["classification"],
        decision="pending_arbitration",
    ),
    pair(
        run=4,
        reviewer_a="R04",
        reviewer_b="R05",
        classification_a="Fail",
        classification_b="Pass",
        raw_score_a=3,
        raw_score_b=10,
        divergent=["classification", "raw_score"],
        arbiter_id="R09",
        decision="arbiter",
        arbiter_classification="Conditional",
    ),
]


def test_reviewer_severity_and_whom_the_arbiter_sided_with():
    # R01: P1 +6, P2 −1 → 5/2; R02: P1 −6, P3 +1 → −5/2; R03: P2 +1, P3 −1 → 0;
    # R04 −7, R05 +7; R09 only arbitrated.
    rows = at.reviewer_severity_rows(SEVERITY_PAIRS, at.arbiter_classes_of(SEVERITY_PAIRS))
    assert rows == [
        ["R01", 2, 2.5, 0, 2, 1, 0, 1.0],
        ["R02", 2, -2.5, 1, 1, 0, 1, 0.0],
        ["R03", 2, 0.0, 1, 1, 0, 0, ""],
        ["R04", 1, -7.0, 0, 1, 0, 0, ""],
        ["R05", 1, 7.0, 0, 1, 0, 0, ""],
        ["R09", 0, "", 1, 0, 0, 0, ""],
    ]
    assert len(rows[0]) == len(REVIEWER_SEVERITY_COLUMNS)


def test_an_arbitrated_run_without_the_arbiters_class_is_refused():
    with pytest.raises(ValueError, match="arbitrated by R03 but its classification is None"):
        at.reviewer_severity_rows(SEVERITY_PAIRS, {})


def test_divergent_runs_put_critical_fail_disagreements_first_then_the_keys():
    pairs = [
        *SEVERITY_PAIRS,
        pair(subject="sub-b", run=5, critical_a=True, divergent=["critical_fail"]),
        pair(subject="sub-a", version="v2", run=6, critical_b=True, divergent=["critical_fail"]),
        pair(subject="sub-0", run=7),  # agreed: not listed
    ]
    rows = at.divergent_run_rows(pairs, at.arbiter_classes_of(pairs))
    assert [(row[0], row[1], row[4][-3:]) for row in rows] == [
        ("sub-a", "v1", "002"),  # P2: its flag differs
        ("sub-a", "v2", "006"),
        ("sub-b", "v1", "005"),
        ("sub-a", "v1", "001"),
        ("sub-a", "v1", "003"),
        ("sub-a", "v1", "004"),
    ]
    assert rows[0] == [
        "sub-a", "v1", "RO-OXID-001", "OXID", "run-2026-05-01-002", "R01", "R03",
        "Conditional", "Conditional", 7, 8, 1.0, 1.0, False, True,
        "critical_fail", "arbitrated", "R02", "Fail",
    ]  # fmt: skip
    assert rows[4][15:] == ["classification", "pending", "", ""]
    assert rows[5][15] == "classification;raw_score"
    assert len(rows[0]) == len(DIVERGENT_RUN_COLUMNS)


def test_review_pair_problems_name_the_run_and_the_field():
    bad = pair(
        run=9,
        reviewer_a="R02",
        reviewer_b="R01",
        raw_score_a=True,
        criteria_b=[2, 2, 3, 1, 1, 1],
        arbiter_id="R05",
        decision="mean",
    )
    where = "sub-a/v1/RO-OXID-001/run-2026-05-01-009"
    assert at.review_pair_problems([bad, pair(run=9)]) == [
        f"{where}: reviewer_a 'R02' must sort before reviewer_b 'R01'",
        f"{where}: raw_score_a True is not one of {list(range(13))}",
        f"{where}: criteria_b must be 6 scores of 0, 1 or 2: [2, 2, 3, 1, 1, 1]",
        f"{where}: decision 'mean' with arbiter_id 'R05'",
        f"{where}: an arbiter or pending arbitration on a run that did not diverge",
        f"{where}: the run has two review pairs",
    ]
    assert at.review_pair_problems(SEVERITY_PAIRS) == []


def test_review_pairs_read_back_as_written(tmp_path):
    path = tmp_path / "reviews.json"
    write_partition_reviews(path, PartitionReviews(2, [], [], SEVERITY_PAIRS, [], "", []))
    assert read_partition_reviews(path).pairs == SEVERITY_PAIRS


# --- The rule script ------------------------------------------------------------------


def smk_of(tmp_path, pairs):
    # The pairs as two partitions' per-run steps hand them on, in reverse order: the
    # script puts them in the corpus's order of runs.
    halves = (pairs[len(pairs) // 2 :], pairs[: len(pairs) // 2])
    paths = [str(tmp_path / f"reviews-{index}.json") for index in range(2)]
    for path, half in zip(paths, halves, strict=True):
        write_partition_reviews(path, PartitionReviews(2, [], [], half, [], "", []))
    names = ("agreement", "grid", "severity", "divergent")
    return SimpleNamespace(
        input=SimpleNamespace(reviews=paths),
        output=SimpleNamespace(**{name: str(tmp_path / f"{name}.csv") for name in names}),
        log=[str(tmp_path / "agreement.log")],
        params=SimpleNamespace(seed=20260512, replicates=100),
    )


def read_rows(path):
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.reader(handle))


def test_the_rule_script_writes_the_four_tables(tmp_path):
    smk = smk_of(tmp_path, SEVERITY_PAIRS)
    reviewer_agreement.main(smk)
    agreement_csv = read_rows(smk.output.agreement)
    assert agreement_csv[0] == AGREEMENT_COLUMNS
    assert agreement_csv[1][:3] == ["overall", "classification", "kappa"]
    assert read_rows(smk.output.grid)[0] == AGREEMENT_GRID_COLUMNS
    severity = read_rows(smk.output.severity)
    assert severity[0] == REVIEWER_SEVERITY_COLUMNS
    assert severity[1] == ["R01", "2", "2.5", "0", "2", "1", "0", "1.0"]
    divergent = read_rows(smk.output.divergent)
    assert divergent[0] == DIVERGENT_RUN_COLUMNS and len(divergent) == 5
    assert (tmp_path / "agreement.csv").read_bytes().endswith(b"\r\n")


def test_the_rule_script_reports_every_bad_pair_and_writes_nothing(tmp_path, capsys):
    bad = [pair(run=1, reviewer_a="R02", reviewer_b="R01"), pair(run=2, correctness_b=0.25)]
    smk = smk_of(tmp_path, bad)
    with pytest.raises(SystemExit) as stop:
        reviewer_agreement.main(smk)
    assert stop.value.code == 1
    source = ", ".join(smk.input.reviews)
    assert capsys.readouterr().err.splitlines() == [
        f"{source}: sub-a/v1/RO-OXID-001/run-2026-05-01-001: "
        "reviewer_a 'R02' must sort before reviewer_b 'R01'",
        f"{source}: sub-a/v1/RO-OXID-001/run-2026-05-01-002: "
        "correctness_b 0.25 is not one of [0.0, 0.5, 1.0]",
    ]
    assert not list(tmp_path.glob("*.csv"))
