"""The operational tables of telemetry.md, one pure function per formula, and their rows.

Like the committee's metrics (formulas/metrics.py), every value is computed exactly
(integers and ``Fraction``) and rounded once: the published text is Python's
``f"{x:.Nf}"`` of x, the binary float nearest the exact value (telemetry.md: "Decimals
as Python's f"{x:.Nf}" writes them"). Unit prices are read exactly from their decimal
text ("1e-06" is 1/10^6).

Cost per case, shown beside the ranking and in the findings but never published in a
CSV, is computed exactly from the published texts of a row, so a reader can redo it from
the CSV.
"""

from collections import defaultdict
from collections.abc import Iterable, Sequence
from fractions import Fraction
from math import floor

from ro_metrics.contracts.vocabulary import family_of

P95 = Fraction(95, 100)
MS_PER_SECOND = 1000


def mean_tokens(counts: Sequence[int]) -> Fraction:
    """mean_input_tokens, mean_output_tokens: arithmetic means (Σ tokens / n_runs)."""
    return Fraction(sum(counts), len(counts))


def output_to_input_ratio(mean_output: Fraction, mean_input: Fraction) -> Fraction:
    """output_to_input_ratio: mean_output / mean_input (0.000 when mean_input is 0)."""
    return mean_output / mean_input if mean_input else Fraction(0)


def median_latency_s(latencies_ms: Sequence[int]) -> Fraction:
    """median_latency_s: the median of latency_ms (mean of the two middle values for an
    even count) / 1000."""
    ordered = sorted(latencies_ms)
    middle = len(ordered) // 2
    if len(ordered) % 2:
        median = Fraction(ordered[middle])
    else:
        median = Fraction(ordered[middle - 1] + ordered[middle], 2)
    return median / MS_PER_SECOND


def p95_latency_s(latencies_ms: Sequence[int]) -> Fraction:
    """p95_latency_s: linear interpolation at rank 0.95 · (n − 1) of the sorted latency_ms
    (the single value when n = 1) / 1000.

    With r = 0.95 · (n − 1), i = ⌊r⌋: x_i + (x_{i+1} − x_i) · (r − i), x sorted, 0-based.
    """
    ordered = sorted(latencies_ms)
    rank = P95 * (len(ordered) - 1)
    lower = floor(rank)
    upper = min(lower + 1, len(ordered) - 1)
    value = ordered[lower] + (ordered[upper] - ordered[lower]) * (rank - lower)
    return Fraction(value) / MS_PER_SECOND


def mean_unit_price(prices: Iterable[str]) -> Fraction | None:
    """prices: the mean of the non-empty unit prices of the rows; empty (None) when no row
    has one."""
    known = [Fraction(price) for price in prices if price]
    return sum(known, Fraction(0)) / len(known) if known else None


def cost_per_case(row: dict[str, str]) -> Fraction | None:
    """Cost per case = mean_input_tokens · price_per_input_token_usd + mean_output_tokens
    · price_per_output_token_usd, in USD, exact, from the published texts of an
    operational_per_subject.csv row (read as exact decimals); None (shown "—", empty in
    findings.json) when a price is unknown."""
    price_in, price_out = row["price_per_input_token_usd"], row["price_per_output_token_usd"]
    if not price_in or not price_out:
        return None
    return Fraction(row["mean_input_tokens"]) * Fraction(price_in) + Fraction(
        row["mean_output_tokens"]
    ) * Fraction(price_out)


def fixed(value: Fraction, decimals: int) -> str:
    """The published text: f"{x:.Nf}" of the float nearest the exact value."""
    return f"{float(value):.{decimals}f}"


def operational_measures(calls) -> list:
    """n_runs and the seven measures of tables.OPERATIONAL_MEASURES for a group of counted
    calls (each with prompt_tokens, completion_tokens, latency_ms, price_in, price_out)."""
    mean_input = mean_tokens([call.prompt_tokens for call in calls])
    mean_output = mean_tokens([call.completion_tokens for call in calls])
    latencies = [call.latency_ms for call in calls]
    prices = [
        mean_unit_price(call.price_in for call in calls),
        mean_unit_price(call.price_out for call in calls),
    ]
    return [
        len(calls),
        fixed(mean_input, 1),
        fixed(mean_output, 1),
        fixed(output_to_input_ratio(mean_output, mean_input), 3),
        fixed(median_latency_s(latencies), 2),
        fixed(p95_latency_s(latencies), 2),
        *("" if price is None else fixed(price, 10) for price in prices),
    ]


def operational_rows(calls, *, per_family: bool) -> list[list]:
    """Rows of operational_per_subject.csv (or, per_family, operational_per_family.csv):
    one per (subject_id, subject_version[, family]) of the counted calls, sorted by those
    id columns."""
    groups = defaultdict(list)
    for call in calls:
        key = (call.subject_id, call.subject_version)
        if per_family:
            key += (family_of(call.case_id),)
        groups[key].append(call)
    return [[*key, *operational_measures(groups[key])] for key in sorted(groups)]
