"""Validation parity with the benchmark's own validators (shared/spec/validation-rules.md).

One rejection per rule of the spec page, each on its own file of a copy of the demo
corpus. The file-level rules are all broken in one corpus and checked in one run (the
run must list every problem together), the registry's cross-entry rules in a second
run (a registry that breaks its schema is not cross-checked). Each rule's test asserts
its file and the rule's words; the run's test asserts a non-zero exit, no traceback,
and the published results and the corpus untouched. Then the other direction: what the
benchmark accepts, the workflow accepts too, and publishes as the benchmark means it.
"""

import copy
import csv
import json
import shutil
from pathlib import Path

import pytest
import yaml

from workflow_runs import COMMITTED_RESULTS, corpus_copy, run_workflow, tree_digest, workflow_copy

V = "v1.0"


def response(subject: str, stem: str) -> str:
    return f"responses/{V}/{subject}/{stem}.json"


def scoring(subject: str, stem: str, reviewer: str) -> str:
    return f"scoring/{V}/{subject}/{stem}__eval-{reviewer}.json"


def gold(case_id: str) -> str:
    return f"golds/{V}/{case_id}_gold.md"


def edit_json(relative: str, change):
    def mutate(root: Path) -> None:
        path = root / relative
        document = json.loads(path.read_text("utf-8"))
        change(document)
        path.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", "utf-8")

    return mutate


def setting(relative: str, *keys_and_value):
    *keys, value = keys_and_value

    def change(document):
        target = document
        for key in keys[:-1]:
            target = target[key]
        target[keys[-1]] = value

    return edit_json(relative, change)


def deleting(relative: str, *keys):
    def change(document):
        target = document
        for key in keys[:-1]:
            target = target[key]
        del target[keys[-1]]

    return edit_json(relative, change)


def edit_gold(relative: str, change):
    """Change the JSON block of a gold (its prose around the block stays)."""

    def mutate(root: Path) -> None:
        path = root / relative
        text = path.read_text("utf-8")
        head, rest = text.split("```json\n", 1)
        block, tail = rest.split("\n```", 1)
        document = json.loads(block)
        change(document)
        path.write_text(f"{head}```json\n{json.dumps(document, indent=2)}\n```{tail}", "utf-8")

    return mutate


def gold_setting(relative: str, *keys_and_value):
    *keys, value = keys_and_value

    def change(document):
        target = document
        for key in keys[:-1]:
            target = target[key]
        target[keys[-1]] = value

    return edit_gold(relative, change)


def a_fail(**fields):
    fail = {"type": "generic", "reference": "GEN-01", "severity": "recoverable"}
    return [{**fail, "justification": "The reviewer's reason.", **fields}]


def duplicate_evaluation_id(root: Path) -> None:
    first = root / scoring("atlas-7b", "RO-OXID-002__run-2026-05-12-001", "R01")
    second = root / scoring("atlas-7b", "RO-OXID-004__run-2026-05-12-001", "R02")
    taken = json.loads(first.read_text("utf-8"))["evaluation_id"]
    setting(str(second.relative_to(root)), "evaluation_id", taken)(root)


def two_gold_blocks(root: Path) -> None:
    path = root / gold("RO-MECH-006")
    text = path.read_text("utf-8")
    path.write_text(text + "\n```json\n{}\n```\n", "utf-8")


def edit_registry(change):
    def mutate(root: Path) -> None:
        path = root / "subjects/registry.yaml"
        document = yaml.safe_load(path.read_text("utf-8"))
        change({subject["subject_id"]: subject for subject in document["subjects"]}, document)
        path.write_text(yaml.safe_dump(document, sort_keys=False, allow_unicode=True), "utf-8")

    return mutate


def registry_schema_breaks(subjects: dict, document: dict) -> None:
    document["maintainer"] = "nobody"  # top level closed
    subjects["human-panel-baseline"]["homepage"] = "x"  # subject closed
    subjects["expert-rules-ro"]["provider"] = ""  # provider non-empty
    subjects["expert-rules-ro"]["kind"] = "oracle"  # kind enum
    versions = subjects["fjord-13b"]["versions"]
    versions[0]["url"] = "x"  # version closed
    versions[0]["access_type"] = "ftp"  # access_type enum
    del versions[0]["registered_at"]  # registered_at required
    policy = subjects["cirrus-reasoner"]["versions"][0]["sampling_policy"]
    policy["temperature"] = 0  # sampling_policy closed
    policy["reasoning_effort"] = "max"  # reasoning_effort enum


def registry_cross_entry_breaks(subjects: dict, document: dict) -> None:
    del subjects["fjord-13b"]["versions"][0]["sampling_policy"]
    subjects["atlas-7b"]["versions"][0]["sampling_policy"]["reasoning_effort"] = "low"
    alias = {"subject_version": "cirrus-reasoner", "registered_at": "2026-05-09"}
    subjects["cirrus-reasoner"]["versions"].append({**alias, "access_type": "api"})
    subjects["cirrus-reasoner"]["versions"][-1]["sampling_policy"] = {"kind": "reasoning"}
    other_family = {"subject_version": "borealis-xl-2027-01-01", "registered_at": "2026-05-09"}
    subjects["atlas-7b"]["versions"].append({**other_family, "access_type": "api"})
    subjects["atlas-7b"]["versions"][-1]["sampling_policy"] = {"kind": "classic"}
    borealis = subjects["borealis-xl"]["versions"]
    borealis.append(copy.deepcopy(borealis[0]))
    document["subjects"].append(copy.deepcopy(subjects["human-panel-baseline"]))


ATLAS_R = "atlas-7b"
BOREALIS = "borealis-xl"
CIRRUS = "cirrus-reasoner"
REGISTRY = "subjects/registry.yaml"

# (rule of validation-rules.md, mutation, file named, words of the rule in its message)
FILE_RULES = [
    # Every object is closed.
    (
        "response-closed",
        setting(response(ATLAS_R, "RO-FOUL-001__run-2026-05-12-001"), "mood", "x"),
        response(ATLAS_R, "RO-FOUL-001__run-2026-05-12-001"),
        "Additional properties are not allowed ('mood' was unexpected)",
    ),
    (
        "response-alternative-closed",
        setting(response(ATLAS_R, "RO-FOUL-002__run-2026-05-12-001"), "alternatives", 0, "x", 1),
        response(ATLAS_R, "RO-FOUL-002__run-2026-05-12-001"),
        "alternatives.0: Additional properties are not allowed ('x' was unexpected)",
    ),
    (
        "scoring-closed",
        setting(scoring(BOREALIS, "RO-FOUL-001__run-2026-04-20-002", "R03"), "grade", "A"),
        scoring(BOREALIS, "RO-FOUL-001__run-2026-04-20-002", "R03"),
        "Additional properties are not allowed ('grade' was unexpected)",
    ),
    (
        "response-ref-closed",
        setting(
            scoring(BOREALIS, "RO-MECH-001__run-2026-05-13-001", "R01"), "response_ref", "x", 1
        ),
        scoring(BOREALIS, "RO-MECH-001__run-2026-05-13-001", "R01"),
        "response_ref: Additional properties are not allowed ('x' was unexpected)",
    ),
    (
        "criterion-score-closed",
        setting(
            scoring(BOREALIS, "RO-FOUL-004__run-2026-05-13-001", "R03"),
            "criterion_scores",
            "alternatives",
            "note",
            "x",
        ),
        scoring(BOREALIS, "RO-FOUL-004__run-2026-05-13-001", "R03"),
        "criterion_scores.alternatives: Additional properties are not allowed ('note'",
    ),
    (
        "automatic-fail-closed",
        setting(
            scoring(ATLAS_R, "RO-MECH-001__run-2026-05-12-001", "R01"),
            "automatic_fails_triggered",
            [{**a_fail()[0], "weight": 1}],
        ),
        scoring(ATLAS_R, "RO-MECH-001__run-2026-05-12-001", "R01"),
        "automatic_fails_triggered.0: Additional properties are not allowed ('weight'",
    ),
    (
        "gold-closed",
        gold_setting(gold("RO-OXID-001"), "accepted_recommended_actions", 0, "note", "x"),
        gold("RO-OXID-001"),
        "accepted_recommended_actions.0: breaks the schema's 'additionalProperties' rule",
    ),
    # Responses.
    (
        "response-required",
        deleting(response(ATLAS_R, "RO-FOUL-003__run-2026-05-12-001"), "main_hypothesis"),
        response(ATLAS_R, "RO-FOUL-003__run-2026-05-12-001"),
        "'main_hypothesis' is a required property",
    ),
    (
        "response-served-model-non-empty",
        setting(response(ATLAS_R, "RO-FOUL-004__run-2026-05-12-001"), "served_model", ""),
        response(ATLAS_R, "RO-FOUL-004__run-2026-05-12-001"),
        "served_model: '' should be non-empty",
    ),
    (
        "response-track",
        setting(response(ATLAS_R, "RO-FOUL-004__run-2026-05-12-002"), "track", "fast"),
        response(ATLAS_R, "RO-FOUL-004__run-2026-05-12-002"),
        "track: 'fast' is not one of ['classic', 'reasoning']",
    ),
    (
        "response-string-non-empty",
        setting(response(ATLAS_R, "RO-FOUL-005__run-2026-05-12-001"), "recommended_action", ""),
        response(ATLAS_R, "RO-FOUL-005__run-2026-05-12-001"),
        "recommended_action: '' should be non-empty",
    ),
    (
        "response-key-signal-non-empty",
        setting(response(ATLAS_R, "RO-FOUL-006__run-2026-05-12-001"), "key_signals", ["ok", ""]),
        response(ATLAS_R, "RO-FOUL-006__run-2026-05-12-001"),
        "key_signals.1: '' should be non-empty",
    ),
    (
        "response-alternative-strings",
        setting(
            response(ATLAS_R, "RO-MECH-001__run-2026-05-12-002"),
            "alternatives",
            0,
            "why_discardable",
            "",
        ),
        response(ATLAS_R, "RO-MECH-001__run-2026-05-12-002"),
        "alternatives.0.why_discardable: '' should be non-empty",
    ),
    (
        "response-alternative-three-fields",
        deleting(
            response(ATLAS_R, "RO-MECH-002__run-2026-05-12-001"), "alternatives", 0, "why_plausible"
        ),
        response(ATLAS_R, "RO-MECH-002__run-2026-05-12-001"),
        "alternatives.0: 'why_plausible' is a required property",
    ),
    (
        "response-key-signals-one-item",
        setting(response(ATLAS_R, "RO-MECH-003__run-2026-05-12-001"), "key_signals", []),
        response(ATLAS_R, "RO-MECH-003__run-2026-05-12-001"),
        "key_signals: [] should be non-empty",
    ),
    (
        "response-alternatives-one-item",
        setting(response(ATLAS_R, "RO-MECH-004__run-2026-05-12-001"), "alternatives", []),
        response(ATLAS_R, "RO-MECH-004__run-2026-05-12-001"),
        "alternatives: [] should be non-empty",
    ),
    (
        "response-confidence-range",
        setting(response(ATLAS_R, "RO-MECH-005__run-2026-05-12-001"), "confidence", 101),
        response(ATLAS_R, "RO-MECH-005__run-2026-05-12-001"),
        "confidence: 101 is greater than the maximum of 100",
    ),
    (
        "response-confidence-integer",
        setting(response(ATLAS_R, "RO-MECH-005__run-2026-05-12-002"), "confidence", 78.5),
        response(ATLAS_R, "RO-MECH-005__run-2026-05-12-002"),
        "confidence: 78.5 is not of type 'integer'",
    ),
    (
        "response-timestamp-date-time",
        setting(
            response(ATLAS_R, "RO-MECH-006__run-2026-05-12-001"),
            "timestamp_utc",
            "2026-05-12 09:15:21",
        ),
        response(ATLAS_R, "RO-MECH-006__run-2026-05-12-001"),
        "timestamp_utc: '2026-05-12 09:15:21' does not match",
    ),
    (
        "response-ids-vs-file-name",
        setting(response(ATLAS_R, "RO-NOWE-001__run-2026-05-12-001"), "case_id", "RO-NOWE-002"),
        response(ATLAS_R, "RO-NOWE-001__run-2026-05-12-001"),
        "case_id is 'RO-NOWE-002' but the file's path says 'RO-NOWE-001'",
    ),
    # Scorings.
    (
        "scoring-required",
        deleting(scoring(ATLAS_R, "RO-NOWE-002__run-2026-05-12-001", "R02"), "reviewer_notes"),
        scoring(ATLAS_R, "RO-NOWE-002__run-2026-05-12-001", "R02"),
        "'reviewer_notes' is a required property",
    ),
    (
        "scoring-evaluation-id-non-empty",
        setting(scoring(ATLAS_R, "RO-NOWE-003__run-2026-05-12-001", "R02"), "evaluation_id", ""),
        scoring(ATLAS_R, "RO-NOWE-003__run-2026-05-12-001", "R02"),
        "evaluation_id: '' should be non-empty",
    ),
    (
        "scoring-response-ref-non-empty",
        setting(
            scoring(ATLAS_R, "RO-NOWE-004__run-2026-05-12-001", "R01"),
            "response_ref",
            "subject_version",
            "",
        ),
        scoring(ATLAS_R, "RO-NOWE-004__run-2026-05-12-001", "R01"),
        "response_ref.subject_version: '' should be non-empty",
    ),
    (
        "scoring-justification-non-empty",
        setting(
            scoring(ATLAS_R, "RO-NOWE-004__run-2026-05-12-002", "R03"),
            "criterion_scores",
            "key_signals",
            "justification",
            "",
        ),
        scoring(ATLAS_R, "RO-NOWE-004__run-2026-05-12-002", "R03"),
        "criterion_scores.key_signals.justification: '' should be non-empty",
    ),
    (
        "scoring-fail-reference-non-empty",
        setting(
            scoring(ATLAS_R, "RO-NOWE-005__run-2026-05-12-001", "R03"),
            "automatic_fails_triggered",
            a_fail(reference=""),
        ),
        scoring(ATLAS_R, "RO-NOWE-005__run-2026-05-12-001", "R03"),
        "automatic_fails_triggered.0.reference: '' should be non-empty",
    ),
    (
        "scoring-fail-justification-non-empty",
        setting(
            scoring(ATLAS_R, "RO-OXID-001__run-2026-05-12-001", "R02"),
            "automatic_fails_triggered",
            a_fail(justification=""),
        ),
        scoring(ATLAS_R, "RO-OXID-001__run-2026-05-12-001", "R02"),
        "automatic_fails_triggered.0.justification: '' should be non-empty",
    ),
    (
        "scoring-six-criteria",
        deleting(
            scoring(ATLAS_R, "RO-OXID-003__run-2026-05-12-001", "R01"),
            "criterion_scores",
            "requested_data",
        ),
        scoring(ATLAS_R, "RO-OXID-003__run-2026-05-12-001", "R01"),
        "criterion_scores: 'requested_data' is a required property",
    ),
    (
        "scoring-no-seventh-criterion",
        setting(
            scoring(ATLAS_R, "RO-OXID-003__run-2026-05-12-002", "R02"),
            "criterion_scores",
            "tone",
            {"score": 1, "justification": "x"},
        ),
        scoring(ATLAS_R, "RO-OXID-003__run-2026-05-12-002", "R02"),
        "criterion_scores: Additional properties are not allowed ('tone' was unexpected)",
    ),
    (
        "scoring-justification-long-50",
        setting(
            scoring(ATLAS_R, "RO-OXID-005__run-2026-05-12-001", "R02"),
            "criterion_scores",
            "alternatives",
            "justification_long",
            "Too short.",
        ),
        scoring(ATLAS_R, "RO-OXID-005__run-2026-05-12-001", "R02"),
        "criterion_scores.alternatives.justification_long: 'Too short.' is too short",
    ),
    (
        "scoring-score-0-1-2",
        setting(
            scoring(ATLAS_R, "RO-OXID-005__run-2026-05-12-002", "R02"),
            "criterion_scores",
            "main_hypothesis",
            "score",
            3,
        ),
        scoring(ATLAS_R, "RO-OXID-005__run-2026-05-12-002", "R02"),
        "criterion_scores.main_hypothesis.score: 3 is not one of [0, 1, 2]",
    ),
    (
        "scoring-fail-type",
        setting(
            scoring(ATLAS_R, "RO-OXID-006__run-2026-05-12-001", "R03"),
            "automatic_fails_triggered",
            a_fail(type="custom"),
        ),
        scoring(ATLAS_R, "RO-OXID-006__run-2026-05-12-001", "R03"),
        "automatic_fails_triggered.0.type: 'custom' is not one of ['generic', 'case_specific']",
    ),
    (
        "scoring-fail-severity",
        setting(
            scoring(ATLAS_R, "RO-SCAL-001__run-2026-05-12-001", "R01"),
            "automatic_fails_triggered",
            a_fail(severity="fatal"),
        ),
        scoring(ATLAS_R, "RO-SCAL-001__run-2026-05-12-001", "R01"),
        "automatic_fails_triggered.0.severity: 'fatal' is not one of ['critical', 'recoverable']",
    ),
    (
        "scoring-correctness",
        setting(scoring(ATLAS_R, "RO-SCAL-002__run-2026-05-12-001", "R03"), "correctness", 0.3),
        scoring(ATLAS_R, "RO-SCAL-002__run-2026-05-12-001", "R03"),
        "correctness: 0.3 is not one of [0, 0.5, 1]",
    ),
    (
        "scoring-ids-vs-file-name",
        setting(scoring(ATLAS_R, "RO-SCAL-003__run-2026-05-12-001", "R01"), "reviewer_id", "R09"),
        scoring(ATLAS_R, "RO-SCAL-003__run-2026-05-12-001", "R01"),
        "reviewer_id is 'R09' but the file's path says 'R01'",
    ),
    (
        "scoring-evaluation-id-unique",
        duplicate_evaluation_id,
        scoring(ATLAS_R, "RO-OXID-004__run-2026-05-12-001", "R02"),
        "evaluation_id: '",
    ),
    # Golds.
    ("gold-one-json-block", two_gold_blocks, gold("RO-MECH-006"), "2 ```json blocks"),
    (
        "gold-case-id-vs-file-name",
        gold_setting(gold("RO-MECH-005"), "case_id", "RO-MECH-009"),
        gold("RO-MECH-005"),
        "case_id is 'RO-MECH-009' but the file name says 'RO-MECH-005'",
    ),
    (
        "gold-family-vs-case-id",
        gold_setting(gold("RO-MECH-004"), "family", "SCAL"),
        gold("RO-MECH-004"),
        "case_id: 'RO-MECH-004' does not match '^RO-SCAL-'",
    ),
    (
        "gold-floor-range",
        gold_setting(gold("RO-MECH-003"), "rubric_floor", 12),
        gold("RO-MECH-003"),
        "rubric_floor: 12 is greater than the maximum of 11",
    ),
    (
        "gold-floor-below-ceiling",
        edit_gold(gold("RO-MECH-002"), lambda g: g.update(rubric_floor=g["rubric_ceiling"])),
        gold("RO-MECH-002"),
        "is not below rubric_ceiling",
    ),
    (
        "gold-hypotheses-one-item",
        gold_setting(gold("RO-MECH-001"), "accepted_main_hypotheses", []),
        gold("RO-MECH-001"),
        "accepted_main_hypotheses: breaks the schema's 'minItems' rule (1)",
    ),
    (
        "gold-hypothesis-non-empty",
        gold_setting(gold("RO-NOWE-001"), "accepted_main_hypotheses", 0, "hypothesis", ""),
        gold("RO-NOWE-001"),
        "accepted_main_hypotheses.0.hypothesis: breaks the schema's 'minLength' rule (1)",
    ),
    (
        "gold-anchor-non-empty",
        gold_setting(gold("RO-NOWE-002"), "accepted_main_hypotheses", 0, "semantic_anchors", [""]),
        gold("RO-NOWE-002"),
        "accepted_main_hypotheses.0.semantic_anchors.0: breaks the schema's 'minLength' rule",
    ),
    (
        "gold-key-signals-one-item",
        gold_setting(gold("RO-NOWE-003"), "expected_key_signals", []),
        gold("RO-NOWE-003"),
        "expected_key_signals: breaks the schema's 'minItems' rule (1)",
    ),
    (
        "gold-non-ignorable-non-empty",
        gold_setting(gold("RO-NOWE-004"), "non_ignorable_signals", [""]),
        gold("RO-NOWE-004"),
        "non_ignorable_signals.0: breaks the schema's 'minLength' rule (1)",
    ),
    (
        "gold-requested-data-anchors",
        gold_setting(gold("RO-NOWE-005"), "accepted_requested_data", 0, "semantic_anchors", []),
        gold("RO-NOWE-005"),
        "accepted_requested_data.0.semantic_anchors: breaks the schema's 'minItems' rule (1)",
    ),
    (
        "gold-action-rationale-non-empty",
        gold_setting(gold("RO-NOWE-006"), "accepted_recommended_actions", 0, "rationale", ""),
        gold("RO-NOWE-006"),
        "accepted_recommended_actions.0.rationale: breaks the schema's 'minLength' rule (1)",
    ),
    (
        "gold-specific-fails-at-most-3",
        edit_gold(
            gold("RO-OXID-002"),
            lambda g: g.update(
                case_specific_automatic_fails=[
                    {"description": "d", "severity": "critical", "justification": "j"}
                ]
                * 4
            ),
        ),
        gold("RO-OXID-002"),
        "case_specific_automatic_fails: breaks the schema's 'maxItems' rule (3)",
    ),
    (
        "gold-specific-fail-fields",
        gold_setting(
            gold("RO-OXID-003"),
            "case_specific_automatic_fails",
            [{"description": "d", "justification": "j"}],
        ),
        gold("RO-OXID-003"),
        "case_specific_automatic_fails.0: 'severity' is a required property",
    ),
    (
        "gold-author-non-empty",
        gold_setting(gold("RO-OXID-004"), "gold_author_id", ""),
        gold("RO-OXID-004"),
        "gold_author_id: breaks the schema's 'minLength' rule (1)",
    ),
    # Registry: the schema's rules (cross-entry rules: REGISTRY_RULES).
    ("registry-closed", None, REGISTRY, "Additional properties are not allowed ('maintainer'"),
    ("registry-subject-closed", None, REGISTRY, "subjects.0: Additional properties are not"),
    ("registry-provider-non-empty", None, REGISTRY, "provider: '' should be non-empty"),
    ("registry-kind", None, REGISTRY, "kind: 'oracle' is not one of ['llm', 'expert_system'"),
    ("registry-version-closed", None, REGISTRY, "('url' was unexpected)"),
    ("registry-access-type", None, REGISTRY, "access_type: 'ftp' is not one of ['api'"),
    ("registry-registered-at", None, REGISTRY, "'registered_at' is a required property"),
    ("registry-policy-closed", None, REGISTRY, "('temperature' was unexpected)"),
    ("registry-reasoning-effort", None, REGISTRY, "reasoning_effort: 'max' is not one of"),
]

REGISTRY_RULES = [
    ("registry-subject-id-unique", "subject_id 'human-panel-baseline' is listed 2 times"),
    (
        "registry-subject-version-unique",
        "subject_version 'borealis-xl-2026-01-15' is listed 2 times under subject 'borealis-xl'",
    ),
    (
        "registry-llm-needs-sampling-policy",
        "a version of a subject of kind llm needs a sampling_policy with its kind",
    ),
    (
        "registry-llm-classic-without-effort",
        "sampling_policy.reasoning_effort: not allowed with kind classic",
    ),
    (
        "registry-llm-version-not-an-alias",
        "subject_version: 'cirrus-reasoner' equals the subject_id; a version of a subject of "
        "kind llm must be a pinned snapshot, not an alias (unless provider_pins_id: true)",
    ),
    (
        "registry-llm-family-token",
        "subject_version: 'borealis-xl-2027-01-01' does not contain 'atlas', the first token "
        "of subject_id 'atlas-7b'",
    ),
]


def published(tmp: Path) -> Path:
    results = tmp / "published"
    shutil.copytree(COMMITTED_RESULTS, results)
    return results


class RejectedRun:
    def __init__(self, tmp: Path, mutations):
        self.corpus = corpus_copy(tmp / "corpus")
        for mutate in mutations:
            mutate(self.corpus)
        self.results = published(tmp)
        self.results_before = tree_digest(self.results)
        self.corpus_before = tree_digest(self.corpus)
        self.run = run_workflow(
            workflow_copy(tmp / "workflow"), corpus=self.corpus, results=self.results
        )

    def messages(self, relative: str) -> list[str]:
        prefix = f"{self.corpus}/{relative}: "
        return [line.split(prefix, 1)[1] for line in self.run.output.splitlines() if prefix in line]


@pytest.fixture(scope="module")
def file_rules_run(tmp_path_factory):
    mutations = [mutate for _, mutate, _, _ in FILE_RULES if mutate is not None]
    return RejectedRun(
        tmp_path_factory.mktemp("file-rules"), [*mutations, edit_registry(registry_schema_breaks)]
    )


@pytest.fixture(scope="module")
def registry_rules_run(tmp_path_factory):
    return RejectedRun(
        tmp_path_factory.mktemp("registry-rules"), [edit_registry(registry_cross_entry_breaks)]
    )


@pytest.mark.parametrize("rejected", ["file_rules_run", "registry_rules_run"])
def test_the_run_stops_cleanly_and_changes_nothing(rejected, request):
    rejected = request.getfixturevalue(rejected)
    assert rejected.run.returncode != 0, rejected.run.output
    assert "Traceback" not in rejected.run.output, rejected.run.output
    assert "nothing was published and the published results were left as they were" in (
        rejected.run.output
    )
    assert tree_digest(rejected.results) == rejected.results_before
    assert tree_digest(rejected.corpus) == rejected.corpus_before


def test_the_mutated_files_are_all_different():
    named = [relative for _, mutate, relative, _ in FILE_RULES if mutate is not None]
    assert len(named) == len(set(named))


@pytest.mark.parametrize(
    ("relative", "words"),
    [pytest.param(relative, words, id=rule) for rule, _, relative, words in FILE_RULES],
)
def test_file_rule_is_enforced(file_rules_run, relative, words):
    messages = file_rules_run.messages(relative)
    assert any(words in message for message in messages), (words, messages)


@pytest.mark.parametrize("words", [pytest.param(words, id=rule) for rule, words in REGISTRY_RULES])
def test_registry_rule_is_enforced(registry_rules_run, words):
    messages = registry_rules_run.messages(REGISTRY)
    assert any(words in message for message in messages), (words, messages)


def test_a_duplicate_evaluation_id_names_both_files(file_rules_run):
    first = scoring(ATLAS_R, "RO-OXID-002__run-2026-05-12-001", "R01")
    second = scoring(ATLAS_R, "RO-OXID-004__run-2026-05-12-001", "R02")
    for path, other in [(first, second), (second, first)]:
        [message] = [m for m in file_rules_run.messages(path) if "evaluation_id" in m]
        assert "is not unique within the subject's folder" in message
        assert f"(also in: {other})" in message


def test_private_gold_values_are_never_quoted(file_rules_run):
    """A gold problem names the rule it breaks, not the value of a private field."""
    text = (file_rules_run.corpus / gold("RO-NOWE-006")).read_text("utf-8")
    private = json.loads(text.split("```json\n", 1)[1].split("\n```", 1)[0])
    action = private["accepted_recommended_actions"][0]["action"]
    assert action not in file_rules_run.run.output


# --------------------------------------------------------------------------
# What the benchmark accepts, the workflow accepts
# --------------------------------------------------------------------------

OFFSET_RESPONSE = response(CIRRUS, "RO-FOUL-001__run-2026-05-14-001")
NEWEST_SCORING = scoring(ATLAS_R, "RO-FOUL-001__run-2026-05-12-001", "R01")
FRACTION_RESPONSE = response(ATLAS_R, "RO-FOUL-002__run-2026-05-12-001")
FRACTION_SCORING = scoring(ATLAS_R, "RO-FOUL-002__run-2026-05-12-001", "R01")
FLOOR_GOLD = gold("RO-SCAL-004")


def benchmark_accepted(root: Path) -> None:
    setting(OFFSET_RESPONSE, "timestamp_utc", "2026-05-14T11:15:21+02:00")(root)
    # 01:00 at +03:00 on the 17th is 22:00 UTC on the 16th: the newest scoring, whose
    # date (the 16th) is not the one its text starts with.
    setting(NEWEST_SCORING, "scoring_timestamp_utc", "2026-05-17T01:00:00+03:00")(root)
    setting(FRACTION_RESPONSE, "confidence", 78.0)(root)
    setting(FRACTION_SCORING, "criterion_scores", "key_signals", "score", 2.0)(root)
    edit_gold(FLOOR_GOLD, lambda g: g.update(rubric_floor=float(g["rubric_floor"])))(root)
    (root / f"golds/{V}/README.md").write_text("# Golds\n\nNot a gold.\n", "utf-8")


@pytest.fixture(scope="module")
def accepted_run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("accepted")
    corpus = corpus_copy(tmp / "corpus")
    benchmark_accepted(corpus)
    workdir = workflow_copy(tmp / "workflow")
    run = run_workflow(workdir, corpus=corpus, results=tmp / "results")
    return workdir, corpus, tmp / "results", run


def per_run_rows(results: Path) -> list[dict[str, str]]:
    with open(results / "per_run.csv", encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def test_benchmark_valid_files_are_accepted(accepted_run):
    *_, run = accepted_run
    assert run.returncode == 0, run.output
    assert "problem(s)" not in run.output.replace("0 problem(s)", "")


def test_integral_floats_are_published_as_integers(accepted_run):
    _, corpus, results, _ = accepted_run
    rows = {(r["subject_id"], r["case_id"], r["run_id"]): r for r in per_run_rows(results)}
    row = rows[(ATLAS_R, "RO-FOUL-002", "run-2026-05-12-001")]
    assert (row["reported_confidence"], row["confidence_unit"]) == ("78", "0.78")
    scores = json.loads((corpus / FRACTION_SCORING).read_text("utf-8"))["criterion_scores"]
    assert scores["key_signals"]["score"] == 2.0
    assert row["raw_score"] == str(sum(int(c["score"]) for c in scores.values()))
    floor_rows = [r for r in rows.values() if r["case_id"] == "RO-SCAL-004"]
    committed = {
        (r["subject_id"], r["case_id"], r["run_id"]): r for r in per_run_rows(COMMITTED_RESULTS)
    }
    assert floor_rows
    for r in floor_rows:
        committed_row = committed[(r["subject_id"], r["case_id"], r["run_id"])]
        assert r["rubric_floor"] == committed_row["rubric_floor"]
        assert r["rubric_floor"].isdigit()


def test_newest_scoring_is_the_latest_instant_in_utc(accepted_run):
    _, _, results, _ = accepted_run
    metadata = json.loads((results / "metadata.json").read_text("utf-8"))
    assert metadata["newest_scoring_utc"] == "2026-05-16T22:00:00Z"
    assert "Last update" in (results / "leaderboard.html").read_text("utf-8")
    assert "2026-05-16T22:00:00Z" in (results / "leaderboard.html").read_text("utf-8")
    row = next(
        r
        for r in per_run_rows(results)
        if (r["subject_id"], r["case_id"], r["run_id"])
        == (ATLAS_R, "RO-FOUL-001", "run-2026-05-12-001")
    )
    assert row["scoring_timestamp_utc"] == "2026-05-17T01:00:00+03:00"  # published as written


def test_a_readme_among_the_golds_is_ignored_and_named_at_debug_level(accepted_run):
    workdir, _, _, _ = accepted_run
    [log] = list((workdir / ".cache").glob("*/logs/load_golds.log"))
    assert f"DEBUG golds/{V}/README.md: not a gold (only *_gold.md files are), not read" in (
        log.read_text("utf-8")
    )
