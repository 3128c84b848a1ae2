"""Every formula of system/rubric/v1.0/aggregated_metrics.md, one pure function each.

The rule scripts only read and write files around these functions. Aggregates are
computed with exact rational arithmetic (integers and ``Fraction``) and turned into
the nearest binary float only at the end, so the published 4-decimal value is the
rounding of the exact result, never of an accumulated floating-point error.

Inputs use the corpus' own units: a confidence is the integer 0-100 of the
response, a correctness one of 0, 0.5, 1 (internally q = 4 · correctness in {0, 2, 4}).
Under double review (multi-reviewer.md) a run's values may be the mean of two
primaries: a clipped score a half, a correctness a quarter (q in {0, 1, 2, 3, 4}); both
are exact in a binary float, and the formulas stay exact on them.
"""

from collections.abc import Collection, Iterable, Sequence
from fractions import Fraction

from ro_metrics.contracts.vocabulary import (
    CONDITIONAL,
    CRITICAL,
    DISQUALIFIED,
    ELIGIBLE,
    FAIL,
    MAX_RAW_SCORE,
    N_BINS,
    PASS,
    RECOVERABLE,
)


def raw_score(criterion_scores: Iterable[int]) -> int | float:
    """raw_score = sum of the six criterion_scores (each 0-2, total 0-12)."""
    return sum(criterion_scores)


def clipped_score(raw: int | float, rubric_ceiling: int) -> int | float:
    """clipped_score = min(raw_score, gold.rubric_ceiling)."""
    return min(raw, rubric_ceiling)


def has_critical_fail(severities: Collection[str]) -> bool:
    """has_critical_fail = any(fail.severity == "critical" for fail in fails)."""
    return CRITICAL in severities


def has_recoverable_fail(severities: Collection[str]) -> bool:
    """has_recoverable_fail = any(fail.severity == "recoverable" for fail in fails)."""
    return RECOVERABLE in severities


def classify(
    clipped: int | float, rubric_floor: int, critical_fail: bool, recoverable_fail: bool
) -> str:
    """Classification, applied in this order.

    critical fail → Fail; else recoverable fail → Conditional;
    else clipped_score < rubric_floor → Fail; else clipped_score >= 10 → Pass;
    else clipped_score >= 7 → Conditional; else Fail.
    """
    if critical_fail:
        return FAIL
    if recoverable_fail:
        return CONDITIONAL
    if clipped < rubric_floor:
        return FAIL
    if clipped >= 10:
        return PASS
    if clipped >= 7:
        return CONDITIONAL
    return FAIL


def confidence_unit(reported_confidence: int) -> float:
    """confidence_unit = response.confidence / 100 (float 0-1)."""
    return reported_confidence / 100


def exact_pass_rate(n_pass: int, n_runs: int) -> Fraction | None:
    """P = #{r in R : r.classification == "Pass"} / N, exact, from the two counts.

    Only Pass counts; the denominator is every scored run, critical fails included.
    Undefined (None) for N = 0.
    """
    return Fraction(n_pass, n_runs) if n_runs else None


def pass_rate(classifications: Sequence[str]) -> float:
    """P (exact_pass_rate) of the runs' classifications, as the nearest float."""
    n_runs = _require_runs(classifications)
    return float(exact_pass_rate(sum(c == PASS for c in classifications), n_runs))


def exact_mean_clipped_score(clipped_halves: int, n_runs: int) -> Fraction | None:
    """s̄ = (1 / N) · sum_{r in R} r.clipped_score, exact, from Σ 2 · clipped_score
    (an integer: a consolidated clipped score is at most a half). Undefined (None) for
    N = 0."""
    return Fraction(clipped_halves, 2 * n_runs) if n_runs else None


def mean_clipped_score(clipped_scores: Sequence[int | float]) -> float:
    """s̄ (exact_mean_clipped_score) of the runs' clipped scores, as the nearest float."""
    n_runs = _require_runs(clipped_scores)
    return float(exact_mean_clipped_score(clipped_halves(clipped_scores), n_runs))


def clipped_halves(clipped_scores: Iterable[int | float]) -> int:
    """Σ 2 · clipped_score of some runs: an integer, each score being whole or a half."""
    # The float sum of halves is exact (multiples of 0.5 far below 2**52), and so is
    # Fraction(float).
    doubled = 2 * Fraction(sum(clipped_scores))
    if doubled.denominator != 1:
        raise ValueError("a clipped score is not a whole or half number")
    return doubled.numerator


def mean_confidence_unit(confidence_sum: int, n_runs: int) -> Fraction | None:
    """Mean confidence_unit = (1 / N) · Σ confidence / 100 (conf(B_m) of the ECE over
    a bin's runs), exact, from Σ confidence (integers 0-100). Undefined (None) for N = 0."""
    return Fraction(confidence_sum, 100 * n_runs) if n_runs else None


def mean_correctness(quarters_sum: int, n_runs: int) -> Fraction | None:
    """Mean (soft) correctness = (1 / N) · Σ correctness (acc(B_m) of the ECE over a
    bin's runs), exact, from Σ 4 · correctness (correctness_quarters). Undefined (None)
    for N = 0."""
    return Fraction(quarters_sum, 4 * n_runs) if n_runs else None


def brier_score(confidences: Sequence[int], correctness: Sequence[float]) -> float:
    """BS = (1 / N) · sum_{r in R} (r.confidence_unit - r.correctness)^2 (soft).

    With c the integer confidence and q = 4 · correctness, each term is
    (c/100 - q/4)^2 = (c - 25q)^2 / 10000, so BS = Σ (c - 25q)^2 / (10000 · N).
    """
    n_runs = _require_runs(confidences)
    quarters = correctness_quarters(correctness)
    total = sum((c - 25 * q) ** 2 for c, q in zip(confidences, quarters, strict=True))
    return float(Fraction(total, 10000 * n_runs))


def ece_bin(reported_confidence: int) -> int:
    """Bin m (1-10) of a run: B_m = {(m-1)/10 <= confidence_unit < m/10} for m = 1..9.

    B_10 = {0.9 <= confidence_unit <= 1.0} (closed on the right). Chosen from the
    integer confidence c as m = min(c // 10, 9) + 1, so 30 is in [0.3, 0.4) and
    100 in the last bin, with no float comparison at a bin edge.
    """
    if not 0 <= reported_confidence <= 100:
        raise ValueError(f"confidence out of 0-100: {reported_confidence}")
    return min(reported_confidence // 10, N_BINS - 1) + 1


def expected_calibration_error(confidences: Sequence[int], correctness: Sequence[float]) -> float:
    """ECE = sum_{m : |B_m| > 0} (|B_m| / N) · |conf(B_m) - acc(B_m)|, M = 10.

    conf and acc are the bin means of confidence_unit and (soft) correctness;
    empty bins contribute nothing. Since |B_m| · (conf - acc) = Σ_{B_m} (c/100 - q/4),
    ECE = Σ_m |Σ_{r in B_m} (c_r - 25 q_r)| / (100 · N).
    """
    n_runs = _require_runs(confidences)
    gap_per_bin = [0] * (N_BINS + 1)
    for c, q in zip(confidences, correctness_quarters(correctness), strict=True):
        gap_per_bin[ece_bin(c)] += c - 25 * q
    return float(Fraction(sum(abs(gap) for gap in gap_per_bin), 100 * n_runs))


def calibration_bins(
    confidences: Sequence[int], correctness: Sequence[float]
) -> list[tuple[int, int, Fraction, Fraction]]:
    """The non-empty bins of the ECE as (m, |B_m|, conf(B_m), acc(B_m)), m ascending.

    conf(B_m) = mean of r.confidence_unit over r in B_m;
    acc(B_m) = mean of r.correctness over r in B_m (soft accuracy);
    both undefined if |B_m| = 0, so empty bins are left out. Exact values
    (what the reliability diagram of the leaderboard plots).
    """
    _require_runs(confidences)
    size, confidence_sum, quarters_sum = [0] * (N_BINS + 1), [0] * (N_BINS + 1), [0] * (N_BINS + 1)
    for c, q in zip(confidences, correctness_quarters(correctness), strict=True):
        m = ece_bin(c)
        size[m] += 1
        confidence_sum[m] += c
        quarters_sum[m] += q
    return [
        (
            m,
            size[m],
            mean_confidence_unit(confidence_sum[m], size[m]),
            mean_correctness(quarters_sum[m], size[m]),
        )
        for m in range(1, N_BINS + 1)
        if size[m]
    ]


def q_final(classifications: Sequence[str], clipped_scores: Sequence[int], alpha: float) -> float:
    """Q_final = α · P + (1 - α) · (s̄ / 12).

    α is taken as the exact value of its binary float (0.5 by default).
    """
    if not 0 <= alpha <= 1:
        raise ValueError(f"alpha must be within [0, 1], got {alpha}")
    n_runs = _require_runs(classifications)
    exact_alpha = Fraction(alpha)
    pass_part = exact_pass_rate(sum(c == PASS for c in classifications), n_runs)
    score_part = exact_mean_clipped_score(
        clipped_halves(clipped_scores), _require_runs(clipped_scores)
    )
    return float(exact_alpha * pass_part + (1 - exact_alpha) * score_part / MAX_RAW_SCORE)


def is_disqualified(critical_fails: Iterable[bool]) -> bool:
    """disqualified = any(r.has_critical_fail for r in R)."""
    return any(critical_fails)


def n_critical_fails(critical_fails: Iterable[bool]) -> int:
    """n_critical = #{r in R : r.has_critical_fail}."""
    return sum(bool(flag) for flag in critical_fails)


def leaderboard_status(critical_fails: Iterable[bool]) -> str:
    """A disqualified subject version is "Disqualified", every other one "Eligible"."""
    return DISQUALIFIED if is_disqualified(critical_fails) else ELIGIBLE


_QUARTERS = {0: 0, 0.25: 1, 0.5: 2, 0.75: 3, 1: 4}  # correctness → 4 · correctness


def correctness_quarters(correctness: Sequence[float]) -> list[int]:
    """4 · correctness of each run: 0, 2, 4 for a scoring's 0, 0.5, 1; 1 and 3 for the
    quarters of a mean of two primaries' scorings."""
    # A look-up per run (10^5 in the findings step); True and False equal 1 and 0.
    quarters = [None if v.__class__ is bool else _QUARTERS.get(v) for v in correctness]
    if None in quarters:
        value = correctness[quarters.index(None)]
        raise ValueError(f"correctness must be one of 0, 0.5, 1 (or a mean of two), got {value!r}")
    return quarters


def _require_runs(values: Sequence) -> int:
    # The spec leaves every metric undefined for N = 0; such a subject has no row.
    if not values:
        raise ValueError("a metric over zero scored runs is undefined")
    return len(values)
