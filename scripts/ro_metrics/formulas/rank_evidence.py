"""How sure is the order? Ranks, rank correlations and neighbour tests from the paired
case bootstrap (findings.md § 3–4; methods in system/rubric/v1.0/uncertainty_methods.md
§ 3.7–3.10, an addition by the pipeline maintainers, not the committee's metrics).

Everything here reads the uncertainty step's own sample (``uncertainty.bootstrap_sample``:
the same seed, the same replicates, the same multiplicity matrix W), so uncertainty.csv
is unchanged and every figure comes from the same resampled leaderboards:

- ranks of every version (ungated) on Q_final (descending), Brier and ECE (ascending),
  with their 95 % bootstrap rank intervals (``bootstrap_ranks``);
- Spearman's ρ over the versions of Q_final with Brier and with ECE, with a 95 %
  bootstrap interval (``rank_correlation``);
- the neighbour tests of adjacent ranked versions of the leaderboard: the exact paired
  ΔQ_final over their common cases, its bootstrap interval, a sign-flip randomisation
  p-value (exact over every sign vector up to a stated size, Monte Carlo beyond) and its
  Holm adjustment (``neighbour_tests``).

Pure functions: no file I/O. Exact fractions where the source is exact (ΔQ_final, the
p-values); each float is one correctly rounded division of exact integers.
"""

import itertools
import math
from collections.abc import Sequence
from fractions import Fraction

import numpy as np

from ro_metrics.contracts.records import (
    BootstrapRank,
    NeighbourTest,
    RankCorrelation,
    RankingEvidence,
)
from ro_metrics.contracts.vocabulary import MAX_RAW_SCORE
from ro_metrics.formulas import uncertainty as un
from ro_metrics.formulas.ranking import ranked

Key = un.Key
# The metrics ranked for every version, and whether larger is better.
RANKED_METRICS = {"q_final": True, "brier": False, "ece": False}
# The metrics whose rank correlation with Q_final is reported, in the record's order.
CORRELATED_METRICS = ("brier", "ece")
# spawn_key of the sign-flip stream: SeedSequence(seed, spawn_key=(1,)), i.e.
# SeedSequence(seed).spawn(2)[1]. W is drawn from PCG64(seed), whose SeedSequence has the
# empty spawn_key, so the two streams are independent and W's draws are untouched.
SIGN_FLIP_SPAWN_KEY = (1,)
# "separable" when the Holm-adjusted p-value is below 0.05, exactly 1/20.
SEPARABLE_BELOW = Fraction(1, 20)
# The sign-flip p-value is exact (every one of the 2^m sign vectors, counted by convolving
# the integer differences) when the pair has at most EXACT_SIGN_FLIP_MAX_CASES non-zero
# differences (each count ≤ 2^62 stays an int64) and the sums span at most
# EXACT_SIGN_FLIP_MAX_WIDTH values (8 MB of counts, ~0.1 s); Monte Carlo beyond.
EXACT_SIGN_FLIP_MAX_CASES = 62
EXACT_SIGN_FLIP_MAX_WIDTH = 2**20
EXACT, MONTE_CARLO = "exact", "monte_carlo"
# Integer products stay in int64 below this bound (|values| of the sums), else Python ints.
_INT64_SAFE = 2**62


# --- Ranks of every version -------------------------------------------------------------


def published_competition_ranks(values: dict[Key, str], descending: bool) -> dict[Key, int]:
    """Competition rank on the published (4-decimal) texts, the leaderboard's tie rule.

    rank = 1 + #{versions with a strictly better published value} (better: greater when
    ``descending``, smaller otherwise), so equal published values share the best rank
    (1, 2, 2, 4).
    """
    numbers = {key: float(text) for key, text in values.items()}
    if descending:
        return {key: 1 + sum(o > v for o in numbers.values()) for key, v in numbers.items()}
    return {key: 1 + sum(o < v for o in numbers.values()) for key, v in numbers.items()}


def replicate_competition_ranks(
    values: np.ndarray, defined: np.ndarray, descending: bool
) -> np.ndarray:
    """Each replicate's competition ranks (replicates × versions) on unrounded values.

    rank = 1 + #{versions defined in the replicate with a strictly better value}; ties are
    exactly equal float64 values; an undefined version has rank 0 and pushes nobody down
    (uncertainty.competition_ranks, which ranks descending; ascending ranks -values).
    """
    return un.competition_ranks(values if descending else -values, defined)


def bootstrap_ranks(
    sample: un.BootstrapSample, published: dict[Key, dict[str, str]], confidence: float = 0.95
) -> list[BootstrapRank]:
    """Every version's rank on Q_final (descending), Brier and ECE (ascending).

    rank: ``published_competition_ranks`` of the published texts (``published``: the
    version's row of metrics_per_subject.csv); rank_low, rank_high: the percentile
    interval [x_(k), x_(n+1−k)] (uncertainty.order_statistic_bounds) of its n defined
    replicates' ``replicate_competition_ranks`` among every version, Disqualified ones
    included; (0, 0) when no replicate drew one of its cases; p_first:
    ``share_ranked_first``. Sorted by metric, rank, subject_id, subject_version.
    """
    metrics = sample.metrics
    keys, defined = metrics.keys, metrics.defined
    records = []
    for metric, descending in RANKED_METRICS.items():
        observed = published_competition_ranks(
            {key: published[key][metric] for key in keys}, descending
        )
        ranks = replicate_competition_ranks(metrics.values[metric], defined, descending)
        low, high = un.percentile_columns(ranks, defined, confidence)
        firsts = share_ranked_first(ranks, defined)
        for i, key in enumerate(keys):
            interval = (0, 0) if math.isnan(low[i]) else (int(low[i]), int(high[i]))
            records.append(BootstrapRank(*key, metric, observed[key], *interval, firsts[i]))
    return sorted(records, key=lambda r: (r.metric, r.rank, r.subject_id, r.subject_version))


def share_ranked_first(ranks: np.ndarray, defined: np.ndarray) -> list[float]:
    """Per version, p_first = #{defined replicates with rank 1} / #{defined replicates}
    (0 when none is defined), rounded half-even to 4 decimals: the bootstrap's chance
    of being the best on the metric (a tie for first counts for every tied version)."""
    firsts = ((ranks == 1) & defined).sum(axis=0).tolist()
    n_defined = defined.sum(axis=0).tolist()
    return [
        float(round(Fraction(first, n), 4)) if n else 0.0
        for first, n in zip(firsts, n_defined, strict=True)
    ]


# --- Spearman's rank correlation --------------------------------------------------------


def doubled_average_ranks(values: np.ndarray) -> np.ndarray:
    """Twice the average ranks (ascending, 1-based) of each row, as exact integers.

    r_i = #{j: x_j < x_i} + (#{j: x_j = x_i} + 1) / 2: tied values share the mean of
    the positions they occupy (1, 2.5, 2.5, 4); 2·r_i = first + last position of x_i's
    tie group, an integer.
    """
    n_rows, n_columns = values.shape
    doubled = np.zeros((n_rows, n_columns), dtype=np.int64)
    if n_columns == 0:
        return doubled
    order = np.argsort(values, axis=1, kind="stable")
    ordered = np.take_along_axis(values, order, axis=1)
    position = np.broadcast_to(np.arange(1, n_columns + 1), (n_rows, n_columns))
    starts = np.ones((n_rows, n_columns), dtype=bool)
    starts[:, 1:] = ordered[:, 1:] != ordered[:, :-1]
    ends = np.ones((n_rows, n_columns), dtype=bool)
    ends[:, :-1] = starts[:, 1:]
    first = np.maximum.accumulate(np.where(starts, position, 0), axis=1)
    last = np.minimum.accumulate(np.where(ends, position, n_columns + 1)[:, ::-1], axis=1)
    np.put_along_axis(doubled, order, first + last[:, ::-1], axis=1)
    return doubled


def spearman_rho_of_ranks(u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Pearson's correlation of each row's ranks: Spearman's ρ (NaN where undefined).

    ρ = Σ(u − ū)(v − v̄) / sqrt(Σ(u − ū)² · Σ(v − v̄)²), computed from exact integer sums
    (u, v: doubled_average_ranks) as (nΣuv − ΣuΣv) / sqrt((nΣu² − (Σu)²)(nΣv² − (Σv)²));
    undefined when either rank vector is constant (a zero sum of squares) or n < 2.
    When the product under the root is a perfect square (no ties: both sums of squares
    are equal) ρ is one correctly rounded division of integers (−0.8, not −0.79…9).
    """
    n = u.shape[1]
    numerators = n * (u * v).sum(axis=1) - u.sum(axis=1) * v.sum(axis=1)
    spreads_u = n * (u * u).sum(axis=1) - u.sum(axis=1) ** 2
    spreads_v = n * (v * v).sum(axis=1) - v.sum(axis=1) ** 2
    rho = np.full(u.shape[0], np.nan)
    for row, (numerator, spread_u, spread_v) in enumerate(
        zip(numerators.tolist(), spreads_u.tolist(), spreads_v.tolist(), strict=True)
    ):
        if spread_u > 0 and spread_v > 0:
            rho[row] = _ratio_to_root(numerator, spread_u * spread_v)
    return rho


def _ratio_to_root(numerator: int, square: int) -> float:
    # numerator / sqrt(square), exact integers: correctly rounded when square is a
    # perfect square, else one float root; |ρ| ≤ 1 by Cauchy-Schwarz, kept so.
    root = math.isqrt(square)
    value = numerator / root if root * root == square else numerator / math.sqrt(square)
    return min(1.0, max(-1.0, value))


def rank_correlation(
    sample: un.BootstrapSample, metric: str, confidence: float = 0.95
) -> RankCorrelation:
    """Spearman's ρ over the versions of Q_final with ``metric`` (brier or ece).

    ρ: ``spearman_rho_of_ranks`` of the full-sample unrounded values (each case once,
    ``full_sample_metrics``), average ranks for ties; None when undefined. Interval: the
    percentile interval of ρ over the replicates where it is defined, i.e. every version
    has a run in the replicate and neither rank vector is constant; the others are
    counted in n_undefined. Ends None when no replicate defines ρ.
    """
    full = full_sample_metrics(sample)
    rho = _spearman_rows(full.values["q_final"], full.values[metric])[0]
    metrics = sample.metrics
    replicate_rho = _spearman_rows(metrics.values["q_final"], metrics.values[metric])
    all_defined = metrics.defined.all(axis=1) & ~np.isnan(replicate_rho)
    low, high = un.percentile_columns(replicate_rho[:, None], all_defined[:, None], confidence)
    return RankCorrelation(
        metric=metric,
        rho=None if math.isnan(rho) else float(rho),
        ci_low=None if math.isnan(low[0]) else float(low[0]),
        ci_high=None if math.isnan(high[0]) else float(high[0]),
        n_versions=len(metrics.keys),
        n_undefined=int(sample.n_replicates - all_defined.sum()),
    )


def _spearman_rows(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    # NaN cells (a version without runs in the replicate) rank anywhere: those rows
    # are left out by the caller.
    return spearman_rho_of_ranks(doubled_average_ranks(x), doubled_average_ranks(y))


def full_sample_metrics(sample: un.BootstrapSample) -> un.ReplicateMetrics:
    """The unrounded metrics of the whole corpus: replicate_metrics with every case
    drawn once (W = 1), i.e. formulas/metrics.py's values (one row)."""
    ones = np.ones((1, len(sample.cases)), dtype=np.int64)
    return un.replicate_metrics(sample.subjects, sample.alpha, ones)


# --- Neighbour tests ----------------------------------------------------------------------


def case_values(subject: un.SubjectCases, alpha: Fraction) -> dict[str, Fraction]:
    """Per case, the mean over the version's runs of the case of
    α·pass + (1 − α)·clipped/12 (pass = 1 for a Pass run, else 0), exactly: Q_final's
    per-run term (aggregated_metrics.md: Q_final = α·P + (1 − α)·s̄/12). From the case's
    sums (uncertainty.case_sums): (α·#Pass + (1 − α)·Σ 2·clipped / 24) / runs."""
    halves_per_score = 2 * MAX_RAW_SCORE
    return {
        case: (
            alpha * sums[un.CASE_PASSES]
            + (1 - alpha) * Fraction(sums[un.CASE_CLIPPED_HALVES], halves_per_score)
        )
        / sums[un.CASE_RUNS]
        for case, sums in zip(subject.case_ids, subject.sums.sums, strict=True)
    }


def paired_differences(
    upper: dict[str, Fraction], lower: dict[str, Fraction]
) -> tuple[list[str], list[Fraction]]:
    """Over the cases both versions have (sorted): d_j = upper_j − lower_j."""
    common = sorted(upper.keys() & lower.keys())
    return common, [upper[case] - lower[case] for case in common]


def mean_difference(differences: Sequence[Fraction]) -> Fraction | None:
    """ΔQ_final = (1/m) Σ_j d_j over the m common cases; None when m = 0."""
    if not differences:
        return None
    return sum(differences, Fraction(0)) / len(differences)


def scaled_to_integers(differences: Sequence[Fraction]) -> tuple[list[int], int]:
    """(D, L): L = the least common multiple of the denominators, D_j = d_j · L, so every
    sum of the d_j is an exact integer sum divided by L."""
    scale = math.lcm(1, *(d.denominator for d in differences))
    return [int(d * scale) for d in differences], scale


def bootstrap_difference_interval(
    weights: np.ndarray, scaled: Sequence[int], scale: int, confidence: float = 0.95
) -> tuple[float | None, float | None, int]:
    """The 95 % percentile interval of ΔQ_final over the replicates, and how many were
    undefined.

    weights: W restricted to the common cases (replicates × m); replicate b's ΔQ is
    Σ_j W[b,j] d_j / Σ_j W[b,j] = (Σ_j W[b,j] D_j) / (L · Σ_j W[b,j]), exact integers, one
    correctly rounded division; undefined when the replicate drew none of the common
    cases (Σ_j W[b,j] = 0). Ends: [x_(k), x_(n+1−k)] of the n defined values
    (uncertainty.order_statistic_bounds); None when n = 0.
    """
    sums = _integer_products(weights, scaled).tolist()
    drawn = weights.sum(axis=1).tolist()
    values = sorted(int(s) / (scale * int(w)) for s, w in zip(sums, drawn, strict=True) if w)
    undefined = len(drawn) - len(values)
    if not values:
        return None, None, undefined
    k, upper_k = un.order_statistic_bounds(len(values), confidence)
    return values[k - 1], values[upper_k - 1], undefined


def sign_flip_signs(n_cases: int, replicates: int, seed: int) -> np.ndarray:
    """R = replicates random sign vectors over the case universe (R × n_cases, ±1, int64).

    From Generator(PCG64(SeedSequence(seed, spawn_key=(1,)))).integers(0, 2, (R, n)):
    s = 2·bit − 1. A stream apart from W's (PCG64(seed)), which it leaves untouched; one
    sign matrix for the whole leaderboard, each pair using its common cases' columns.
    """
    sequence = np.random.SeedSequence(int(seed), spawn_key=SIGN_FLIP_SPAWN_KEY)
    rng = np.random.Generator(np.random.PCG64(sequence))
    bits = rng.integers(0, 2, size=(int(replicates), n_cases), dtype=np.int64)
    return 2 * bits - 1


def _flip_sizes(scaled: Sequence[int]) -> list[int]:
    """The non-zero |D_j| over their common divisor: the steps of the exact count."""
    divisor = math.gcd(*(int(d) for d in scaled)) or 1
    return [abs(int(d)) // divisor for d in scaled if d]


def sign_flip_exact_p_value(scaled: Sequence[int]) -> Fraction:
    """The sign-flip p-value over every sign vector, exactly:

    p = #{s ∈ {−1, 1}^m : |Σ_j s_j D_j| ≥ |Σ_j D_j|} / 2^m

    with D_j the integer-scaled differences (``scaled_to_integers``). The distribution of
    Σ_j s_j D_j is the convolution, over j, of the two-point distributions {−D_j, +D_j}:
    integer counts of every attainable sum (divided by the D's common divisor), built
    one difference at a time. A zero difference doubles every count and the total
    alike, so it is left out (m then counts the non-zero ones); with none, p = 1.
    """
    sizes = _flip_sizes(scaled)
    divisor = math.gcd(*(int(d) for d in scaled)) or 1
    observed = abs(sum(int(d) for d in scaled)) // divisor
    span = sum(sizes)
    counts = np.zeros(2 * span + 1, dtype=np.int64)  # counts[span + t]: sign vectors with sum t
    counts[span] = 1
    for size in sizes:
        grown = np.zeros_like(counts)
        grown[size:] += counts[:-size]
        grown[:-size] += counts[size:]
        counts = grown
    sums = np.abs(np.arange(-span, span + 1))
    at_least = int(counts[sums >= observed].sum())
    return Fraction(at_least, 2 ** len(sizes))


def sign_flip_method(scaled: Sequence[int]) -> str:
    """EXACT when the exact count is cheap and fits int64 (at most
    EXACT_SIGN_FLIP_MAX_CASES non-zero differences, their sums spanning at most
    EXACT_SIGN_FLIP_MAX_WIDTH values), MONTE_CARLO otherwise."""
    sizes = _flip_sizes(scaled)
    if len(sizes) <= EXACT_SIGN_FLIP_MAX_CASES and 2 * sum(sizes) + 1 <= EXACT_SIGN_FLIP_MAX_WIDTH:
        return EXACT
    return MONTE_CARLO


def sign_flip_p_value(signs: np.ndarray, scaled: Sequence[int]) -> Fraction:
    """Paired randomisation p-value of ΔQ_final over cases, Monte Carlo, exactly counted.

    p = (1 + #{r : |Σ_j s_rj D_j| ≥ |Σ_j D_j|}) / (R + 1), with the R sign vectors s_r
    (R × m, restricted to the common cases) and the integer-scaled differences D_j
    (the scale L cancels in the comparison). All sums are exact integers.
    """
    observed = abs(sum(int(d) for d in scaled))
    flipped = np.abs(_integer_products(signs, scaled))
    at_least = int((flipped >= observed).sum())
    return Fraction(1 + at_least, signs.shape[0] + 1)


def neighbour_p_value(signs: np.ndarray, scaled: Sequence[int]) -> tuple[Fraction, str, int]:
    """A pair's sign-flip p-value, how it was computed and the draws it used:
    ``sign_flip_exact_p_value`` (0 draws) when ``sign_flip_method`` says EXACT, else
    ``sign_flip_p_value`` over the R rows of ``signs``."""
    if sign_flip_method(scaled) == EXACT:
        return sign_flip_exact_p_value(scaled), EXACT, 0
    return sign_flip_p_value(signs, scaled), MONTE_CARLO, int(signs.shape[0])


def holm_adjusted(p_values: Sequence[Fraction]) -> list[Fraction]:
    """Holm's step-down adjustment over the m tests, returned in the input order.

    With p sorted ascending (p_(1) ≤ … ≤ p_(m), ties in input order):
    p_holm(i) = max_{k ≤ i} min(1, (m − k + 1) · p_(k)).
    """
    m = len(p_values)
    order = sorted(range(m), key=lambda i: (p_values[i], i))
    adjusted: list[Fraction] = [Fraction(0)] * m
    running = Fraction(0)
    for k, i in enumerate(order, start=1):
        running = max(running, min(Fraction(1), (m - k + 1) * Fraction(p_values[i])))
        adjusted[i] = running
    return adjusted


def neighbour_tests(
    sample: un.BootstrapSample, metrics_rows: list[dict[str, str]], confidence: float = 0.95
) -> list[NeighbourTest]:
    """For each pair of adjacent ranked versions of the leaderboard (ranking.ranked: the
    Eligible rows in leaderboard order), upper minus lower over their common cases:
    ΔQ_final (``mean_difference`` of ``case_values``, α read as its decimal text), its
    ``bootstrap_difference_interval`` under the sample's W, the ``neighbour_p_value``
    (exact, or Monte Carlo with R = the sample's replicates past the exact method's
    size), and ``holm_adjusted`` over all the pairs (of the values as computed);
    separable when p_holm < 1/20. In leaderboard order."""
    alpha = Fraction(str(sample.alpha))
    by_key = {subject.key: subject for subject in sample.subjects}
    column = {case: j for j, case in enumerate(sample.cases)}
    signs = sign_flip_signs(len(sample.cases), sample.n_replicates, sample.seed)
    keys = [
        (row["subject_id"], row["subject_version"]) for row in ranked(metrics_rows) if row["rank"]
    ]
    values = {key: case_values(by_key[key], alpha) for key in keys}
    pairs = []
    for upper, lower in itertools.pairwise(keys):
        common, differences = paired_differences(values[upper], values[lower])
        scaled, scale = scaled_to_integers(differences)
        columns = [column[case] for case in common]
        low, high, _ = bootstrap_difference_interval(
            sample.weights[:, columns], scaled, scale, confidence
        )
        p_value, method, draws = neighbour_p_value(signs[:, columns], scaled)
        pairs.append(
            (
                upper,
                lower,
                len(common),
                mean_difference(differences),
                low,
                high,
                p_value,
                method,
                draws,
            )
        )
    adjusted = holm_adjusted([pair[6] for pair in pairs])
    return [
        NeighbourTest(
            *upper,
            *lower,
            n_common_cases=n_common,
            delta_q_final="" if delta is None else fraction_text(delta),
            ci_low=low,
            ci_high=high,
            p_value=fraction_text(p_value),
            p_holm=fraction_text(p_holm),
            separable=p_holm < SEPARABLE_BELOW,
            p_method=method,
            p_draws=draws,
        )
        for (upper, lower, n_common, delta, low, high, p_value, method, draws), p_holm in zip(
            pairs, adjusted, strict=True
        )
    ]


def replicates_without_common_cases(sample: un.BootstrapSample, test: NeighbourTest) -> int:
    """How many replicates drew none of a pair's common cases (left out of its interval)."""
    by_key = {subject.key: subject for subject in sample.subjects}
    upper = by_key[(test.upper_subject_id, test.upper_subject_version)]
    lower = by_key[(test.lower_subject_id, test.lower_subject_version)]
    common = set(upper.case_ids) & set(lower.case_ids)
    columns = [j for j, case in enumerate(sample.cases) if case in common]
    return int((sample.weights[:, columns].sum(axis=1) == 0).sum())


def fraction_text(value: Fraction) -> str:
    """An exact value as the records write it: "num/den" in lowest terms ("1/1" for 1)."""
    value = Fraction(value)
    return f"{value.numerator}/{value.denominator}"


def _integer_products(matrix: np.ndarray, vector: Sequence[int]) -> np.ndarray:
    # matrix @ vector exactly: int64 while no sum can reach 2^62, Python ints beyond.
    column = np.asarray([int(v) for v in vector], dtype=object)
    largest = max((abs(int(v)) for v in vector), default=0)
    rows = np.abs(matrix).sum(axis=1).max(initial=0) if matrix.size else 0
    if int(rows) * largest < _INT64_SAFE:
        return matrix.astype(np.int64) @ column.astype(np.int64)
    return matrix.astype(object) @ column


# --- The record ---------------------------------------------------------------------------


def ranking_evidence(
    sample: un.BootstrapSample, metrics_rows: list[dict[str, str]], confidence: float = 0.95
) -> RankingEvidence:
    """The uncertainty step's rankings.json: ``bootstrap_ranks``, ``neighbour_tests`` and
    ``rank_correlation`` for Brier and ECE, from one sample and the rows of
    metrics_per_subject.csv (as their CSV texts)."""
    published = {(row["subject_id"], row["subject_version"]): row for row in metrics_rows}
    if not sample.subjects:
        return RankingEvidence(sample.n_replicates, sample.seed, [], [], [])
    return RankingEvidence(
        n_replicates=sample.n_replicates,
        seed=sample.seed,
        ranks=bootstrap_ranks(sample, published, confidence),
        neighbours=neighbour_tests(sample, metrics_rows, confidence),
        correlations=[rank_correlation(sample, m, confidence) for m in CORRELATED_METRICS],
    )
