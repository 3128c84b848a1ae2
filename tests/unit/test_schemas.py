"""The v1.0 JSON Schemas accept the real samples and reject malformed documents.

Every check runs under both validators the project uses, ``jsonschema``
(Draft7Validator) and ``fastjsonschema``; the two must agree on every document.

The samples are copies (``tests/data/samples/``) of the published files in
``<repo>/../shared/spec/samples/``, so the suite does not depend on that
folder; when it exists, the copies are checked against it.
"""

from __future__ import annotations

import copy
import datetime
import filecmp
import functools
import json
from collections.abc import Callable
from typing import Any

import fastjsonschema
import jsonschema
import pytest
import yaml

from ro_metrics.corpus.decoding import inline_definitions
from workflow_runs import REPO, SAMPLES

SCHEMA_DIR = REPO / "system" / "schemas" / "v1.0"
SHARED_SAMPLES = REPO.parent / "shared" / "spec" / "samples"

SAMPLE_FILES = {
    "response": "response.RO-FOUL-008__run-2026-05-12-001.json",
    "evaluation": "scoring.RO-FOUL-008__run-2026-05-12-001__eval-R01.json",
    "gold": "gold.RO-OXID-006_gold.md",
    "registry": "registry.yaml",
}
KINDS = tuple(SAMPLE_FILES)


# --------------------------------------------------------------------------
# Loading
# --------------------------------------------------------------------------


def gold_json_block(markdown: str) -> str:
    """Return the text of the single ```json fenced block of a gold file."""
    blocks: list[str] = []
    current: list[str] | None = None
    for line in markdown.splitlines():
        if current is None:
            if line.startswith("```json"):
                current = []
        elif line.startswith("```"):
            blocks.append("\n".join(current))
            current = None
        else:
            current.append(line)
    if current is not None or len(blocks) != 1:
        raise ValueError(f"expected exactly one closed ```json block, got {blocks}")
    return blocks[0]


def _load_sample(kind: str) -> Any:
    text = (SAMPLES / SAMPLE_FILES[kind]).read_text(encoding="utf-8")
    if kind == "gold":
        return json.loads(gold_json_block(text))
    if kind == "registry":
        return yaml.safe_load(text)
    return json.loads(text)


def sample(kind: str) -> Any:
    """A fresh deep copy of the parsed sample of ``kind``."""
    return copy.deepcopy(_cached_sample(kind))


_cached_sample = functools.cache(_load_sample)


@functools.cache
def schema(kind: str) -> dict[str, Any]:
    return json.loads((SCHEMA_DIR / f"{kind}.schema.json").read_text("utf-8"))


@functools.cache
def validators(kind: str) -> tuple[jsonschema.Draft7Validator, Callable]:
    # The fast validator exactly as the load step compiles it (definitions inlined).
    fast = fastjsonschema.compile(inline_definitions(schema(kind)))
    return jsonschema.Draft7Validator(schema(kind)), fast


def verdicts(kind: str, doc: Any) -> tuple[bool, bool]:
    """(jsonschema says valid, fastjsonschema says valid) for ``doc``."""
    draft7, fast = validators(kind)
    by_jsonschema = draft7.is_valid(doc)
    try:
        fast(copy.deepcopy(doc))
    except fastjsonschema.JsonSchemaException:
        by_fast = False
    else:
        by_fast = True
    return by_jsonschema, by_fast


# --------------------------------------------------------------------------
# Document surgery
# --------------------------------------------------------------------------


def setting(path: str, value: Any) -> Callable[[Any], None]:
    """Mutator: set the item at a dotted ``path`` (integers index lists)."""

    def mutate(doc: Any) -> None:
        *parents, last = _steps(path)
        target = doc
        for step in parents:
            target = target[step]
        target[last] = value

    return mutate


def deleting(path: str) -> Callable[[Any], None]:
    """Mutator: delete the item at a dotted ``path``."""

    def mutate(doc: Any) -> None:
        *parents, last = _steps(path)
        target = doc
        for step in parents:
            target = target[step]
        del target[last]

    return mutate


def _steps(path: str) -> list[str | int]:
    return [int(step) if step.isdigit() else step for step in path.split(".")]


def mutated(kind: str, *mutators: Callable[[Any], None]) -> Any:
    doc = sample(kind)
    for mutate in mutators:
        mutate(doc)
    return doc


CRITERIA = (
    "main_hypothesis",
    "key_signals",
    "alternatives",
    "recommended_action",
    "requested_data",
    "decision_change_condition",
)
FAIL = "automatic_fails_triggered.0"
VERSION = "subjects.0.versions.0"
GPT5 = "subjects.1.versions.0"  # has a sampling_policy
ALT = "alternatives.0"
CS = "criterion_scores.main_hypothesis"
NOW = "2026-05-12T14:23:55Z"


# --------------------------------------------------------------------------
# The schemas themselves
# --------------------------------------------------------------------------


def _walk(node: Any):
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from _walk(value)


@pytest.mark.parametrize("kind", KINDS)
def test_schema_is_a_self_contained_draft7_schema(kind: str) -> None:
    s = schema(kind)
    jsonschema.Draft7Validator.check_schema(s)
    assert s["$schema"] == "http://json-schema.org/draft-07/schema#"
    assert s["title"] and s["description"]
    for node in _walk(s):
        assert "$id" not in node
        # fastjsonschema asserts "format" and writes "default" into the
        # document; Draft7Validator does neither. Neither keyword is used.
        assert "format" not in node and "default" not in node
        if "$ref" in node:
            assert node["$ref"].startswith("#/definitions/")
            # Draft 7 ignores siblings of $ref: only annotations beside it.
            assert set(node) <= {"$ref", "description"}


# --------------------------------------------------------------------------
# Samples
# --------------------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_sample_is_valid_under_both_libraries(kind: str) -> None:
    doc = sample(kind)
    draft7, fast = validators(kind)
    draft7.validate(doc)
    fast(doc)


def test_registry_sample_dates_are_quoted_strings() -> None:
    versions = [v for s in sample("registry")["subjects"] for v in s["versions"]]
    assert versions and all(isinstance(v["registered_at"], str) for v in versions)


@pytest.mark.skipif(not SHARED_SAMPLES.is_dir(), reason="shared/spec absent")
@pytest.mark.parametrize("name", sorted(SAMPLE_FILES.values()))
def test_sample_copy_matches_published_file(name: str) -> None:
    assert filecmp.cmp(SAMPLES / name, SHARED_SAMPLES / name, shallow=False)


def test_gold_block_extraction_requires_exactly_one_block() -> None:
    block = "```json\n{}\n```\n"
    assert gold_json_block("# Gold\n" + block) == "{}"
    with pytest.raises(ValueError):
        gold_json_block("# no block\n")
    with pytest.raises(ValueError):
        gold_json_block(block + block)
    with pytest.raises(ValueError):
        gold_json_block("```json\n{}\n")


# --------------------------------------------------------------------------
# Invalid documents: rejected by both libraries
# --------------------------------------------------------------------------

INVALID: list[Any] = [
    # --- response -------------------------------------------------------
    ("response", "confidence-101", [setting("confidence", 101)]),
    ("response", "confidence-55.5", [setting("confidence", 55.5)]),
    ("response", "confidence-string", [setting("confidence", "80")]),
    ("response", "confidence-true", [setting("confidence", True)]),
    ("response", "confidence-false", [setting("confidence", False)]),
    ("response", "confidence-negative", [setting("confidence", -1)]),
    ("response", "confidence-null", [setting("confidence", None)]),
    ("response", "confidence-missing", [deleting("confidence")]),
    ("response", "extra-property", [setting("temperature", 0)]),
    ("response", "alternative-extra-property", [setting(f"{ALT}.score", 1)]),
    ("response", "alternative-missing-key", [deleting(f"{ALT}.why_discardable")]),
    ("response", "alternative-empty-string", [setting(f"{ALT}.hypothesis", "")]),
    ("response", "alternatives-empty", [setting("alternatives", [])]),
    ("response", "alternatives-not-objects", [setting("alternatives", ["x"])]),
    ("response", "key-signals-empty", [setting("key_signals", [])]),
    ("response", "key-signal-empty-string", [setting("key_signals", [""])]),
    ("response", "key-signals-string", [setting("key_signals", "ATP up")]),
    ("response", "main-hypothesis-empty", [setting("main_hypothesis", "")]),
    ("response", "main-hypothesis-missing", [deleting("main_hypothesis")]),
    ("response", "requested-data-empty", [setting("requested_data", "")]),
    ("response", "action-not-string", [setting("recommended_action", ["a"])]),
    ("response", "decision-change-empty", [setting("decision_change_condition", "")]),
    ("response", "served-model-empty", [setting("served_model", "")]),
    ("response", "track-unknown", [setting("track", "fast")]),
    ("response", "track-capitalised", [setting("track", "Classic")]),
    ("response", "case-id-bad-family", [setting("case_id", "RO-XXXX-008")]),
    ("response", "case-id-two-digits", [setting("case_id", "RO-FOUL-08")]),
    ("response", "case-id-four-digits", [setting("case_id", "RO-FOUL-0080")]),
    ("response", "case-id-lowercase", [setting("case_id", "ro-foul-008")]),
    ("response", "case-id-trailing-newline", [setting("case_id", "RO-FOUL-008\n")]),
    ("response", "run-id-short-month", [setting("run_id", "run-2026-5-12-001")]),
    ("response", "run-id-no-prefix", [setting("run_id", "2026-05-12-001")]),
    (
        "response",
        "run-id-trailing-newline",
        [setting("run_id", "run-2026-05-12-001\n")],
    ),
    ("response", "subject-id-uppercase", [setting("subject_id", "Claude-haiku")]),
    ("response", "subject-id-one-char", [setting("subject_id", "a")]),
    ("response", "subject-id-65-chars", [setting("subject_id", "a" * 65)]),
    ("response", "subject-id-leading-dash", [setting("subject_id", "-claude")]),
    ("response", "subject-id-dot", [setting("subject_id", "claude.haiku")]),
    ("response", "subject-id-slash", [setting("subject_id", "claude/haiku")]),
    ("response", "subject-version-empty", [setting("subject_version", "")]),
    ("response", "benchmark-version-no-v", [setting("benchmark_version", "1.0")]),
    ("response", "benchmark-version-major-only", [setting("benchmark_version", "v1")]),
    ("response", "timestamp-space", [setting("timestamp_utc", "2026-05-12 14:23:55Z")]),
    (
        "response",
        "timestamp-offset-without-colon",
        [setting("timestamp_utc", "2026-05-12T14:23:55+0000")],
    ),
    (
        "response",
        "timestamp-offset-hour-24",
        [setting("timestamp_utc", "2026-05-12T14:23:55+24:00")],
    ),
    (
        "response",
        "timestamp-no-zone",
        [setting("timestamp_utc", "2026-05-12T14:23:55")],
    ),
    (
        "response",
        "timestamp-month-13",
        [setting("timestamp_utc", "2026-13-12T14:23:55Z")],
    ),
    (
        "response",
        "timestamp-hour-24",
        [setting("timestamp_utc", "2026-05-12T24:00:00Z")],
    ),
    ("response", "timestamp-trailing-newline", [setting("timestamp_utc", NOW + "\n")]),
    # --- evaluation (reviewer scoring) -----------------------------------
    ("evaluation", "score-3", [setting(f"{CS}.score", 3)]),
    ("evaluation", "score-negative", [setting(f"{CS}.score", -1)]),
    ("evaluation", "score-1.5", [setting(f"{CS}.score", 1.5)]),
    ("evaluation", "score-true", [setting(f"{CS}.score", True)]),
    ("evaluation", "score-false", [setting(f"{CS}.score", False)]),
    ("evaluation", "score-string", [setting(f"{CS}.score", "2")]),
    ("evaluation", "score-missing", [deleting(f"{CS}.score")]),
    ("evaluation", "justification-empty", [setting(f"{CS}.justification", "")]),
    ("evaluation", "justification-missing", [deleting(f"{CS}.justification")]),
    (
        "evaluation",
        "justification-long-49",
        [setting(f"{CS}.justification_long", "x" * 49)],
    ),
    ("evaluation", "criterion-missing", [deleting("criterion_scores.key_signals")]),
    (
        "evaluation",
        "criterion-extra",
        [setting("criterion_scores.clarity", {"score": 1, "justification": "x"})],
    ),
    ("evaluation", "criterion-not-object", [setting(f"{CS}", 2)]),
    ("evaluation", "extra-property", [setting("raw_score", 10)]),
    ("evaluation", "correctness-0.3", [setting("correctness", 0.3)]),
    ("evaluation", "correctness-true", [setting("correctness", True)]),
    ("evaluation", "correctness-false", [setting("correctness", False)]),
    ("evaluation", "correctness-string", [setting("correctness", "1")]),
    ("evaluation", "correctness-2", [setting("correctness", 2)]),
    ("evaluation", "correctness-negative", [setting("correctness", -0.5)]),
    ("evaluation", "correctness-null", [setting("correctness", None)]),
    ("evaluation", "correctness-nan", [setting("correctness", float("nan"))]),
    ("evaluation", "correctness-missing", [deleting("correctness")]),
    ("evaluation", "severity-unknown", [setting(f"{FAIL}.severity", "major")]),
    ("evaluation", "severity-capitalised", [setting(f"{FAIL}.severity", "Critical")]),
    ("evaluation", "fail-type-unknown", [setting(f"{FAIL}.type", "specific")]),
    ("evaluation", "fail-reference-empty", [setting(f"{FAIL}.reference", "")]),
    ("evaluation", "fail-justification-missing", [deleting(f"{FAIL}.justification")]),
    ("evaluation", "fail-extra-property", [setting(f"{FAIL}.penalty", 1)]),
    ("evaluation", "fails-missing", [deleting("automatic_fails_triggered")]),
    ("evaluation", "fails-not-array", [setting("automatic_fails_triggered", {})]),
    ("evaluation", "response-ref-extra", [setting("response_ref.reviewer_id", "R01")]),
    ("evaluation", "response-ref-missing-run", [deleting("response_ref.run_id")]),
    (
        "evaluation",
        "response-ref-bad-case-id",
        [setting("response_ref.case_id", "RO-FOUL-8")],
    ),
    (
        "evaluation",
        "response-ref-bad-run-id",
        [setting("response_ref.run_id", "run-2026-05-12")],
    ),
    (
        "evaluation",
        "response-ref-bad-subject",
        [setting("response_ref.subject_id", "Claude")],
    ),
    (
        "evaluation",
        "response-ref-empty-version",
        [setting("response_ref.subject_version", "")],
    ),
    ("evaluation", "reviewer-id-empty", [setting("reviewer_id", "")]),
    ("evaluation", "reviewer-id-slash", [setting("reviewer_id", "R/01")]),
    ("evaluation", "reviewer-notes-missing", [deleting("reviewer_notes")]),
    ("evaluation", "reviewer-notes-null", [setting("reviewer_notes", None)]),
    ("evaluation", "evaluation-id-empty", [setting("evaluation_id", "")]),
    (
        "evaluation",
        "scoring-timestamp-date-only",
        [setting("scoring_timestamp_utc", "2026-05-13")],
    ),
    ("evaluation", "benchmark-version-bad", [setting("benchmark_version", "v1.0.0")]),
    # --- gold ---------------------------------------------------------------
    ("gold", "rubric-floor-12", [setting("rubric_floor", 12)]),
    ("gold", "rubric-floor-negative", [setting("rubric_floor", -1)]),
    ("gold", "rubric-floor-true", [setting("rubric_floor", True)]),
    ("gold", "rubric-floor-3.5", [setting("rubric_floor", 3.5)]),
    ("gold", "rubric-ceiling-0", [setting("rubric_ceiling", 0)]),
    ("gold", "rubric-ceiling-13", [setting("rubric_ceiling", 13)]),
    ("gold", "rubric-ceiling-string", [setting("rubric_ceiling", "10")]),
    ("gold", "family-unknown", [setting("family", "XXXX")]),
    ("gold", "family-mismatch", [setting("family", "SCAL")]),
    ("gold", "family-mismatch-case-id", [setting("case_id", "RO-FOUL-006")]),
    ("gold", "family-missing", [deleting("family")]),
    ("gold", "case-type-unknown", [setting("case_type", "Trivial")]),
    ("gold", "case-type-lowercase", [setting("case_type", "ambiguous")]),
    ("gold", "case-id-bad", [setting("case_id", "RO-OXID-6")]),
    ("gold", "extra-property", [setting("difficulty", "hard")]),
    ("gold", "hypotheses-empty", [setting("accepted_main_hypotheses", [])]),
    (
        "gold",
        "anchors-empty",
        [setting("accepted_main_hypotheses.0.semantic_anchors", [])],
    ),
    ("gold", "hypothesis-missing", [deleting("accepted_main_hypotheses.0.hypothesis")]),
    ("gold", "key-signals-empty", [setting("expected_key_signals", [])]),
    ("gold", "non-ignorable-missing", [deleting("non_ignorable_signals")]),
    ("gold", "requested-data-empty", [setting("accepted_requested_data", [])]),
    ("gold", "datum-missing", [deleting("accepted_requested_data.0.datum")]),
    ("gold", "actions-empty", [setting("accepted_recommended_actions", [])]),
    (
        "gold",
        "rationale-missing",
        [deleting("accepted_recommended_actions.0.rationale")],
    ),
    (
        "gold",
        "four-specific-fails",
        [
            setting(
                "case_specific_automatic_fails",
                [{"description": "d", "severity": "critical", "justification": "j"}] * 4,
            )
        ],
    ),
    (
        "gold",
        "specific-fail-bad-severity",
        [
            setting(
                "case_specific_automatic_fails",
                [{"description": "d", "severity": "fatal", "justification": "j"}],
            )
        ],
    ),
    (
        "gold",
        "specific-fail-missing-key",
        [
            setting(
                "case_specific_automatic_fails",
                [{"description": "d", "severity": "critical"}],
            )
        ],
    ),
    ("gold", "specific-fails-missing", [deleting("case_specific_automatic_fails")]),
    ("gold", "benchmark-version-bad", [setting("benchmark_version", "1.0")]),
    # --- registry -------------------------------------------------------------
    ("registry", "subjects-empty", [setting("subjects", [])]),
    ("registry", "subjects-missing", [deleting("subjects")]),
    ("registry", "subjects-mapping", [setting("subjects", {"gpt-5": {}})]),
    (
        "registry",
        "subject-id-bad",
        [setting("subjects.0.subject_id", "Human Baseline")],
    ),
    ("registry", "subject-id-missing", [deleting("subjects.0.subject_id")]),
    ("registry", "kind-unknown", [setting("subjects.0.kind", "robot")]),
    ("registry", "provider-missing", [deleting("subjects.0.provider")]),
    ("registry", "provider-empty", [setting("subjects.0.provider", "")]),
    ("registry", "versions-empty", [setting("subjects.0.versions", [])]),
    ("registry", "versions-missing", [deleting("subjects.0.versions")]),
    ("registry", "access-type-unknown", [setting(f"{VERSION}.access_type", "ftp")]),
    ("registry", "access-type-missing", [deleting(f"{VERSION}.access_type")]),
    ("registry", "subject-version-empty", [setting(f"{VERSION}.subject_version", "")]),
    (
        "registry",
        "registered-at-unquoted-date",
        [setting(f"{VERSION}.registered_at", datetime.date(2026, 5, 7))],
    ),
    (
        "registry",
        "registered-at-short-month",
        [setting(f"{VERSION}.registered_at", "2026-5-07")],
    ),
    (
        "registry",
        "registered-at-datetime",
        [setting(f"{VERSION}.registered_at", "2026-05-07T00:00:00Z")],
    ),
    ("registry", "registered-at-missing", [deleting(f"{VERSION}.registered_at")]),
    ("registry", "pins-id-string", [setting(f"{VERSION}.provider_pins_id", "yes")]),
    ("registry", "pins-id-integer", [setting(f"{VERSION}.provider_pins_id", 1)]),
    (
        "registry",
        "sampling-kind-unknown",
        [setting(f"{GPT5}.sampling_policy.kind", "turbo")],
    ),
    ("registry", "sampling-kind-missing", [deleting(f"{GPT5}.sampling_policy.kind")]),
    # validation-rules.md: every object is closed, every named string non-empty.
    ("evaluation", "criterion-extra-member", [setting(f"{CS}.notes", "x")]),
    ("gold", "hypothesis-empty", [setting("accepted_main_hypotheses.0.hypothesis", "")]),
    ("gold", "hypothesis-extra-member", [setting("accepted_main_hypotheses.0.note", "x")]),
    ("gold", "anchor-empty", [setting("accepted_main_hypotheses.0.semantic_anchors", [""])]),
    ("gold", "key-signal-empty", [setting("expected_key_signals", [""])]),
    ("gold", "non-ignorable-empty", [setting("non_ignorable_signals", [""])]),
    ("gold", "datum-empty", [setting("accepted_requested_data.0.datum", "")]),
    ("gold", "datum-anchors-none", [setting("accepted_requested_data.0.semantic_anchors", [])]),
    ("gold", "datum-anchor-empty", [setting("accepted_requested_data.0.semantic_anchors", [""])]),
    ("gold", "datum-extra-member", [setting("accepted_requested_data.0.note", "x")]),
    ("gold", "action-empty", [setting("accepted_recommended_actions.0.action", "")]),
    ("gold", "rationale-empty", [setting("accepted_recommended_actions.0.rationale", "")]),
    ("gold", "action-extra-member", [setting("accepted_recommended_actions.0.note", "x")]),
    (
        "gold",
        "specific-fail-description-empty",
        [
            setting(
                "case_specific_automatic_fails",
                [{"description": "", "severity": "critical", "justification": "j"}],
            )
        ],
    ),
    (
        "gold",
        "specific-fail-justification-empty",
        [
            setting(
                "case_specific_automatic_fails",
                [{"description": "d", "severity": "critical", "justification": ""}],
            )
        ],
    ),
    (
        "gold",
        "specific-fail-extra-member",
        [
            setting(
                "case_specific_automatic_fails",
                [{"description": "d", "severity": "critical", "justification": "j", "x": 1}],
            )
        ],
    ),
    ("gold", "author-id-empty", [setting("gold_author_id", "")]),
    ("gold", "reviewer-id-empty", [setting("gold_reviewer_id", "")]),
    ("registry", "top-level-extra-member", [setting("maintainer", "x")]),
    ("registry", "subject-extra-member", [setting("subjects.0.homepage", "x")]),
    ("registry", "version-extra-member", [setting(f"{VERSION}.url", "x")]),
    ("registry", "policy-extra-member", [setting(f"{GPT5}.sampling_policy.temperature", 0)]),
    (
        "registry",
        "reasoning-effort-unknown",
        [setting(f"{GPT5}.sampling_policy.reasoning_effort", "max")],
    ),
]


@pytest.mark.parametrize(
    ("kind", "mutators"),
    [pytest.param(kind, mutators, id=f"{kind}-{name}") for kind, name, mutators in INVALID],
)
def test_invalid_document_is_rejected_by_both_libraries(kind: str, mutators: list) -> None:
    doc = mutated(kind, *mutators)
    assert verdicts(kind, doc) == (False, False)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("doc", [None, [], "x", 1, True], ids=repr)
def test_non_object_document_is_rejected_by_both_libraries(kind: str, doc: Any) -> None:
    assert verdicts(kind, doc) == (False, False)


def test_invalid_list_has_unique_names() -> None:
    names = [(kind, name) for kind, name, _ in INVALID]
    assert len(names) == len(set(names))


# --------------------------------------------------------------------------
# Valid edge values: accepted by both libraries
# --------------------------------------------------------------------------

VALID: list[Any] = [
    ("response", "confidence-0", [setting("confidence", 0)]),
    ("response", "confidence-100", [setting("confidence", 100)]),
    ("response", "track-reasoning", [setting("track", "reasoning")]),
    ("response", "track-absent", [deleting("track")]),
    ("response", "served-model-absent", [deleting("served_model")]),
    ("response", "one-key-signal", [setting("key_signals", ["x"])]),
    ("response", "subject-id-2-chars", [setting("subject_id", "g5")]),
    ("response", "subject-id-64-chars", [setting("subject_id", "a" * 64)]),
    ("response", "subject-id-underscore", [setting("subject_id", "9_model-x")]),
    (
        "response",
        "timestamp-fraction",
        [setting("timestamp_utc", "2026-05-12T14:23:55.123Z")],
    ),
    ("response", "benchmark-version-v10.12", [setting("benchmark_version", "v10.12")]),
    # RFC 3339 date-times with any offset, as the benchmark accepts them.
    ("response", "timestamp-offset", [setting("timestamp_utc", "2026-05-12T14:23:55+00:00")]),
    (
        "response",
        "timestamp-negative-offset",
        [setting("timestamp_utc", "2026-05-12T09:53:55-04:30")],
    ),
    ("response", "timestamp-lower-case", [setting("timestamp_utc", "2026-05-12t14:23:55.5z")]),
    (
        "evaluation",
        "scoring-timestamp-offset",
        [setting("scoring_timestamp_utc", "2026-05-13T12:38:10+02:00")],
    ),
    ("evaluation", "correctness-0", [setting("correctness", 0)]),
    ("evaluation", "correctness-0.5", [setting("correctness", 0.5)]),
    ("evaluation", "correctness-1", [setting("correctness", 1)]),
    ("evaluation", "correctness-0.0", [setting("correctness", 0.0)]),
    ("evaluation", "correctness-1.0", [setting("correctness", 1.0)]),
    ("evaluation", "no-automatic-fails", [setting("automatic_fails_triggered", [])]),
    ("evaluation", "score-0", [setting(f"{CS}.score", 0)]),
    ("evaluation", "score-1", [setting(f"{CS}.score", 1)]),
    (
        "evaluation",
        "justification-long-50",
        [setting(f"{CS}.justification_long", "x" * 50)],
    ),
    ("evaluation", "reviewer-notes-empty", [setting("reviewer_notes", "")]),
    (
        "evaluation",
        "generic-recoverable-fail",
        [
            setting(f"{FAIL}.type", "generic"),
            setting(f"{FAIL}.severity", "recoverable"),
        ],
    ),
    ("evaluation", "reviewer-id-free-text", [setting("reviewer_id", "reviewer 7")]),
    (
        "gold",
        "floor-0-ceiling-12",
        [setting("rubric_floor", 0), setting("rubric_ceiling", 12)],
    ),
    (
        "gold",
        "floor-11-ceiling-1",
        [setting("rubric_floor", 11), setting("rubric_ceiling", 1)],
    ),
    ("gold", "case-type-closed", [setting("case_type", "Closed")]),
    ("gold", "case-type-semi-closed", [setting("case_type", "Semi-closed")]),
    ("gold", "case-type-open", [setting("case_type", "Open")]),
    (
        "gold",
        "other-family",
        [setting("case_id", "RO-NOWE-001"), setting("family", "NOWE")],
    ),
    (
        "gold",
        "three-specific-fails",
        [
            setting(
                "case_specific_automatic_fails",
                [{"description": "d", "severity": "recoverable", "justification": "j"}] * 3,
            )
        ],
    ),
    (
        "gold",
        "author-and-reviewer",
        [setting("gold_author_id", "A01"), setting("gold_reviewer_id", "R02")],
    ),
    ("registry", "no-sampling-policy", [deleting(f"{GPT5}.sampling_policy")]),
    (
        "registry",
        "reasoning-effort-minimal",
        [
            setting(
                f"{GPT5}.sampling_policy",
                {"kind": "reasoning", "reasoning_effort": "minimal"},
            )
        ],
    ),
    ("registry", "pins-id-false", [setting(f"{VERSION}.provider_pins_id", False)]),
    ("registry", "kind-committee", [setting("subjects.0.kind", "committee")]),
    (
        "registry",
        "access-local-weights",
        [setting(f"{VERSION}.access_type", "local_weights")],
    ),
    (
        "registry",
        "optional-fields-absent",
        [
            deleting("subjects.0.description"),
            deleting("subjects.0.contact"),
            deleting(f"{VERSION}.notes"),
        ],
    ),
]


@pytest.mark.parametrize(
    ("kind", "mutators"),
    [pytest.param(kind, mutators, id=f"{kind}-{name}") for kind, name, mutators in VALID],
)
def test_valid_edge_value_is_accepted_by_both_libraries(kind: str, mutators: list) -> None:
    doc = mutated(kind, *mutators)
    validators(kind)[0].validate(doc)  # a readable error if this fails
    assert verdicts(kind, doc) == (True, True)


# --------------------------------------------------------------------------
# Documented library behaviour the loaders must know about
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "path", "value"),
    [
        ("response", "confidence", 55.0),
        ("evaluation", f"{CS}.score", 2.0),
        ("gold", "rubric_floor", 3.0),
    ],
)
def test_integral_float_passes_integer_type_in_both_libraries(
    kind: str, path: str, value: float
) -> None:
    """JSON Schema's "integer" is any number with a zero fractional part.

    Both libraries accept 55.0 where an integer is required; the loaders
    therefore normalise such values with int() before using them (otherwise
    a per-run CSV would print 55.0 instead of 55).
    """
    assert verdicts(kind, mutated(kind, setting(path, value))) == (True, True)


def test_fastjsonschema_does_not_insert_defaults_or_mutate() -> None:
    for kind in KINDS:
        doc = sample(kind)
        validators(kind)[1](doc)
        assert doc == sample(kind)
