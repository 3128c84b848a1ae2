"""Agreement between two primary reviewers (../shared/spec/multi-reviewer.md, Agreement).

Every statistic is a function of the k × k contingency table of the two reviewers'
categories: n_ij = the runs that reviewer_a (the lower id) put in category i and
reviewer_b in category j, with row totals r_i, column totals c_j and n runs. Each is
written once, as a ratio of two integer sums of the table (``Ratio``), and serves twice:

- on the full sample's table, ``full_sample_estimate`` makes it a Fraction (κ of an
  integer table is rational), or None with the reason when its denominator is 0;
- on a stack of replicate tables (replicates × k × k), ``replicate_values`` divides the
  two integer arrays once in float64: the correctly rounded value of the same fraction,
  since both integers are below 2^53 (checked), so a replicate is bit-identical to
  float(full_sample_estimate) of its table.

The interval is a bootstrap over whole cases (every subject and run of a case moves
together): per-case tables T (cases × k × k), each replicate's table W[b] · T with W
from uncertainty.draw_case_multiplicities (Generator(PCG64(seed)), as
system/rubric/v1.0/uncertainty_methods.md §3.6), and the percentile interval of §3.5.
Pure functions: no file I/O.
"""

from collections.abc import Sequence
from fractions import Fraction
from typing import NamedTuple

import numpy as np

from ro_metrics.formulas.uncertainty import order_statistic_bounds

# Above this an integer may not be exact in float64, and a replicate's division would
# round twice: such a ratio is divided exactly instead (never at benchmark sizes).
_FLOAT_EXACT = 2**53
# Bound on n² · max weight so that the int64 sums of a table never overflow.
_INT64_SAFE = 2**62

UNDEFINED_KAPPA = "p_e = 1: both reviewers gave every run one and the same category"
UNDEFINED_NO_RUNS = "no runs"
UNDEFINED_PSA = "no run flagged by either reviewer (2a + b + c = 0)"
UNDEFINED_NSA = "every run flagged by both reviewers (2d + b + c = 0)"


class Ratio(NamedTuple):
    """numerator / denominator of a statistic, integers (or int64 arrays, one per
    replicate); the statistic is undefined where the denominator is 0, for `undefined`."""

    numerator: int | np.ndarray
    denominator: int | np.ndarray
    undefined: str


class Estimate(NamedTuple):
    """A statistic of the full sample: its exact value, or None and why it is undefined."""

    value: Fraction | None
    reason: str


class Interval(NamedTuple):
    """A percentile bootstrap interval, None at both ends when no replicate is defined;
    n_undefined: the replicates whose statistic was undefined (left out of the interval)."""

    low: Fraction | None
    high: Fraction | None
    n_undefined: int


# --- The table ------------------------------------------------------------------------


def contingency_table(labels_a: Sequence, labels_b: Sequence, categories: Sequence) -> np.ndarray:
    """The k × k confusion matrix: n_ij = #{runs with labels_a = categories[i] and
    labels_b = categories[j]} (rows reviewer_a, columns reviewer_b), as int64."""
    if len(labels_a) != len(labels_b):
        raise ValueError(f"{len(labels_a)} labels of reviewer a but {len(labels_b)} of b")
    index = {category: i for i, category in enumerate(categories)}
    unknown = sorted({str(label) for label in (*labels_a, *labels_b) if label not in index})
    if unknown:
        raise ValueError(f"labels outside the categories {list(categories)}: {unknown}")
    k = len(categories)
    table = np.zeros((k, k), dtype=np.int64)
    rows = np.array([index[a] for a in labels_a], dtype=np.int64)
    columns = np.array([index[b] for b in labels_b], dtype=np.int64)
    np.add.at(table, (rows, columns), 1)
    return table


def _checked(tables) -> np.ndarray:
    tables = np.asarray(tables, dtype=np.int64)
    if tables.ndim < 2 or tables.shape[-1] != tables.shape[-2] or tables.shape[-1] < 2:
        raise ValueError(f"a contingency table must be k × k with k >= 2, got {tables.shape}")
    if (tables < 0).any():
        raise ValueError("a contingency table has a negative count")
    k = tables.shape[-1]
    if int(tables.sum(axis=(-2, -1)).max(initial=0)) ** 2 * (k - 1) ** 2 >= _INT64_SAFE:
        raise ValueError("a contingency table too large for exact int64 sums")
    return tables


def _n(tables: np.ndarray) -> np.ndarray:
    return tables.sum(axis=(-2, -1))


def _distances(k: int) -> np.ndarray:
    """i − j of each cell (i: reviewer_a's category index, j: reviewer_b's)."""
    return np.subtract.outer(np.arange(k), np.arange(k))


# --- Weights --------------------------------------------------------------------------


def linear_weights(k: int) -> np.ndarray:
    """w_ij = |i − j| / (k − 1), held as the integers |i − j|: κ_w is a ratio of two sums
    linear in w, so the common factor 1 / (k − 1) cancels."""
    return np.abs(_distances(k))


def quadratic_weights(k: int) -> np.ndarray:
    """w_ij = ((i − j) / (k − 1))², held as the integers (i − j)² (the factor cancels)."""
    return _distances(k) ** 2


def disagreement_weights(k: int) -> np.ndarray:
    """w_ij = 1 − δ_ij: weighted κ with these weights is Cohen's unweighted κ."""
    return 1 - np.eye(k, dtype=np.int64)


# --- Chance-corrected agreement -------------------------------------------------------


def weighted_kappa(tables, weights: np.ndarray) -> Ratio:
    """κ_w = 1 − Σ w_ij o_ij / Σ w_ij e_ij, o_ij = n_ij / n, e_ij = r_i c_j / n².

    Multiplied out over n²: κ_w = (Σ w_ij r_i c_j − n Σ w_ij n_ij) / Σ w_ij r_i c_j.
    Undefined when Σ w_ij e_ij = 0: both reviewers gave every run the same category.
    """
    tables = _checked(tables)
    weights = np.asarray(weights, dtype=np.int64)
    rows, columns = tables.sum(axis=-1), tables.sum(axis=-2)
    observed = (tables * weights).sum(axis=(-2, -1))
    expected = np.einsum("...i,ij,...j->...", rows, weights, columns)
    n = _n(tables)
    undefined = UNDEFINED_NO_RUNS if not n.any() else UNDEFINED_KAPPA
    return Ratio(expected - n * observed, expected, undefined)


def cohens_kappa(tables) -> Ratio:
    """κ = (p_o − p_e) / (1 − p_e), p_o = Σ_i n_ii / n, p_e = Σ_i r_i c_i / n².

    The weighted κ with w_ij = 1 − δ_ij (1 − (1 − p_o)/(1 − p_e) is the same number);
    undefined when p_e = 1.
    """
    tables = _checked(tables)
    return weighted_kappa(tables, disagreement_weights(tables.shape[-1]))


def linear_kappa(tables) -> Ratio:
    """κ_w with linear weights w_ij = |i − j| / (k − 1) (``weighted_kappa``)."""
    tables = _checked(tables)
    return weighted_kappa(tables, linear_weights(tables.shape[-1]))


def quadratic_kappa(tables) -> Ratio:
    """κ_w with quadratic weights w_ij = ((i − j) / (k − 1))² (``weighted_kappa``)."""
    tables = _checked(tables)
    return weighted_kappa(tables, quadratic_weights(tables.shape[-1]))


# --- Raw agreement and differences (categories are the integer scores 0 … k − 1) ------


def _share(tables, cells: np.ndarray) -> Ratio:
    tables = _checked(tables)
    return Ratio((tables * cells).sum(axis=(-2, -1)), _n(tables), UNDEFINED_NO_RUNS)


def observed_agreement(tables) -> Ratio:
    """p_o = Σ_i n_ii / n: the share of runs both reviewers put in the same category
    (the exact agreement of a score)."""
    tables = _checked(tables)
    return _share(tables, _distances(tables.shape[-1]) == 0)


def agreement_within_one(tables) -> Ratio:
    """Σ_{|i − j| ≤ 1} n_ij / n: the share of runs scored at most one point apart."""
    tables = _checked(tables)
    return _share(tables, np.abs(_distances(tables.shape[-1])) <= 1)


def mean_absolute_difference(tables) -> Ratio:
    """MAD = Σ_ij |i − j| n_ij / n: the mean of |b − a| over the runs."""
    tables = _checked(tables)
    return _share(tables, np.abs(_distances(tables.shape[-1])))


def mean_signed_difference(tables) -> Ratio:
    """MSD = Σ_ij (j − i) n_ij / n: the mean of b − a, reviewer_b (the higher id) minus
    reviewer_a; positive when b scores higher."""
    tables = _checked(tables)
    return _share(tables, -_distances(tables.shape[-1]))


# --- A binary flag: table [[a, b], [c, d]] with categories (flagged, not flagged) -------
# a: both flagged, b: only reviewer_a, c: only reviewer_b, d: neither.


def _binary(tables) -> tuple[np.ndarray, ...]:
    tables = _checked(tables)
    if tables.shape[-1] != 2:
        raise ValueError(f"a binary flag's table is 2 × 2, got {tables.shape}")
    a, b = tables[..., 0, 0], tables[..., 0, 1]
    c, d = tables[..., 1, 0], tables[..., 1, 1]
    return a, b, c, d


def positive_specific_agreement(tables) -> Ratio:
    """PSA = 2a / (2a + b + c): of the flags raised, the share the other reviewer raised
    too. Undefined when no run was flagged."""
    a, b, c, _ = _binary(tables)
    return Ratio(2 * a, 2 * a + b + c, UNDEFINED_PSA)


def negative_specific_agreement(tables) -> Ratio:
    """NSA = 2d / (2d + b + c). Undefined when every run was flagged by both."""
    _, b, c, d = _binary(tables)
    return Ratio(2 * d, 2 * d + b + c, UNDEFINED_NSA)


def gwet_ac1(tables) -> Ratio:
    """Gwet's AC1 = (p_o − p_e) / (1 − p_e), p_o = (a + d) / n, p_e = 2π(1 − π),
    π = (2a + b + c) / (2n) (the reviewers' mean rate of flagging).

    With P = 2a + b + c, over 2n²: AC1 = (2n(a + d) − P(2n − P)) / (2n² − P(2n − P)); the
    denominator is at least n² (P(2n − P) ≤ n²), so AC1 is defined whenever n > 0.
    """
    a, b, c, d = _binary(tables)
    n = a + b + c + d
    flags = 2 * a + b + c
    chance = flags * (2 * n - flags)
    return Ratio(2 * n * (a + d) - chance, 2 * n * n - chance, UNDEFINED_NO_RUNS)


# --- From a ratio to a published value ------------------------------------------------


def full_sample_estimate(ratio: Ratio) -> Estimate:
    """The statistic of one table as a Fraction, or None with the reason it is undefined."""
    denominator = int(ratio.denominator)
    if denominator == 0:
        return Estimate(None, ratio.undefined)
    return Estimate(Fraction(int(ratio.numerator), denominator), "")


def replicate_values(ratio: Ratio) -> tuple[np.ndarray, np.ndarray]:
    """(values, defined) over replicates: numerator / denominator in float64, the
    correctly rounded value of the exact fraction; NaN and False where undefined."""
    numerators = np.asarray(ratio.numerator, dtype=np.int64)
    denominators = np.asarray(ratio.denominator, dtype=np.int64)
    defined = denominators != 0
    largest = max(int(np.abs(numerators).max(initial=0)), int(denominators.max(initial=0)))
    if largest < _FLOAT_EXACT:
        values = numerators / np.where(defined, denominators, 1)
    else:
        pairs = zip(numerators.ravel(), denominators.ravel(), strict=True)
        exact_values = [float(Fraction(int(p), int(q))) if q else 0.0 for p, q in pairs]
        values = np.array(exact_values, dtype=np.float64).reshape(numerators.shape)
    return np.where(defined, values, np.nan), defined


# --- The case bootstrap ---------------------------------------------------------------


def case_tables(
    case_of_run: Sequence[int], index_a: Sequence[int], index_b: Sequence[int], n_cases: int, k: int
) -> np.ndarray:
    """T[j] = the k × k table of the runs of case j (cases × k × k, int64): run r adds 1
    to T[case_of_run[r], index_a[r], index_b[r]]."""
    tables = np.zeros((n_cases, k, k), dtype=np.int64)
    np.add.at(tables, (np.asarray(case_of_run), np.asarray(index_a), np.asarray(index_b)), 1)
    return tables


def replicate_tables(multiplicities: np.ndarray, per_case: np.ndarray) -> np.ndarray:
    """Replicate b's table = Σ_j W[b, j] · T[j]: every run of case j counted W[b, j] times.

    T is (cases × …): one case's table, or several variables' tables side by side; the
    result is (replicates × …), one exact int64 matrix product for all replicates.
    """
    weights = np.asarray(multiplicities, dtype=np.int64)
    per_case = np.asarray(per_case, dtype=np.int64)
    n_cases = per_case.shape[0]
    if weights.ndim != 2 or weights.shape[1] != n_cases:
        raise ValueError(f"multiplicities must have shape (replicates, {n_cases})")
    product = weights @ per_case.reshape(n_cases, -1)
    return product.reshape(weights.shape[0], *per_case.shape[1:])


def percentile_interval(ratio: Ratio, confidence: float = 0.95) -> Interval:
    """The percentile interval [x_(k), x_(n+1−k)] of the n replicates where the statistic
    is defined, k = max(1, ⌊(n + 1)(1 − confidence)/2⌋) (uncertainty_methods.md §3.5).

    The replicates are ordered by their float64 values (each the correctly rounded
    fraction) and each end is the exact fraction of the replicate found there, so that
    it is rounded for publication like the estimate, from the exact value.
    """
    numerators = np.asarray(ratio.numerator, dtype=np.int64)
    denominators = np.asarray(ratio.denominator, dtype=np.int64)
    values, defined = replicate_values(ratio)
    n_defined = int(defined.sum())
    n_undefined = int(defined.size) - n_defined
    if n_defined == 0:
        return Interval(None, None, n_undefined)
    low_k, high_k = order_statistic_bounds(n_defined, confidence)
    kept = np.flatnonzero(defined)
    order = kept[np.argsort(values[kept], kind="stable")]

    def order_statistic(k: int) -> Fraction:
        replicate = order[k - 1]
        return Fraction(int(numerators[replicate]), int(denominators[replicate]))

    return Interval(order_statistic(low_k), order_statistic(high_k), n_undefined)
