"""Answer structure (findings.md § 5): the `structure` subtree of findings.json.

findings.md § 5: "Alternatives per response (`alternatives` array length): mean,
minimum, maximum and distribution, per version and per family; share with at least 4;
likewise `key_signals`. Per criterion of the rubric: the versions' mean scores, the
spread between versions (standard deviation of the per-version means) and the share of
the variance of the run scores explained by the version (η²): which criterion separates
models most."

One pure function per formula, exact (integers and ``Fraction``) except the spread
(formulas.findings.population_sd, § 2's spread too), a float as docs/findings-json.md
says. Plain Python: the findings step runs on every new scoring, and these sums over
~10^5 runs need no table library.
"""

from collections import defaultdict
from collections.abc import Sequence
from fractions import Fraction

from ro_metrics.contracts.records import AnswerShape, fraction_fact
from ro_metrics.contracts.vocabulary import CRITERIA
from ro_metrics.formulas.findings import population_sd

AT_LEAST = 4
# The two arrays of a response counted, and the AnswerShape field holding each length.
ARRAYS = {"alternatives": "n_alternatives", "key_signals": "n_key_signals"}


def mean_per_response(counts: Sequence[int]) -> Fraction | None:
    """Mean per response: Σ count / n_responses (None when there is no response)."""
    return Fraction(sum(counts), len(counts)) if counts else None


def share_at_least(counts: Sequence[int], threshold: int = AT_LEAST) -> Fraction | None:
    """Share with at least 4: #{responses with count ≥ 4} / n_responses (None when there
    is no response)."""
    if not counts:
        return None
    return Fraction(sum(1 for count in counts if count >= threshold), len(counts))


def distribution(counts: Sequence[int]) -> dict[str, int]:
    """Distribution: for each count some response has, the number of responses with it
    (keys the counts as text, ascending; a count no response has is absent)."""
    found = defaultdict(int)
    for count in counts:
        found[count] += 1
    return {str(count): found[count] for count in sorted(found)}


def count_facts(counts: Sequence[int]) -> dict:
    """A group's facts of one array: mean (fraction), minimum, maximum, distribution,
    share with at least 4 (fraction), n_responses; null where the group is empty."""
    return {
        "mean": fraction_fact(mean_per_response(counts)),
        "min": min(counts) if counts else None,
        "max": max(counts) if counts else None,
        "distribution": distribution(counts),
        "share_at_least_4": fraction_fact(share_at_least(counts)),
        "n_responses": len(counts),
    }


def mean_score(scores: Sequence[int]) -> Fraction | None:
    """A version's mean score on a criterion: Σ score / n_runs (None without runs)."""
    return Fraction(sum(scores), len(scores)) if scores else None


def eta_squared(groups: Sequence[Sequence[int]]) -> Fraction | None:
    """η² = SS_between / SS_total of the run scores grouped by version:
    SS_total = Σ_runs (x − x̄)², SS_between = Σ_v n_v (x̄_v − x̄)², x̄ the mean of all
    runs, x̄_v of version v's. None when SS_total = 0 (every run has the same score:
    there is no variance to explain, and 0/0 is no share of it).

    Computed exactly from integer sums, SS_total = Σ x² − S²/N and SS_between =
    Σ_v S_v²/n_v − S²/N (S, S_v the sums of the scores): the same values, with one
    Fraction per version instead of one per run (~10^5 runs at size L)."""
    groups = [group for group in groups if group]
    n_runs = sum(len(group) for group in groups)
    if not n_runs:
        return None
    total_sum = sum(sum(group) for group in groups)
    correction = Fraction(total_sum**2, n_runs)
    total = sum(score * score for group in groups for score in group) - correction
    if total == 0:
        return None
    between = sum(Fraction(sum(group) ** 2, len(group)) for group in groups) - correction
    return between / total


def criteria_order(etas: dict[str, Fraction | None]) -> list[str]:
    """Which criterion separates models most: the criteria by η² descending, the
    rubric's order breaking ties; a criterion whose η² is null (no variance) last."""
    return sorted(etas, key=lambda c: (etas[c] is None, -(etas[c] or 0), CRITERIA.index(c)))


def array_facts(
    shapes: Sequence[AnswerShape], field: str, families: dict[str, str], versions: list[str]
) -> dict:
    """One array's facts overall, per version (every version listed) and per family
    (every family of `families`)."""
    by_version = {version: [] for version in versions}
    by_family = {family: [] for family in sorted(set(families.values()))}
    overall = []
    for shape in shapes:
        count = getattr(shape, field)
        overall.append(count)
        by_version[shape.subject_version].append(count)
        by_family[families[shape.case_id]].append(count)
    return {
        "overall": count_facts(overall),
        "versions": {version: count_facts(counts) for version, counts in by_version.items()},
        "families": {family: count_facts(counts) for family, counts in by_family.items()},
    }


def scores_by_version(
    criterion_rows: list[dict[str, str]], criterion: str, versions: list[str]
) -> dict[str, list[int]]:
    """One criterion's run scores, per version (every version listed, in its order)."""
    by_version = {version: [] for version in versions}
    for row in criterion_rows:
        scores = by_version.get(row["subject_version"])
        if scores is None:
            raise ValueError(
                f"criterion_scores.csv: subject_version {row['subject_version']!r} is not "
                "a version of the leaderboard"
            )
        scores.append(int(row[criterion]))
    return by_version


def structure_facts(
    shapes: list[AnswerShape],
    families: dict[str, str],
    criterion_rows: list[dict[str, str]],
    versions: list[str],
) -> dict:
    """The `structure` subtree of findings.json (docs/findings-json.md).

    shapes: every scored run's AnswerShape (the load step's); families: case_id → family
    of the cases with a gold: a shape of another case is left out, as per_run.csv leaves
    its run out; criterion_rows: criterion_scores.csv's rows as texts; versions: the
    subject_versions in the leaderboard's order. A shape or row of a version not listed
    is an error (the leaderboard has every version with a scored run).
    """
    counted = [shape for shape in shapes if shape.case_id in families]
    strangers = sorted({shape.subject_version for shape in counted} - set(versions))
    if strangers:
        raise ValueError(
            f"answer shapes of versions that are not on the leaderboard: {', '.join(strangers)}"
        )
    facts = {
        name: array_facts(counted, field, families, versions) for name, field in ARRAYS.items()
    }
    criteria, etas = {}, {}
    for criterion in CRITERIA:
        by_version = scores_by_version(criterion_rows, criterion, versions)
        means = {version: mean_score(scores) for version, scores in by_version.items()}
        etas[criterion] = eta_squared(list(by_version.values()))
        criteria[criterion] = {
            "version_means": {version: fraction_fact(mean) for version, mean in means.items()},
            # Over the versions with runs: a version without any has no mean to spread.
            "spread": population_sd([mean for mean in means.values() if mean is not None]),
            "eta_squared": fraction_fact(etas[criterion]),
        }
    facts["criteria"] = criteria
    facts["criteria_order"] = criteria_order(etas)
    return facts
