"""Every kind of bad input, tried on a copy of the demo corpus.

Each must stop the run (non-zero exit), name the file and the problem, show no
Python traceback, and leave the previously published results byte-for-byte as
they were.
"""

import json
import shutil
from pathlib import Path

import pytest

from support import (
    COMMITTED_RESULTS,
    corpus_copy,
    run_workflow,
    tree_digest,
    workflow_copy,
)

ATLAS = "atlas-7b"
RESPONSE = f"responses/v1.0/{ATLAS}/RO-FOUL-003__run-2026-05-12-001.json"
SCORING = f"scoring/v1.0/{ATLAS}/RO-FOUL-003__run-2026-05-12-001__eval-R02.json"
GOLD = "golds/v1.0/RO-SCAL-002_gold.md"


def edit_json(path: Path, change) -> None:
    document = json.loads(path.read_text(encoding="utf-8"))
    change(document)
    path.write_text(json.dumps(document, indent=2), encoding="utf-8")


def replace_text(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def set_field(relative: str, *keys_and_value):
    *keys, value = keys_and_value

    def mutate(root: Path):
        def change(document):
            target = document
            for key in keys[:-1]:
                target = target[key]
            target[keys[-1]] = value

        edit_json(root / relative, change)

    return mutate


def truncate(root: Path):
    path = root / RESPONSE
    path.write_bytes(path.read_bytes()[:200])


def raw_replace(relative: str, old: str, new: str):
    return lambda root: replace_text(root / relative, old, new)


def non_utf8(root: Path):
    path = root / SCORING
    path.write_bytes(path.read_bytes().replace(b'"reviewer_notes": "', b'"reviewer_notes": "\xff'))


def prepend_bom(root: Path):
    path = root / RESPONSE
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())


def deep_nesting(root: Path):
    path = root / RESPONSE
    nested = "[" * 100_000 + "]" * 100_000
    path.write_text(path.read_text("utf-8").replace('"confidence": 60', f'"confidence": {nested}'))


def oversized(root: Path):
    path = root / RESPONSE
    path.write_bytes(path.read_bytes() + b" " * (5 * 2**20))


FORMULA_SCORING = SCORING.replace("eval-R02", "eval-@R02")


def formula_reviewer(root: Path):
    (root / SCORING).rename(root / FORMULA_SCORING)
    edit_json(root / FORMULA_SCORING, lambda document: document.update(reviewer_id="@R02"))


def symlink_outside(root: Path):
    outside = root.parent / "outside.json"
    (root / RESPONSE).rename(outside)
    (root / RESPONSE).symlink_to(outside)


def remove(relative: str):
    return lambda root: (root / relative).unlink()


def rename(relative: str, new_relative: str):
    return lambda root: (root / relative).rename(root / new_relative)


def copy(relative: str, new_relative: str):
    return lambda root: shutil.copy(root / relative, root / new_relative)


def second_reviewer(root: Path):
    duplicate = SCORING.replace("eval-R02", "eval-R07")
    shutil.copy(root / SCORING, root / duplicate)
    edit_json(root / duplicate, lambda document: document.update(reviewer_id="R07"))


def gold_without_block(root: Path):
    replace_text(root / GOLD, "```json", "```text")


def gold_with_two_blocks(root: Path):
    path = root / GOLD
    text = path.read_text(encoding="utf-8")
    start = text.index("```json")
    end = text.index("```", start + 7) + 3
    path.write_text(text + "\n" + text[start:end] + "\n", encoding="utf-8")


def unregistered_version(root: Path):
    replace_text(root / "subjects/registry.yaml", "atlas-7b-2026-03-q4", "atlas-7b-2026-03-q5")


def gold_json(path: Path):
    text = path.read_text(encoding="utf-8")
    start = text.index("```json\n") + len("```json\n")
    end = text.index("\n```", start)
    return text, start, end


def edit_gold(change):
    def mutate(root: Path):
        path = root / GOLD
        text, start, end = gold_json(path)
        document = json.loads(text[start:end])
        change(document)
        path.write_text(text[:start] + json.dumps(document, indent=2) + text[end:], "utf-8")

    return mutate


def mixed_tracks_without_policy(root: Path):
    replace_text(
        root / "subjects/registry.yaml",
        "        sampling_policy:\n          kind: classic\n        notes: Quantised q4",
        "        notes: Quantised q4",
    )
    set_field(RESPONSE, "track", "reasoning")(root)


# (id, mutation, file named in the message, fragment of the message)
REJECTIONS = [
    (
        "mixed-tracks-without-policy",
        mixed_tracks_without_policy,
        f"responses/v1.0/{ATLAS}/RO-FOUL-001__run-2026-05-12-001.json",
        "declare different tracks (classic, reasoning); give the version a sampling_policy",
    ),
    ("malformed-json", truncate, RESPONSE, "malformed JSON"),
    ("nan", raw_replace(RESPONSE, '"confidence": 60', '"confidence": NaN'), RESPONSE, "NaN"),
    (
        "infinity",
        raw_replace(SCORING, '"correctness": 1', '"correctness": Infinity'),
        SCORING,
        "Infinity",
    ),
    ("non-utf8", non_utf8, SCORING, "not valid UTF-8"),
    ("confidence-101", set_field(RESPONSE, "confidence", 101), RESPONSE, "101"),
    ("confidence-55.5", set_field(RESPONSE, "confidence", 55.5), RESPONSE, "55.5"),
    ("confidence-text", set_field(RESPONSE, "confidence", "80"), RESPONSE, "'80'"),
    ("confidence-bool", set_field(RESPONSE, "confidence", True), RESPONSE, "True"),
    (
        "criterion-score-3",
        set_field(SCORING, "criterion_scores", "key_signals", "score", 3),
        SCORING,
        "criterion_scores.key_signals.score",
    ),
    ("correctness-0.3", set_field(SCORING, "correctness", 0.3), SCORING, "0.3"),
    (
        "unknown-severity",
        set_field(
            SCORING,
            "automatic_fails_triggered",
            [{"type": "generic", "reference": "G1", "severity": "fatal", "justification": "x"}],
        ),
        SCORING,
        "'fatal'",
    ),
    (
        "response-id-vs-path",
        set_field(RESPONSE, "subject_id", "borealis-xl"),
        RESPONSE,
        "the file's path says 'atlas-7b'",
    ),
    (
        "scoring-id-vs-path",
        set_field(SCORING, "response_ref", "run_id", "run-2026-05-12-002"),
        SCORING,
        "response_ref.run_id",
    ),
    (
        "gold-family",
        edit_gold(lambda gold: gold.update(family="FOUL")),
        GOLD,
        "case_id: 'RO-SCAL-002' does not match '^RO-FOUL-",
    ),
    (
        "gold-id-vs-path",
        edit_gold(lambda gold: gold.update(case_id="RO-SCAL-099")),
        GOLD,
        "case_id is 'RO-SCAL-099'",
    ),
    (
        "benchmark-version",
        set_field(RESPONSE, "benchmark_version", "v1.1"),
        RESPONSE,
        "benchmark_version is 'v1.1'",
    ),
    (
        "scoring-without-response",
        remove(RESPONSE),
        SCORING,
        "does not exist",
    ),
    (
        "scoring-version-differs",
        set_field(SCORING, "response_ref", "subject_version", "atlas-7b-2026-01-q1"),
        SCORING,
        "response_ref.subject_version is 'atlas-7b-2026-01-q1'",
    ),
    (
        "scoring-without-gold",
        remove("golds/v1.0/RO-FOUL-003_gold.md"),
        SCORING,
        "has no (valid) gold",
    ),
    (
        "two-golds-one-case",
        copy("golds/v1.0/RO-SCAL-002_gold.md", "golds/v1.0/RO-SCAL-099_gold.md"),
        "golds/v1.0/RO-SCAL-099_gold.md",
        "2 golds for case RO-SCAL-002",
    ),
    ("gold-block-missing", gold_without_block, GOLD, "no ```json block"),
    ("gold-block-twice", gold_with_two_blocks, GOLD, "2 ```json blocks"),
    (
        "version-not-registered",
        unregistered_version,
        f"responses/v1.0/{ATLAS}/",
        "'atlas-7b-2026-03-q4' of subject 'atlas-7b' is not in subjects/registry.yaml",
    ),
    ("two-scorings-one-run", second_reviewer, SCORING, "2 scorings for the same"),
    (
        "duplicate-key",
        raw_replace(RESPONSE, '"confidence": 60', '"confidence": 60, "confidence": 99'),
        RESPONSE,
        "duplicate key 'confidence'",
    ),
    (
        "lone-surrogate",
        raw_replace(RESPONSE, '"subject_version": "', '"subject_version": "\\ud800'),
        RESPONSE,
        "surrogate",
    ),
    ("byte-order-mark", prepend_bom, RESPONSE, "byte order mark"),
    ("deep-nesting", deep_nesting, RESPONSE, "nesting deeper than 64 levels"),
    (
        "number-out-of-range",
        raw_replace(SCORING, '"correctness": 1', '"correctness": 1e400'),
        SCORING,
        "out of range",
    ),
    ("file-too-large", oversized, RESPONSE, "above the limit of 4 MiB"),
    (
        "formula-in-subject-version",
        set_field(RESPONSE, "subject_version", '=HYPERLINK("http://x")'),
        RESPONSE,
        "a spreadsheet would run as a formula",
    ),
    ("formula-in-reviewer-id", formula_reviewer, FORMULA_SCORING, "starts with '@'"),
    ("symlink-outside-corpus", symlink_outside, RESPONSE, "outside the corpus"),
    (
        "file-name-vs-layout",
        rename(RESPONSE, f"responses/v1.0/{ATLAS}/RO-FOUL-003.json"),
        f"responses/v1.0/{ATLAS}/RO-FOUL-003.json",
        "file name is not",
    ),
]


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    return workflow_copy(tmp_path_factory.mktemp("workflow"))


def published_results(tmp_path: Path) -> Path:
    results = tmp_path / "published"
    shutil.copytree(COMMITTED_RESULTS, results)
    return results


def assert_rejected(workdir, tmp_path, corpus, named: list[str], fragments: list[str], **config):
    results = published_results(tmp_path)
    before = tree_digest(results)
    corpus_before = tree_digest(corpus)
    run = run_workflow(workdir, corpus=corpus, results=results, **config)
    assert tree_digest(corpus) == corpus_before  # a failed run changes no input either
    assert run.returncode != 0, run.output
    assert "Traceback" not in run.output, run.output
    for path, fragment in zip(named, fragments, strict=True):
        # Only the message after the file's path counts (the path holds the test's name).
        messages = [
            line.split(f"{corpus}/{path}", 1)[1]
            for line in run.output.splitlines()
            if f"{corpus}/{path}" in line
        ]
        assert any(fragment in message for message in messages), (path, fragment, run.output)
    assert tree_digest(results) == before
    return run


@pytest.mark.parametrize(
    ("mutate", "named", "fragment"),
    [pytest.param(*case[1:], id=case[0]) for case in REJECTIONS],
)
def test_rejection(workdir, tmp_path, mutate, named, fragment):
    corpus = corpus_copy(tmp_path / "corpus")
    mutate(corpus)
    assert_rejected(workdir, tmp_path, corpus, [named], [fragment])


def test_two_scorings_for_one_run_name_every_file(workdir, tmp_path):
    corpus = corpus_copy(tmp_path / "corpus")
    second_reviewer(corpus)
    duplicate = SCORING.replace("eval-R02", "eval-R07")
    assert_rejected(workdir, tmp_path, corpus, [SCORING, duplicate], [duplicate, SCORING])


def test_every_problem_is_reported_in_one_run(workdir, tmp_path):
    corpus = corpus_copy(tmp_path / "corpus")
    # Independent problems in different files: each must be reported.
    wanted = {"confidence-101", "unknown-severity", "gold-block-twice", "version-not-registered"}
    chosen = [case for case in REJECTIONS if case[0] in wanted]
    for case in chosen:
        case[1](corpus)
    run = assert_rejected(
        workdir, tmp_path, corpus, [case[2] for case in chosen], [case[3] for case in chosen]
    )
    problem_lines = [line for line in run.output.splitlines() if line.startswith(f"  {corpus}/")]
    assert f"The corpus has {len(problem_lines)} problem(s)" in run.output
    assert len(problem_lines) > len(chosen)  # the gold's scorings are reported too


def test_strict_mode_rejects_unscored_responses(workdir, tmp_path):
    corpus = corpus_copy(tmp_path / "corpus")
    unscored = f"responses/v1.0/{ATLAS}/RO-NOWE-006__run-2026-05-12-001.json"
    assert_rejected(
        workdir, tmp_path, corpus, [unscored], ["has no scoring (strict mode)"], strict="true"
    )
