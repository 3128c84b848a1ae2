"""A published row's life (shared/spec/lifecycle.md): the annotations file, the quota, the
append-only and no-silent-overwrite checks, and withdrawn or invalidated versions left
out of every ranking, interval over ranks and neighbour test.

Values by hand; the rankings without a left-out version against an independent
computation: the same bootstrap run on the other versions only (same case universe, so
the same draw W).
"""

from pathlib import Path

import numpy as np
import pytest

from ro_metrics.contracts.records import Annotation
from ro_metrics.corpus.annotations import quota_warnings, read_annotations
from ro_metrics.formulas import rank_evidence as rk
from ro_metrics.formulas import uncertainty as un
from ro_metrics.formulas.ranking import active, left_out, ranked
from ro_metrics.history.lifecycle import append_only_problems, overwritten_values

pytestmark = pytest.mark.unit

REPO = Path(__file__).resolve().parents[2]
SCHEMA = REPO / "system/schemas/v1.0/annotations.schema.json"
REGISTERED = {
    "gpt-5": {"versions": {"gpt-5-2025-08-07": {"registered_at": "2026-04-22"}}},
    "atlas": {
        "versions": {f"atlas-{n}": {"registered_at": f"2026-0{n}-01"} for n in range(1, 6)}
        | {"atlas-old": {"registered_at": "2025-12-31"}}
    },
}


def corpus_with(tmp_path, text: str) -> Path:
    (tmp_path / "subjects").mkdir(exist_ok=True)
    (tmp_path / "subjects/annotations.yaml").write_text(text, "utf-8")
    return tmp_path


def test_no_file_is_no_annotation(tmp_path):
    assert read_annotations(tmp_path, SCHEMA, 2**20, REGISTERED) == ([], [])


def test_a_valid_file_in_its_order_with_dates_as_text(tmp_path):
    corpus = corpus_with(
        tmp_path,
        "annotations:\n"
        "  - {subject_id: gpt-5, subject_version: gpt-5-2025-08-07, label: corrected,\n"
        "     date: 2026-06-02, note: Re-scored., link: 'https://example.org/a'}\n"
        "  - {subject_id: atlas, subject_version: atlas-1, label: withdrawn,\n"
        "     date: '2026-06-03', note: By the submitter.}\n",
    )
    annotations, problems = read_annotations(corpus, SCHEMA, 2**20, REGISTERED)
    assert problems == []
    assert annotations == [
        Annotation(
            "gpt-5",
            "gpt-5-2025-08-07",
            "corrected",
            "2026-06-02",
            "Re-scored.",
            "https://example.org/a",
        ),
        Annotation("atlas", "atlas-1", "withdrawn", "2026-06-03", "By the submitter.", ""),
    ]


def test_every_problem_of_the_file_in_one_read_naming_its_field(tmp_path):
    corpus = corpus_with(
        tmp_path,
        "annotations:\n"
        "  - {subject_id: gpt-5, subject_version: gpt-5-2099, label: corrected,\n"
        "     date: 2026-06-02, note: x}\n"
        "  - {subject_id: nobody, subject_version: v, label: withdrawn, date: 2026-06-02,"
        " note: x}\n"
        "  - {subject_id: atlas, subject_version: atlas-1, label: withdrawn,"
        " date: 2026-02-30, note: x}\n",
    )
    _, problems = read_annotations(corpus, SCHEMA, 2**20, REGISTERED)
    assert problems == [
        (
            "subjects/annotations.yaml",
            "annotations.0.subject_version: 'gpt-5-2099' is not a version of 'gpt-5' in the "
            "registry",
        ),
        ("subjects/annotations.yaml", "annotations.1.subject_id: 'nobody' is not in the registry"),
        (
            "subjects/annotations.yaml",
            "annotations.2.date: '2026-02-30' is not a date (YYYY-MM-DD)",
        ),
    ]


def test_a_bad_label_is_a_schema_problem_naming_the_field(tmp_path):
    corpus = corpus_with(
        tmp_path,
        "annotations:\n"
        "  - {subject_id: gpt-5, subject_version: gpt-5-2025-08-07, label: retracted,"
        " date: 2026-06-02, note: x}\n"
        "  - {subject_id: gpt-5, subject_version: gpt-5-2025-08-07, label: corrected,"
        " date: June 2, note: x}\n",
    )
    _, problems = read_annotations(corpus, SCHEMA, 2**20, REGISTERED)
    assert problems == [
        (
            "subjects/annotations.yaml",
            "annotations.0.label: 'retracted' is not one of ['corrected', 'withdrawn', "
            "'invalidated']",
        ),
        (
            "subjects/annotations.yaml",
            "annotations.1.date: 'June 2' does not match '^[0-9]{4}-[0-9]{2}-[0-9]{2}$(?!\\\\n)'",
        ),
    ]


def test_the_quota_names_the_subject_the_year_and_the_versions():
    assert quota_warnings(REGISTERED) == [
        "Warning: subject atlas registered 5 versions in 2026, above the 4 a calendar year "
        "allows: atlas-1, atlas-2, atlas-3, atlas-4, atlas-5"
    ]
    four = {
        "atlas": {
            "versions": {f"a{n}": {"registered_at": "2026-01-0" + str(n)} for n in range(1, 5)}
        }
    }
    assert quota_warnings(four) == []


WITHDRAWN = Annotation("atlas", "atlas-1", "withdrawn", "2026-06-03", "By the submitter.", "")
CORRECTED = Annotation("gpt-5", "gpt-5-2025-08-07", "corrected", "2026-06-02", "Re-scored.", "")


def test_append_only_names_a_removed_and_an_edited_annotation():
    edited = CORRECTED._replace(note="Re-scored twice.")
    problems = append_only_problems([WITHDRAWN, CORRECTED], [edited], "2026-06-05")
    assert problems == [
        (
            "subjects/annotations.yaml",
            "the annotation withdrawn 2026-06-03 of atlas · atlas-1 published in the snapshot "
            "2026-06-05 was removed; annotations are append-only: restore it and add a new one "
            "on top",
        ),
        (
            "subjects/annotations.yaml",
            "the annotation corrected 2026-06-02 of gpt-5 · gpt-5-2025-08-07 published in the "
            "snapshot 2026-06-05 was edited (note 'Re-scored.' → 'Re-scored twice.'); "
            "annotations are append-only: restore it and add a new one on top",
        ),
    ]
    assert append_only_problems([WITHDRAWN], [WITHDRAWN, CORRECTED], "2026-06-05") == []


def row(version, q_final, n_runs="31"):
    return {"subject_id": "gpt-5", "subject_version": version, "q_final": q_final, "n_runs": n_runs}


def test_a_silent_overwrite_names_the_version_and_each_value():
    old, new = [row("v1", "0.8884")], [row("v1", "0.9012", "32")]
    assert overwritten_values(old, new, [], "2026-06-01") == [
        "gpt-5 · v1 changed since the snapshot 2026-06-01 without a 'corrected' annotation "
        "dated after it: q_final 0.8884 → 0.9012, n_runs 31 → 32"
    ]
    assert overwritten_values(old, [], [], "2026-06-01") == [
        "gpt-5 · v1 changed since the snapshot 2026-06-01 without a 'corrected' annotation "
        "dated after it: its row is no longer published"
    ]
    # A version added since the snapshot, or unchanged, is no overwrite.
    assert overwritten_values(old, [*old, row("v2", "0.5")], [], "2026-06-01") == []


def test_a_corrected_annotation_dated_after_the_snapshot_allows_the_change():
    old, new = [row("v1", "0.8884")], [row("v1", "0.9012")]
    after = Annotation("gpt-5", "v1", "corrected", "2026-06-02", "x", "")
    assert overwritten_values(old, new, [after], "2026-06-01") == []
    # On the snapshot's day or before, or another label: not a correction of it.
    for annotation in (after._replace(date="2026-06-01"), after._replace(label="withdrawn")):
        assert len(overwritten_values(old, new, [annotation], "2026-06-01")) == 1


def subject_row(subject_id, q_final, status="Eligible"):
    return {
        "subject_id": subject_id,
        "subject_version": "v1",
        "leaderboard_status": status,
        "q_final": q_final,
        "brier": "0.2",
        "ece": "0.1",
    }


def test_a_withdrawn_version_is_unranked_last_and_ranks_nobody_down():
    rows = [
        subject_row("a", "0.9"),
        subject_row("b", "0.8"),
        subject_row("c", "0.95", "Disqualified"),
        subject_row("d", "0.7"),
    ]
    left = left_out([{"subject_id": "a", "subject_version": "v1", "label": "withdrawn"}])
    assert left == {("a", "v1")}
    order = [(r["subject_id"], r["rank"]) for r in ranked(rows, left)]
    assert order == [("b", "1"), ("d", "2"), ("c", ""), ("a", "")]
    assert [r["subject_id"] for r in active(rows, left)] == ["b", "c", "d"]
    corrected = left_out([{"subject_id": "a", "subject_version": "v1", "label": "corrected"}])
    assert corrected == frozenset()


def runs(subject_id, pattern, eligible=True):
    """A version with one run per case c0..c5: (classification, clipped) per case."""
    case_runs = un.SubjectRuns(
        subject_id=subject_id,
        subject_version="v1",
        case_ids=[f"c{i}" for i in range(len(pattern))],
        classifications=[c for c, _ in pattern],
        clipped_scores=[s for _, s in pattern],
        confidences=[70] * len(pattern),
        correctness=[1.0] * len(pattern),
        eligible=eligible,
    )
    return un.SubjectCases(un.case_sums(case_runs), eligible)


PATTERNS = {
    "a": [("Pass", 12)] * 5 + [("Conditional", 9)],
    "b": [("Pass", 12), ("Conditional", 8), ("Pass", 11), ("Fail", 2), ("Pass", 12), ("Pass", 10)],
    "c": [
        ("Conditional", 8),
        ("Pass", 12),
        ("Fail", 3),
        ("Conditional", 7),
        ("Pass", 12),
        ("Fail", 1),
    ],
    "d": [
        ("Fail", 0),
        ("Conditional", 6),
        ("Fail", 2),
        ("Conditional", 8),
        ("Fail", 4),
        ("Pass", 12),
    ],
}


def test_ranks_and_tests_without_a_left_out_version_equal_a_bootstrap_without_it():
    every = [runs(name, pattern, eligible=name != "a") for name, pattern in PATTERNS.items()]
    others = [runs(name, pattern) for name, pattern in PATTERNS.items() if name != "a"]
    sample = un.bootstrap_sample(every, alpha=0.5, replicates=400, seed=11)
    alone = un.bootstrap_sample(others, alpha=0.5, replicates=400, seed=11)
    # The same case universe, so the same W.
    assert np.array_equal(sample.weights, alone.weights)
    keys = {("b", "v1"), ("c", "v1"), ("d", "v1")}
    result, expected = un.bootstrap_result(sample), un.bootstrap_result(alone)
    assert result.rank_intervals == expected.rank_intervals
    assert result.p_rank_1 == expected.p_rank_1
    assert ("a", "v1") in result.intervals and ("a", "v1") not in result.rank_intervals
    rows = [subject_row(n, q) for n, q in (("a", "0.9"), ("b", "0.7"), ("c", "0.6"), ("d", "0.4"))]
    left = frozenset({("a", "v1")})
    evidence = rk.ranking_evidence(un.restricted(sample, keys), active(rows, left))
    independent = rk.ranking_evidence(alone, rows[1:])
    assert evidence == independent
    assert [(t.upper_subject_id, t.lower_subject_id) for t in evidence.neighbours] == [
        ("b", "c"),
        ("c", "d"),
    ]
    assert {r.subject_id for r in evidence.ranks} == {"b", "c", "d"}
