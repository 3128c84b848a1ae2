"""Two reviewers and an arbiter (multi-reviewer.md): each consolidation outcome, each
error of the reviews, the review policy, and the formulas on a half and a quarter.
Every expected value is worked by hand in the comment beside it."""

from pathlib import Path

import pytest

from ro_metrics.contracts.records import ConsolidatedRun, PendingRun, PublicGold, ScoredRun
from ro_metrics.corpus.reviewers import (
    PolicyError,
    Reviewer,
    consolidate,
    review_policy,
)
from ro_metrics.formulas import metrics as cm
from ro_metrics.formulas.consolidation import (
    ReviewPolicy,
    consolidate_run,
    counted_scorings,
    coverage_with_reviews,
    settled_by_union,
)
from ro_metrics.formulas.per_run import consolidated_rows, per_run_row
from ro_metrics.formulas.uncertainty import SubjectCases, SubjectRuns, case_sums, replicate_metrics

REPO = Path(__file__).resolve().parents[2]
POLICY_FILE = REPO / "system/rubric/v1.0/review_policy.yaml"
DEFAULT = ReviewPolicy(
    2,
    ("classification", "critical_fail", "raw_score", "criterion_0_vs_2", "correctness"),
    2,
    "mean",
    "arbiter",
)
# An Ambiguous case: floor 4, ceiling 9.
AMBIGUOUS = PublicGold("FOUL", "Ambiguous", 4, 9)
CLOSED = PublicGold("FOUL", "Closed", 4, 12)
CASE, SUBJECT, VERSION, RUN = "RO-FOUL-001", "atlas-7b", "atlas-7b-v1", "run-2026-05-12-001"
REGISTRY = {
    "R01": Reviewer("R01", frozenset({"primary"}), "", ""),
    "R02": Reviewer("R02", frozenset({"primary", "arbiter"}), "", ""),
    "R03": Reviewer("R03", frozenset({"primary"}), "", ""),
    "R04": Reviewer("R04", frozenset({"arbiter"}), "", "2026-05-31"),
    "R05": Reviewer("R05", frozenset({"primary"}), "", ""),
    "R06": Reviewer("R06", frozenset({"primary", "arbiter"}), "", ""),
}


def scoring(reviewer, scores, correctness=1.0, fails=(), hour=10, day=13, run_id=RUN):
    return ScoredRun(
        SUBJECT,
        VERSION,
        CASE,
        run_id,
        reviewer,
        f"2026-05-{day:02d}T{hour:02d}:00:00Z",
        list(scores),
        sorted(fails),
        60,
        correctness,
    )


def path(reviewer, run_id=RUN):
    return f"scoring/v1.0/{SUBJECT}/{CASE}__{run_id}__eval-{reviewer}.json"


def test_two_agreeing_primaries_are_averaged_and_classed_from_the_clipped_mean():
    # R01: raw 2+2+2+2+1+1 = 10, R02: raw 9; both clipped to the ceiling 9 → Conditional
    # (9 ≥ 7, ≥ floor 4). |Δraw| = 1 ≤ 2, no criterion 0 vs 2, |Δcorrectness| = 0.5 is
    # not > 0.5: agreed. Means: criteria 2,2,2,1.5,1,1 (raw 9.5), correctness 0.75;
    # clipped = min(9.5, 9) = 9 → Conditional.
    a = scoring("R01", [2, 2, 2, 2, 1, 1], 1.0)
    b = scoring("R02", [2, 2, 2, 1, 1, 1], 0.5, hour=11)
    outcome = consolidate_run([a, b], None, AMBIGUOUS, DEFAULT)
    run = outcome.run
    assert (run.method, run.reviewer_id, run.primary_ids) == (
        "mean_of_primaries",
        "R01+R02",
        ["R01", "R02"],
    )
    assert run.criterion_scores == [2, 2, 2, 1.5, 1, 1]
    assert run.correctness == 0.75
    assert run.scoring_timestamp_utc == "2026-05-13T11:00:00Z"  # the newer of the two
    row = per_run_row(run, AMBIGUOUS, "FOUL")
    assert row[9:14] == [9.5, 9, False, False, "Conditional"]
    assert row[16] == 0.75
    assert outcome.pair.divergent == [] and outcome.pair.decision == "mean"
    assert (outcome.pair.raw_score_a, outcome.pair.raw_score_b) == (10, 9)


def test_a_half_raw_score_under_the_ceiling_stays_a_half():
    # R01 raw 9, R02 raw 8 on a Closed case (ceiling 12): mean 8.5, clipped 8.5 →
    # Conditional; written 8.5 in the consolidated table, 9 (not 9.0) when integral.
    a = scoring("R01", [2, 2, 2, 1, 1, 1])
    b = scoring("R03", [2, 2, 1, 1, 1, 1], hour=11)
    c = scoring("R02", [2, 2, 2, 1, 1, 1], run_id="run-2026-05-12-002")
    d = scoring("R03", [2, 2, 2, 1, 1, 1], hour=11, run_id="run-2026-05-12-002")
    runs = [consolidate_run([a, b], None, CLOSED, DEFAULT).run]
    runs.append(consolidate_run([c, d], None, CLOSED, DEFAULT).run)
    rows = consolidated_rows(runs, {CASE: CLOSED})
    assert rows[0][5:8] == ["mean_of_primaries", "R01;R03", ""]
    assert rows[0][10:15] == [8.5, 8.5, False, False, "Conditional"]
    assert rows[1][10:12] == [9, 9] and isinstance(rows[1][10], int)


def test_a_divergent_run_takes_the_arbiters_scoring_whole():
    # R01 raw 11 (Pass), R02 raw 6 (Fail, < 7): class differs and |Δraw| = 5 > 2.
    # The arbiter's scoring (raw 6, correctness 0.5) is the run's, never averaged.
    a = scoring("R01", [2, 2, 2, 2, 2, 1])
    b = scoring("R02", [1, 1, 1, 1, 1, 1], 0.0, hour=11)
    arbiter = scoring("R04", [1, 1, 1, 1, 1, 1], 0.5, day=14)
    outcome = consolidate_run([a, b], arbiter, CLOSED, DEFAULT)
    run = outcome.run
    assert (run.method, run.reviewer_id, run.arbiter_id) == ("arbiter", "R04", "R04")
    assert run.criterion_scores == [1, 1, 1, 1, 1, 1] and run.correctness == 0.5
    # |1 − 0| = 1 > 0.5 fires the correctness rule too.
    assert outcome.pair.divergent == ["classification", "raw_score", "correctness"]
    assert (outcome.pair.decision, outcome.pair.arbiter_id) == ("arbiter", "R04")


def test_a_divergent_run_without_arbiter_is_pending():
    # R01 has a 0 where R02 has a 2 (rule criterion_0_vs_2); raws 8 and 9, both
    # Conditional: only that rule fires.
    a = scoring("R01", [0, 2, 2, 2, 1, 1])
    b = scoring("R02", [2, 2, 1, 1, 1, 2], hour=11)
    outcome = consolidate_run([a, b], None, CLOSED, DEFAULT)
    assert outcome.run is None
    assert outcome.pending.status == "pending_arbitration"
    assert outcome.pending.divergent == ["criterion_0_vs_2"]
    assert outcome.pending.critical_disagreement is False
    assert outcome.pair.decision == "pending_arbitration"


def test_one_primary_awaits_its_second_review():
    outcome = consolidate_run([scoring("R01", [2] * 6)], None, CLOSED, DEFAULT)
    assert outcome.run is None and outcome.pair is None
    assert (outcome.pending.status, outcome.pending.primary_ids) == (
        "awaiting_second_review",
        ["R01"],
    )


def test_critical_fails_union_against_arbiter():
    # Both raw 6 → Fail (6 < 7) with or without the fail: the class agrees; only the
    # critical-fail presence differs.
    a = scoring("R01", [1] * 6, fails=["critical"])
    b = scoring("R02", [1] * 6, hour=11)
    arbiter_mode = consolidate_run([a, b], None, CLOSED, DEFAULT)
    assert arbiter_mode.pending.divergent == ["critical_fail"]
    assert arbiter_mode.pending.critical_disagreement is True
    union = consolidate_run([a, b], None, CLOSED, DEFAULT._replace(critical_fails="union"))
    assert union.run.method == "mean_of_primaries"
    assert union.run.fail_severities == ["critical"]  # the fail R01 raised stands
    assert per_run_row(union.run, CLOSED, "FOUL")[11] is True
    # Recorded as a divergence for the agreement statistics, decided without arbiter.
    assert (union.pair.divergent, union.pair.decision) == (["critical_fail"], "mean")


def test_union_settles_the_class_difference_a_critical_fail_makes():
    # R01 raw 10 with a critical fail (Fail), R02 raw 10 without (Pass, 10 >= 7): the
    # class differs only because of the fail. Under union the fail stands, the run is a
    # Fail without arbitration; a raw-score divergence beside it still needs the arbiter.
    a = scoring("R01", [2, 2, 2, 2, 1, 1], fails=["critical"])
    b = scoring("R02", [2, 2, 2, 2, 1, 1], hour=11)
    union = DEFAULT._replace(critical_fails="union")
    settled = consolidate_run([a, b], None, CLOSED, union)
    assert settled.pending is None
    assert per_run_row(settled.run, CLOSED, "FOUL")[13] == "Fail"
    assert settled.pair.divergent == ["classification", "critical_fail"]
    assert settled_by_union(settled.pair.divergent, union)
    low = scoring("R02", [1] * 6, hour=11)  # raw 6: |10 - 6| = 4 > 2
    # (raw 6 is a Fail too: only the fail's presence and the raw score differ.)
    assert consolidate_run([a, low], None, CLOSED, union).pending.divergent == [
        "critical_fail",
        "raw_score",
    ]
    # Without the critical_fail rule listed, the disagreement still fires and is settled.
    unlisted = union._replace(divergence_rules=("classification", "raw_score"))
    assert consolidate_run([a, b], None, CLOSED, unlisted).run.method == "mean_of_primaries"


def test_the_worklist_fields_of_a_pending_run():
    # R01 raw 12 vs R03 raw 6: pending; the second review on 2026-05-13. Eligible
    # arbiters: R02, R04 and R06 (arbiter role, not a primary; R04 active to 05-31).
    runs = [scoring("R01", [2] * 6), scoring("R03", [1] * 6, fails=["critical"], hour=11)]
    _, result = problems_of(runs)
    (pending,) = result.consolidation.pending
    assert pending.second_review_utc == "2026-05-13T11:00:00Z"
    assert pending.eligible_arbiters == ["R02", "R04", "R06"]
    assert pending.outcomes == [["R01", "Pass", 12, False], ["R03", "Fail", 6, True]]
    later = [run._replace(scoring_timestamp_utc="2026-06-02T10:00:00Z") for run in runs]
    registry = REGISTRY | {
        "R01": Reviewer("R01", frozenset({"primary"}), "", ""),
        "R04": Reviewer("R04", frozenset({"arbiter"}), "", "2026-06-30"),
    }
    assert problems_of(later, reviewers=registry)[1].consolidation.pending[0].eligible_arbiters == [
        "R02",
        "R04",
        "R06",
    ]
    retired = registry | {"R04": Reviewer("R04", frozenset({"arbiter"}), "", "2026-06-01")}
    assert problems_of(later, reviewers=retired)[1].consolidation.pending[0].eligible_arbiters == [
        "R02",
        "R06",
    ]


def test_arbiter_decides_a_critical_fail_disagreement_even_without_its_rule():
    a = scoring("R01", [1] * 6, fails=["critical"])
    b = scoring("R02", [1] * 6, hour=11)
    policy = DEFAULT._replace(divergence_rules=("raw_score",))
    assert consolidate_run([a, b], None, CLOSED, policy).pending.divergent == ["critical_fail"]


def test_agreed_value_arbiter_sends_any_numeric_difference_to_the_arbiter():
    a = scoring("R01", [2, 2, 2, 1, 1, 1])
    b = scoring("R02", [2, 2, 1, 1, 1, 1], hour=11)
    policy = DEFAULT._replace(agreed_value="arbiter")
    assert consolidate_run([a, b], None, CLOSED, policy).pending.divergent == ["numeric_difference"]
    same = consolidate_run([a, a._replace(reviewer_id="R02")], None, CLOSED, policy)
    assert same.run.criterion_scores == [2, 2, 2, 1, 1, 1]


def problems_of(runs, reviewers=REGISTRY, policy=DEFAULT, golds=None, **options):
    result = consolidate(runs, golds or {CASE: CLOSED}, reviewers, policy, "v1.0", **options)
    return [tuple(problem) for problem in result.problems], result


def test_three_primaries():
    # R01, R03 and R05 are registered as primary only: the newest beyond two is the error.
    runs = [
        scoring("R01", [2] * 6),
        scoring("R03", [2] * 6, hour=11),
        scoring("R05", [2] * 6, hour=12),
    ]
    problems, _ = problems_of(runs)
    assert problems == [
        (
            path("R05"),
            "three primaries: R05 is registered as primary only, not arbiter, and the run "
            f"has two other primaries: R01 ({path('R01')}), R03 ({path('R03')})",
        )
    ]


def test_single_role_reviewers_act_in_their_role_whatever_the_times():
    # The arbiter R04 saved its scoring first and R01 a day after it: the registry
    # decides (R01 and R03 primary only, R04 arbiter only), so the run is consolidated
    # exactly as in time order: R01 raw 12 vs R03 raw 6 diverge, R04's scoring counts.
    in_order = [
        scoring("R01", [2] * 6),
        scoring("R03", [1] * 6, hour=11),
        scoring("R04", [1, 1, 1, 2, 2, 2], day=14),
    ]
    out_of_order = [
        scoring("R04", [1, 1, 1, 2, 2, 2], hour=9),
        scoring("R03", [1] * 6, hour=11),
        scoring("R01", [2] * 6, day=14),
    ]
    expected = [problems_of(in_order)]
    found = [problems_of(out_of_order)]
    assert found[0][0] == expected[0][0] == []
    ordered, shuffled = expected[0][1].consolidation.runs[0], found[0][1].consolidation.runs[0]
    assert (shuffled.method, shuffled.arbiter_id, shuffled.primary_ids) == (
        "arbiter",
        "R04",
        ["R01", "R03"],
    )
    # The same values; only the newest timestamp of the scorings that count differs.
    assert shuffled._replace(scoring_timestamp_utc="") == ordered._replace(scoring_timestamp_utc="")
    assert found[0][1].pairs[0]._replace() == expected[0][1].pairs[0]


def test_a_re_saved_dual_role_primary_keeps_its_role():
    # R02 (both roles) and R01 (primary only) diverge, R04 (arbiter only) arbitrates,
    # then R02 re-saves its scoring after the arbitration: R02 stays a primary, R04 the
    # arbiter, the pair the same (by time alone R02 would be third: the arbiter).
    before = [
        scoring("R01", [2] * 6),
        scoring("R02", [1] * 6, hour=11),
        scoring("R04", [1, 1, 1, 2, 2, 2], day=14),
    ]
    re_saved = before[1]._replace(scoring_timestamp_utc="2026-05-20T08:00:00Z")
    after = [before[0], re_saved, before[2]]
    (problems, first), (problems_after, second) = problems_of(before), problems_of(after)
    assert problems == problems_after == []
    assert second.consolidation.runs[0].primary_ids == ["R01", "R02"]
    assert second.consolidation.runs[0].arbiter_id == "R04"
    assert second.pairs == first.pairs


def test_time_decides_only_among_dual_role_reviewers():
    # R01 primary only; R02 and R06 hold both roles: the earlier of them takes the open
    # primary place, the later is the arbiter.
    runs = [
        scoring("R01", [2] * 6),
        scoring("R06", [1] * 6, hour=11),
        scoring("R02", [1, 1, 1, 2, 2, 2], day=14),
    ]
    problems, result = problems_of(runs)
    assert problems == []
    assert result.consolidation.runs[0].primary_ids == ["R01", "R06"]
    assert result.consolidation.runs[0].arbiter_id == "R02"
    swapped = [runs[0], runs[1]._replace(scoring_timestamp_utc="2026-05-15T00:00:00Z"), runs[2]]
    assert problems_of(swapped)[1].consolidation.runs[0].arbiter_id == "R06"


def test_a_reviewer_with_both_roles_is_the_arbiter_when_third():
    # R02 scores last on a divergent run (raw 12 vs 6): the arbiter, no problem.
    runs = [
        scoring("R01", [2] * 6),
        scoring("R03", [1] * 6, hour=11),
        scoring("R02", [1] * 6, day=14),
    ]
    problems, result = problems_of(runs)
    assert problems == []
    assert result.consolidation.runs[0].arbiter_id == "R02"
    assert result.consolidation.runs[0].primary_ids == ["R01", "R03"]


def test_the_same_reviewer_twice_and_an_arbiter_who_is_a_primary():
    # File names carry the reviewer id, so two scorings by one reviewer cannot share a
    # folder; the rule is checked on the records all the same.
    twice = [scoring("R01", [2] * 6), scoring("R01", [2] * 6, hour=11)]
    problems, _ = problems_of(twice)
    assert problems == [
        (path("R01"), f"the same reviewer R01 scored this run twice (also {path('R01')})")
    ]
    third = [
        scoring("R01", [2] * 6),
        scoring("R02", [1] * 6, hour=11),
        scoring("R02", [1] * 6, day=14),
    ]
    messages = [message for _, message in problems_of(third)[0]]
    assert "arbiter R02 is one of the run's primaries" in messages


def test_an_unregistered_reviewer_and_one_outside_its_roles_or_dates():
    # R04 is an arbiter: it acts as one whatever the times, beside one primary
    # (unregistered R09, reported; no further rule is checked on that run).
    runs = [scoring("R09", [2] * 6), scoring("R04", [2] * 6, hour=11)]
    problems, _ = problems_of(runs)
    assert problems == [
        (path("R09"), "reviewer_id 'R09' is not registered in subjects/reviewers.yaml"),
    ]
    with_one_primary = [scoring("R01", [2] * 6), scoring("R04", [2] * 6, hour=11)]
    assert problems_of(with_one_primary)[0] == [
        (
            path("R04"),
            f"arbiter R04 scored a run with one primary scoring ({path('R01')}): an arbiter "
            "decides between two",
        )
    ]
    two_arbiters = [scoring("R01", [2] * 6), scoring("R04", [2] * 6), scoring("R07", [2] * 6)]
    registry = REGISTRY | {"R07": Reviewer("R07", frozenset({"arbiter"}), "", "")}
    assert problems_of(two_arbiters, reviewers=registry)[0] == [
        (
            path("R07"),
            f"two arbiters: R07 and R04 ({path('R04')}) are both registered as arbiter only",
        )
    ]
    late = [
        scoring("R01", [2] * 6),
        scoring("R02", [1] * 6, hour=11),
        scoring("R04", [1] * 6, day=31, hour=23),
    ]
    assert problems_of(late)[0] == []
    later = [
        scoring("R01", [2] * 6),
        scoring("R02", [1] * 6, hour=11),
        scoring("R04", [1] * 6, day=14)._replace(scoring_timestamp_utc="2026-06-01T00:00:00Z"),
    ]
    assert problems_of(later)[0] == [
        (
            path("R04"),
            "reviewer R04 scored on 2026-06-01, outside its active period (… to 2026-05-31) "
            "in subjects/reviewers.yaml",
        )
    ]


def test_an_arbiter_on_a_run_that_is_not_divergent():
    # A policy change (say k 2 → 12) can make an arbitration unnecessary: the run counts
    # its primaries' mean, records its arbiter, and the scoring is named for the
    # cross-check (an error, or a warning with unneeded_arbiter: warning).
    runs = [
        scoring("R01", [2] * 6),
        scoring("R02", [2] * 6, hour=11),
        scoring("R04", [2] * 6, day=14),
    ]
    problems, result = problems_of(runs)
    assert problems == []
    assert [tuple(p) for p in result.unneeded_arbiters] == [
        (
            path("R04"),
            f"arbiter R04 scored run {CASE} {RUN}, but its primaries R01 and R02 are not "
            "divergent under the review policy (was the policy changed after the "
            "arbitration?): the run counts the primaries' agreed value and not the "
            "arbiter's; remove the arbiter's scoring, restore the policy, or set "
            "unneeded_arbiter: warning to publish so",
        )
    ]
    (run,) = result.consolidation.runs
    assert (run.method, run.primary_ids, run.arbiter_id) == (
        "mean_of_primaries",
        ["R01", "R02"],
        "R04",
    )
    assert counted_scorings([run]) == {(SUBJECT, CASE, RUN, "R01"), (SUBJECT, CASE, RUN, "R02")}


def test_every_problem_of_several_runs_in_one_result():
    runs = [
        scoring("R09", [2] * 6),
        scoring("R01", [2] * 6, run_id="run-2026-05-12-002"),
        scoring("R05", [2] * 6, hour=12, run_id="run-2026-05-12-002"),
        scoring("R03", [2] * 6, hour=13, run_id="run-2026-05-12-002"),
    ]
    problems, _ = problems_of(runs)
    assert [p for p, _ in problems] == [path("R09"), path("R03", "run-2026-05-12-002")]


def test_one_reviewer_per_run_needs_no_registry_and_double_review_does():
    single = DEFAULT._replace(reviewers_per_run=1)
    problems, result = problems_of(
        [scoring("R07", [2] * 6)], reviewers=None, policy=single, registry_missing=True
    )
    assert problems == []
    assert result.consolidation.runs[0].method == "single"
    assert result.pairs == []
    problems, _ = problems_of([scoring("R01", [2] * 6)], reviewers=None, registry_missing=True)
    assert problems == [
        (
            "subjects/reviewers.yaml",
            "file is missing: with reviewers_per_run 2 every reviewer must be registered "
            "with its roles",
        )
    ]


def test_pending_runs_are_errors_only_under_strict():
    problems, result = problems_of([scoring("R01", [2] * 6)])
    assert problems == []
    assert [tuple(p) for p in result.pending] == [
        (path("R01"), "the run awaits its second review (strict mode)")
    ]


def test_the_policy_of_v1_and_its_overrides():
    assert review_policy(POLICY_FILE, {}) == DEFAULT._replace(reviewers_per_run=1)
    assert review_policy(POLICY_FILE, {"reviewers_per_run": 2, "strict": True}) == DEFAULT
    overridden = review_policy(
        POLICY_FILE,
        {
            "reviewers_per_run": 2,
            "divergence_rules": "raw_score, classification",
            "critical_fails": "union",
        },
    )
    assert overridden.divergence_rules == ("classification", "raw_score")
    assert overridden.critical_fails == "union"
    assert review_policy(POLICY_FILE, {"divergence_rules": "none"}).divergence_rules == ()
    with pytest.raises(PolicyError, match="unknown rule"):
        review_policy(POLICY_FILE, {"divergence_rules": ["class"]})


def test_coverage_counts_and_the_scorings_that_count():
    from ro_metrics.contracts.records import CoverageRow

    rows = [CoverageRow(SUBJECT, VERSION, 10, 8, 2, "", "", "", "")]
    pending = [
        PendingRun(
            SUBJECT,
            VERSION,
            "RO-FOUL-001",
            "r1",
            "pending_arbitration",
            [],
            [],
            True,
            [],
            "",
            [],
        ),
        PendingRun(
            SUBJECT,
            VERSION,
            "RO-FOUL-002",
            "r1",
            "awaiting_second_review",
            [],
            [],
            False,
            [],
            "",
            [],
        ),
    ]
    # 8 scored runs, 2 of them pending: 6 in R; 6 + 2 unscored + 1 + 1 = 10 responses.
    assert coverage_with_reviews(rows, pending) == [
        [SUBJECT, VERSION, 10, 6, 2, 1, 1, "", "", "", ""]
    ]
    mean = ConsolidatedRun(
        "s", "v", "c", "r1", "mean_of_primaries", "R01+R02", ["R01", "R02"], "", "", [], [], 0, 0
    )
    arbitrated = ConsolidatedRun(
        "s", "v", "c", "r2", "arbiter", "R04", ["R01", "R03"], "R04", "", [], [], 0, 0
    )
    assert counted_scorings([mean, arbitrated]) == {
        ("s", "c", "r1", "R01"),
        ("s", "c", "r1", "R02"),
        ("s", "c", "r2", "R04"),
    }


def test_metrics_on_a_half_clipped_score_and_a_quarter_correctness():
    # Brier of (confidence 50, correctness 0.75): (0.5 − 0.75)² = 0.0625; with (80, 1):
    # (0.8 − 1)² = 0.04; mean 0.05125. ECE: both in different bins, |0.5 − 0.75| +
    # |0.8 − 1| = 0.45 over 2 runs = 0.225. Mean clipped (8.5 + 9) / 2 = 8.75.
    assert cm.brier_score([50, 80], [0.75, 1.0]) == 0.05125
    assert cm.expected_calibration_error([50, 80], [0.75, 1.0]) == 0.225
    assert cm.mean_clipped_score([8.5, 9]) == 8.75
    # Q_final, α = 0.5, no pass: 0.5 · 0 + 0.5 · 8.75 / 12 = 0.364583… = 35/96.
    assert cm.q_final(["Conditional", "Conditional"], [8.5, 9], 0.5) == 35 / 96
    with pytest.raises(ValueError, match="correctness"):
        cm.brier_score([50], [0.3])
    # The bootstrap's replicate of the identity draw gives the same values.
    subject = SubjectRuns(
        SUBJECT, VERSION, ["c1", "c2"], ["Conditional"] * 2, [8.5, 9], [50, 80], [0.75, 1.0], True
    )
    import numpy as np

    cases = SubjectCases(case_sums(subject), subject.eligible)
    values = replicate_metrics([cases], 0.5, np.array([[1, 1]])).values
    assert values["mean_clipped_score"][0, 0] == 8.75
    assert values["brier"][0, 0] == 0.05125
    assert values["ece"][0, 0] == 0.225
    assert values["q_final"][0, 0] == 35 / 96


# --- Provenance: the review policy in metadata.json, the registries in the digests ----


def test_metadata_records_the_effective_review_policy():
    import hashlib

    from ro_metrics.history.metadata import effective_review_policy

    digest = "sha256:" + hashlib.sha256(POLICY_FILE.read_bytes()).hexdigest()
    single = {**DEFAULT._replace(reviewers_per_run=1)._asdict(), "unneeded_arbiter": "error"}
    assert effective_review_policy(single, POLICY_FILE) == {
        "reviewers_per_run": 1,
        "document": "system/rubric/v1.0/review_policy.yaml",
        "digest": digest,
    }
    k0 = {**DEFAULT._replace(raw_score_threshold=0)._asdict(), "unneeded_arbiter": "warning"}
    assert effective_review_policy(k0, POLICY_FILE) == {
        "reviewers_per_run": 2,
        "agreed_value": "mean",
        "critical_fails": "arbiter",
        "divergence_rules": list(DEFAULT.divergence_rules),
        "raw_score_threshold": 0,
        "unneeded_arbiter": "warning",
        "document": "system/rubric/v1.0/review_policy.yaml",
        "digest": digest,
    }


def test_the_reviewer_registry_and_annotations_are_inputs_where_present(tmp_path):
    import hashlib

    from ro_metrics.corpus.cross_check import optional_input_digests

    assert optional_input_digests(tmp_path, 100) == []
    (tmp_path / "subjects").mkdir()
    (tmp_path / "subjects/reviewers.yaml").write_bytes(b"reviewers: []\n")
    (tmp_path / "subjects/annotations.yaml").write_bytes(b"x" * 101)
    assert [tuple(found) for found in optional_input_digests(tmp_path, 100)] == [
        ("subjects/reviewers.yaml", hashlib.sha256(b"reviewers: []\n").hexdigest()),
        # Larger than the limit: not read, its size digested.
        ("subjects/annotations.yaml", hashlib.sha256(b"size 101").hexdigest()),
    ]
