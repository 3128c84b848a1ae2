"""The reviewers of the scorings (shared/spec/multi-reviewer.md): the review policy, the
reviewer registry (subjects/reviewers.yaml), who acts as what on each run, and the
consolidation of every run (step 1d).

Role assignment, precisely (config/README.md and docs/validation.md give examples):
the registry decides first. A scoring by a reviewer registered in one role acts in that
role, whatever the times: a primary-only reviewer is a primary, an arbiter-only
reviewer the arbiter. Time decides only among the run's reviewers registered with both
roles: taken in the order of their scoring_timestamp_utc (the instant it denotes; equal
instants by reviewer_id), they fill the primary places the single-role primaries left
(two in all), and the next is the arbiter. So a re-saved scoring (a later timestamp)
never changes a role that single-role reviewers fix: a dual-role primary beside a
primary-only reviewer and an arbiter-only reviewer stays a primary. Only a run with two
or more dual-role reviewers and no single-role reviewer to place them relies on their
times. Without a registry (one reviewer per run), the first two by time are the
primaries, a third the arbiter.

Every problem names the scoring file and the rule it breaks; all are handed to the
cross-check, which reports them with every other problem of the corpus in one run.
"""

from collections import defaultdict
from pathlib import Path
from typing import NamedTuple

import yaml

from ro_metrics.contracts.records import (
    ConsolidatedRun,
    Consolidation,
    PendingRun,
    Problem,
    PublicGold,
    ReviewPair,
    ScoredRun,
)
from ro_metrics.contracts.vocabulary import timestamp_instant, utc_text
from ro_metrics.corpus.decoding import SchemaCheck, decode_yaml, read_checked
from ro_metrics.corpus.layout import REVIEWERS, scoring_path
from ro_metrics.formulas.consolidation import (
    AGREED_VALUES,
    AWAITING_SECOND_REVIEW,
    CRITICAL_FAIL_MODES,
    DIVERGENCE_RULES,
    PENDING_ARBITRATION,
    SINGLE,
    ReviewPolicy,
    consolidate_run,
    scoring_as_run,
)

PRIMARY, ARBITER_ROLE = "primary", "arbiter"
# At most two primaries and an arbiter per run; the load step refuses more.
MAX_SCORINGS = {1: 1, 2: 3}
# The configuration keys that override the version's policy (config/README.md).
POLICY_KEYS = (
    "reviewers_per_run",
    "divergence_rules",
    "raw_score_threshold",
    "agreed_value",
    "critical_fails",
)


class PolicyError(ValueError):
    """The review policy file or the configuration's override is not valid."""


def review_policy(policy_file: Path, overrides: dict) -> ReviewPolicy:
    """The version's review policy with the configuration's non-null overrides (a
    comma-separated string or a list for divergence_rules; "none" for no rule)."""
    try:
        settings = yaml.safe_load(Path(policy_file).read_text("utf-8"))
    except FileNotFoundError:
        raise PolicyError(f"{policy_file} does not exist") from None
    if not isinstance(settings, dict) or set(settings) != set(POLICY_KEYS):
        raise PolicyError(f"{policy_file}: the keys must be {', '.join(POLICY_KEYS)}")
    for key in POLICY_KEYS:
        if overrides.get(key) is not None:
            settings[key] = overrides[key]
    rules = settings["divergence_rules"]
    if isinstance(rules, str):
        rules = [] if rules.strip() == "none" else [r.strip() for r in rules.split(",")]
    unknown = [rule for rule in rules if rule not in DIVERGENCE_RULES]
    if unknown:
        raise PolicyError(
            f"divergence_rules: unknown rule(s) {', '.join(map(str, unknown))} "
            f"(the rules: {', '.join(DIVERGENCE_RULES)})"
        )
    checks = {
        "reviewers_per_run": settings["reviewers_per_run"] in (1, 2),
        "raw_score_threshold": isinstance(settings["raw_score_threshold"], int)
        and 0 <= settings["raw_score_threshold"] <= 12,
        "agreed_value": settings["agreed_value"] in AGREED_VALUES,
        "critical_fails": settings["critical_fails"] in CRITICAL_FAIL_MODES,
    }
    for key, valid in checks.items():
        if not valid:
            raise PolicyError(f"{key}: {settings[key]!r} is not allowed")
    return ReviewPolicy(
        settings["reviewers_per_run"],
        tuple(rule for rule in DIVERGENCE_RULES if rule in rules),
        settings["raw_score_threshold"],
        settings["agreed_value"],
        settings["critical_fails"],
    )


class Reviewer(NamedTuple):
    reviewer_id: str
    roles: frozenset[str]
    active_from: str  # YYYY-MM-DD, "" for no limit
    active_to: str


def read_reviewers(
    corpus: Path, schema_path, max_bytes: int, problem
) -> dict[str, Reviewer] | None:
    """The registered reviewers by id, or None if the file is missing or not valid
    (each problem given to `problem(path, message)`)."""
    path = Path(corpus) / REVIEWERS
    if not path.is_file():
        return None
    checked = read_checked(
        path, path.stat().st_size, max_bytes, decode_yaml, SchemaCheck(Path(schema_path))
    )
    for message in checked.problems:
        problem(REVIEWERS, message)
    if checked.problems:
        return None
    reviewers = {}
    for index, entry in enumerate(checked.document["reviewers"]):
        reviewer_id = entry["reviewer_id"]
        if reviewer_id in reviewers:
            problem(REVIEWERS, f"reviewers.{index}.reviewer_id: {reviewer_id!r} is listed twice")
        active_from, active_to = entry.get("active_from", ""), entry.get("active_to", "")
        if active_from and active_to and active_from > active_to:
            problem(REVIEWERS, f"reviewers.{index}: active_from is after active_to")
        reviewers[reviewer_id] = Reviewer(
            reviewer_id, frozenset(entry["roles"]), active_from, active_to
        )
    return reviewers


class Roles(NamedTuple):
    primaries: list[ScoredRun]
    arbiter: ScoredRun | None
    problems: list[str]  # of the run; each message starts with the offending file's path


def scoring_order(scoring: ScoredRun) -> tuple:
    return timestamp_instant(scoring.scoring_timestamp_utc), scoring.reviewer_id


def registered_roles(scoring: ScoredRun, reviewers: dict[str, Reviewer] | None) -> frozenset:
    """The roles a scoring's reviewer is registered with; both for an unregistered one
    (reported by role_problems) or without a registry, so that time places it."""
    reviewer = (reviewers or {}).get(scoring.reviewer_id)
    return reviewer.roles if reviewer is not None else frozenset({PRIMARY, ARBITER_ROLE})


def assign_roles(
    scorings: list[ScoredRun], reviewers: dict[str, Reviewer] | None, policy: ReviewPolicy, where
) -> Roles:
    """The run's primaries and arbiter (module docstring), and every rule its scorings
    break: three primaries; two arbiters; the same reviewer twice; an unregistered
    reviewer or one acting outside its roles or active dates; an arbiter who is one of
    the primaries. `where(scoring)` is the scoring's path."""
    ordered = sorted(scorings, key=scoring_order)
    problems = []
    seen = {}
    for scoring in ordered:
        if scoring.reviewer_id in seen:
            problems.append(
                (
                    where(scoring),
                    f"the same reviewer {scoring.reviewer_id} scored this run twice "
                    f"(also {where(seen[scoring.reviewer_id])})",
                )
            )
        seen.setdefault(scoring.reviewer_id, scoring)
    if policy.reviewers_per_run == 1:
        if reviewers is not None:
            for scoring in ordered:
                problems += role_problems(scoring, PRIMARY, reviewers, ordered, where)
        return Roles(ordered, None, problems)
    roles = [registered_roles(scoring, reviewers) for scoring in ordered]
    fixed_primaries = [s for s, r in zip(ordered, roles, strict=True) if ARBITER_ROLE not in r]
    fixed_arbiters = [s for s, r in zip(ordered, roles, strict=True) if PRIMARY not in r]
    both = [s for s, r in zip(ordered, roles, strict=True) if PRIMARY in r and ARBITER_ROLE in r]
    open_places = max(0, 2 - len(fixed_primaries))
    primaries = sorted([*fixed_primaries, *both[:open_places]], key=scoring_order)
    arbiters = sorted([*fixed_arbiters, *both[open_places:]], key=scoring_order)
    # More than two primaries: the newest beyond two is the error (the load step allows
    # three scorings per run, so at most one).
    for extra in primaries[2:]:
        others = ", ".join(f"{p.reviewer_id} ({where(p)})" for p in primaries[:2])
        held = " and ".join(sorted(registered_roles(extra, reviewers)))
        problems.append(
            (
                where(extra),
                f"three primaries: {extra.reviewer_id} is registered as {held} only, not "
                f"arbiter, and the run has two other primaries: {others}",
            )
        )
    for extra in arbiters[1:]:
        problems.append(
            (
                where(extra),
                f"two arbiters: {extra.reviewer_id} and {arbiters[0].reviewer_id} "
                f"({where(arbiters[0])}) are both registered as arbiter only",
            )
        )
    primaries, arbiter = primaries[:2], (arbiters[0] if arbiters else None)
    primary_ids = {scoring.reviewer_id for scoring in primaries}
    if arbiter is not None and arbiter.reviewer_id in primary_ids:
        problems.append(
            (where(arbiter), f"arbiter {arbiter.reviewer_id} is one of the run's primaries")
        )
    if reviewers is not None:
        for scoring in ordered:
            problems += role_problems(scoring, None, reviewers, primaries, where)
    return Roles(primaries, arbiter, problems)


def role_problems(scoring: ScoredRun, acting: str | None, reviewers, primaries, where) -> list:
    """The registry's rules for one scoring: registered, acting in a role it has
    (`acting`; None under double review, where assign_roles placed it by its roles),
    within its active dates."""
    path, reviewer_id = where(scoring), scoring.reviewer_id
    reviewer = reviewers.get(reviewer_id)
    if reviewer is None:
        return [(path, f"reviewer_id {reviewer_id!r} is not registered in {REVIEWERS}")]
    problems = []
    if acting is not None and acting not in reviewer.roles:
        roles = " and ".join(sorted(reviewer.roles))
        problems.append(
            (path, f"reviewer {reviewer_id} acts as a primary but is registered as {roles} only")
        )
    day = utc_text(scoring.scoring_timestamp_utc)[:10]
    if not active_on(reviewer, day):
        problems.append(
            (
                path,
                f"reviewer {reviewer_id} scored on {day}, outside its active period "
                f"({reviewer.active_from or '…'} to {reviewer.active_to or '…'}) in {REVIEWERS}",
            )
        )
    return problems


class ConsolidationResult(NamedTuple):
    consolidation: Consolidation
    pairs: list[ReviewPair]
    problems: list[Problem]
    pending: list[Problem]  # errors only with strict=true
    # Arbiter scorings on runs the review policy finds not divergent (a policy changed
    # after arbitration): errors, or warnings with unneeded_arbiter: warning.
    unneeded_arbiters: list[Problem]


def active_on(reviewer: Reviewer, day: str) -> bool:
    """Whether the reviewer's active period (YYYY-MM-DD, "" for no limit) holds `day`."""
    return not (reviewer.active_from and day < reviewer.active_from) and not (
        reviewer.active_to and day > reviewer.active_to
    )


def eligible_arbiters(run: PendingRun, reviewers: dict[str, Reviewer] | None) -> list[str]:
    """The reviewers who may arbitrate a run pending arbitration, by id: registered with
    the arbiter role, not one of its primaries, and not retired before its second review
    (active_to on or after that day; an active_from later than it is a reviewer who
    starts after, still eligible). None for a run awaiting its second review."""
    if run.status != PENDING_ARBITRATION or not reviewers:
        return []
    day = utc_text(run.second_review_utc)[:10]
    return sorted(
        reviewer.reviewer_id
        for reviewer in reviewers.values()
        if ARBITER_ROLE in reviewer.roles
        and reviewer.reviewer_id not in run.primary_ids
        and not (reviewer.active_to and reviewer.active_to < day)
    )


def consolidate(
    runs: list[ScoredRun],
    golds: dict[str, PublicGold],
    reviewers: dict[str, Reviewer] | None,
    policy: ReviewPolicy,
    version: str,
    registry_missing: bool = False,
) -> ConsolidationResult:
    """Every run with a (valid) gold consolidated (formulas.consolidation), in the order
    (subject_id, case_id, run_id); its problems, and the problems its pending runs are
    under strict=true. A run without a gold is left out: the cross-check names it."""

    def where(scoring):
        return scoring_path(
            version, scoring.subject_id, scoring.case_id, scoring.run_id, scoring.reviewer_id
        )

    by_run = defaultdict(list)
    for run in runs:
        if run.case_id in golds:
            by_run[(run.subject_id, run.case_id, run.run_id)].append(run)
    problems: list[Problem] = []
    consolidated: list[ConsolidatedRun] = []
    pending: list[PendingRun] = []
    pairs: list[ReviewPair] = []
    strict_problems: list[Problem] = []
    unneeded: list[Problem] = []
    for _, scorings in sorted(by_run.items()):
        roles = assign_roles(scorings, reviewers, policy, where)
        problems += [Problem(*found) for found in roles.problems]
        if policy.reviewers_per_run == 1:
            # The load step refused a second scoring: each run has one.
            (only,) = roles.primaries
            consolidated.append(scoring_as_run(only, SINGLE, [only.reviewer_id]))
            continue
        if roles.problems:
            continue
        outcome = consolidate_run(
            roles.primaries, roles.arbiter, golds[scorings[0].case_id], policy
        )
        if outcome.arbiter_without_divergence and len(roles.primaries) == 1:
            problems.append(
                Problem(
                    where(roles.arbiter),
                    f"arbiter {roles.arbiter.reviewer_id} scored a run with one primary "
                    f"scoring ({where(roles.primaries[0])}): an arbiter decides between two",
                )
            )
            continue
        if outcome.arbiter_without_divergence:
            primary_ids = " and ".join(sorted(s.reviewer_id for s in roles.primaries))
            unneeded.append(
                Problem(
                    where(roles.arbiter),
                    f"arbiter {roles.arbiter.reviewer_id} scored run {roles.arbiter.case_id} "
                    f"{roles.arbiter.run_id}, but its primaries {primary_ids} are not "
                    "divergent under the review policy (was the policy changed after the "
                    "arbitration?): the run counts the primaries' agreed value and not the "
                    "arbiter's; remove the arbiter's scoring, restore the policy, or set "
                    "unneeded_arbiter: warning to publish so",
                )
            )
        if outcome.pair is not None:
            pairs.append(outcome.pair)
        if outcome.run is not None:
            consolidated.append(outcome.run)
            continue
        eligible = eligible_arbiters(outcome.pending, reviewers)
        pending.append(outcome.pending._replace(eligible_arbiters=eligible))
        state = (
            "awaits its second review"
            if outcome.pending.status == AWAITING_SECOND_REVIEW
            else f"is pending arbitration ({', '.join(outcome.pending.divergent)} diverge)"
        )
        for scoring in roles.primaries:
            strict_problems.append(Problem(where(scoring), f"the run {state} (strict mode)"))
    if policy.reviewers_per_run == 2 and registry_missing:
        problems.append(
            Problem(
                REVIEWERS,
                "file is missing: with reviewers_per_run 2 every reviewer must be registered "
                "with its roles",
            )
        )
    return ConsolidationResult(
        Consolidation(consolidated, pending), pairs, sorted(problems), strict_problems, unneeded
    )
