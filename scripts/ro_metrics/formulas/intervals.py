"""The Wilson score interval and the reading of a confidence level, without numpy.

Apart from formulas/uncertainty.py (the bootstrap, which needs numpy) so that a step
that only needs a Wilson interval (findings, on every new scoring) does not pay numpy's
import. uncertainty.py re-exports both; uncertainty_methods.md § 3.1 describes them.
"""

import math
from fractions import Fraction
from statistics import NormalDist


def exact_confidence(confidence: float) -> Fraction:
    # Read the level as the decimal it was written as (0.95 → 19/20, not the binary
    # float just below it), so ⌊(B+1)·0.025⌋ and the CP tail 1/20 are exact.
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be within (0, 1), got {confidence}")
    return Fraction(str(confidence))


def wilson_interval(successes: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion p̂ = successes / n.

    With z = Φ⁻¹(1 − (1 − confidence)/2) (1.959963984540054 at 95 %):
    centre = (p̂ + z²/(2n)) / (1 + z²/n),
    half   = z / (1 + z²/n) · sqrt(p̂(1 − p̂)/n + z²/(4n²)),
    interval = [centre − half, centre + half] clipped to [0, 1]; the low end is exactly
    0 when successes = 0 and the high end exactly 1 when successes = n. n = 0 raises.
    """
    exact = exact_confidence(confidence)
    if n <= 0:
        raise ValueError(f"the Wilson interval needs n >= 1, got n = {n}")
    if not 0 <= successes <= n:
        raise ValueError(f"successes must be within [0, n], got {successes} of {n}")
    z = NormalDist().inv_cdf(float(1 - (1 - exact) / 2))
    p_hat = successes / n
    z2_n = z * z / n
    centre = (p_hat + z2_n / 2) / (1 + z2_n)
    half = z / (1 + z2_n) * math.sqrt(p_hat * (1 - p_hat) / n + z2_n / (4 * n))
    # In exact arithmetic centre = half when p̂ = 0 (and centre + half = 1 when p̂ = 1);
    # pin those ends so a rounding residue never shows as 1e-17.
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return low, high
