"""Two reviewers and an arbiter on the pages (shared/spec/multi-reviewer.md, Published):
what the leaderboard says of the review (its agreement line, each version's pending
counts and its pending critical-fail disagreement) and the site's run view (a run's
scorings grouped, each with its role, and which one counts), shown where the data have
them: runs with several scorings, or pending their review.

Data only: the leaderboard's view carries the summary (leaderboard_view.py), its
templates (components.html, leaderboard.md) and the site's run markup (site_pages.py)
print it in each language. Every number of the agreement line is a published text (agreement.csv,
divergent_runs.csv, pending_runs.csv), so the pages cannot disagree with the files.
"""

from fractions import Fraction
from typing import NamedTuple

from ro_metrics.contracts.records import ConsolidatedRun, PendingRun, PublicGold
from ro_metrics.contracts.tables import rounded_exact
from ro_metrics.contracts.vocabulary import (
    ARBITRATED,
    DISQUALIFIED,
    ELIGIBLE,
    PASS,
    SETTLED_BY_UNION,
    family_of,
)
from ro_metrics.formulas.consolidation import (
    ARBITER,
    AWAITING_SECOND_REVIEW,
    CLASSIFICATION,
    CORRECTNESS,
    CRITERION_0_VS_2,
    CRITICAL_FAIL,
    MEAN_OF_PRIMARIES,
    NUMERIC_DIFFERENCE,
    PENDING_ARBITRATION,
    RAW_SCORE,
    pending_counts,
    q_final_range,
)
from ro_metrics.formulas.per_run import per_run_row

# A scoring's role in its run (corpus/reviewers.py assigns them; the consolidation
# records them: a ConsolidatedRun's arbiter_id, the primary_ids of either record).
PRIMARY_ROLE, ARBITER_ROLE = "primary", "arbiter"
# The label of each divergence rule (review_pairs.json's and pending_runs.csv's names).
RULE_LABELS = {
    CLASSIFICATION: "review_rule_classification",
    CRITICAL_FAIL: "review_rule_critical_fail",
    RAW_SCORE: "review_rule_raw_score",
    CRITERION_0_VS_2: "review_rule_criterion_0_vs_2",
    CORRECTNESS: "review_rule_correctness",
    NUMERIC_DIFFERENCE: "review_rule_numeric_difference",
}


class AgreementLine(NamedTuple):
    """The leaderboard's agreement line: the published texts of agreement.csv's overall
    rows ("" where a statistic is undefined) and the runs' counts."""

    kappa: str  # Cohen's κ on the class
    kappa_low: str  # its 95 % bootstrap interval
    kappa_high: str
    raw_score_kappa: str  # quadratically weighted κ on the raw score
    n_pairs: int  # runs with two primary scorings (the agreement's units)
    n_divergent: int  # rows of divergent_runs.csv
    n_arbitrated: int  # of them, decided by an arbiter
    n_pending_arbitration: int  # rows of pending_runs.csv by status
    n_awaiting_second_review: int
    # Divergent runs critical_fails: union settled without arbitration: n_divergent =
    # n_arbitrated + n_settled_by_union + n_pending_arbitration.
    n_settled_by_union: int = 0


class PendingCounts(NamedTuple):
    """A version's runs left out of R for their review, and whether one of them is a
    critical-fail disagreement awaiting the arbiter (its gate may change)."""

    n_pending_arbitration: int
    n_awaiting_second_review: int
    critical: bool


class ProvisionalRange(NamedTuple):
    """A version with runs pending their review is provisional: its Q_final and gate
    once each pending run takes one of its primaries' values (q_final_range), as shown
    (4 decimals, rounded as the published numbers)."""

    n_runs: int  # its runs pending arbitration or awaiting their second review
    q_final_low: str
    q_final_high: str
    statuses: tuple[str, ...]  # the leaderboard statuses it could have: Eligible, Disqualified


def provisional_ranges(
    counted: list[dict], pending: list[PendingRun], alpha, statuses: dict
) -> dict[tuple[str, str], ProvisionalRange]:
    """Each version with pending runs and a row on the leaderboard: its provisional range.
    counted: the counted runs' per-run rows as dicts (class, clipped score) of those
    versions; statuses: each version's published leaderboard_status. The gate: a
    Disqualified version stays so (its counted critical fail stays); an Eligible one is
    Disqualified whatever the review if both primaries of a pending run raised a critical
    fail, may become so if one did."""
    by_version: dict = {}
    for run in pending:
        by_version.setdefault((run.subject_id, run.subject_version), []).append(run)
    ranges = {}
    for key, runs in sorted(by_version.items()):
        if key not in statuses:
            continue
        rows = [row for row in counted if (row["subject_id"], row["subject_version"]) == key]
        options = [
            [(outcome[1] == PASS, Fraction(outcome[2])) for outcome in run.outcomes] for run in runs
        ]
        low, high = q_final_range(
            len(rows),
            sum(row["classification"] == PASS for row in rows),
            sum((Fraction(row["clipped_score"]) for row in rows), Fraction(0)),
            options,
            alpha,
        )
        critical = [[outcome[3] for outcome in run.outcomes] for run in runs]
        if statuses[key] != ELIGIBLE or any(all(flags) for flags in critical):
            possible = (DISQUALIFIED,)
        elif any(any(flags) for flags in critical):
            possible = (ELIGIBLE, DISQUALIFIED)
        else:
            possible = (ELIGIBLE,)
        ranges[key] = ProvisionalRange(
            len(runs), repr(rounded_exact(low)), repr(rounded_exact(high)), possible
        )
    return ranges


class ReviewSummary(NamedTuple):
    """What the leaderboard (page, Markdown, the site's index) shows of the review."""

    line: AgreementLine
    pending: dict[tuple[str, str], PendingCounts]  # by (subject_id, subject_version)


def overall_row(agreement: list[dict[str, str]], variable: str, statistic: str) -> dict:
    """The overall row of agreement.csv for a variable and statistic ({} when absent:
    no run has two primaries)."""
    for row in agreement:
        if (row["scope"], row["variable"], row["statistic"]) == ("overall", variable, statistic):
            return row
    return {}


def agreement_line(
    agreement: list[dict[str, str]],
    divergent: list[dict[str, str]],
    pending: list[PendingRun],
) -> AgreementLine:
    """From the rows of agreement.csv and divergent_runs.csv (as tables.read_table reads
    them) and the runs pending review: κ on the class with its interval, quadratic κ on
    the raw score, the runs with two primaries (overall n_runs), divergent, arbitrated,
    pending arbitration and awaiting their second review."""
    kappa = overall_row(agreement, "classification", "kappa")
    raw = overall_row(agreement, "raw_score", "quadratic_kappa")
    statuses = [run.status for run in pending]
    return AgreementLine(
        kappa.get("estimate", ""),
        kappa.get("ci_low", ""),
        kappa.get("ci_high", ""),
        raw.get("estimate", ""),
        int(kappa.get("n_runs") or 0),
        len(divergent),
        sum(row["arbiter_status"] == ARBITRATED for row in divergent),
        statuses.count(PENDING_ARBITRATION),
        statuses.count(AWAITING_SECOND_REVIEW),
        sum(row["arbiter_status"] == SETTLED_BY_UNION for row in divergent),
    )


def review_summary(
    agreement: list[dict[str, str]],
    divergent: list[dict[str, str]],
    pending: list[PendingRun],
) -> ReviewSummary | None:
    """The agreement line and every version's pending counts (a version with none has
    no entry); None when no run has two primaries and none is pending: one reviewer per
    run, nothing to show."""
    if not agreement and not pending:
        return None
    counts = {key: PendingCounts(*found) for key, found in pending_counts(pending).items()}
    return ReviewSummary(agreement_line(agreement, divergent, pending), counts)


class ReviewedRun(NamedTuple):
    """A (case, subject, run) with several scorings or pending its review, as its
    version's page shows it: every scoring (the site's VersionRun of each: primaries by
    reviewer id, then the arbiter), its role, and what the consolidation made of the run."""

    scorings: list  # of site_pages.VersionRun
    roles: list[str]  # PRIMARY_ROLE or ARBITER_ROLE, one per scoring
    method: str  # mean_of_primaries, arbiter, pending_arbitration, awaiting_second_review
    consolidated: ConsolidatedRun | None  # the run the metrics count, None when pending
    row: list | None  # its per-run row (tables.PER_RUN_COLUMNS), None when pending
    divergent: list[str]  # the divergence rules that fired (pending, arbitrated, union)

    def counts(self, index: int) -> bool:
        """Whether the scoring at `index` is one that counts: both primaries of a mean,
        the arbiter's scoring, none of a pending run."""
        if self.method == MEAN_OF_PRIMARIES:
            return self.roles[index] == PRIMARY_ROLE
        return self.method == ARBITER and self.roles[index] == ARBITER_ROLE


def run_views(
    runs: list,
    decisions: dict[tuple[str, str], ConsolidatedRun | PendingRun],
    golds: dict[str, PublicGold],
) -> list:
    """One version's scorings (site_pages.VersionRun, by case_id, run_id, reviewer_id) as
    its pages show its runs, one entry per (case_id, run_id) in that order, with the
    consolidation's decision on each (decisions: the version's ConsolidatedRun or
    PendingRun by (case_id, run_id)). A run whose one scoring counts whole (one reviewer
    per run: the identity consolidation) is that scoring, shown as it is; a run with
    several scorings, or pending its review, is a ReviewedRun: the data decide, not a
    review mode. A scoring the decision names neither as a primary nor as the arbiter
    means the consolidation and the load disagree: an error, not a guess."""
    grouped: dict[tuple[str, str], list] = {}
    for entry in runs:
        run = entry.published.run
        grouped.setdefault((run.case_id, run.run_id), []).append(entry)
    views = []
    for (case_id, run_id), scorings in grouped.items():
        decision = decisions.get((case_id, run_id))
        if decision is None:
            raise ValueError(f"{case_id} {run_id}: scored, but not in the consolidation")
        arbiter_id = getattr(decision, "arbiter_id", "")
        roles_of = {reviewer: PRIMARY_ROLE for reviewer in decision.primary_ids}
        if arbiter_id:
            roles_of[arbiter_id] = ARBITER_ROLE
        reviewers = [entry.published.run.reviewer_id for entry in scorings]
        unknown = [reviewer for reviewer in reviewers if reviewer not in roles_of]
        if unknown:
            raise ValueError(
                f"{case_id} {run_id}: scorings by {', '.join(unknown)} are not in the consolidation"
            )
        if len(scorings) == 1 and isinstance(decision, ConsolidatedRun):
            views.append(scorings[0])
            continue
        # Primaries by id, then the arbiter.
        order = sorted(
            range(len(scorings)),
            key=lambda i: (roles_of[reviewers[i]] == ARBITER_ROLE, reviewers[i]),
        )
        ordered = [scorings[i] for i in order]
        roles = [roles_of[reviewers[i]] for i in order]
        if isinstance(decision, ConsolidatedRun):
            row = per_run_row(decision, golds[case_id], family_of(case_id))
            views.append(
                ReviewedRun(
                    ordered, roles, decision.method, decision, row, list(decision.divergent)
                )
            )
        else:
            views.append(
                ReviewedRun(ordered, roles, decision.status, None, None, list(decision.divergent))
            )
    return views


def decisions_by_version(
    runs: list[ConsolidatedRun], pending: list[PendingRun]
) -> dict[tuple[str, str], dict[tuple[str, str], ConsolidatedRun | PendingRun]]:
    """The consolidation's records (records.Consolidation) by (subject_id,
    subject_version), then by (case_id, run_id)."""
    by_version: dict = {}
    for record in [*runs, *pending]:
        version = by_version.setdefault((record.subject_id, record.subject_version), {})
        version[(record.case_id, record.run_id)] = record
    return by_version
