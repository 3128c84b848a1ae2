"""The loader-level rules of validation-rules.md, on values worked out by hand."""

from fractions import Fraction

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from ro_metrics.contracts.records import Problem
from ro_metrics.contracts.vocabulary import newest_timestamp, timestamp_instant, utc_text
from ro_metrics.corpus.cross_check import llm_version_problems
from ro_metrics.corpus.partition import duplicate_evaluation_ids
from workflow_runs import REPO

# 2026-05-13T10:00:00Z is 1,778,666,400 s after the epoch: 20,586 days (1970-01-01 to
# 2026-05-13: 56 years, 14 of them leap, 56 · 365 + 14 = 20,454, plus 132 days of 2026
# before 13 May) · 86,400 s, plus 10 h.
TEN_O_CLOCK = 20_586 * 86_400 + 10 * 3600


def test_the_epoch_count_above_is_right():
    assert timestamp_instant("2026-05-13T10:00:00Z") == (TEN_O_CLOCK, 0)


@pytest.mark.parametrize(
    ("timestamp", "instant"),
    [
        ("2026-05-13T12:00:00+02:00", (TEN_O_CLOCK, Fraction(0))),
        ("2026-05-13T05:30:00-04:30", (TEN_O_CLOCK, Fraction(0))),
        ("2026-05-13t10:00:00z", (TEN_O_CLOCK, Fraction(0))),
        ("2026-05-13T10:00:00-00:00", (TEN_O_CLOCK, Fraction(0))),
        ("2026-05-13T10:00:00.25Z", (TEN_O_CLOCK, Fraction(1, 4))),
        # Nine fraction digits are kept exactly (a datetime keeps six).
        ("2026-05-13T10:00:00.000000001Z", (TEN_O_CLOCK, Fraction(1, 10**9))),
        ("2026-05-13T10:00:60Z", (TEN_O_CLOCK + 60, Fraction(0))),  # a leap second
    ],
)
def test_timestamp_instant(timestamp, instant):
    assert timestamp_instant(timestamp) == instant


def test_newest_is_by_instant_not_by_text():
    # As text, "…T01:00:00+03:00" on the 17th sorts last; as an instant it is 22:00 UTC
    # on the 16th, before 23:30 UTC.
    stamps = ["2026-05-17T01:00:00+03:00", "2026-05-16T23:30:00Z", "2026-05-16T12:43:22Z"]
    assert newest_timestamp(stamps) == "2026-05-16T23:30:00Z"
    assert newest_timestamp(stamps[:1] + stamps[2:]) == "2026-05-16T22:00:00Z"
    assert newest_timestamp(["2026-05-13T10:38:10Z", "2026-05-13T10:38:10.5Z"]) == (
        "2026-05-13T10:38:10.5Z"
    )
    assert newest_timestamp(["2026-05-13T10:38:10.25Z", "2026-05-13T10:38:10.3Z"]) == (
        "2026-05-13T10:38:10.3Z"
    )
    # Nine digits apart: equal for a datetime, ordered here.
    later = "2026-05-13T10:38:10.000000002Z"
    assert newest_timestamp(["2026-05-13T10:38:10.000000001Z", later]) == later


@pytest.mark.parametrize(
    ("stamps", "newest"),
    [
        # A leap second is the next minute's first second: the first of the two wins.
        (["2026-05-13T10:00:60Z", "2026-05-13T10:01:00Z"], "2026-05-13T10:00:60Z"),
        (["2026-05-13T10:01:00Z", "2026-05-13T10:00:60Z"], "2026-05-13T10:01:00Z"),
        # 30 February is 2 March to the calendar arithmetic: newer than 1 March.
        (["2026-03-01T00:00:00Z", "2026-02-30T00:00:00Z"], "2026-02-30T00:00:00Z"),
        # Hour 24 is the next day's midnight: the first of the two wins.
        (["2026-05-13T24:00:00Z", "2026-05-14T00:00:00Z"], "2026-05-13T24:00:00Z"),
        # The same instant written twice: the first, in UTC.
        (["2026-05-14T02:00:00+02:00", "2026-05-14T00:00:00Z"], "2026-05-14T00:00:00Z"),
        (["2026-05-14T00:00:00.0Z", "2026-05-14T00:00:00Z"], "2026-05-14T00:00:00.0Z"),
        # A lower-case t or z is not the plain form, and is compared by instant.
        (["2026-05-14t00:00:01z", "2026-05-14T00:00:00.9Z"], "2026-05-14T00:00:01Z"),
    ],
)
def test_newest_of_instants_written_in_other_forms(stamps, newest):
    assert newest_timestamp(stamps) == newest
    # The definition: the first of the latest instants, in UTC.
    assert newest == utc_text(max(stamps, key=timestamp_instant))


@given(
    st.lists(
        st.builds(
            "{}-{:02}-{:02}{}{:02}:{:02}:{:02}{}{}".format,
            st.sampled_from(["2026", "2027"]),
            st.integers(1, 12),
            st.integers(1, 31),
            st.sampled_from(["T", "t"]),
            st.integers(0, 24),
            st.integers(0, 59),
            st.integers(0, 60),
            st.sampled_from(["", ".0", ".5", ".50", ".05", ".999999999"]),
            st.sampled_from(["Z", "z", "+00:00", "+01:30", "-02:00"]),
        ),
        min_size=1,
        max_size=12,
    )
)
def test_newest_is_the_first_of_the_latest_instants(stamps):
    assert newest_timestamp(stamps) == utc_text(max(stamps, key=timestamp_instant))


def test_utc_text():
    assert utc_text("2026-05-13T10:38:10Z") == "2026-05-13T10:38:10Z"
    assert utc_text("2026-05-13T12:38:10.125+02:00") == "2026-05-13T10:38:10.125Z"
    assert utc_text("2026-01-01T01:00:00+02:00") == "2025-12-31T23:00:00Z"
    assert utc_text("2026-05-13t10:38:10z") == "2026-05-13T10:38:10Z"
    with pytest.raises(ValueError, match="not an RFC 3339 date-time"):
        utc_text("2026-05-13 10:38:10Z")


def llm(subject_id, *versions):
    return {"subject_id": subject_id, "kind": "llm", "provider": "p", "versions": list(versions)}


def version(name, policy=None, **fields):
    entry = {"subject_version": name, "registered_at": "2026-05-01", "access_type": "api"}
    if policy is not None:
        entry["sampling_policy"] = policy
    return {**entry, **fields}


CLASSIC = {"kind": "classic"}


def test_llm_versions_that_follow_every_rule_have_no_problem():
    subject = llm(
        "claude-haiku-4-5",
        version("claude-haiku-4-5-20251001", CLASSIC),
        version("Claude_Haiku.4.5", {"kind": "reasoning", "reasoning_effort": "low"}),
        version("claude-haiku-4-5", CLASSIC, provider_pins_id=True),
    )
    assert llm_version_problems(0, subject) == []


def test_each_llm_rule_names_its_field():
    subject = llm(
        "gpt-5",
        version("gpt-5-2025-08-07"),
        version("gpt-5-2025-08-07b", {"kind": "classic", "reasoning_effort": "high"}),
        version("gpt-5", CLASSIC),
        version("gpt-5", CLASSIC, provider_pins_id=False),
        version("o3-2025-04-16", CLASSIC),
    )
    assert llm_version_problems(3, subject) == [
        "subjects.3.versions.0: a version of a subject of kind llm needs a sampling_policy "
        "with its kind (classic or reasoning)",
        "subjects.3.versions.1.sampling_policy.reasoning_effort: not allowed with kind classic "
        "(a subject of kind llm)",
        "subjects.3.versions.2.subject_version: 'gpt-5' equals the subject_id; a version of a "
        "subject of kind llm must be a pinned snapshot, not an alias (unless "
        "provider_pins_id: true)",
        "subjects.3.versions.3.subject_version: 'gpt-5' equals the subject_id; a version of a "
        "subject of kind llm must be a pinned snapshot, not an alias (unless "
        "provider_pins_id: true)",
        "subjects.3.versions.4.subject_version: 'o3-2025-04-16' does not contain 'gpt', the "
        "first token of subject_id 'gpt-5' (with '.' and '_' read as '-'): a snapshot of one "
        "model family registered under another?",
    ]


@pytest.mark.parametrize(
    "registry",
    [REPO / "tests/data/samples/registry.yaml", REPO / "demo/corpus/subjects/registry.yaml"],
)
def test_the_published_sample_and_the_demo_registry_follow_the_llm_rules(registry):
    subjects = yaml.safe_load(registry.read_text("utf-8"))["subjects"]
    assert any(subject["kind"] == "llm" for subject in subjects)
    for index, subject in enumerate(subjects):
        if subject["kind"] == "llm":
            assert llm_version_problems(index, subject) == []


def test_one_evaluation_id_twice_in_a_subjects_folder_names_both_files():
    scorings = [
        ("scoring/v1.0/a/x.json", "ev-1"),
        ("scoring/v1.0/a/y.json", "ev-2"),
        ("scoring/v1.0/a/w.json", "ev-1"),
        ("scoring/v1.0/a/v.json", "ev-1"),
    ]
    also = "evaluation_id: 'ev-1' is not unique within the subject's folder (also in: "
    assert duplicate_evaluation_ids(scorings) == [
        Problem("scoring/v1.0/a/v.json", also + "scoring/v1.0/a/w.json, scoring/v1.0/a/x.json)"),
        Problem("scoring/v1.0/a/w.json", also + "scoring/v1.0/a/v.json, scoring/v1.0/a/x.json)"),
        Problem("scoring/v1.0/a/x.json", also + "scoring/v1.0/a/v.json, scoring/v1.0/a/w.json)"),
    ]


def test_one_evaluation_id_in_several_subjects_folders_is_accepted():
    """The benchmark's own convention: eval-<case_id>-<run_id>-<reviewer_id>, no subject."""
    evaluation_id = "eval-RO-FOUL-001-run-2026-05-12-001-R01"
    scorings = [
        (f"scoring/v1.0/{subject}/RO-FOUL-001__run-2026-05-12-001__eval-R01.json", evaluation_id)
        for subject in ("claude-haiku-4-5", "gpt-5", "mistral-small-3")
    ]
    assert duplicate_evaluation_ids(scorings) == []
