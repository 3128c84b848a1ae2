"""The reviewers of the scorings (shared/spec/multi-reviewer.md): the review policy, the
reviewer registry (subjects/reviewers.yaml), who acts as what on each run, and the
consolidation of every run (step 1d).

Role assignment, precisely: a run's scorings are taken in the order of their
scoring_timestamp_utc (the instant it denotes; equal instants by reviewer_id). The
first two are the primaries, a third is the arbiter. A reviewer registered with both
roles is a primary when its scoring is one of the first two, the arbiter when it is
the third. So an arbiter's scoring must be the run's newest: one made before the second
primary's makes it a primary, and the run's newest scoring by a reviewer without the
arbiter role makes three primaries.

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


def assign_roles(
    scorings: list[ScoredRun], reviewers: dict[str, Reviewer] | None, policy: ReviewPolicy, where
) -> Roles:
    """The run's primaries and arbiter (module docstring), and every rule its scorings
    break: three primaries; the same reviewer twice; an unregistered reviewer or one
    acting outside its roles or active dates; an arbiter who is one of the primaries.
    `where(scoring)` is the scoring's path."""
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
    primaries, rest = ordered[:2], ordered[2:]
    arbiter = rest[0] if rest else None
    primary_ids = {scoring.reviewer_id for scoring in primaries}
    if arbiter is not None and arbiter.reviewer_id in primary_ids:
        problems.append(
            (where(arbiter), f"arbiter {arbiter.reviewer_id} is one of the run's primaries")
        )
    if reviewers is not None:
        for position, scoring in enumerate(ordered):
            acting = PRIMARY if position < 2 else ARBITER_ROLE
            problems += role_problems(scoring, acting, reviewers, primaries, where)
    if policy.reviewers_per_run == 1:
        primaries, arbiter = ordered, None
    return Roles(primaries, arbiter, problems)


def role_problems(scoring: ScoredRun, acting: str, reviewers, primaries, where) -> list:
    """The registry's rules for one scoring acting as `acting`."""
    path, reviewer_id = where(scoring), scoring.reviewer_id
    reviewer = reviewers.get(reviewer_id)
    if reviewer is None:
        return [(path, f"reviewer_id {reviewer_id!r} is not registered in {REVIEWERS}")]
    problems = []
    if acting not in reviewer.roles:
        roles = " and ".join(sorted(reviewer.roles))
        if acting == ARBITER_ROLE:
            others = ", ".join(f"{p.reviewer_id} ({where(p)})" for p in primaries)
            problems.append(
                (
                    path,
                    f"three primaries: {reviewer_id} made the run's third scoring but is "
                    f"registered as {roles} only, not arbiter (the primaries: {others})",
                )
            )
        else:
            problems.append(
                (
                    path,
                    f"reviewer {reviewer_id} acts as a primary (one of the run's first two "
                    f"scorings by time) but is registered as {roles} only",
                )
            )
    day = utc_text(scoring.scoring_timestamp_utc)[:10]
    if (reviewer.active_from and day < reviewer.active_from) or (
        reviewer.active_to and day > reviewer.active_to
    ):
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
        if outcome.arbiter_without_divergence:
            problems.append(
                Problem(
                    where(roles.arbiter),
                    f"arbiter {roles.arbiter.reviewer_id} scored a run that is not divergent "
                    f"(the primaries {' and '.join(sorted(s.reviewer_id for s in roles.primaries))}"
                    " need no arbiter under the review policy)",
                )
            )
            continue
        if outcome.pair is not None:
            pairs.append(outcome.pair)
        if outcome.run is not None:
            consolidated.append(outcome.run)
            continue
        pending.append(outcome.pending)
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
        Consolidation(consolidated, pending), pairs, sorted(problems), strict_problems
    )
