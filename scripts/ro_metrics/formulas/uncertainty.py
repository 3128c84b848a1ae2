"""How sure is the ranking? Intervals beside the committee's metrics, never instead of them.

The methods are described in system/rubric/v1.0/uncertainty_methods.md (an addition by
the pipeline maintainers, not part of the committee's normative aggregated_metrics.md):

- pass rate: Wilson score interval (``wilson_interval``);
- critical-fail rate: exact one-sided Clopper-Pearson upper bound
  (``clopper_pearson_upper``);
- mean clipped score, Q_final, Brier, ECE, rank by Q_final and P(rank 1): one paired
  percentile bootstrap over **cases** for the whole leaderboard
  (``paired_case_bootstrap``; its draw and replicates, ``bootstrap_sample``, are shared
  with the ranking evidence of formulas/rank_evidence.py).

Pure functions: no file I/O. The bootstrap is bit-reproducible: the replicates come from
``Generator(PCG64(seed))`` as an integer multiplicity matrix W (replicates × cases), each
subject is reduced to per-case integer sums, and every replicate's totals are one int64
matrix product (numpy computes integer matmul without BLAS, exactly). Each metric is then
one float64 division of two exact integers, i.e. the correctly rounded value that
formulas/metrics.py would give for the resampled runs.
"""

import functools
import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ro_metrics.contracts.records import CaseSums
from ro_metrics.contracts.vocabulary import CONDITIONAL, FAIL, MAX_RAW_SCORE, N_BINS, PASS
from ro_metrics.formulas.intervals import exact_confidence as _exact_confidence

Key = tuple[str, str]
BOOTSTRAP_METRICS = ("mean_clipped_score", "q_final", "brier", "ece")
# Suggested values of the `method` column of results/uncertainty.csv (at 95 %).
METHODS = {
    "pass_rate": "wilson_score_95",
    "mean_clipped_score": "bootstrap_cases_percentile_95",
    "q_final": "bootstrap_cases_percentile_95",
    "brier": "bootstrap_cases_percentile_95",
    "ece": "bootstrap_cases_percentile_95",
    "rank": "bootstrap_cases_rank_percentile_95",
    "p_rank_1": "bootstrap_cases_share_of_replicates",
    "critical_fail_rate": "clopper_pearson_one_sided_upper_95",
}

# The per-case integer sums of a subject (records.CaseSums, ``case_sums``): runs, passes,
# Σ 2·clipped, Σ (c − 25q)², then Σ (c − 25q) per ECE bin (one column per bin).
CASE_RUNS, CASE_PASSES, CASE_CLIPPED_HALVES, CASE_GAP_SQUARES = range(4)
CASE_GAP_BINS = 4
CASE_FEATURES = CASE_GAP_BINS + N_BINS
# Bound on the int64 totals held at once (elements), so a corpus with hundreds of
# subjects is processed in slices of subjects instead of one B × (S · 14) matrix.
_TOTALS_BUDGET = 4_000_000
# Clopper-Pearson bisection works on p = j / 2**_CP_BITS: the resolution of a float in
# [0.5, 1), so the bound is found to within one float step with ~14 exact CDF evaluations.
_CP_BITS = 53


def clopper_pearson_upper(failures: int, n: int, confidence: float = 0.95) -> float:
    """Exact one-sided Clopper-Pearson upper bound of a binomial rate.

    The p_U with P(X ≤ failures; n, p_U) = 1 − confidence, X ~ Binomial(n, p_U); with 0
    failures this is 1 − (1 − confidence)^(1/n) (0.0950 for n = 30 at 95 %), and
    failures = n gives 1.0. Found by bisection over p = j / 2^53, deciding each step
    with the binomial CDF in exact integer arithmetic, and returned as the float
    nearest the upper end of the final bracket (so never below p_U by more than one
    float rounding, identical on every machine).
    """
    exact = _exact_confidence(confidence)
    if n <= 0:
        raise ValueError(f"the Clopper-Pearson bound needs n >= 1, got n = {n}")
    if not 0 <= failures <= n:
        raise ValueError(f"failures must be within [0, n], got {failures} of {n}")
    if failures == n:
        return 1.0
    return _clopper_pearson_upper(failures, n, 1 - exact)


@functools.lru_cache(maxsize=4096)
def _clopper_pearson_upper(x: int, n: int, tail: Fraction) -> float:
    # Subjects of one benchmark share a few (failures, n) pairs; each is computed once.
    scale = 1 << _CP_BITS
    # The answer is the unique j with CDF(j/scale) >= tail > CDF((j+1)/scale), whatever
    # valid bracket the bisection starts from; a float estimate only narrows the start
    # (about half the exact steps), each end checked exactly before it is used.
    low, high = 0, scale  # invariant: CDF(low/scale) >= tail > CDF(high/scale)
    guess = _float_cp_guess(x, n, float(tail))
    for end in (math.floor(guess * (1 - 1e-12) * scale), math.ceil(guess * (1 + 1e-12) * scale)):
        if low < end < high:
            if _binomial_cdf_at_least(x, n, end, scale, tail):
                low = end
            else:
                high = end
    while high - low > 1:
        middle = (low + high) // 2
        if _binomial_cdf_at_least(x, n, middle, scale, tail):
            low = middle
        else:
            high = middle
    return float(Fraction(high, scale))


def _float_cp_guess(x: int, n: int, tail: float) -> float:
    # Float bisection on the binomial CDF in log space; only a starting point.
    def cdf(p: float) -> float:
        log_p, log_q = math.log(p), math.log1p(-p)
        return sum(
            math.exp(
                math.lgamma(n + 1)
                - math.lgamma(i + 1)
                - math.lgamma(n - i + 1)
                + i * log_p
                + (n - i) * log_q
            )
            for i in range(x + 1)
        )

    low, high = 0.0, 1.0
    for _ in range(60):
        middle = (low + high) / 2
        if 0 < middle < 1 and cdf(middle) >= tail:
            low = middle
        else:
            high = middle
    return (low + high) / 2


def _binomial_cdf_at_least(x: int, n: int, a: int, scale: int, tail: Fraction) -> bool:
    # P(X <= x; n, p = a/scale) >= tail, decided exactly:
    # Σ_{i<=x} C(n,i) a^i b^(n-i) >= tail · scale^n with b = scale - a, summed by Horner
    # as b^(n-x) · Σ_{i<=x} C(n,i) a^i b^(x-i).
    b = scale - a
    partial, a_power, binomial = 0, 1, 1
    for i in range(x + 1):
        partial = partial * b + binomial * a_power
        a_power *= a
        binomial = binomial * (n - i) // (i + 1)
    return tail.denominator * partial * b ** (n - x) >= tail.numerator * scale**n


@dataclass(frozen=True)
class SubjectRuns:
    """One subject version's scored runs, as parallel lists (one entry per run)."""

    subject_id: str
    subject_version: str
    case_ids: list[str]
    classifications: list[str]  # "Pass" / "Conditional" / "Fail"
    clipped_scores: list[int | float]  # a half under double review
    confidences: list[int]  # integer 0-100
    correctness: list[float]  # 0, 0.5, 1 (a quarter under double review)
    eligible: bool  # False when Disqualified (any critical fail)

    @property
    def key(self) -> Key:
        return (self.subject_id, self.subject_version)


@dataclass(frozen=True)
class SubjectCases:
    """One subject version as the bootstrap reads it: its per-case integer sums
    (``case_sums``) and whether it is ranked (False when Disqualified)."""

    sums: CaseSums
    eligible: bool

    @property
    def key(self) -> Key:
        return (self.sums.subject_id, self.sums.subject_version)

    @property
    def case_ids(self) -> list[str]:
        return self.sums.case_ids


@dataclass(frozen=True)
class BootstrapResult:
    """The paired case bootstrap of the whole leaderboard, per (subject_id, subject_version).

    ``intervals``: metric → (low, high) for mean_clipped_score, q_final, brier, ece
    (every subject); ``rank_intervals`` and ``p_rank_1``: Eligible subjects only.
    ``undefined_replicates``: per subject, the replicates that drew none of its cases and
    were left out of its intervals (0 when it answered every case of the corpus). A
    subject with no defined replicate at all has (nan, nan) intervals and no rank entry.
    """

    intervals: dict[Key, dict[str, tuple[float, float]]]
    rank_intervals: dict[Key, tuple[int, int]]
    p_rank_1: dict[Key, float]
    n_replicates: int
    undefined_replicates: dict[Key, int]


@dataclass(frozen=True)
class ReplicateMetrics:
    """Every replicate's metrics: arrays of shape (replicates, subjects), NaN if undefined.

    Columns follow ``keys`` (subjects sorted by (subject_id, subject_version)).
    """

    keys: list[Key]
    values: dict[str, np.ndarray]  # metric name (BOOTSTRAP_METRICS) → float64 array
    defined: np.ndarray  # bool: the subject has at least one run in the replicate


def case_universe(subjects: Sequence[SubjectCases]) -> list[str]:
    """The cases a replicate draws from: the sorted union of every subject's case ids."""
    return sorted({case for subject in subjects for case in subject.case_ids})


def draw_case_multiplicities(n_cases: int, replicates: int, seed: int) -> np.ndarray:
    """W[b, j] = how many times case j is drawn in replicate b (int64, rows sum to n_cases).

    Each replicate draws n_cases case indices uniformly with replacement from
    ``Generator(PCG64(seed)).integers(0, n_cases, size=(replicates, n_cases))``, all
    replicates at once, row by row; W counts them.
    """
    if n_cases < 1:
        raise ValueError("the bootstrap needs at least one case")
    _check_draw_arguments(replicates, seed)
    rng = np.random.Generator(np.random.PCG64(int(seed)))
    draws = rng.integers(0, n_cases, size=(replicates, n_cases), dtype=np.int64)
    offsets = np.arange(replicates, dtype=np.int64)[:, None] * n_cases
    counts = np.bincount((draws + offsets).ravel(), minlength=replicates * n_cases)
    return counts.reshape(replicates, n_cases).astype(np.int64)


def _check_draw_arguments(replicates: int, seed: int) -> None:
    if isinstance(replicates, bool) or not isinstance(replicates, int | np.integer):
        raise ValueError(f"replicates must be an integer, got {replicates!r}")
    if replicates < 1:
        raise ValueError(f"replicates must be >= 1, got {replicates}")
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")


def case_sums(subject: SubjectRuns) -> CaseSums:
    """Per case of the subject (its case ids sorted), the integer sums of its runs.

    With c the integer confidence, q = 4 · correctness and h = 2 · clipped (integers: a
    consolidated run's correctness may be a quarter and its clipped score a half,
    multi-reviewer.md), over the runs of case j:
    [runs, #Pass, Σ h, Σ (c − 25q)², Σ_{r∈B_1} (c − 25q), …, Σ_{r∈B_10} (c − 25q)]
    (B_m the ECE bins of metrics.ece_bin). Every metric of a replicate is a ratio of
    W-weighted sums of them (``replicate_metrics``). ``eligible`` is not read.
    """
    n_runs = len(subject.case_ids)
    lengths = {
        len(subject.classifications),
        len(subject.clipped_scores),
        len(subject.confidences),
        len(subject.correctness),
    }
    if lengths != {n_runs}:
        raise ValueError(f"{subject.key}: the per-run lists have different lengths")
    if n_runs == 0:
        # metrics.py leaves every metric undefined for N = 0: no row, no interval.
        raise ValueError(f"{subject.key}: a subject without scored runs has no metrics")
    unknown = set(subject.classifications) - {PASS, CONDITIONAL, FAIL}
    if unknown:
        raise ValueError(f"{subject.key}: unknown classification(s) {sorted(unknown)}")
    confidences = np.asarray(subject.confidences, dtype=np.int64)
    if confidences.min() < 0 or confidences.max() > 100:
        raise ValueError(f"{subject.key}: a confidence is out of 0-100")
    quarters = np.asarray(subject.correctness, dtype=np.float64) * 4
    if not np.isin(quarters, (0.0, 1.0, 2.0, 3.0, 4.0)).all():
        raise ValueError(f"{subject.key}: correctness must be one of 0, 0.5, 1 (or a mean of two)")
    gaps = confidences - 25 * quarters.astype(np.int64)
    # metrics.ece_bin, 0-based: m − 1 = min(c // 10, 9).
    bins = np.minimum(confidences // 10, N_BINS - 1)
    case_ids = sorted(set(subject.case_ids))
    case_index = {case: j for j, case in enumerate(case_ids)}
    cases = np.fromiter((case_index[c] for c in subject.case_ids), np.int64, n_runs)
    passes = np.fromiter((c == PASS for c in subject.classifications), np.int64, n_runs)
    doubled = np.asarray(subject.clipped_scores, dtype=np.float64) * 2
    if (doubled != np.round(doubled)).any():
        raise ValueError(f"{subject.key}: a clipped score is not a whole or half number")
    clipped = doubled.astype(np.int64)

    table = np.zeros((len(case_ids), CASE_FEATURES), dtype=np.int64)
    np.add.at(table[:, CASE_RUNS], cases, 1)
    np.add.at(table[:, CASE_PASSES], cases, passes)
    np.add.at(table[:, CASE_CLIPPED_HALVES], cases, clipped)
    np.add.at(table[:, CASE_GAP_SQUARES], cases, gaps * gaps)
    bin_table = np.zeros((len(case_ids), N_BINS), dtype=np.int64)
    np.add.at(bin_table, (cases, bins), gaps)
    table[:, CASE_GAP_BINS:] = bin_table
    return CaseSums(subject.subject_id, subject.subject_version, case_ids, table.tolist())


def _case_table(subject: SubjectCases, case_index: dict[str, int]) -> np.ndarray:
    # The subject's per-case sums in the universe's rows (cases × features), zero for
    # the cases it has no run of.
    rows = [case_index[case] for case in subject.case_ids]
    sums = np.asarray(subject.sums.sums, dtype=np.int64)
    if not rows or sums.shape != (len(rows), CASE_FEATURES):
        raise ValueError(
            f"{subject.key}: per-case sums must be {CASE_FEATURES} integers for each of "
            "at least one case"
        )
    table = np.zeros((len(case_index), CASE_FEATURES), dtype=np.int64)
    table[rows] = sums
    return table


def replicate_metrics(
    subjects: Sequence[SubjectCases], alpha: float, multiplicities: np.ndarray
) -> ReplicateMetrics:
    """Each replicate's metrics, the formulas of formulas/metrics.py on the resampled runs.

    A replicate with multiplicities W[b, ·] over ``case_universe(subjects)`` gives each
    run of case j the weight W[b, j]. With c the integer confidence, q = 4·correctness,
    h = 2·clipped (integers: a consolidated run's values are quarters and halves) and
    N = Σ_j W[b, j] · runs_j (all sums weighted likewise, from the per-case sums of
    ``case_sums``):
    s̄ = Σ h / (2·N); BS = Σ (c − 25q)² / (10000·N);
    ECE = Σ_m |Σ_{r∈B_m} (c − 25q)| / (100·N);
    Q_final = (α · 24·#Pass + (1 − α) · Σ h) / (24·N), i.e. α·P + (1 − α)·s̄/12.
    (With whole clipped scores these are the same correctly rounded floats as with
    Σ clipped / N: doubling a float is exact.) Every numerator and denominator is an
    exact integer (int64 matrix product), so s̄,
    BS and ECE are the correctly rounded values, equal to metrics.py's own; so is
    Q_final whenever α·12·#Pass and (1 − α)·Σclipped are exact in float64 (α = 0.5 and
    other short binary fractions), and within a few ulps otherwise. A replicate where N
    = 0 leaves every metric of the subject undefined (NaN, ``defined`` False).
    """
    if not 0 <= alpha <= 1:
        raise ValueError(f"alpha must be within [0, 1], got {alpha}")
    ordered = _sorted_subjects(subjects)
    cases = case_universe(ordered)
    case_index = {case: j for j, case in enumerate(cases)}
    weights = np.asarray(multiplicities, dtype=np.int64)
    if weights.ndim != 2 or weights.shape[1] != len(cases):
        raise ValueError(f"multiplicities must have shape (replicates, {len(cases)})")
    n_replicates, n_subjects = weights.shape[0], len(ordered)
    values = {name: np.empty((n_replicates, n_subjects)) for name in BOOTSTRAP_METRICS}
    defined = np.empty((n_replicates, n_subjects), dtype=bool)
    per_slice = max(1, _TOTALS_BUDGET // (n_replicates * CASE_FEATURES))
    for start in range(0, n_subjects, per_slice):
        chunk = ordered[start : start + per_slice]
        table = np.concatenate([_case_table(s, case_index) for s in chunk], axis=1)
        totals = _exact_product(weights, table).reshape(n_replicates, len(chunk), CASE_FEATURES)
        n_runs = totals[:, :, CASE_RUNS]
        ok = n_runs > 0
        # A dummy denominator keeps the division silent; those cells become NaN below.
        runs = np.where(ok, n_runs, 1)
        clipped = totals[:, :, CASE_CLIPPED_HALVES]
        passes = totals[:, :, CASE_PASSES]
        gap_sum = np.abs(totals[:, :, CASE_GAP_BINS:]).sum(axis=2)
        block = {
            "mean_clipped_score": clipped / (2 * runs),
            "q_final": (alpha * (2 * MAX_RAW_SCORE * passes) + (1 - alpha) * clipped)
            / (2 * MAX_RAW_SCORE * runs),
            "brier": totals[:, :, CASE_GAP_SQUARES] / (10000 * runs),
            "ece": gap_sum / (100 * runs),
        }
        columns = slice(start, start + len(chunk))
        for name in BOOTSTRAP_METRICS:
            values[name][:, columns] = np.where(ok, block[name], np.nan)
        defined[:, columns] = ok
    return ReplicateMetrics(keys=[s.key for s in ordered], values=values, defined=defined)


def _exact_product(weights: np.ndarray, table: np.ndarray) -> np.ndarray:
    """weights @ table for integer matrices, exactly.

    numpy multiplies int64 matrices without BLAS, ~20 times slower than float64. In
    float64 every product and partial sum is an integer; while the largest possible
    one, max row sum of W · max |table|, stays below 2^53 each is exact whatever the
    order or fusion of the operations, so BLAS gives the exact, machine-independent
    result. Beyond that bound (never for benchmark-sized data) int64 is used.
    """
    bound = int(weights.sum(axis=1).max(initial=0)) * int(np.abs(table).max(initial=0))
    if bound >= 2**53:
        return weights @ table
    product = weights.astype(np.float64) @ table.astype(np.float64)
    return product.astype(np.int64)


def competition_ranks(q_final: np.ndarray, defined: np.ndarray) -> np.ndarray:
    """Rank of each subject in each replicate by Q_final, descending, competition style.

    rank = 1 + #{subjects of the replicate with a strictly greater Q_final}, so ties
    share the best rank (1, 2, 2, 4); ties are exactly equal float64 values. Subjects
    undefined in a replicate take no part in it (rank 0, and they push nobody down).
    """
    n_replicates, n_subjects = q_final.shape
    ranks = np.zeros((n_replicates, n_subjects), dtype=np.int64)
    if n_subjects == 0:
        return ranks
    # Undefined subjects sort last, below every real Q_final (all >= 0).
    keys = np.where(defined, -q_final, np.inf)
    order = np.argsort(keys, axis=1, kind="stable")
    ordered_keys = np.take_along_axis(keys, order, axis=1)
    position = np.broadcast_to(np.arange(n_subjects), (n_replicates, n_subjects))
    starts_group = np.ones((n_replicates, n_subjects), dtype=bool)
    starts_group[:, 1:] = ordered_keys[:, 1:] != ordered_keys[:, :-1]
    first_of_group = np.maximum.accumulate(np.where(starts_group, position, 0), axis=1)
    np.put_along_axis(ranks, order, first_of_group + 1, axis=1)
    return np.where(defined, ranks, 0)


def observed_ranks(q_final: dict[Key, float]) -> dict[Key, int]:
    """Competition rank by Q_final, descending (1, 2, 2, 4), of the subjects given.

    For the ``estimate`` of the rank rows: pass the full-sample q_final of the Eligible
    subjects only. Ties are exactly equal floats, as in ``competition_ranks``.
    """
    values = list(q_final.values())
    return {key: 1 + sum(other > q for other in values) for key, q in q_final.items()}


def order_statistic_bounds(n_values: int, confidence: float = 0.95) -> tuple[int, int]:
    """1-based order statistics (k, n + 1 − k) of the percentile interval of n values.

    k = max(1, ⌊(n + 1) · (1 − confidence) / 2⌋), confidence read as its decimal text:
    for n = 2000 at 95 %, k = ⌊2001 · 0.025⌋ = 50, so the interval is [x_(50), x_(1951)],
    with 49 values beyond it on each side. k = 1 (min, max) when n < 39.
    """
    exact = _exact_confidence(confidence)
    if n_values < 1:
        raise ValueError("a percentile interval needs at least one value")
    k = max(1, int((n_values + 1) * (1 - exact) / 2))
    return k, n_values + 1 - k


def percentile_columns(
    values: np.ndarray, defined: np.ndarray, confidence: float = 0.95
) -> tuple[np.ndarray, np.ndarray]:
    """Per column, (x_(k), x_(n+1−k)) of its defined values (``order_statistic_bounds``).

    A column with no defined value gives NaN at both ends.
    """
    exact = _exact_confidence(confidence)
    n_defined = defined.sum(axis=0)
    # Undefined cells sort after every defined one, so x_(i) is row i − 1 of the column.
    ordered = np.sort(np.where(defined, values, np.inf), axis=0)
    k = np.maximum(1, ((n_defined + 1) * (1 - exact).numerator) // (2 * (1 - exact).denominator))
    low_row = np.clip(k - 1, 0, None)
    high_row = np.clip(n_defined - k, 0, None)
    low = np.take_along_axis(ordered, low_row[None, :], axis=0)[0].astype(np.float64)
    high = np.take_along_axis(ordered, high_row[None, :], axis=0)[0].astype(np.float64)
    empty = n_defined == 0
    low[empty] = np.nan
    high[empty] = np.nan
    return low, high


@dataclass(frozen=True)
class BootstrapSample:
    """The paired case bootstrap's draw and every replicate's metrics, shared by the
    intervals of uncertainty.csv (``bootstrap_result``) and the ranking evidence
    (formulas/rank_evidence.py), so both read the very same replicates.

    ``subjects`` sorted by key, ``cases`` = case_universe(subjects), ``weights`` the W of
    draw_case_multiplicities (replicates × cases), ``metrics`` = replicate_metrics(W)."""

    subjects: list[SubjectCases]
    alpha: float
    seed: int
    cases: list[str]
    weights: np.ndarray
    metrics: ReplicateMetrics

    @property
    def n_replicates(self) -> int:
        return int(self.weights.shape[0])


def bootstrap_sample(
    subjects: Sequence[SubjectCases], alpha: float, replicates: int, seed: int
) -> BootstrapSample:
    """W = draw_case_multiplicities(len(case_universe), replicates, seed) and the
    replicate metrics of the subjects under it (``paired_case_bootstrap`` says how)."""
    _check_draw_arguments(replicates, seed)
    if not 0 <= alpha <= 1:
        raise ValueError(f"alpha must be within [0, 1], got {alpha}")
    replicates, seed = int(replicates), int(seed)
    ordered = _sorted_subjects(subjects)
    cases = case_universe(ordered)
    if cases:
        weights = draw_case_multiplicities(len(cases), replicates, seed)
    else:
        weights = np.zeros((replicates, 0), dtype=np.int64)
    metrics = replicate_metrics(ordered, alpha, weights)
    return BootstrapSample(ordered, alpha, seed, cases, weights, metrics)


def restricted(sample: BootstrapSample, keys) -> BootstrapSample:
    """The sample of the subjects whose key is in ``keys`` only: the same draw W over the
    same cases, their columns of every replicate's metrics. What the ranking evidence
    reads when versions leave active comparisons (ranking.left_out): the other versions'
    ranks and tests are computed as if those were not there, from the very replicates of
    uncertainty.csv."""
    keep = [i for i, key in enumerate(sample.metrics.keys) if key in keys]
    metrics = ReplicateMetrics(
        keys=[sample.metrics.keys[i] for i in keep],
        values={name: values[:, keep] for name, values in sample.metrics.values.items()},
        defined=sample.metrics.defined[:, keep],
    )
    subjects = [sample.subjects[i] for i in keep]
    return BootstrapSample(
        subjects, sample.alpha, sample.seed, sample.cases, sample.weights, metrics
    )


def paired_case_bootstrap(
    subjects: list[SubjectRuns],
    alpha: float,
    replicates: int,
    seed: int,
    confidence: float = 0.95,
) -> BootstrapResult:
    """Paired percentile bootstrap over cases of the whole leaderboard.

    W = draw_case_multiplicities(len(case_universe), replicates, seed): each replicate
    draws one multiset of case ids (with replacement, as many draws as cases) and applies
    it to every subject, all runs of a drawn case moving together; so differences between
    subjects are paired and repeated runs never count as independent evidence.
    For mean_clipped_score, q_final, brier and ece (``replicate_metrics``) the interval is
    the percentile interval [x_(k), x_(n+1−k)] of the subject's n defined replicates
    (``order_statistic_bounds``). Among Eligible subjects, each replicate ranks by Q_final
    (``competition_ranks``); rank interval = the same order statistics of the integer
    ranks, p_rank_1 = #{replicates with rank 1} / n (a tie at rank 1 counts for every tied
    subject). Replicates in which a subject has no run are left out of its n (and of that
    replicate's ranking). The result does not depend on the order of ``subjects``.
    Each subject is reduced to its per-case sums (``case_sums``) first.
    """
    _exact_confidence(confidence)
    cases = [SubjectCases(case_sums(subject), subject.eligible) for subject in subjects]
    return bootstrap_result(bootstrap_sample(cases, alpha, replicates, seed), confidence)


def bootstrap_result(sample: BootstrapSample, confidence: float = 0.95) -> BootstrapResult:
    """The intervals, rank intervals and P(rank 1) of ``paired_case_bootstrap`` from its
    sample."""
    _exact_confidence(confidence)
    replicates, ordered = sample.n_replicates, sample.subjects
    if not ordered:
        return BootstrapResult({}, {}, {}, replicates, {})
    metrics = sample.metrics
    keys, defined = metrics.keys, metrics.defined
    bounds = {
        name: percentile_columns(metrics.values[name], defined, confidence)
        for name in BOOTSTRAP_METRICS
    }
    intervals = {
        key: {name: (float(bounds[name][0][i]), float(bounds[name][1][i])) for name in bounds}
        for i, key in enumerate(keys)
    }
    n_defined = defined.sum(axis=0)
    undefined = {key: int(replicates - n_defined[i]) for i, key in enumerate(keys)}

    eligible = [i for i, subject in enumerate(ordered) if subject.eligible]
    ranks = competition_ranks(metrics.values["q_final"][:, eligible], defined[:, eligible])
    rank_low, rank_high = percentile_columns(ranks, defined[:, eligible], confidence)
    firsts = (ranks == 1).sum(axis=0)
    rank_intervals, p_rank_1 = {}, {}
    for column, i in enumerate(eligible):
        if n_defined[i] == 0:
            continue
        rank_intervals[keys[i]] = (int(rank_low[column]), int(rank_high[column]))
        p_rank_1[keys[i]] = float(firsts[column] / n_defined[i])
    return BootstrapResult(intervals, rank_intervals, p_rank_1, replicates, undefined)


def _sorted_subjects(subjects: Sequence[SubjectCases]) -> list[SubjectCases]:
    ordered = sorted(subjects, key=lambda subject: subject.key)
    for previous, current in itertools.pairwise(ordered):
        if previous.key == current.key:
            raise ValueError(f"subject version {current.key} is given twice")
    return ordered
