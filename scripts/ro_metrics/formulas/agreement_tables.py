"""The rows of the agreement tables (multi-reviewer.md, Agreement and Published):
agreement.csv, agreement_grid.csv, reviewer_severity.csv and divergent_runs.csv.

The unit is a records.ReviewPair: one (case, subject, run) scored by two primaries,
reviewer_a < reviewer_b by id, whether or not it went to arbitration; only the two
primaries' values are compared, never the arbiter's or the consolidated ones. The
statistics are the exact formulas of formulas/agreement.py; the intervals a bootstrap
over the cases of the scope (overall: every case; a family: its own cases), each
scope drawing W = draw_case_multiplicities(its number of cases, B, seed).
"""

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import NamedTuple

import numpy as np

from ro_metrics.contracts.records import ReviewPair
from ro_metrics.contracts.tables import rounded_exact
from ro_metrics.contracts.vocabulary import (
    ARBITRATED,
    CONDITIONAL,
    CRITERIA,
    FAIL,
    FAMILIES,
    MAX_RAW_SCORE,
    PASS,
    PENDING,
    SETTLED_BY_UNION,
    family_of,
)
from ro_metrics.formulas import agreement
from ro_metrics.formulas.uncertainty import draw_case_multiplicities

RunKey = tuple[str, str, str, str]  # subject_id, subject_version, case_id, run_id
OVERALL = "overall"
CLASSES = (PASS, CONDITIONAL, FAIL)
CRITERION_SCORES = (0, 1, 2)
RAW_SCORES = tuple(range(MAX_RAW_SCORE + 1))
CORRECTNESS = (0.0, 0.5, 1.0)
# (flagged, not flagged): the binary table is [[a, b], [c, d]] of formulas/agreement.py.
CRITICAL_FLAG = (True, False)
DECISIONS = ("mean", "arbiter", "pending_arbitration")
# The spec: a rare flag gets "counts only under 5 positives". A positive is a run that
# at least one reviewer flagged (a + b + c): fewer runs than flags, so the stricter
# reading.
MIN_POSITIVES = 5

NOTE_CRITICAL_KAPPA = "kappa of a rare flag depends on its prevalence: read PSA NSA and AC1"
NOTE_SIGNED = "reviewer_b minus reviewer_a (reviewers ordered by id)"

Statistic = Callable[[np.ndarray], agreement.Ratio]


class Variable(NamedTuple):
    """A scored value the two reviewers are compared on: its categories in order (the
    weights of κ_w follow that order), its statistics, and each pair's two labels."""

    name: str
    categories: tuple
    statistics: tuple[tuple[str, Statistic], ...]
    labels: Callable[[ReviewPair], tuple]


def _criterion(position: int) -> Variable:
    return Variable(
        CRITERIA[position],
        CRITERION_SCORES,
        (
            ("quadratic_kappa", agreement.quadratic_kappa),
            ("exact_agreement", agreement.observed_agreement),
            ("agreement_within_1", agreement.agreement_within_one),
        ),
        lambda pair: (pair.criteria_a[position], pair.criteria_b[position]),
    )


CRITICAL_FAIL = Variable(
    "critical_fail",
    CRITICAL_FLAG,
    (
        ("positive_specific_agreement", agreement.positive_specific_agreement),
        ("negative_specific_agreement", agreement.negative_specific_agreement),
        ("gwet_ac1", agreement.gwet_ac1),
        ("kappa", agreement.cohens_kappa),
    ),
    lambda pair: (pair.critical_a, pair.critical_b),
)
# The spec's table, in its order.
VARIABLES = (
    Variable(
        "classification",
        CLASSES,
        (
            ("kappa", agreement.cohens_kappa),
            ("observed_agreement", agreement.observed_agreement),
            ("linear_kappa", agreement.linear_kappa),
        ),
        lambda pair: (pair.classification_a, pair.classification_b),
    ),
    *(_criterion(position) for position in range(len(CRITERIA))),
    Variable(
        "raw_score",
        RAW_SCORES,
        (
            ("quadratic_kappa", agreement.quadratic_kappa),
            ("mean_absolute_difference", agreement.mean_absolute_difference),
            ("mean_signed_difference", agreement.mean_signed_difference),
        ),
        lambda pair: (pair.raw_score_a, pair.raw_score_b),
    ),
    Variable(
        "correctness",
        CORRECTNESS,
        (
            ("quadratic_kappa", agreement.quadratic_kappa),
            ("exact_agreement", agreement.observed_agreement),
        ),
        lambda pair: (pair.correctness_a, pair.correctness_b),
    ),
    CRITICAL_FAIL,
)


def run_key(pair: ReviewPair) -> RunKey:
    return (pair.subject_id, pair.subject_version, pair.case_id, pair.run_id)


def arbiter_classes_of(pairs: Sequence[ReviewPair]) -> dict[RunKey, str]:
    """Run key → the arbiter's classification, from the pairs that carry one."""
    return {run_key(pair): pair.arbiter_classification for pair in pairs if pair.arbiter_id}


def review_pair_problems(pairs: Sequence[ReviewPair]) -> list[str]:
    """Every way the pairs break ReviewPair's contract, one line each (empty: none)."""
    problems = []
    seen = set()
    for pair in pairs:
        key = run_key(pair)
        where = "/".join(key)
        if key in seen:
            problems.append(f"{where}: the run has two review pairs")
        seen.add(key)
        problems.extend(f"{where}: {problem}" for problem in _pair_problems(pair))
    return problems


def _pair_problems(pair: ReviewPair) -> Iterable[str]:
    try:
        if pair.family != family_of(pair.case_id):
            yield f"family {pair.family!r} is not the case's family"
    except ValueError as error:
        yield str(error)
    if not pair.reviewer_a < pair.reviewer_b:
        yield f"reviewer_a {pair.reviewer_a!r} must sort before reviewer_b {pair.reviewer_b!r}"
    for side in ("a", "b"):
        criteria = getattr(pair, f"criteria_{side}")
        if len(criteria) != len(CRITERIA) or any(s not in CRITERION_SCORES for s in criteria):
            yield f"criteria_{side} must be {len(CRITERIA)} scores of 0, 1 or 2: {criteria}"
        checks = (
            ("classification", CLASSES),
            ("raw_score", RAW_SCORES),
            ("correctness", CORRECTNESS),
            ("critical", CRITICAL_FLAG),
        )
        for field, allowed in checks:
            value = getattr(pair, f"{field}_{side}")
            if not _is_one_of(value, allowed):
                yield f"{field}_{side} {value!r} is not one of {list(allowed)}"
    if pair.decision not in DECISIONS:
        yield f"decision {pair.decision!r} is not one of {list(DECISIONS)}"
    if (pair.decision == "arbiter") != (pair.arbiter_id != ""):
        yield f"decision {pair.decision!r} with arbiter_id {pair.arbiter_id!r}"
    if pair.arbiter_id in (pair.reviewer_a, pair.reviewer_b):
        yield f"the arbiter {pair.arbiter_id!r} is one of the primaries"
    if (pair.arbiter_id or pair.decision == "pending_arbitration") and not pair.divergent:
        yield "an arbiter or pending arbitration on a run that did not diverge"


def _is_one_of(value, allowed: tuple) -> bool:
    # A bool is an int to Python: True must not pass for a score of 1, nor 1 for a flag.
    if isinstance(allowed[0], bool) or isinstance(value, bool):
        return isinstance(value, bool) and isinstance(allowed[0], bool)
    return value in allowed


# --- agreement.csv and agreement_grid.csv ---------------------------------------------


@dataclass(frozen=True)
class ScopeTables:
    """The contingency tables of one scope: per variable, the full sample's k × k table
    and every replicate's (B × k × k)."""

    scope: str
    n_runs: int
    n_cases: int
    full: dict[str, np.ndarray]
    replicates: dict[str, np.ndarray]


def scope_tables(
    scope: str, pairs: Sequence[ReviewPair], replicates: int, seed: int
) -> ScopeTables:
    """Every variable's tables over the pairs of a scope, its cases resampled whole.

    The per-case tables of all variables side by side (cases × Σ k²) go through one
    exact int64 product with W = draw_case_multiplicities(cases, replicates, seed), the
    cases sorted by id.
    """
    if not pairs:
        raise ValueError(f"scope {scope}: no review pairs")
    cases = sorted({pair.case_id for pair in pairs})
    case_index = {case: j for j, case in enumerate(cases)}
    case_of_run = [case_index[pair.case_id] for pair in pairs]
    per_case = {}
    for variable in VARIABLES:
        index = {category: i for i, category in enumerate(variable.categories)}
        labels = [variable.labels(pair) for pair in pairs]
        per_case[variable.name] = agreement.case_tables(
            case_of_run,
            [index[a] for a, _ in labels],
            [index[b] for _, b in labels],
            len(cases),
            len(variable.categories),
        )
    side_by_side = np.concatenate(
        [tables.reshape(len(cases), -1) for tables in per_case.values()], axis=1
    )
    weights = draw_case_multiplicities(len(cases), replicates, seed)
    product = agreement.replicate_tables(weights, side_by_side)
    replicate_tables, start = {}, 0
    for name, tables in per_case.items():
        k = tables.shape[-1]
        replicate_tables[name] = product[:, start : start + k * k].reshape(-1, k, k)
        start += k * k
    full = {name: tables.sum(axis=0) for name, tables in per_case.items()}
    return ScopeTables(scope, len(pairs), len(cases), full, replicate_tables)


def agreement_scopes(pairs: Sequence[ReviewPair], replicates: int, seed: int) -> list[ScopeTables]:
    """The overall scope, then each family with pairs, in the order of FAMILIES."""
    if not pairs:
        return []
    by_family = defaultdict(list)
    for pair in pairs:
        by_family[pair.family].append(pair)
    scopes = [scope_tables(OVERALL, pairs, replicates, seed)]
    scopes += [
        scope_tables(family, by_family[family], replicates, seed)
        for family in FAMILIES
        if by_family[family]
    ]
    return scopes


def published(value: Fraction | None) -> float | str:
    """An exact statistic rounded half-even to 4 decimals; "" when undefined."""
    return "" if value is None else rounded_exact(value)


def _statistic_row(scope: ScopeTables, variable: str, name: str, statistic, confidence, note=""):
    estimate = agreement.full_sample_estimate(statistic(scope.full[variable]))
    interval = agreement.percentile_interval(statistic(scope.replicates[variable]), confidence)
    return [
        scope.scope,
        variable,
        name,
        published(estimate.value),
        published(interval.low),
        published(interval.high),
        scope.n_runs,
        scope.n_cases,
        interval.n_undefined,
        estimate.reason or note,
    ]


def _count_row(scope: ScopeTables, variable: str, name: str, count: int, note: str = ""):
    return [scope.scope, variable, name, int(count), "", "", scope.n_runs, scope.n_cases, "", note]


def agreement_rows(scopes: Sequence[ScopeTables], confidence: float = 0.95) -> list[list]:
    """agreement.csv: per scope (overall, then the families), per variable in the spec's
    order, one row per statistic.

    The class's confusion matrix is nine count rows `confusion_<a's class>_<b's class>`;
    the critical fail's counts are `n_both`, `n_one`, `n_neither`, and its PSA, NSA, AC1
    and κ have no value (a note says why) when fewer than MIN_POSITIVES runs were
    flagged by either reviewer.
    """
    rows = []
    for scope in scopes:
        for variable in VARIABLES:
            if variable is CRITICAL_FAIL:
                rows.extend(_critical_fail_rows(scope, confidence))
                continue
            for name, statistic in variable.statistics:
                note = NOTE_SIGNED if name == "mean_signed_difference" else ""
                rows.append(_statistic_row(scope, variable.name, name, statistic, confidence, note))
            if variable.name == "classification":
                table = scope.full[variable.name]
                rows.extend(
                    _count_row(scope, variable.name, f"confusion_{a}_{b}", table[i, j])
                    for i, a in enumerate(CLASSES)
                    for j, b in enumerate(CLASSES)
                )
    return rows


def _critical_fail_rows(scope: ScopeTables, confidence: float) -> list[list]:
    name = CRITICAL_FAIL.name
    (both, only_a), (only_b, neither) = scope.full[name].tolist()
    rows = [
        _count_row(scope, name, "n_both", both),
        _count_row(scope, name, "n_one", only_a + only_b),
        _count_row(scope, name, "n_neither", neither),
    ]
    positives = both + only_a + only_b
    for statistic_name, statistic in CRITICAL_FAIL.statistics:
        if positives < MIN_POSITIVES:
            note = f"counts only: {positives} runs flagged (fewer than {MIN_POSITIVES})"
            rows.append(
                [
                    scope.scope,
                    name,
                    statistic_name,
                    "",
                    "",
                    "",
                    scope.n_runs,
                    scope.n_cases,
                    "",
                    note,
                ]
            )
            continue
        note = NOTE_CRITICAL_KAPPA if statistic_name == "kappa" else ""
        rows.append(_statistic_row(scope, name, statistic_name, statistic, confidence, note))
    return rows


def grid_rows(scopes: Sequence[ScopeTables], confidence: float = 0.95) -> list[list]:
    """agreement_grid.csv: per family (in the order of FAMILIES) and criterion (in the
    rubric's order), the quadratically weighted κ with its interval and the mean
    absolute difference, on the family scope's tables (the same numbers as its rows of
    agreement.csv)."""
    rows = []
    for scope in scopes:
        if scope.scope == OVERALL:
            continue
        for criterion in CRITERIA:
            kappa = agreement.full_sample_estimate(agreement.quadratic_kappa(scope.full[criterion]))
            interval = agreement.percentile_interval(
                agreement.quadratic_kappa(scope.replicates[criterion]), confidence
            )
            difference = agreement.full_sample_estimate(
                agreement.mean_absolute_difference(scope.full[criterion])
            )
            rows.append(
                [
                    scope.scope,
                    criterion,
                    published(kappa.value),
                    published(interval.low),
                    published(interval.high),
                    published(difference.value),
                    scope.n_runs,
                    scope.n_cases,
                    interval.n_undefined,
                    kappa.reason,
                ]
            )
    return rows


# --- reviewer_severity.csv --------------------------------------------------------------


def _arbiter_class(pair: ReviewPair, arbiter_classes: Mapping[RunKey, str]) -> str:
    if not pair.arbiter_id:
        return ""
    arbiter_class = arbiter_classes.get(run_key(pair))
    if arbiter_class not in CLASSES:
        raise ValueError(
            f"{'/'.join(run_key(pair))}: arbitrated by {pair.arbiter_id} but its "
            f"classification is {arbiter_class!r}, not one of {list(CLASSES)}"
        )
    return arbiter_class


def reviewer_severity_rows(
    pairs: Sequence[ReviewPair], arbiter_classes: Mapping[RunKey, str]
) -> list[list]:
    """reviewer_severity.csv: one row per reviewer (primary or arbiter), sorted by id.

    - n_runs_primary: the pairs it scored as a primary;
    - mean_signed_difference: Σ (its raw score − its partner's) / n_runs_primary
      (empty for a reviewer that only arbitrated);
    - n_runs_arbitrated: the pairs it arbitrated;
    - n_own_runs_arbitrated: its pairs as a primary that went to an arbiter;
    - of those, the arbiter *sided with* it when the arbiter's classification
      (``arbiter_classes``: run key → the arbiter's class) equals its class and not its
      partner's, and *against* it when it equals the partner's and not its own; a run
      where both primaries gave the same class, or the arbiter a third one, counts in
      neither;
    - share_arbiter_sided_with = with / (with + against), empty when both are 0.
    """
    primary_runs = defaultdict(int)
    differences = defaultdict(int)
    arbitrated = defaultdict(int)
    own_arbitrated = defaultdict(int)
    sided_with = defaultdict(int)
    sided_against = defaultdict(int)
    for pair in pairs:
        arbiter_class = _arbiter_class(pair, arbiter_classes)
        if pair.arbiter_id:
            arbitrated[pair.arbiter_id] += 1
        sides = (
            (
                pair.reviewer_a,
                pair.raw_score_a - pair.raw_score_b,
                pair.classification_a,
                pair.classification_b,
            ),
            (
                pair.reviewer_b,
                pair.raw_score_b - pair.raw_score_a,
                pair.classification_b,
                pair.classification_a,
            ),
        )
        for reviewer, difference, own_class, partner_class in sides:
            primary_runs[reviewer] += 1
            differences[reviewer] += difference
            if not pair.arbiter_id:
                continue
            own_arbitrated[reviewer] += 1
            if arbiter_class == own_class != partner_class:
                sided_with[reviewer] += 1
            elif arbiter_class == partner_class != own_class:
                sided_against[reviewer] += 1
    rows = []
    for reviewer in sorted(primary_runs.keys() | arbitrated.keys()):
        n_runs = primary_runs[reviewer]
        decided = sided_with[reviewer] + sided_against[reviewer]
        rows.append(
            [
                reviewer,
                n_runs,
                published(Fraction(differences[reviewer], n_runs) if n_runs else None),
                arbitrated[reviewer],
                own_arbitrated[reviewer],
                sided_with[reviewer],
                sided_against[reviewer],
                published(Fraction(sided_with[reviewer], decided) if decided else None),
            ]
        )
    return rows


# --- divergent_runs.csv -----------------------------------------------------------------


def arbiter_status(pair: ReviewPair) -> str:
    """A divergent run's arbiter status: arbitrated, settled by `union` without
    arbitration (the pair was decided by the agreed value), or pending."""
    if pair.arbiter_id:
        return ARBITRATED
    return SETTLED_BY_UNION if pair.decision == "mean" else PENDING


def divergent_run_rows(
    pairs: Sequence[ReviewPair], arbiter_classes: Mapping[RunKey, str]
) -> list[list]:
    """divergent_runs.csv: one row per pair whose divergence rules fired, both primaries'
    values, the rules that fired (`;`-joined, in the pair's order), the arbiter's status
    (arbitrated / settled_by_union / pending), id and classification. Critical-fail
    disagreements first, then by subject_id, subject_version, case_id, run_id."""
    divergent = [pair for pair in pairs if pair.divergent]
    divergent.sort(key=lambda pair: (pair.critical_a == pair.critical_b, run_key(pair)))
    return [
        [
            pair.subject_id,
            pair.subject_version,
            pair.case_id,
            pair.family,
            pair.run_id,
            pair.reviewer_a,
            pair.reviewer_b,
            pair.classification_a,
            pair.classification_b,
            pair.raw_score_a,
            pair.raw_score_b,
            float(pair.correctness_a),
            float(pair.correctness_b),
            pair.critical_a,
            pair.critical_b,
            ";".join(pair.divergent),
            arbiter_status(pair),
            pair.arbiter_id,
            _arbiter_class(pair, arbiter_classes),
        ]
        for pair in divergent
    ]
