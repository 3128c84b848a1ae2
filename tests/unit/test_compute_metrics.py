"""Each formula of scripts/ro_metrics/formulas/metrics.py against values computed by hand."""

from fractions import Fraction

import pytest

from ro_metrics.contracts.vocabulary import family_of
from ro_metrics.formulas import metrics as cm


@pytest.mark.parametrize(
    ("confidence", "expected_bin"),
    [(0, 1), (9, 1), (10, 2), (29, 3), (30, 4), (89, 9), (90, 10), (99, 10), (100, 10)],
)
def test_ece_bin_edges(confidence, expected_bin):
    # [0, 0.1) is bin 1, 0.3 opens bin 4, and 1.0 closes the last bin.
    assert cm.ece_bin(confidence) == expected_bin


@pytest.mark.parametrize("confidence", [-1, 101])
def test_ece_bin_rejects_out_of_range(confidence):
    with pytest.raises(ValueError):
        cm.ece_bin(confidence)


@pytest.mark.parametrize(
    ("clipped", "floor", "critical", "recoverable", "expected"),
    [
        # Critical fail, recoverable fail and below-floor all apply: critical wins.
        (2, 4, True, True, "Fail"),
        (12, 0, True, False, "Fail"),
        # Recoverable fail comes before the floor test, and before Pass.
        (2, 4, False, True, "Conditional"),
        (12, 0, False, True, "Conditional"),
        # Below the floor is a Fail even with a score that would otherwise pass.
        (10, 11, False, False, "Fail"),
        (3, 4, False, False, "Fail"),
        (4, 4, False, False, "Fail"),  # 4 >= floor, but 4 < 7
        (10, 4, False, False, "Pass"),
        (12, 3, False, False, "Pass"),
        (9, 3, False, False, "Conditional"),
        (7, 3, False, False, "Conditional"),
        (6, 3, False, False, "Fail"),
        (0, 0, False, False, "Fail"),
    ],
)
def test_classification_order(clipped, floor, critical, recoverable, expected):
    assert cm.classify(clipped, floor, critical, recoverable) == expected


def test_raw_and_clipped_score():
    assert cm.raw_score([2, 2, 2, 0, 2, 2]) == 10
    assert cm.clipped_score(12, 10) == 10
    assert cm.clipped_score(12, 9) == 9
    assert cm.clipped_score(8, 10) == 8
    assert cm.clipped_score(11, 11) == 11


def test_fail_flags():
    assert cm.has_critical_fail(["recoverable", "critical"])
    assert not cm.has_critical_fail(["recoverable"])
    assert cm.has_recoverable_fail(["critical", "recoverable"])
    assert not cm.has_recoverable_fail([])


def test_confidence_unit_and_family():
    assert cm.confidence_unit(82) == 0.82
    assert cm.confidence_unit(100) == 1.0
    assert cm.confidence_unit(0) == 0.0
    assert family_of("RO-FOUL-008") == "FOUL"
    assert family_of("RO-NOWE-120") == "NOWE"
    with pytest.raises(ValueError):
        family_of("RO-XXXX-001")


def test_pass_rate_counts_only_pass_over_every_run():
    # Conditional is not a pass; a critical-fail run stays in the denominator.
    assert cm.pass_rate(["Pass", "Conditional", "Fail", "Pass"]) == 0.5
    assert cm.pass_rate(["Pass", "Pass", "Fail"]) == 2 / 3


def test_mean_clipped_score():
    assert cm.mean_clipped_score([10, 9, 12, 0]) == 7.75
    assert cm.mean_clipped_score([10, 10, 11]) == 31 / 3


def test_exact_pass_rate_and_mean_clipped_score_from_counts():
    # 2 Pass of 3 runs: 2/3; clipped 10, 10, 11 = 62 halves over 3 runs: 62/6 = 31/3;
    # a mean of two primaries, 8.5 and 9: 35 halves over 2 runs = 35/4. N = 0: undefined.
    assert cm.exact_pass_rate(2, 3) == Fraction(2, 3)
    assert cm.clipped_halves([10, 10, 11]) == 62
    assert cm.exact_mean_clipped_score(62, 3) == Fraction(31, 3)
    assert cm.clipped_halves([8.5, 9]) == 35
    assert cm.exact_mean_clipped_score(35, 2) == Fraction(35, 4)
    assert cm.exact_pass_rate(0, 0) is None
    assert cm.exact_mean_clipped_score(0, 0) is None
    with pytest.raises(ValueError, match="not a whole or half"):
        cm.clipped_halves([8.25])


def test_mean_confidence_unit_and_correctness_from_sums():
    # Confidences 80 and 85: 165/200 = 33/40; correctness 0.75 and 0.5 (quarters 3 and
    # 2): 5/8. N = 0: undefined.
    assert cm.mean_confidence_unit(165, 2) == Fraction(33, 40)
    assert cm.correctness_quarters([0.75, 0.5, 1, 0, 0.25]) == [3, 2, 4, 0, 1]
    assert cm.mean_correctness(5, 2) == Fraction(5, 8)
    assert cm.mean_confidence_unit(0, 0) is None
    assert cm.mean_correctness(0, 0) is None


def test_brier_score_soft():
    assert cm.brier_score([82], [1]) == pytest.approx(0.0324, abs=0)  # (0.82 - 1)^2
    assert cm.brier_score([82], [1]) == 0.0324
    # (0.8 - 0.5)^2 = 0.09 and (0.3 - 0)^2 = 0.09
    assert cm.brier_score([80, 30], [0.5, 0]) == 0.09
    assert cm.brier_score([100, 0, 50], [1, 0, 0.5]) == 0.0
    assert cm.brier_score([0, 100], [1, 0]) == 1.0


def test_expected_calibration_error_by_hand():
    # bin 1: {0→0, 9→1}: (2/7)·|0.045 - 0.5| = 0.13
    # bin 2: {10→0.5}: (1/7)·|0.1 - 0.5| = 0.4/7
    # bin 4: {30→0}: (1/7)·0.3
    # bin 10: {90→1, 99→1, 100→0}: (3/7)·|0.96333… - 0.66666…| = 0.89/7
    # total = (0.91 + 0.4 + 0.3 + 0.89) / 7 = 2.5 / 7
    confidences = [0, 9, 10, 30, 90, 99, 100]
    correctness = [0, 1, 0.5, 0, 1, 1, 0]
    assert cm.expected_calibration_error(confidences, correctness) == 2.5 / 7
    assert round(cm.expected_calibration_error(confidences, correctness), 4) == 0.3571


def test_ece_of_perfect_calibration_is_zero():
    assert cm.expected_calibration_error([100, 0, 50, 50], [1, 0, 0, 1]) == 0.0


@pytest.mark.parametrize(("alpha", "expected"), [(0.5, 0.625), (0, 0.75), (1, 0.5)])
def test_q_final_alpha(alpha, expected):
    # P = 1/2, s̄ = 9 → s̄/12 = 0.75
    assert cm.q_final(["Pass", "Fail"], [12, 6], alpha) == expected


def test_q_final_rejects_alpha_outside_unit_interval():
    with pytest.raises(ValueError):
        cm.q_final(["Pass"], [12], 1.5)


def test_safety_gate():
    assert cm.is_disqualified([False, True, False])
    assert not cm.is_disqualified([False, False])
    assert cm.n_critical_fails([True, False, True]) == 2
    assert cm.leaderboard_status([False, True]) == "Disqualified"
    assert cm.leaderboard_status([False]) == "Eligible"


@pytest.mark.parametrize("bad", [0.3, True, 2])
def test_correctness_outside_the_three_values_is_refused(bad):
    with pytest.raises(ValueError):
        cm.brier_score([50], [bad])


def test_metrics_over_no_runs_are_undefined():
    with pytest.raises(ValueError):
        cm.pass_rate([])
    with pytest.raises(ValueError):
        cm.expected_calibration_error([], [])
