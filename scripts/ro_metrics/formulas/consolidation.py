"""Two reviewers and an arbiter (shared/spec/multi-reviewer.md, Consolidation): the
divergence rules, the agreed value of two primaries and the decision for a run, one
small pure function each.

Which scoring of a run is a primary and which the arbiter, and whether the reviewers
may act so, is the corpus layer's (corpus/reviewers.py); here the roles are given.
"""

from fractions import Fraction
from typing import NamedTuple

from ro_metrics.contracts.records import (
    ConsolidatedRun,
    CoverageRow,
    PendingRun,
    PublicGold,
    ReviewPair,
    ScoredRun,
)
from ro_metrics.contracts.vocabulary import family_of, newest_timestamp
from ro_metrics.formulas import metrics as cm

# The divergence rules (multi-reviewer.md's table), by the names the policy and
# review_pairs.json use.
CLASSIFICATION = "classification"  # class differs
CRITICAL_FAIL = "critical_fail"  # critical-fail presence differs
RAW_SCORE = "raw_score"  # |Δ raw score| > k
CRITERION_0_VS_2 = "criterion_0_vs_2"  # a criterion scored 0 by one and 2 by the other
CORRECTNESS = "correctness"  # correctness differs by more than 0.5
DIVERGENCE_RULES = (CLASSIFICATION, CRITICAL_FAIL, RAW_SCORE, CRITERION_0_VS_2, CORRECTNESS)
# Under agreed value `arbiter`: any numeric difference needs the arbiter.
NUMERIC_DIFFERENCE = "numeric_difference"

MEAN, ARBITER_DECIDES, UNION = "mean", "arbiter", "union"
AGREED_VALUES = (MEAN, ARBITER_DECIDES)
CRITICAL_FAIL_MODES = (ARBITER_DECIDES, UNION)

# ConsolidatedRun.method
SINGLE, MEAN_OF_PRIMARIES, ARBITER = "single", "mean_of_primaries", "arbiter"
# PendingRun.status
PENDING_ARBITRATION = "pending_arbitration"
AWAITING_SECOND_REVIEW = "awaiting_second_review"
# ReviewPair.decision
DECIDED_BY_MEAN, DECIDED_BY_ARBITER = "mean", "arbiter"


class ReviewPolicy(NamedTuple):
    """The review policy of a run (system/rubric/<version>/review_policy.yaml and the
    configuration's overrides)."""

    reviewers_per_run: int  # 1 or 2
    divergence_rules: tuple[str, ...]  # of DIVERGENCE_RULES
    raw_score_threshold: int  # k of |Δ raw score| > k
    agreed_value: str  # "mean" or "arbiter"
    critical_fails: str  # "arbiter" or "union"


def exact_number(value: float) -> int | float:
    """A consolidated value as it is written: an int when integral (9, not 9.0), else
    the exact half or quarter (8.5)."""
    return int(value) if value == int(value) else value


def mean_of_two(a: float, b: float) -> int | float:
    """agreed value = (primary_a + primary_b) / 2 (a half, or a quarter for correctness)."""
    return exact_number((a + b) / 2)


def scoring_class(run: ScoredRun, gold: PublicGold) -> str:
    """A scoring's class by the v1.0 rules: classify(min(raw_score, ceiling), floor,
    critical fail, recoverable fail)."""
    clipped = cm.clipped_score(cm.raw_score(run.criterion_scores), gold.rubric_ceiling)
    severities = run.fail_severities
    return cm.classify(
        clipped,
        gold.rubric_floor,
        cm.has_critical_fail(severities),
        cm.has_recoverable_fail(severities),
    )


def fired_rules(a: ScoredRun, b: ScoredRun, gold: PublicGold, policy: ReviewPolicy) -> list[str]:
    """The divergence rules of the policy that two primaries' scorings fire, in
    DIVERGENCE_RULES order (then numeric_difference):
    class differs; critical-fail presence differs; |Δ raw score| > k; a criterion 0 vs
    2; |Δ correctness| > 0.5; under agreed value `arbiter`, any numeric difference."""
    checks = {
        CLASSIFICATION: scoring_class(a, gold) != scoring_class(b, gold),
        CRITICAL_FAIL: cm.has_critical_fail(a.fail_severities)
        != cm.has_critical_fail(b.fail_severities),
        RAW_SCORE: abs(cm.raw_score(a.criterion_scores) - cm.raw_score(b.criterion_scores))
        > policy.raw_score_threshold,
        CRITERION_0_VS_2: any(
            {x, y} == {0, 2} for x, y in zip(a.criterion_scores, b.criterion_scores, strict=True)
        ),
        CORRECTNESS: abs(a.correctness - b.correctness) > 0.5,
    }
    fired = [rule for rule in DIVERGENCE_RULES if rule in policy.divergence_rules and checks[rule]]
    # A critical-fail disagreement always fires, whether or not the rule is listed:
    # under "critical fails: arbiter decides" it goes to the arbiter, under `union` the
    # fail stands (needs_arbiter), and either way the run is recorded as divergent.
    if checks[CRITICAL_FAIL] and CRITICAL_FAIL not in fired:
        fired.insert(1 if CLASSIFICATION in fired else 0, CRITICAL_FAIL)
    if policy.agreed_value == ARBITER_DECIDES and (
        a.criterion_scores != b.criterion_scores or a.correctness != b.correctness
    ):
        fired.append(NUMERIC_DIFFERENCE)
    return fired


def needs_arbiter(fired: list[str], policy: ReviewPolicy) -> bool:
    """A run needs the arbiter when a fired rule is one the agreed value cannot settle:
    every rule, except a critical-fail disagreement under `union` (the fail either
    primary raised stands, without arbitration, config/README.md) and the class
    difference it makes (a critical fail makes the run a Fail whatever the other
    primary's class; the agreed run is a Fail)."""
    settled = set()
    if policy.critical_fails == UNION and CRITICAL_FAIL in fired:
        settled = {CRITICAL_FAIL, CLASSIFICATION}
    return any(rule not in settled for rule in fired)


def settled_by_union(fired: list[str], policy: ReviewPolicy) -> bool:
    """A divergent run that `union` settled: a critical-fail disagreement and nothing
    else the agreed value cannot settle."""
    return bool(fired) and policy.critical_fails == UNION and not needs_arbiter(fired, policy)


def agreed_run(a: ScoredRun, b: ScoredRun) -> ConsolidatedRun:
    """Two agreeing primaries' run: each criterion score and the correctness are the
    means of theirs (raw score = Σ means, a half at most); the fails are the union of
    theirs (critical fails are identical unless `union` settled them; a recoverable
    fail either raised stands, which keeps the class the v1.0 rules give the mean equal
    to the primaries' common class)."""
    first, second = sorted((a, b), key=lambda run: run.reviewer_id)
    return ConsolidatedRun(
        a.subject_id,
        a.subject_version,
        a.case_id,
        a.run_id,
        MEAN_OF_PRIMARIES,
        f"{first.reviewer_id}+{second.reviewer_id}",
        [first.reviewer_id, second.reviewer_id],
        "",
        newest_timestamp([a.scoring_timestamp_utc, b.scoring_timestamp_utc]),
        [
            mean_of_two(x, y)
            for x, y in zip(first.criterion_scores, second.criterion_scores, strict=True)
        ],
        sorted(set(a.fail_severities) | set(b.fail_severities)),
        a.reported_confidence,
        float(mean_of_two(a.correctness, b.correctness)),
    )


def scoring_as_run(
    scoring: ScoredRun, method: str, primary_ids: list[str], arbiter_id: str = ""
) -> ConsolidatedRun:
    """A run whose one scoring counts whole: the single reviewer's, or the arbiter's
    (never averaged with the primaries)."""
    return ConsolidatedRun(
        scoring.subject_id,
        scoring.subject_version,
        scoring.case_id,
        scoring.run_id,
        method,
        scoring.reviewer_id,
        sorted(primary_ids),
        arbiter_id,
        scoring.scoring_timestamp_utc,
        list(scoring.criterion_scores),
        list(scoring.fail_severities),
        scoring.reported_confidence,
        float(scoring.correctness),
    )


def primary_outcome(scoring: ScoredRun, gold: PublicGold) -> list:
    """What a run would count if it took this primary's values: [reviewer_id, class,
    clipped score, critical fail]."""
    return [
        scoring.reviewer_id,
        scoring_class(scoring, gold),
        cm.clipped_score(cm.raw_score(scoring.criterion_scores), gold.rubric_ceiling),
        cm.has_critical_fail(scoring.fail_severities),
    ]


class Outcome(NamedTuple):
    """What the consolidation makes of one run: the run the metrics count or the run
    pending, and (with two primaries) the pair for the agreement statistics."""

    run: ConsolidatedRun | None
    pending: PendingRun | None
    pair: ReviewPair | None
    arbiter_without_divergence: bool  # an error: the arbiter scored an agreeing run


def review_pair(
    a: ScoredRun,
    b: ScoredRun,
    gold: PublicGold,
    fired: list[str],
    arbiter: ScoredRun | None,
    decision,
) -> ReviewPair:
    """The unit of the agreement statistics: the two primaries as scored, by id, with
    the arbiter's id and class when an arbiter decided (never averaged into them)."""
    first, second = sorted((a, b), key=lambda run: run.reviewer_id)
    return ReviewPair(
        a.subject_id,
        a.subject_version,
        a.case_id,
        family_of(a.case_id),
        a.run_id,
        first.reviewer_id,
        second.reviewer_id,
        scoring_class(first, gold),
        scoring_class(second, gold),
        list(first.criterion_scores),
        list(second.criterion_scores),
        cm.raw_score(first.criterion_scores),
        cm.raw_score(second.criterion_scores),
        float(first.correctness),
        float(second.correctness),
        cm.has_critical_fail(first.fail_severities),
        cm.has_critical_fail(second.fail_severities),
        fired,
        arbiter.reviewer_id if arbiter else "",
        decision,
        scoring_class(arbiter, gold) if arbiter and decision == DECIDED_BY_ARBITER else "",
    )


def consolidate_run(
    primaries: list[ScoredRun], arbiter: ScoredRun | None, gold: PublicGold, policy: ReviewPolicy
) -> Outcome:
    """One run of a double review (one or two primaries, at most one arbiter):
    two agreeing primaries → their mean; divergent with an arbiter → the arbiter's
    scoring whole; divergent without → pending arbitration; one primary → awaiting
    its second review."""
    if len(primaries) == 1:
        (only,) = primaries
        pending = PendingRun(
            only.subject_id,
            only.subject_version,
            only.case_id,
            only.run_id,
            AWAITING_SECOND_REVIEW,
            [only.reviewer_id],
            [],
            False,
            [primary_outcome(only, gold)],
            "",
            [],
        )
        return Outcome(None, pending, None, arbiter is not None)
    a, b = primaries
    fired = fired_rules(a, b, gold, policy)
    ids = sorted([a.reviewer_id, b.reviewer_id])
    if not needs_arbiter(fired, policy):
        # An arbiter's scoring on a run that needs none (a policy changed after it was
        # made): reported by the caller; the run counts its primaries' agreed value, and
        # records the arbiter who scored it.
        pair = review_pair(a, b, gold, fired, None, DECIDED_BY_MEAN)
        run = agreed_run(a, b)._replace(divergent=fired)
        if arbiter is not None:
            run = run._replace(arbiter_id=arbiter.reviewer_id)
        return Outcome(run, None, pair, arbiter is not None)
    if arbiter is not None:
        pair = review_pair(a, b, gold, fired, arbiter, DECIDED_BY_ARBITER)
        run = scoring_as_run(arbiter, ARBITER, ids, arbiter.reviewer_id)._replace(divergent=fired)
        return Outcome(run, None, pair, False)
    critical = cm.has_critical_fail(a.fail_severities) != cm.has_critical_fail(b.fail_severities)
    pending = PendingRun(
        a.subject_id,
        a.subject_version,
        a.case_id,
        a.run_id,
        PENDING_ARBITRATION,
        ids,
        fired,
        critical,
        [primary_outcome(scoring, gold) for scoring in sorted((a, b), key=lambda s: s.reviewer_id)],
        newest_timestamp([a.scoring_timestamp_utc, b.scoring_timestamp_utc]),
        [],
    )
    return Outcome(None, pending, review_pair(a, b, gold, fired, None, PENDING_ARBITRATION), False)


def pending_counts(pending: list[PendingRun]) -> dict[tuple[str, str], list]:
    """Per (subject_id, subject_version) of the runs pending review: [runs pending
    arbitration, runs awaiting their second review, a critical fail raised by a primary
    of one of them (a disagreement pending arbitration, or on a run awaiting its second
    review)]."""
    counts = {}
    for run in pending:
        found = counts.setdefault((run.subject_id, run.subject_version), [0, 0, False])
        found[run.status == AWAITING_SECOND_REVIEW] += 1
        # A critical fail a primary raised on a pending or awaiting run: the gate may
        # change once the run is reviewed.
        found[2] = found[2] or run.critical_disagreement or run.critical_fail_raised
    return counts


def coverage_with_reviews(rows: list[CoverageRow], pending: list[PendingRun]) -> list[list]:
    """coverage.csv under double review (tables.COVERAGE_REVIEW_COLUMNS): n_scored counts
    the runs in R only; n_pending_arbitration and n_awaiting_second_review the scored
    runs left out of R for their review, so that n_responses = n_scored + n_unscored +
    n_pending_arbitration + n_awaiting_second_review."""
    counts = pending_counts(pending)
    out = []
    for row in rows:
        n_pending, n_awaiting, _ = counts.get((row.subject_id, row.subject_version), (0, 0, 0))
        out.append(
            [
                row.subject_id,
                row.subject_version,
                row.n_responses,
                row.n_scored - n_pending - n_awaiting,
                row.n_unscored,
                n_pending,
                n_awaiting,
                *row[5:],
            ]
        )
    return out


def counted_scorings(runs: list[ConsolidatedRun]) -> set[tuple[str, str, str, str]]:
    """(subject_id, case_id, run_id, reviewer_id) of every scoring that counts: the
    single one, both primaries of a mean, or the arbiter."""
    counted = set()
    for run in runs:
        reviewers = [run.arbiter_id] if run.method == ARBITER else run.primary_ids
        counted.update(
            (run.subject_id, run.case_id, run.run_id, reviewer) for reviewer in reviewers
        )
    return counted


def q_final_range(
    n_runs: int, n_pass: int, clipped: Fraction, options: list[list[tuple[bool, Fraction]]], alpha
) -> tuple[Fraction, Fraction]:
    """Q_final once every pending run is counted, each taking one of its primaries'
    values (the cheap bound of multi-reviewer.md's provisional marks): with N counted
    runs, n_pass of them Pass, Σ clipped = `clipped`, and m pending runs, run i taking
    (pass_i, c_i) from its `options[i]`,

        Q = α · (n_pass + Σ pass_i) / (N + m) + (1 − α) · (Σ clipped + Σ c_i) / (12 (N + m)).

    Each pending run adds its own term α · pass_i / (N + m) + (1 − α) · c_i / (12 (N + m)),
    so the lowest Q takes, run by run, the option with the smallest term and the highest
    the largest. Exact (α as the exact value of its binary float)."""
    total = n_runs + len(options)
    exact_alpha = Fraction(alpha)

    def term(passed: bool, score: Fraction) -> Fraction:
        return exact_alpha * int(passed) + (1 - exact_alpha) * Fraction(score) / 12

    base = term(False, clipped) + exact_alpha * n_pass
    low = base + sum((min(term(*o) for o in run) for run in options), Fraction(0))
    high = base + sum((max(term(*o) for o in run) for run in options), Fraction(0))
    return low / total, high / total
