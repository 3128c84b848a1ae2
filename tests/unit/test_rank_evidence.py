"""ro_metrics/formulas/rank_evidence.py against hand values, exact enumeration and naive
re-implementations.

The tiny corpus of the neighbour tests (α = 1/2, per-run term α·pass + (1 − α)·clipped/12):

    case  upper's runs (term)                     mean   lower's run (term)   d = up − low
    c1    Pass 12 (1), Fail 0 (0)                 1/2    Fail 0 (0)           1/2
    c2    Conditional 12 (1/2)                    1/2    Fail 6 (1/4)         1/4
    c3    Fail 4 (1/6), Conditional 8 (1/3)       1/4    Conditional 8 (1/3)  −1/12
    c4    Fail 0, Fail 0, Pass 12 (0, 0, 1)       1/3    Fail 0 (0)           1/3
    c5    Pass 12 (1): upper only                 —      —
    c6    —                                              Pass 12 (1): lower only

4 common cases; ΔQ_final = (1/2 + 1/4 − 1/12 + 1/3) / 4 = (6 + 3 − 1 + 4)/12 / 4 = 1/4.
Scaled by L = 12: D = (6, 3, −1, 4), Σ D = 12. Of the 16 sign vectors, |Σ s D| ≥ 12 only
when s1 = s2 = s4 (then the sum is ±13 ± 1, i.e. ±12 or ±14): 2 · 2 = 4 vectors, so the
exact sign-flip p-value is 4/16 = 1/4.
"""

import itertools
from fractions import Fraction

import numpy as np
import pytest

from ro_metrics.contracts.records import read_ranking_evidence, write_ranking_evidence
from ro_metrics.formulas import rank_evidence as rk
from ro_metrics.formulas import uncertainty as un


def subject(subject_id, runs, eligible=True, confidence=70, correctness=1.0):
    """A version from (case, classification, clipped) runs, as the bootstrap reads it (its
    per-case sums); confidences, correctness given per run when they are lists."""
    n = len(runs)
    confidences = confidence if isinstance(confidence, list) else [confidence] * n
    correct = correctness if isinstance(correctness, list) else [correctness] * n
    runs = un.SubjectRuns(
        subject_id=subject_id,
        subject_version="v1",
        case_ids=[case for case, _, _ in runs],
        classifications=[c for _, c, _ in runs],
        clipped_scores=[clipped for _, _, clipped in runs],
        confidences=confidences,
        correctness=correct,
        eligible=eligible,
    )
    return un.SubjectCases(un.case_sums(runs), eligible)


UPPER_RUNS = [
    ("c1", "Pass", 12),
    ("c1", "Fail", 0),
    ("c2", "Conditional", 12),
    ("c3", "Fail", 4),
    ("c3", "Conditional", 8),
    ("c4", "Fail", 0),
    ("c4", "Fail", 0),
    ("c4", "Pass", 12),
    ("c5", "Pass", 12),
]
LOWER_RUNS = [
    ("c1", "Fail", 0),
    ("c2", "Fail", 6),
    ("c3", "Conditional", 8),
    ("c4", "Fail", 0),
    ("c6", "Pass", 12),
]


def metrics_row(subject_id, q_final, brier="0.2", ece="0.1", status="Eligible"):
    """A row of metrics_per_subject.csv, as text, with the fields the rankings read."""
    return {
        "subject_id": subject_id,
        "subject_version": "v1",
        "leaderboard_status": status,
        "q_final": q_final,
        "brier": brier,
        "ece": ece,
    }


def tiny_pair(replicates=2000, seed=7):
    sample = un.bootstrap_sample(
        [subject("up", UPPER_RUNS), subject("low", LOWER_RUNS)], 0.5, replicates, seed
    )
    rows = [metrics_row("up", "0.6"), metrics_row("low", "0.3")]
    return sample, rows


# --- Ranks ------------------------------------------------------------------------------


def test_equal_published_values_share_a_rank():
    # Brier ascending on the 4-decimal texts: 0.1 < 0.12 = 0.1200 < 0.2 → 1, 2, 2, 4.
    values = {("a", "v"): "0.12", ("b", "v"): "0.1200", ("c", "v"): "0.1", ("d", "v"): "0.2"}
    assert rk.published_competition_ranks(values, descending=False) == {
        ("a", "v"): 2,
        ("b", "v"): 2,
        ("c", "v"): 1,
        ("d", "v"): 4,
    }
    # Q_final descending: 0.7 > 0.5 = 0.5 > 0.4 → 1, 2, 2, 4.
    q_final = {("a", "v"): "0.5", ("b", "v"): "0.7", ("c", "v"): "0.5", ("d", "v"): "0.4"}
    assert rk.published_competition_ranks(q_final, descending=True) == {
        ("a", "v"): 2,
        ("b", "v"): 1,
        ("c", "v"): 2,
        ("d", "v"): 4,
    }


def test_replicate_ranks_ascending_and_descending_with_an_undefined_version():
    values = np.array([[0.1, 0.1, 0.05, np.nan], [0.3, 0.2, 0.2, 0.1]])
    defined = np.array([[True, True, True, False], [True, True, True, True]])
    # Ascending: row 1: 0.05 → 1, the two 0.1 → 2; the undefined one 0. Row 2: 0.1 → 1,
    # the two 0.2 → 2, 0.3 → 4.
    ascending = rk.replicate_competition_ranks(values, defined, descending=False)
    assert ascending.tolist() == [[2, 2, 1, 0], [4, 2, 2, 1]]
    descending = rk.replicate_competition_ranks(values, defined, descending=True)
    assert descending.tolist() == [[1, 1, 3, 0], [1, 2, 2, 4]]


def naive_rank_interval(values, defined, column, descending):
    # Independent: rank each replicate by counting strictly better defined values, then
    # take the order statistics k = max(1, ⌊(n + 1)·0.025⌋) and n + 1 − k by hand.
    ranks = []
    for row, ok in zip(values.tolist(), defined.tolist(), strict=True):
        if not ok[column]:
            continue
        mine = row[column]
        better = [
            v
            for v, o in zip(row, ok, strict=True)
            if o and ((v > mine) if descending else (v < mine))
        ]
        ranks.append(1 + len(better))
    ranks.sort()
    k = max(1, (len(ranks) + 1) * 25 // 1000)
    return ranks[k - 1], ranks[len(ranks) - k]


def test_bootstrap_ranks_are_ungated_and_equal_a_naive_ranking():
    # Three versions, one Disqualified, over 5 cases; the Disqualified one has the best
    # Brier (confidence 100 on correct runs) and must still be ranked on every metric.
    cases = [f"c{j}" for j in range(5)]
    good = subject("good", [(c, "Pass", 12) for c in cases], confidence=80)
    bad = subject("bad", [(c, "Pass", 12) for c in cases], eligible=False, confidence=100)
    mixed = subject(
        "mixed",
        [(c, "Pass" if j % 2 else "Fail", 6 * (j % 3)) for j, c in enumerate(cases)],
        confidence=[10, 90, 50, 60, 20],
        correctness=[0.0, 1.0, 0.5, 0.0, 1.0],
    )
    sample = un.bootstrap_sample([good, bad, mixed], 0.5, 500, seed=9)
    published = {
        ("good", "v1"): metrics_row("good", "1.0", brier="0.04", ece="0.2"),
        ("bad", "v1"): metrics_row("bad", "1.0", brier="0.0", ece="0.0", status="Disqualified"),
        ("mixed", "v1"): metrics_row("mixed", "0.3", brier="0.3", ece="0.3"),
    }
    records = rk.bootstrap_ranks(sample, published)
    assert [(r.metric, r.subject_id, r.rank) for r in records] == [
        ("brier", "bad", 1),
        ("brier", "good", 2),
        ("brier", "mixed", 3),
        ("ece", "bad", 1),
        ("ece", "good", 2),
        ("ece", "mixed", 3),
        # Equal published Q_final 1.0: both rank 1, then by subject_id.
        ("q_final", "bad", 1),
        ("q_final", "good", 1),
        ("q_final", "mixed", 3),
    ]
    metrics = sample.metrics
    for record in records:
        column = metrics.keys.index((record.subject_id, record.subject_version))
        expected = naive_rank_interval(
            metrics.values[record.metric],
            metrics.defined,
            column,
            descending=record.metric == "q_final",
        )
        assert (record.rank_low, record.rank_high) == expected, record


# --- Spearman -----------------------------------------------------------------------------


def test_doubled_average_ranks_with_ties():
    # Ascending average ranks: 0.2 → 1, the two 0.7 → (2 + 3)/2 = 2.5, 0.9 → 4.
    assert rk.doubled_average_ranks(np.array([[0.9, 0.7, 0.7, 0.2]])).tolist() == [[8, 5, 5, 2]]
    # Three ties: (1 + 2 + 3)/3 = 2 each, doubled 4.
    assert rk.doubled_average_ranks(np.array([[3.0, 3.0, 3.0]])).tolist() == [[4, 4, 4]]


def test_spearman_with_ties_by_hand():
    # x ranks (4, 2.5, 2.5, 1), y = (0.1, 0.3, 0.2, 0.3) ranks (1, 3.5, 2, 3.5); both
    # means 2.5. dx = (1.5, 0, 0, −1.5), dy = (−1.5, 1, −0.5, 1): Σ dx·dy = −2.25 − 1.5 =
    # −3.75, Σ dx² = 4.5, Σ dy² = 2.25 + 1 + 0.25 + 1 = 4.5, so ρ = −3.75 / 4.5 = −5/6.
    x = rk.doubled_average_ranks(np.array([[0.9, 0.7, 0.7, 0.2]]))
    y = rk.doubled_average_ranks(np.array([[0.1, 0.3, 0.2, 0.3]]))
    assert rk.spearman_rho_of_ranks(x, y).tolist() == [-5 / 6]


def test_spearman_without_ties_is_the_textbook_formula():
    # No ties: ρ = 1 − 6 Σ d² / (n (n² − 1)); ranks (1, 2, 3, 4, 5) against
    # (2, 1, 4, 3, 5): Σ d² = 1 + 1 + 1 + 1 + 0 = 4, ρ = 1 − 24/120 = 0.8 exactly.
    x = rk.doubled_average_ranks(np.array([[1.0, 2.0, 3.0, 4.0, 5.0]]))
    y = rk.doubled_average_ranks(np.array([[0.2, 0.1, 0.4, 0.3, 0.5]]))
    assert rk.spearman_rho_of_ranks(x, y).tolist() == [0.8]


def test_spearman_is_undefined_for_constant_ranks():
    x = rk.doubled_average_ranks(np.array([[0.5, 0.5, 0.5], [0.1, 0.2, 0.3]]))
    y = rk.doubled_average_ranks(np.array([[0.1, 0.2, 0.3], [0.3, 0.2, 0.1]]))
    rho = rk.spearman_rho_of_ranks(x, y)
    assert np.isnan(rho[0]) and rho[1] == -1.0


def test_rank_correlation_of_twins_is_undefined_in_every_replicate():
    # Two identical versions tie on everything: Q_final's ranks are constant.
    runs = [("c1", "Pass", 12), ("c2", "Fail", 3)]
    sample = un.bootstrap_sample([subject("a", runs), subject("b", runs)], 0.5, 100, seed=1)
    correlation = rk.rank_correlation(sample, "brier")
    assert correlation == (("brier", None, None, None, 2, 100))


def test_rank_correlation_interval_equals_a_naive_spearman_per_replicate():
    cases = [f"c{j}" for j in range(6)]
    subjects = [
        subject(
            f"s{i}",
            [(c, "Pass" if (i + j) % 3 else "Fail", (i * j) % 13) for j, c in enumerate(cases)],
            confidence=[(7 * i + 11 * j) % 101 for j in range(6)],
            correctness=[((i + j) % 3) / 2 for j in range(6)],
        )
        for i in range(4)
    ]
    sample = un.bootstrap_sample(subjects, 0.5, 400, seed=3)
    correlation = rk.rank_correlation(sample, "ece")

    def naive_spearman(x, y):
        def ranks(values):
            return [
                Fraction(sum(v < w for v in values) * 2 + sum(v == w for v in values) + 1, 2)
                for w in values
            ]

        rx, ry = ranks(x), ranks(y)
        mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
        cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
        vx = sum((a - mx) ** 2 for a in rx)
        vy = sum((b - my) ** 2 for b in ry)
        if vx == 0 or vy == 0:
            return None
        return float(cov) / (float(vx) * float(vy)) ** 0.5

    values = []
    for b in range(400):
        rho = naive_spearman(
            sample.metrics.values["q_final"][b].tolist(), sample.metrics.values["ece"][b].tolist()
        )
        if rho is not None:
            values.append(rho)
    values.sort()
    k = max(1, (len(values) + 1) * 25 // 1000)
    assert correlation.n_versions == 4
    assert correlation.n_undefined == 400 - len(values)
    assert correlation.ci_low == pytest.approx(values[k - 1], abs=1e-12)
    assert correlation.ci_high == pytest.approx(values[len(values) - k], abs=1e-12)


# --- Holm ------------------------------------------------------------------------------------


def test_holm_by_hand_with_the_running_max():
    # m = 4, p = (0.01, 0.04, 0.03, 0.005); sorted: 0.005, 0.01, 0.03, 0.04.
    # k=1: 4·0.005 = 0.02; k=2: 3·0.01 = 0.03; k=3: 2·0.03 = 0.06;
    # k=4: 1·0.04 = 0.04, raised to the running max 0.06. In input order:
    p = [Fraction(1, 100), Fraction(4, 100), Fraction(3, 100), Fraction(5, 1000)]
    assert rk.holm_adjusted(p) == [
        Fraction(3, 100),
        Fraction(6, 100),
        Fraction(6, 100),
        Fraction(2, 100),
    ]


def test_holm_by_hand_with_the_cap_at_one():
    # m = 3, p = (0.6, 0.02, 0.45): k=1: 3·0.02 = 0.06; k=2: 2·0.45 = 0.9;
    # k=3: min(1, 1·0.6) = 0.6 → running max 0.9.
    p = [Fraction(6, 10), Fraction(2, 100), Fraction(45, 100)]
    assert rk.holm_adjusted(p) == [Fraction(9, 10), Fraction(6, 100), Fraction(9, 10)]
    # m = 2, p = (0.6, 0.7): 2·0.6 = 1.2 capped at 1; then max(1, 0.7) = 1.
    assert rk.holm_adjusted([Fraction(6, 10), Fraction(7, 10)]) == [1, 1]
    assert rk.holm_adjusted([]) == []


# --- Neighbour tests ------------------------------------------------------------------------


def test_case_values_and_delta_q_are_exact():
    alpha = Fraction(1, 2)
    upper = rk.case_values(subject("up", UPPER_RUNS), alpha)
    lower = rk.case_values(subject("low", LOWER_RUNS), alpha)
    assert upper == {
        "c1": Fraction(1, 2),
        "c2": Fraction(1, 2),
        "c3": Fraction(1, 4),
        "c4": Fraction(1, 3),
        "c5": Fraction(1),
    }
    common, differences = rk.paired_differences(upper, lower)
    assert common == ["c1", "c2", "c3", "c4"]
    assert differences == [Fraction(1, 2), Fraction(1, 4), Fraction(-1, 12), Fraction(1, 3)]
    assert rk.mean_difference(differences) == Fraction(1, 4)
    assert rk.scaled_to_integers(differences) == ([6, 3, -1, 4], 12)
    assert rk.mean_difference([]) is None


def test_case_values_keep_a_consolidated_half_score():
    # Under double review a clipped score may be a half: α = 1/2, c1's runs Conditional
    # 8.5 (1/2 · 8.5/12 = 17/48) and Fail 3 (1/2 · 3/12 = 6/48): mean 23/96; c2's runs
    # Pass 11 (1/2 + 11/24 = 23/24) and Pass 11.5 (1/2 + 23/48 = 47/48): mean 93/96.
    runs = [("c2", "Pass", 11), ("c1", "Conditional", 8.5), ("c1", "Fail", 3), ("c2", "Pass", 11.5)]
    values = rk.case_values(subject("x", runs), Fraction(1, 2))
    assert values == {"c1": Fraction(23, 96), "c2": Fraction(93, 96)}
    assert list(values) == ["c1", "c2"]


def test_alpha_is_read_as_its_decimal_text():
    # α = 0.3 (3/10, not the binary float): a Pass run with clipped 6 gives
    # 3/10 + 7/10 · 6/12 = 3/10 + 7/20 = 13/20.
    values = rk.case_values(subject("x", [("c1", "Pass", 6)]), Fraction(str(0.3)))
    assert values == {"c1": Fraction(13, 20)}


def exact_sign_flip_p(differences):
    # All 2^m sign vectors, Fractions: the exact randomisation p-value.
    observed = abs(sum(differences))
    vectors = list(itertools.product((1, -1), repeat=len(differences)))
    hits = sum(
        abs(sum(s * d for s, d in zip(signs, differences, strict=True))) >= observed
        for signs in vectors
    )
    return Fraction(hits, len(vectors))


def test_sign_flip_p_value_against_exact_enumeration():
    differences = [Fraction(1, 2), Fraction(1, 4), Fraction(-1, 12), Fraction(1, 3)]
    assert exact_sign_flip_p(differences) == Fraction(1, 4)  # the module docstring's count
    scaled, _ = rk.scaled_to_integers(differences)
    signs = rk.sign_flip_signs(len(differences), 200_000, seed=11)
    p = rk.sign_flip_p_value(signs, scaled)
    # Monte Carlo: standard error sqrt(1/4 · 3/4 / 200000) ≈ 0.00097.
    assert abs(float(p) - 0.25) < 0.004
    assert 200_001 % p.denominator == 0  # p = (1 + count) / (R + 1), reduced


def test_sign_flip_p_value_equals_a_naive_count_over_the_same_signs():
    differences = [Fraction(1, 2), Fraction(1, 4), Fraction(-1, 12), Fraction(1, 3)]
    signs = rk.sign_flip_signs(4, 3000, seed=5)
    observed = abs(sum(differences))
    naive = 1 + sum(
        abs(sum(int(s) * d for s, d in zip(row, differences, strict=True))) >= observed
        for row in signs.tolist()
    )
    scaled, _ = rk.scaled_to_integers(differences)
    assert rk.sign_flip_p_value(signs, scaled) == Fraction(naive, 3001)
    assert set(np.unique(signs).tolist()) == {-1, 1}


def test_all_zero_differences_give_p_one():
    signs = rk.sign_flip_signs(3, 50, seed=2)
    assert rk.sign_flip_p_value(signs, [0, 0, 0]) == 1
    assert rk.sign_flip_p_value(signs[:, []], []) == 1


def test_the_sign_stream_is_its_own_and_leaves_w_alone():
    # W is PCG64(seed)'s; the signs come from SeedSequence(seed).spawn(2)[1].
    spawned = np.random.SeedSequence(7).spawn(2)[1]
    bits = np.random.Generator(np.random.PCG64(spawned)).integers(0, 2, size=(20, 6))
    assert (rk.sign_flip_signs(6, 20, seed=7) == 2 * bits - 1).all()
    sample, rows = tiny_pair(replicates=300, seed=7)
    rk.ranking_evidence(sample, rows)
    assert (sample.weights == un.draw_case_multiplicities(6, 300, seed=7)).all()


def test_neighbour_test_of_the_tiny_pair():
    sample, rows = tiny_pair(replicates=2000, seed=7)
    (test,) = rk.neighbour_tests(sample, rows)
    assert test[:5] == ("up", "v1", "low", "v1", 4)
    assert test.delta_q_final == "1/4"
    # Single pair: Holm leaves p as it is.
    assert test.p_holm == test.p_value
    p = Fraction(test.p_value)
    # Four cases: every one of the 2^4 sign vectors is counted, the exact 1/4.
    assert (p, test.p_method, test.p_draws) == (Fraction(1, 4), "exact", 0)
    assert test.separable is (p < Fraction(1, 20))

    # The interval, independently: per replicate Σ W d / Σ W over c1..c4 (columns 0-3
    # of the universe c1..c6), Fractions, then the order statistics k = 50, 1951.
    differences = [Fraction(1, 2), Fraction(1, 4), Fraction(-1, 12), Fraction(1, 3)]
    assert p == exact_sign_flip_p(differences)
    values = []
    for row in sample.weights[:, :4].tolist():
        if sum(row):
            weighted = sum(w * d for w, d in zip(row, differences, strict=True))
            values.append(float(weighted / sum(row)))
    values.sort()
    k = max(1, (len(values) + 1) * 25 // 1000)
    assert (test.ci_low, test.ci_high) == (values[k - 1], values[len(values) - k])


def test_the_exact_p_value_is_the_enumeration_of_every_sign_vector():
    # Differences with zeros, repeats, signs and a common divisor: the convolution's
    # count equals the enumeration of all 2^m vectors (m ≤ 10 here).
    rng = np.random.default_rng(4)
    for _ in range(200):
        m = int(rng.integers(0, 11))
        differences = [Fraction(int(n), 24) for n in rng.integers(-30, 31, size=m)]
        scaled, _ = rk.scaled_to_integers(differences)
        assert rk.sign_flip_exact_p_value(scaled) == exact_sign_flip_p(differences)
    # By hand: D = (1, 1, 1), observed 3: only (+,+,+) and (−,−,−) reach |3|: 2/8.
    assert rk.sign_flip_exact_p_value([1, 1, 1]) == Fraction(1, 4)
    # A zero difference changes nothing: (1, 1, 1, 0) still 1/4; none at all: p = 1.
    assert rk.sign_flip_exact_p_value([1, 1, 1, 0]) == Fraction(1, 4)
    assert rk.sign_flip_exact_p_value([0, 0]) == rk.sign_flip_exact_p_value([]) == 1
    # 31 equal positive differences: the two constant vectors of 2^31.
    assert rk.sign_flip_exact_p_value([3] * 31) == Fraction(2, 2**31)


def test_past_the_stated_size_the_p_value_is_monte_carlo():
    signs = rk.sign_flip_signs(63, 500, seed=9)
    # 62 non-zero differences: exact; 63: Monte Carlo over the 500 sign vectors.
    assert rk.sign_flip_method([1] * 62 + [0]) == rk.EXACT
    assert rk.sign_flip_method([1] * 63) == rk.MONTE_CARLO
    p, method, draws = rk.neighbour_p_value(signs, [1] * 63)
    assert (method, draws) == (rk.MONTE_CARLO, 500)
    assert p == rk.sign_flip_p_value(signs, [1] * 63)
    # Sums spanning more than 2^20 values: Monte Carlo too.
    assert rk.sign_flip_method([2**19, 1]) == rk.MONTE_CARLO
    assert rk.sign_flip_method([2**19 - 2, 1]) == rk.EXACT  # 2·(2^19 − 1) + 1 sums
    p, method, draws = rk.neighbour_p_value(signs[:, :2], [3, 1])
    assert (p, method, draws) == (Fraction(1, 2), rk.EXACT, 0)


def test_share_ranked_first_counts_the_defined_replicates():
    ranks = np.array([[1, 2, 0], [1, 1, 2], [2, 1, 1]])
    defined = np.array([[True, True, False], [True, True, True], [True, True, True]])
    # Version 0: first in 2 of 3; version 1: 2 of 3 (a tie counts); version 2: 1 of 2.
    assert rk.share_ranked_first(ranks, defined) == [0.6667, 0.6667, 0.5]
    assert rk.share_ranked_first(ranks[:, :1], np.zeros((3, 1), dtype=bool)) == [0.0]


def test_a_replicate_without_common_cases_is_undefined():
    # One common case among 8: a replicate misses it with probability (7/8)^8 ≈ 0.34.
    upper = subject("up", [("c0", "Pass", 12), *((f"u{j}", "Pass", 12) for j in range(4))])
    lower = subject("low", [("c0", "Fail", 0), *((f"l{j}", "Fail", 0) for j in range(3))])
    sample = un.bootstrap_sample([upper, lower], 0.5, 400, seed=4)
    rows = [metrics_row("up", "1.0"), metrics_row("low", "0.0")]
    (test,) = rk.neighbour_tests(sample, rows)
    missing = int((sample.weights[:, sample.cases.index("c0")] == 0).sum())
    assert 0 < missing == rk.replicates_without_common_cases(sample, test)
    # Every defined replicate has ΔQ = 1 − 0 = 1 exactly (the one common case).
    assert (test.n_common_cases, test.delta_q_final, test.ci_low, test.ci_high) == (
        1,
        "1/1",
        1.0,
        1.0,
    )
    # One case: the sign vectors give ±1 against 1, always at least as extreme: p = 1.
    assert test.p_value == "1/1"


def test_pairs_follow_the_leaderboard_and_holm_runs_over_all_of_them():
    cases = [f"c{j:02d}" for j in range(12)]
    strong = subject("strong", [(c, "Pass", 12) for c in cases])
    middle = subject("middle", [(c, "Conditional", 6) for c in cases])
    twin = subject("twin", [(c, "Conditional", 6) for c in cases])
    gone = subject("gone", [(c, "Pass", 12) for c in cases], eligible=False)
    sample = un.bootstrap_sample([gone, twin, middle, strong], 0.5, 1000, seed=8)
    rows = [
        metrics_row("twin", "0.25"),
        metrics_row("strong", "1.0"),
        metrics_row("middle", "0.25"),
        metrics_row("gone", "1.0", status="Disqualified"),
    ]
    tests = rk.neighbour_tests(sample, rows)
    # Leaderboard: strong, then middle and twin (tied, by subject_id); gone is unranked.
    assert [(t.upper_subject_id, t.lower_subject_id) for t in tests] == [
        ("strong", "middle"),
        ("middle", "twin"),
    ]
    first, second = tests
    # strong − middle = 1 − (1/2·0 + 1/2·6/12) = 3/4 on each of the 12 cases: every sign
    # vector but the all-plus and all-minus ones is less extreme. Twins: all d = 0, p = 1.
    assert first.delta_q_final == "3/4" and second.delta_q_final == "0/1"
    assert (first.ci_low, first.ci_high) == (0.75, 0.75)
    p_first = Fraction(first.p_value)
    assert second.p_value == "1/1"
    # Holm over m = 2: the smaller p doubled, the larger capped at 1.
    assert Fraction(first.p_holm) == min(1, 2 * p_first)
    assert second.p_holm == "1/1" and not second.separable
    assert first.separable is (2 * p_first < Fraction(1, 20))


def test_the_record_round_trips(tmp_path):
    sample, rows = tiny_pair(replicates=200, seed=3)
    evidence = rk.ranking_evidence(sample, rows)
    assert evidence.n_replicates == 200 and evidence.seed == 3
    assert [c.metric for c in evidence.correlations] == ["brier", "ece"]
    # Two versions × three metrics.
    assert len(evidence.ranks) == 6 and len(evidence.neighbours) == 1
    path = tmp_path / "rankings.json"
    write_ranking_evidence(path, evidence)
    assert read_ranking_evidence(path) == evidence
    assert rk.ranking_evidence(sample, rows) == evidence  # deterministic


def test_no_versions_give_an_empty_record():
    sample = un.bootstrap_sample([], 0.5, 10, seed=1)
    evidence = rk.ranking_evidence(sample, [])
    assert (evidence.ranks, evidence.neighbours, evidence.correlations) == ([], [], [])
