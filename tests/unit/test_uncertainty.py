"""ro_metrics/formulas/uncertainty.py against hand values and an independent slow bootstrap.

Hand values (all at 95 %, z = Φ⁻¹(0.975) = 1.959963984540054, z² = 3.841458820694124):

- Wilson 27/31: the interval is the two roots of the Wilson quadratic
  (1 + z²/n) p² − (2p̂ + z²/n) p + p̂² = 0 with p̂ = 27/31: by hand
  centre = (0.870968 + 0.061959) / 1.123918 = 0.830070,
  half = 1.743866 · sqrt(0.0036253 + 0.0009993) = 0.118591, so [0.7115, 0.9487].
- Wilson 0/31: low = 0, high = z² / (n + z²) = 3.841459 / 34.841459 = 0.1103.
- Clopper-Pearson 0/30: 1 − 0.05^(1/30) = 1 − exp(ln 0.05 / 30) = 1 − exp(−0.0998577)
  = 0.0950.
- Clopper-Pearson 2/31: the p with Σ_{i≤2} C(31,i) p^i (1−p)^(31−i) = 0.05; bisection by
  hand on that polynomial gives 0.1895 (checked below by evaluating the CDF at the
  returned p: 0.05 to 1e-9).
"""

import json
import math
import random
import time
from fractions import Fraction
from statistics import NormalDist

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ro_metrics.contracts.records import CaseSums, read_case_sums, write_case_sums
from ro_metrics.contracts.vocabulary import FAMILIES
from ro_metrics.formulas import metrics as cm
from ro_metrics.formulas import uncertainty as un
from ro_metrics.formulas.intervals import wilson_interval
from workflow_runs import COMMITTED_RESULTS, read_csv

Z95 = 1.959963984540054


def seeded(seed):
    return random.Random(seed)  # noqa: S311 (reproducible test data, not crypto)


# --- Wilson --------------------------------------------------------------------------


def wilson_roots(successes, n, z=Z95):
    # The Wilson bounds solve (p̂ − p)² = z² p (1 − p) / n, a quadratic in p.
    p_hat = successes / n
    a = 1 + z * z / n
    b = -(2 * p_hat + z * z / n)
    c = p_hat * p_hat
    root = math.sqrt(b * b - 4 * a * c)
    return (-b - root) / (2 * a), (-b + root) / (2 * a)


def test_z_is_the_two_sided_normal_quantile():
    assert NormalDist().inv_cdf(0.975) == pytest.approx(Z95, abs=1e-15)


def test_wilson_27_of_31():
    low, high = wilson_interval(27, 31)
    assert (round(low, 4), round(high, 4)) == (0.7115, 0.9487)
    expected_low, expected_high = wilson_roots(27, 31)
    assert low == pytest.approx(expected_low, abs=1e-12)
    assert high == pytest.approx(expected_high, abs=1e-12)


def test_wilson_0_of_31():
    low, high = wilson_interval(0, 31)
    assert low == 0.0
    assert round(high, 4) == 0.1103
    assert high == pytest.approx(Z95**2 / (31 + Z95**2), abs=1e-15)


def test_wilson_all_successes_mirrors_no_success():
    low, high = wilson_interval(31, 31)
    assert high == 1.0
    assert low == pytest.approx(1 - wilson_interval(0, 31)[1], abs=1e-15)


def test_wilson_half_is_symmetric_around_one_half():
    low, high = wilson_interval(15, 30)
    assert low + high == pytest.approx(1.0, abs=1e-15)


@pytest.mark.parametrize(("successes", "n"), [(0, 0), (-1, 5), (6, 5)])
def test_wilson_rejects_impossible_counts(successes, n):
    with pytest.raises(ValueError):
        wilson_interval(successes, n)


@pytest.mark.parametrize("confidence", [0, 1, 1.5, -0.1])
def test_confidence_must_be_a_proper_level(confidence):
    with pytest.raises(ValueError):
        wilson_interval(3, 10, confidence)
    with pytest.raises(ValueError):
        un.clopper_pearson_upper(3, 10, confidence)


# --- Clopper-Pearson -------------------------------------------------------------------


def binomial_cdf(x, n, p):
    return sum(math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(x + 1))


def test_clopper_pearson_0_of_30():
    upper = un.clopper_pearson_upper(0, 30)
    assert round(upper, 4) == 0.0950
    assert upper == pytest.approx(1 - 0.05 ** (1 / 30), abs=1e-15)


def test_clopper_pearson_2_of_31():
    upper = un.clopper_pearson_upper(2, 31)
    assert round(upper, 4) == 0.1895
    assert binomial_cdf(2, 31, upper) == pytest.approx(0.05, abs=1e-9)
    # The CDF decreases in p: a hair lower is above the tail, a hair higher below it.
    assert binomial_cdf(2, 31, upper - 1e-6) > 0.05 > binomial_cdf(2, 31, upper + 1e-6)


@pytest.mark.parametrize(("n", "confidence"), [(1, 0.95), (7, 0.9), (100, 0.99), (600, 0.95)])
def test_clopper_pearson_zero_failures_closed_form(n, confidence):
    expected = 1 - (1 - confidence) ** (1 / n)
    assert un.clopper_pearson_upper(0, n, confidence) == pytest.approx(expected, rel=1e-12)


def test_clopper_pearson_all_failures_is_one():
    assert un.clopper_pearson_upper(30, 30) == 1.0


def test_clopper_pearson_grows_with_failures():
    bounds = [un.clopper_pearson_upper(x, 30) for x in range(31)]
    assert bounds == sorted(bounds)
    assert len(set(bounds)) == 31
    for x, bound in enumerate(bounds[:-1]):
        assert x / 30 < bound


@pytest.mark.parametrize(("failures", "n"), [(0, 0), (-1, 5), (6, 5)])
def test_clopper_pearson_rejects_impossible_counts(failures, n):
    with pytest.raises(ValueError):
        un.clopper_pearson_upper(failures, n)


# --- order statistics and ranks --------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "expected"),
    [(2000, (50, 1951)), (1999, (50, 1950)), (79, (2, 78)), (39, (1, 39)), (1, (1, 1))],
)
def test_order_statistic_bounds(n, expected):
    # k = ⌊(n + 1) / 40⌋ at 95 %, at least 1.
    assert un.order_statistic_bounds(n) == expected


def test_competition_ranks():
    q = np.array([[0.5, 0.7, 0.5, 0.9], [0.9, 0.7, 0.7, 0.5], [0.3, 0.3, 0.3, 0.3]])
    defined = np.ones_like(q, dtype=bool)
    assert un.competition_ranks(q, defined).tolist() == [
        [3, 2, 3, 1],
        [1, 2, 2, 4],
        [1, 1, 1, 1],
    ]


def test_an_undefined_subject_takes_no_rank_and_pushes_nobody_down():
    q = np.array([[0.5, np.nan, 0.4]])
    defined = np.array([[True, False, True]])
    assert un.competition_ranks(q, defined).tolist() == [[1, 0, 2]]


# --- the case draw -------------------------------------------------------------------


def test_case_multiplicities_are_a_reproducible_resample_of_every_case():
    weights = un.draw_case_multiplicities(30, 500, seed=7)
    assert weights.shape == (500, 30)
    assert weights.dtype == np.int64
    assert (weights >= 0).all()
    assert (weights.sum(axis=1) == 30).all()
    assert np.array_equal(weights, un.draw_case_multiplicities(30, 500, seed=7))
    assert not np.array_equal(weights, un.draw_case_multiplicities(30, 500, seed=8))
    # About 1 − (29/30)^30 ≈ 63.8 % of the cases are drawn in a replicate.
    assert (weights > 0).mean() == pytest.approx(1 - (29 / 30) ** 30, abs=0.01)


def test_case_draw_stream_is_pinned():
    # The published intervals depend on this exact stream (PCG64 with numpy's bounded
    # integers, numpy pinned in requirements.txt). If a numpy upgrade changes it, this
    # test says so before any published uncertainty.csv silently changes.
    weights = un.draw_case_multiplicities(5, 3, seed=2026)
    assert weights.tolist() == PINNED_DRAW


PINNED_DRAW = [[2, 1, 0, 1, 1], [1, 2, 1, 1, 0], [0, 0, 0, 3, 2]]


@pytest.mark.parametrize(("cases", "replicates", "seed"), [(0, 10, 1), (3, 0, 1), (3, 10, -1)])
def test_case_draw_rejects_bad_arguments(cases, replicates, seed):
    with pytest.raises(ValueError):
        un.draw_case_multiplicities(cases, replicates, seed)


# --- corpora ---------------------------------------------------------------------------


def cases(count):
    return [f"RO-{FAMILIES[j % 5]}-{j:03d}" for j in range(count)]


def subject(name, runs, eligible=True, version="v1"):
    """runs: (case_id, clipped, confidence, correctness) tuples; Pass iff clipped >= 10."""
    return un.SubjectRuns(
        subject_id=name,
        subject_version=version,
        case_ids=[run[0] for run in runs],
        classifications=[cm.PASS if run[1] >= 10 else cm.FAIL for run in runs],
        clipped_scores=[run[1] for run in runs],
        confidences=[run[2] for run in runs],
        correctness=[run[3] for run in runs],
        eligible=eligible,
    )


def random_subject(rng, name, case_ids, runs_per_case, eligible=True, version="v1"):
    runs = [
        (
            case,
            rng.randint(0, 12),
            rng.randint(0, 100),
            rng.choice((0, 0.5, 1)),
        )
        for case in case_ids
        for _ in range(runs_per_case)
    ]
    made = subject(name, runs, eligible, version)
    classifications = [rng.choice((cm.PASS, cm.CONDITIONAL, cm.FAIL)) for _ in runs]
    return un.SubjectRuns(**{**vars(made), "classifications": classifications})


def as_cases(subjects):
    """What the bootstrap reads of each subject: its per-case sums, and its eligibility."""
    return [un.SubjectCases(un.case_sums(s), s.eligible) for s in subjects]


def mixed_corpus():
    rng = seeded(20260512)
    all_cases = cases(12)
    return [
        random_subject(rng, "atlas", all_cases, 3),
        random_subject(rng, "atlas", all_cases, 2, version="v2"),
        random_subject(rng, "borealis", all_cases[:7], 3),  # answered 7 of 12 cases
        random_subject(rng, "cirrus", all_cases, 1, eligible=False),
        random_subject(rng, "delta", all_cases[5:], 2),
        random_subject(rng, "echo", all_cases[11:], 1),  # one case only
    ]


# --- the slow, independent bootstrap ---------------------------------------------------


def slow_bootstrap(subjects, alpha, weights, confidence_tail_denominator=40):
    """The bootstrap written plainly: resampled run lists fed to compute_metrics itself."""
    universe = sorted({case for s in subjects for case in s.case_ids})
    per_metric = {s.key: {name: [] for name in un.BOOTSTRAP_METRICS} for s in subjects}
    ranks = {s.key: [] for s in subjects if s.eligible}
    for row in weights.tolist():
        multiplicity = dict(zip(universe, row, strict=True))
        q_of = {}
        for s in subjects:
            picked = [i for i, case in enumerate(s.case_ids) for _ in range(multiplicity[case])]
            if not picked:
                continue
            classifications = [s.classifications[i] for i in picked]
            clipped = [s.clipped_scores[i] for i in picked]
            confidences = [s.confidences[i] for i in picked]
            correctness = [s.correctness[i] for i in picked]
            values = {
                "mean_clipped_score": cm.mean_clipped_score(clipped),
                "q_final": cm.q_final(classifications, clipped, alpha),
                "brier": cm.brier_score(confidences, correctness),
                "ece": cm.expected_calibration_error(confidences, correctness),
            }
            for name, value in values.items():
                per_metric[s.key][name].append(value)
            if s.eligible:
                q_of[s.key] = values["q_final"]
        for key, q in q_of.items():
            ranks[key].append(1 + sum(other > q for other in q_of.values()))

    def interval(values):
        if not values:
            return math.nan, math.nan
        ordered = sorted(values)
        k = max(1, (len(ordered) + 1) // confidence_tail_denominator)
        return ordered[k - 1], ordered[len(ordered) - k]

    intervals = {
        key: {name: interval(values) for name, values in metrics.items()}
        for key, metrics in per_metric.items()
    }
    rank_intervals = {key: interval(values) for key, values in ranks.items() if values}
    p_rank_1 = {key: values.count(1) / len(values) for key, values in ranks.items() if values}
    return intervals, rank_intervals, p_rank_1, per_metric


def test_replicate_metrics_equal_compute_metrics_on_the_resampled_runs():
    subjects = mixed_corpus()
    universe = un.case_universe(as_cases(subjects))
    weights = un.draw_case_multiplicities(len(universe), 120, seed=3)
    fast = un.replicate_metrics(as_cases(subjects), 0.5, weights)
    assert fast.keys == sorted(s.key for s in subjects)
    _, _, _, slow = slow_bootstrap(subjects, 0.5, weights)
    for column, key in enumerate(fast.keys):
        for name in un.BOOTSTRAP_METRICS:
            values = fast.values[name][:, column]
            defined = fast.defined[:, column]
            assert np.isnan(values[~defined]).all()
            # Exactly equal: both are the correctly rounded value of the same rational.
            assert values[defined].tolist() == slow[key][name], (key, name)


def test_q_final_with_an_inexact_alpha_is_within_a_few_ulps():
    subjects = mixed_corpus()
    weights = un.draw_case_multiplicities(len(un.case_universe(as_cases(subjects))), 60, seed=4)
    fast = un.replicate_metrics(as_cases(subjects), 0.3, weights)
    _, _, _, slow = slow_bootstrap(subjects, 0.3, weights)
    for column, key in enumerate(fast.keys):
        values = fast.values["q_final"][:, column][fast.defined[:, column]]
        for got, expected in zip(values.tolist(), slow[key]["q_final"], strict=True):
            assert got == pytest.approx(expected, rel=4e-16, abs=1e-300)


def test_bootstrap_equals_the_slow_bootstrap():
    subjects = mixed_corpus()
    result = un.paired_case_bootstrap(subjects, alpha=0.5, replicates=300, seed=11)
    weights = un.draw_case_multiplicities(len(un.case_universe(subjects)), 300, seed=11)
    intervals, rank_intervals, p_rank_1, per_metric = slow_bootstrap(subjects, 0.5, weights)
    assert result.n_replicates == 300
    assert result.intervals == intervals
    assert result.rank_intervals == rank_intervals
    assert result.p_rank_1 == p_rank_1
    assert result.undefined_replicates == {
        key: 300 - len(metrics["q_final"]) for key, metrics in per_metric.items()
    }
    # Only the partial subjects ever miss a replicate; echo (one case) often does.
    assert result.undefined_replicates[("atlas", "v1")] == 0
    assert result.undefined_replicates[("echo", "v1")] > 0
    assert ("cirrus", "v1") not in result.rank_intervals


def test_a_subject_missing_from_a_replicate_counts_the_replicates_where_its_case_is_absent():
    subjects = mixed_corpus()
    universe = un.case_universe(subjects)
    weights = un.draw_case_multiplicities(len(universe), 400, seed=5)
    echo_case = universe.index(cases(12)[11])
    result = un.paired_case_bootstrap(subjects, 0.5, 400, seed=5)
    assert result.undefined_replicates[("echo", "v1")] == int((weights[:, echo_case] == 0).sum())


# --- toys with known answers -----------------------------------------------------------


def dominance_pair():
    rng = seeded(1)
    strong, weak = [], []
    for case in cases(30):
        for _ in range(2):
            low = rng.randint(0, 9)
            # On every case the strong subject scores higher and passes when the weak one
            # does, so its Q_final is higher on every multiset of cases.
            strong.append((case, rng.randint(low + 1, 12), rng.randint(0, 100), 1))
            weak.append((case, low, rng.randint(0, 100), 0))
    return subject("strong", strong), subject("weak", weak)


def test_a_subject_dominating_on_every_case_always_ranks_first():
    result = un.paired_case_bootstrap(list(dominance_pair()), 0.5, 2000, seed=1)
    assert result.p_rank_1 == {("strong", "v1"): 1.0, ("weak", "v1"): 0.0}
    assert result.rank_intervals == {("strong", "v1"): (1, 1), ("weak", "v1"): (2, 2)}
    strong_q = result.intervals[("strong", "v1")]["q_final"]
    weak_q = result.intervals[("weak", "v1")]["q_final"]
    assert weak_q[1] < strong_q[0]


def test_identical_subjects_have_identical_intervals_and_tie_at_rank_one():
    twin_a, _ = dominance_pair()
    twin_b = un.SubjectRuns(**{**vars(twin_a), "subject_id": "twin"})
    result = un.paired_case_bootstrap([twin_a, twin_b], 0.5, 2000, seed=1)
    assert result.intervals[("strong", "v1")] == result.intervals[("twin", "v1")]
    assert result.rank_intervals == {("strong", "v1"): (1, 1), ("twin", "v1"): (1, 1)}
    assert result.p_rank_1 == {("strong", "v1"): 1.0, ("twin", "v1"): 1.0}


def test_a_disqualified_subject_has_intervals_but_no_rank_and_outranks_nobody():
    strong, weak = dominance_pair()
    perfect = subject("perfect", [(case, 12, 100, 1) for case in cases(30)], eligible=False)
    result = un.paired_case_bootstrap([weak, perfect, strong], 0.5, 500, seed=2)
    assert result.rank_intervals == {("strong", "v1"): (1, 1), ("weak", "v1"): (2, 2)}
    assert ("perfect", "v1") not in result.p_rank_1
    assert result.intervals[("perfect", "v1")] == {
        "mean_clipped_score": (12.0, 12.0),
        "q_final": (1.0, 1.0),
        "brier": (0.0, 0.0),
        "ece": (0.0, 0.0),
    }


def test_constant_subject_has_degenerate_intervals_equal_to_its_metrics():
    runs = [(case, 8, 70, 0.5) for case in cases(30)]
    result = un.paired_case_bootstrap([subject("flat", runs)], 0.5, 200, seed=3)
    expected_q = cm.q_final([cm.CONDITIONAL] * 30, [8] * 30, 0.5)  # 0.5·0 + 0.5·8/12
    expected_brier = cm.brier_score([70] * 30, [0.5] * 30)  # (70 − 50)² / 10000 = 0.04
    assert result.intervals[("flat", "v1")] == {
        "mean_clipped_score": (8.0, 8.0),
        "q_final": (expected_q, expected_q),
        "brier": (expected_brier, expected_brier),
        "ece": (0.2, 0.2),
    }
    assert result.rank_intervals == {("flat", "v1"): (1, 1)}


# --- reproducibility -----------------------------------------------------------------


def test_same_seed_gives_identical_results():
    first = un.paired_case_bootstrap(mixed_corpus(), 0.5, 2000, seed=42)
    second = un.paired_case_bootstrap(mixed_corpus(), 0.5, 2000, seed=42)
    assert first == second


def test_a_different_seed_moves_the_intervals_only_slightly():
    rng = seeded(9)
    subjects = [random_subject(rng, f"model-{i}", cases(30), 3) for i in range(4)]
    first = un.paired_case_bootstrap(subjects, 0.5, 2000, seed=1)
    second = un.paired_case_bootstrap(subjects, 0.5, 2000, seed=2)
    # Monte Carlo error of a 2.5 % quantile at B = 2000 is about 0.06 standard errors of
    # the metric (≈ 0.003 for Q_final here); allow a few hundredths on the 0-1 metrics
    # and the same share of the 0-12 score range.
    tolerance = {"mean_clipped_score": 0.25, "q_final": 0.02, "brier": 0.02, "ece": 0.02}
    moved = 0
    for key, metrics in first.intervals.items():
        for name, (low, high) in metrics.items():
            other_low, other_high = second.intervals[key][name]
            assert abs(low - other_low) <= tolerance[name], (key, name)
            assert abs(high - other_high) <= tolerance[name], (key, name)
            moved += (low, high) != (other_low, other_high)
    assert moved > 0  # the seed is really used
    for key, p in first.p_rank_1.items():
        assert abs(p - second.p_rank_1[key]) <= 0.05


def test_the_input_order_changes_nothing():
    subjects = mixed_corpus()
    expected = un.paired_case_bootstrap(subjects, 0.5, 500, seed=6)
    rng = seeded(6)
    for _ in range(5):
        shuffled = subjects[:]
        rng.shuffle(shuffled)
        # Runs inside a subject may come in any order too.
        reordered = []
        for s in shuffled:
            order = list(range(len(s.case_ids)))
            rng.shuffle(order)
            fields = ("case_ids", "classifications", "clipped_scores", "confidences")
            permuted = {name: [getattr(s, name)[i] for i in order] for name in fields}
            permuted["correctness"] = [s.correctness[i] for i in order]
            reordered.append(un.SubjectRuns(**{**vars(s), **permuted}))
        assert un.paired_case_bootstrap(reordered, 0.5, 500, seed=6) == expected


def test_no_subject_gives_an_empty_result():
    assert un.paired_case_bootstrap([], 0.5, 100, seed=1) == un.BootstrapResult({}, {}, {}, 100, {})


@pytest.mark.parametrize(
    "change",
    [
        # (0.25 is a mean of two primaries' 0 and 0.5 under double review: valid.)
        {"correctness": [0.3]},
        {"clipped_scores": [10.25]},
        {"confidences": [101]},
        {"classifications": ["Maybe"]},
        {"clipped_scores": [10, 11]},
        {"case_ids": [], "classifications": [], "clipped_scores": [], "confidences": [],
         "correctness": []},
    ],
)  # fmt: skip
def test_bad_runs_are_rejected(change):
    good = subject("bad", [(cases(1)[0], 10, 80, 1)])
    with pytest.raises(ValueError):
        un.paired_case_bootstrap([un.SubjectRuns(**{**vars(good), **change})], 0.5, 10, seed=1)


# Four runs given out of case order (hand values: q = 4 · correctness, h = 2 · clipped,
# gap = c − 25q, bin = min(c // 10, 9) 0-based):
#   c2 Pass 11,   c=85,  corr 1    → h 22, gap −15, square   225, bin 8
#   c1 Cond 8.5,  c=40,  corr 0.75 → h 17, gap −35, square  1225, bin 4
#   c1 Fail 3,    c=100, corr 0    → h  6, gap 100, square 10000, bin 9
#   c2 Pass 12,   c=9,   corr 0.5  → h 24, gap −41, square  1681, bin 0
HAND_RUNS = un.SubjectRuns(
    subject_id="s",
    subject_version="v1",
    case_ids=["c2", "c1", "c1", "c2"],
    classifications=[cm.PASS, cm.CONDITIONAL, cm.FAIL, cm.PASS],
    clipped_scores=[11, 8.5, 3, 12],
    confidences=[85, 40, 100, 9],
    correctness=[1, 0.75, 0, 0.5],
    eligible=False,
)
HAND_SUMS = [
    # runs, #Pass, Σh, Σgap², then Σgap per bin 1..10
    [2, 0, 23, 11225, 0, 0, 0, 0, -35, 0, 0, 0, 0, 100],
    [2, 2, 46, 1906, -41, 0, 0, 0, 0, 0, 0, 0, -15, 0],
]


def test_case_sums_by_hand():
    assert un.case_sums(HAND_RUNS) == CaseSums("s", "v1", ["c1", "c2"], HAND_SUMS)


def test_case_sums_record_round_trip(tmp_path):
    path = tmp_path / "case_sums.json"
    other = CaseSums("a", "v2", ["c9"], [[1, 1, 24, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]])
    write_case_sums(path, [other, un.case_sums(HAND_RUNS)])
    assert json.loads(path.read_bytes()) == {
        "case_sums": [["a", "v2", ["c9"], other.sums], ["s", "v1", ["c1", "c2"], HAND_SUMS]]
    }
    assert read_case_sums(path) == [other, CaseSums("s", "v1", ["c1", "c2"], HAND_SUMS)]


def test_full_sample_from_case_sums_is_compute_metrics():
    # W = 1 over (c1, c2): the metrics of the four runs themselves.
    full = un.replicate_metrics(
        [un.SubjectCases(un.case_sums(HAND_RUNS), False)], 0.5, np.ones((1, 2), dtype=np.int64)
    )
    assert full.values["mean_clipped_score"][0, 0] == 34.5 / 4
    assert full.values["brier"][0, 0] == (225 + 1225 + 10000 + 1681) / 40000
    assert full.values["ece"][0, 0] == (35 + 100 + 41 + 15) / 400
    assert full.values["q_final"][0, 0] == (0.5 * 2 / 4) + 0.5 * (34.5 / 4) / 12


@pytest.mark.parametrize(
    "sums",
    [
        CaseSums("s", "v1", ["c1"], [[1, 0, 0]]),  # not 14 integers
        CaseSums("s", "v1", ["c1", "c2"], HAND_SUMS[:1]),  # a case without its sums
        CaseSums("s", "v1", [], []),  # no case
    ],
)
def test_malformed_case_sums_are_rejected(sums):
    weights = np.ones((1, len(sums.case_ids)), dtype=np.int64)
    with pytest.raises(ValueError, match="per-case sums"):
        un.replicate_metrics([un.SubjectCases(sums, True)], 0.5, weights)


def test_a_subject_version_given_twice_is_rejected():
    twin, _ = dominance_pair()
    with pytest.raises(ValueError, match="given twice"):
        un.paired_case_bootstrap([twin, twin], 0.5, 10, seed=1)


def test_alpha_out_of_range_is_rejected():
    with pytest.raises(ValueError):
        un.paired_case_bootstrap(list(dominance_pair()), 1.5, 10, seed=1)


# --- property: random corpora against the slow bootstrap -------------------------------

corpus_shapes = st.lists(
    st.tuples(
        st.integers(min_value=1, max_value=6),  # cases answered (a prefix of a shuffle)
        st.integers(min_value=1, max_value=3),  # runs per case
        st.booleans(),  # eligible
    ),
    min_size=1,
    max_size=5,
)


@settings(
    max_examples=40,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(shapes=corpus_shapes, seed=st.integers(min_value=0, max_value=2**32), data=st.data())
def test_random_corpora_match_the_slow_bootstrap(shapes, seed, data):
    rng = seeded(seed)
    universe = cases(6)
    subjects = []
    for i, (answered, runs, eligible) in enumerate(shapes):
        chosen = rng.sample(universe, answered)
        subjects.append(random_subject(rng, f"s{i}", chosen, runs, eligible))
        # Exact copies make ties likely.
        if data.draw(st.booleans()):
            copy = un.SubjectRuns(**{**vars(subjects[-1]), "subject_id": f"s{i}-copy"})
            subjects.append(copy)
    result = un.paired_case_bootstrap(subjects, 0.5, 50, seed)
    weights = un.draw_case_multiplicities(len(un.case_universe(subjects)), 50, seed)
    intervals, rank_intervals, p_rank_1, _ = slow_bootstrap(subjects, 0.5, weights)
    # A subject none of whose cases is drawn in 50 replicates has (nan, nan) intervals.
    assert result.intervals.keys() == intervals.keys()
    for key, metrics in intervals.items():
        for name, expected in metrics.items():
            assert np.array_equal(result.intervals[key][name], expected, equal_nan=True)
    assert result.rank_intervals == rank_intervals
    assert result.p_rank_1 == p_rank_1
    rng.shuffle(subjects)
    assert un.paired_case_bootstrap(subjects, 0.5, 50, seed).rank_intervals == rank_intervals


# --- size -------------------------------------------------------------------------------


def test_three_hundred_subjects_thirty_cases_five_runs_two_thousand_replicates():
    rng = np.random.default_rng(0)
    universe = cases(30)
    case_ids = [case for case in universe for _ in range(5)]
    subjects = []
    for i in range(300):
        clipped = rng.integers(0, 13, 150).tolist()
        subjects.append(
            un.SubjectRuns(
                subject_id=f"model-{i:03d}",
                subject_version="v1",
                case_ids=case_ids,
                classifications=[cm.PASS if c >= 10 else cm.FAIL for c in clipped],
                clipped_scores=clipped,
                confidences=rng.integers(0, 101, 150).tolist(),
                correctness=(rng.integers(0, 3, 150) / 2).tolist(),
                eligible=i % 10 != 0,
            )
        )
    started = time.perf_counter()
    result = un.paired_case_bootstrap(subjects, 0.5, 2000, seed=2026)
    elapsed = time.perf_counter() - started
    print(f"\n300 subjects × 30 cases × 5 runs, 2000 replicates: {elapsed:.2f} s")
    assert len(result.intervals) == 300
    assert len(result.rank_intervals) == len(result.p_rank_1) == 270
    assert sum(result.p_rank_1.values()) >= 1.0  # ties at rank 1 count for each
    for low, high in result.rank_intervals.values():
        assert 1 <= low <= high <= 270
    for metrics in result.intervals.values():
        for low, high in metrics.values():
            assert low <= high


def test_confidence_is_read_as_its_decimal():
    # 0.95 as a binary float is slightly below 19/20; the order statistic must still be
    # ⌊2000 · 1/40⌋ = 50 exactly for n = 1999, not 49.
    assert Fraction(str(0.95)) == Fraction(19, 20)
    assert un.order_statistic_bounds(1999, 0.95) == (50, 1950)


def test_observed_ranks_are_competition_ranks():
    q = {("a", "v1"): 0.5, ("b", "v1"): 0.7, ("c", "v1"): 0.5, ("d", "v1"): 0.2}
    assert un.observed_ranks(q) == {("a", "v1"): 2, ("b", "v1"): 1, ("c", "v1"): 2, ("d", "v1"): 4}


def test_without_eligible_subjects_there_is_no_rank():
    subjects = [un.SubjectRuns(**{**vars(s), "eligible": False}) for s in mixed_corpus()]
    result = un.paired_case_bootstrap(subjects, 0.5, 50, seed=np.int64(3))
    assert result.rank_intervals == {}
    assert result.p_rank_1 == {}
    assert len(result.intervals) == len(subjects)


def test_exact_product_in_floating_point_equals_the_integer_product():
    rng = np.random.default_rng(5)
    weights = rng.integers(0, 300, size=(50, 300))
    table = rng.integers(-(10**6), 10**6, size=(300, 40))
    # Σ_j W·|A| ≤ 300·299·10^6 < 2^53: the float64 path is taken and must be exact.
    assert un._exact_product(weights, table).tolist() == (weights @ table).tolist()
    huge = np.full((300, 2), 2**45, dtype=np.int64)  # beyond the bound: int64 path
    assert un._exact_product(weights, huge).tolist() == (weights @ huge).tolist()


# --- The published table -------------------------------------------------------------


def test_committed_intervals_contain_their_estimates():
    for row in read_csv(COMMITTED_RESULTS / "uncertainty.csv"):
        key = (row["subject_id"], row["subject_version"], row["metric"])
        if row["ci_low"]:
            low, high = float(row["ci_low"]), float(row["ci_high"])
            assert low <= high, key
            if key[2] in {"pass_rate", "critical_fail_rate", "rank"}:
                assert low <= float(row["estimate"]) <= high, key
