"""Every kind of bad input, tried on a copy of the demo corpus.

Each must stop the run (non-zero exit), name the file and the problem, show no
Python traceback, and leave the previously published results, and the corpus,
byte-for-byte as they were.

One run per kind would start Snakemake 40 times; instead the kinds are broken
together, each in files of its own, and checked in a few runs (BATCHES). The run
reports every problem of the corpus at once (`The corpus has N problem(s)`, one line
per problem, and exits non-zero whenever there is one), so each kind's test asserts,
on the run of its batch: a non-zero exit, no traceback, the problem listed for its
file with its words, the results and the corpus untouched. A kind whose check
involves files other kinds break too (the registry's versions and tracks) has a run
of its own. The partition count plays no part in these checks: the runs use one
partition, a third of the jobs (except the run that checks that the problems of
several load jobs are all reported).
"""

import hashlib
import json
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from workflow_runs import (
    COMMITTED_RESULTS,
    Run,
    corpus_copy,
    run_workflow,
    tree_digest,
    workflow_copy,
)

ATLAS = "atlas-7b"
RESPONSE = f"responses/v1.0/{ATLAS}/RO-FOUL-003__run-2026-05-12-001.json"
SCORING = f"scoring/v1.0/{ATLAS}/RO-FOUL-003__run-2026-05-12-001__eval-R02.json"


def atlas_run(case: str, run: int, reviewer: str) -> tuple[str, str]:
    """The response and the scoring of a run of atlas-7b in the demo corpus."""
    stem = f"RO-{case}__run-2026-05-12-{run:03d}"
    return (
        f"responses/v1.0/{ATLAS}/{stem}.json",
        f"scoring/v1.0/{ATLAS}/{stem}__eval-{reviewer}.json",
    )


def gold(case: str) -> str:
    return f"golds/v1.0/RO-{case}_gold.md"


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


def truncate(relative: str):
    def mutate(root: Path):
        path = root / relative
        path.write_bytes(path.read_bytes()[:200])

    return mutate


def raw_replace(relative: str, old: str, new: str):
    return lambda root: replace_text(root / relative, old, new)


def non_utf8(relative: str):
    def mutate(root: Path):
        path = root / relative
        raw = path.read_bytes()
        path.write_bytes(raw.replace(b'"reviewer_notes": "', b'"reviewer_notes": "\xff'))

    return mutate


def prepend_bom(relative: str):
    def mutate(root: Path):
        path = root / relative
        path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())

    return mutate


def deep_nesting(relative: str):
    def mutate(root: Path):
        path = root / relative
        nested = "[" * 100_000 + "]" * 100_000
        text = path.read_text("utf-8")
        path.write_text(text.replace('"confidence": 60', f'"confidence": {nested}'))

    return mutate


def oversized(relative: str):
    def mutate(root: Path):
        path = root / relative
        path.write_bytes(path.read_bytes() + b" " * (5 * 2**20))

    return mutate


def formula_reviewer(scoring: str, reviewer: str):
    """The scoring renamed and re-attributed to the reviewer id '@<reviewer>'."""
    renamed = scoring.replace(f"eval-{reviewer}", f"eval-@{reviewer}")

    def mutate(root: Path):
        (root / scoring).rename(root / renamed)
        edit_json(root / renamed, lambda document: document.update(reviewer_id=f"@{reviewer}"))

    return mutate, renamed


def symlink_outside(relative: str):
    def mutate(root: Path):
        outside = root.parent / f"outside-{Path(relative).name}"
        (root / relative).rename(outside)
        (root / relative).symlink_to(outside)

    return mutate


def remove(relative: str):
    return lambda root: (root / relative).unlink()


def rename(relative: str, new_relative: str):
    return lambda root: (root / relative).rename(root / new_relative)


def copy(relative: str, new_relative: str):
    return lambda root: shutil.copy(root / relative, root / new_relative)


def second_reviewer(scoring: str, reviewer: str):
    """A copy of the scoring by reviewer R07: two scorings of one run."""
    duplicate = scoring.replace(f"eval-{reviewer}", "eval-R07")

    def mutate(root: Path):
        shutil.copy(root / scoring, root / duplicate)
        edit_json(root / duplicate, lambda document: document.update(reviewer_id="R07"))

    return mutate, duplicate


def gold_without_block(relative: str):
    return lambda root: replace_text(root / relative, "```json", "```text")


def gold_with_two_blocks(relative: str):
    def mutate(root: Path):
        path = root / relative
        text = path.read_text(encoding="utf-8")
        start = text.index("```json")
        end = text.index("```", start + 7) + 3
        path.write_text(text + "\n" + text[start:end] + "\n", encoding="utf-8")

    return mutate


def unregistered_version(root: Path):
    replace_text(root / "subjects/registry.yaml", "atlas-7b-2026-03-q4", "atlas-7b-2026-03-q5")


def gold_json(path: Path):
    text = path.read_text(encoding="utf-8")
    start = text.index("```json\n") + len("```json\n")
    end = text.index("\n```", start)
    return text, start, end


def edit_gold(relative: str, change):
    def mutate(root: Path):
        path = root / relative
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


# Each kind breaks files of its own: a run of atlas-7b (version atlas-7b-2026-03-q4), or
# the gold of a case that no other kind touches. The three responses whose confidence is
# 60 take the raw edits of that number; the scorings whose correctness is 1, those of
# the correctness literal.
R_FOUL_001_1 = atlas_run("FOUL-001", 1, "R01")
R_FOUL_002_1 = atlas_run("FOUL-002", 1, "R01")
R_FOUL_002_2 = atlas_run("FOUL-002", 2, "R01")
R_FOUL_003_1 = (RESPONSE, SCORING)
R_FOUL_004_1 = atlas_run("FOUL-004", 1, "R03")
R_FOUL_004_2 = atlas_run("FOUL-004", 2, "R03")
R_FOUL_005_1 = atlas_run("FOUL-005", 1, "R02")
R_FOUL_006_1 = atlas_run("FOUL-006", 1, "R02")
R_MECH_001_2 = atlas_run("MECH-001", 2, "R01")
R_MECH_002_1 = atlas_run("MECH-002", 1, "R01")
R_MECH_003_1 = atlas_run("MECH-003", 1, "R03")
R_MECH_004_1 = atlas_run("MECH-004", 1, "R03")
R_MECH_005_1 = atlas_run("MECH-005", 1, "R01")
R_MECH_005_2 = atlas_run("MECH-005", 2, "R03")
R_NOWE_001_1 = atlas_run("NOWE-001", 1, "R02")
R_NOWE_002_1 = atlas_run("NOWE-002", 1, "R02")
R_NOWE_003_1 = atlas_run("NOWE-003", 1, "R02")
R_NOWE_004_1 = atlas_run("NOWE-004", 1, "R01")
R_NOWE_004_2 = atlas_run("NOWE-004", 2, "R03")
R_NOWE_005_1 = atlas_run("NOWE-005", 1, "R03")
R_OXID_001_1 = atlas_run("OXID-001", 1, "R02")
R_OXID_002_1 = atlas_run("OXID-002", 1, "R01")
R_OXID_003_1 = atlas_run("OXID-003", 1, "R01")
R_SCAL_001_1 = atlas_run("SCAL-001", 1, "R01")
R_SCAL_002_1 = atlas_run("SCAL-002", 1, "R03")
R_SCAL_002_2 = atlas_run("SCAL-002", 2, "R01")
R_SCAL_003_1 = atlas_run("SCAL-003", 1, "R01")
# MECH-006: its gold is removed; the scoring of atlas-7b's run then has no gold.
R_MECH_006_1 = atlas_run("MECH-006", 1, "R03")

FORMULA_REVIEWER, FORMULA_SCORING = formula_reviewer(R_MECH_005_2[1], "R03")
SECOND_REVIEWER, SECOND_SCORING = second_reviewer(R_SCAL_001_1[1], "R01")

# (id, mutation, file named in the message, fragment of the message)
REJECTIONS = [
    (
        "mixed-tracks-without-policy",
        mixed_tracks_without_policy,
        R_FOUL_001_1[0],
        "declare different tracks (classic, reasoning); give the version a sampling_policy",
    ),
    ("malformed-json", truncate(R_FOUL_001_1[0]), R_FOUL_001_1[0], "malformed JSON"),
    (
        "nan",
        raw_replace(R_FOUL_003_1[0], '"confidence": 60', '"confidence": NaN'),
        R_FOUL_003_1[0],
        "NaN",
    ),
    (
        "infinity",
        raw_replace(R_FOUL_004_1[1], '"correctness": 1', '"correctness": Infinity'),
        R_FOUL_004_1[1],
        "Infinity",
    ),
    ("non-utf8", non_utf8(R_OXID_001_1[1]), R_OXID_001_1[1], "not valid UTF-8"),
    (
        "confidence-101",
        set_field(R_FOUL_002_1[0], "confidence", 101),
        R_FOUL_002_1[0],
        "101",
    ),
    (
        "confidence-55.5",
        set_field(R_FOUL_002_2[0], "confidence", 55.5),
        R_FOUL_002_2[0],
        "55.5",
    ),
    (
        "confidence-text",
        set_field(R_FOUL_004_2[0], "confidence", "80"),
        R_FOUL_004_2[0],
        "'80'",
    ),
    (
        "confidence-bool",
        set_field(R_FOUL_005_1[0], "confidence", True),
        R_FOUL_005_1[0],
        "True",
    ),
    (
        "criterion-score-3",
        set_field(R_SCAL_002_1[1], "criterion_scores", "key_signals", "score", 3),
        R_SCAL_002_1[1],
        "criterion_scores.key_signals.score",
    ),
    (
        "correctness-0.3",
        set_field(R_SCAL_003_1[1], "correctness", 0.3),
        R_SCAL_003_1[1],
        "0.3",
    ),
    (
        "unknown-severity",
        set_field(
            R_MECH_003_1[1],
            "automatic_fails_triggered",
            [{"type": "generic", "reference": "G1", "severity": "fatal", "justification": "x"}],
        ),
        R_MECH_003_1[1],
        "'fatal'",
    ),
    (
        "response-id-vs-path",
        set_field(R_MECH_001_2[0], "subject_id", "borealis-xl"),
        R_MECH_001_2[0],
        "the file's path says 'atlas-7b'",
    ),
    (
        # NOWE-001 has no run 2 for atlas-7b: the reference names a run that does not exist.
        "scoring-id-vs-path",
        set_field(R_NOWE_001_1[1], "response_ref", "run_id", "run-2026-05-12-002"),
        R_NOWE_001_1[1],
        "response_ref.run_id",
    ),
    (
        "gold-family",
        edit_gold(gold("SCAL-004"), lambda document: document.update(family="FOUL")),
        gold("SCAL-004"),
        "case_id: 'RO-SCAL-004' does not match '^RO-FOUL-",
    ),
    (
        "gold-id-vs-path",
        edit_gold(gold("SCAL-005"), lambda document: document.update(case_id="RO-SCAL-099")),
        gold("SCAL-005"),
        "case_id is 'RO-SCAL-099'",
    ),
    (
        "benchmark-version",
        set_field(R_MECH_002_1[0], "benchmark_version", "v1.1"),
        R_MECH_002_1[0],
        "benchmark_version is 'v1.1'",
    ),
    (
        "scoring-without-response",
        remove(R_MECH_004_1[0]),
        R_MECH_004_1[1],
        "does not exist",
    ),
    (
        "scoring-version-differs",
        set_field(R_OXID_002_1[1], "response_ref", "subject_version", "atlas-7b-2026-01-q1"),
        R_OXID_002_1[1],
        "response_ref.subject_version is 'atlas-7b-2026-01-q1'",
    ),
    (
        "scoring-without-gold",
        remove(gold("MECH-006")),
        R_MECH_006_1[1],
        "has no (valid) gold",
    ),
    (
        "two-golds-one-case",
        copy(gold("OXID-004"), gold("OXID-099")),
        gold("OXID-099"),
        "2 golds for case RO-OXID-004",
    ),
    (
        "gold-block-missing",
        gold_without_block(gold("OXID-005")),
        gold("OXID-005"),
        "no ```json block",
    ),
    (
        "gold-block-twice",
        gold_with_two_blocks(gold("OXID-006")),
        gold("OXID-006"),
        "2 ```json blocks",
    ),
    (
        "version-not-registered",
        unregistered_version,
        f"responses/v1.0/{ATLAS}/",
        "'atlas-7b-2026-03-q4' of subject 'atlas-7b' is not in subjects/registry.yaml",
    ),
    ("two-scorings-one-run", SECOND_REVIEWER, R_SCAL_001_1[1], "2 scorings for the same"),
    (
        "duplicate-key",
        raw_replace(R_OXID_003_1[0], '"confidence": 60', '"confidence": 60, "confidence": 99'),
        R_OXID_003_1[0],
        "duplicate key 'confidence'",
    ),
    (
        "lone-surrogate",
        raw_replace(R_MECH_005_1[0], '"subject_version": "', '"subject_version": "\\ud800'),
        R_MECH_005_1[0],
        "surrogate",
    ),
    ("byte-order-mark", prepend_bom(R_NOWE_002_1[0]), R_NOWE_002_1[0], "byte order mark"),
    (
        "deep-nesting",
        deep_nesting(R_SCAL_002_2[0]),
        R_SCAL_002_2[0],
        "nesting deeper than 64 levels",
    ),
    (
        "number-out-of-range",
        raw_replace(R_FOUL_006_1[1], '"correctness": 1', '"correctness": 1e400'),
        R_FOUL_006_1[1],
        "out of range",
    ),
    ("file-too-large", oversized(R_NOWE_003_1[0]), R_NOWE_003_1[0], "above the limit of 4 MiB"),
    (
        "formula-in-subject-version",
        set_field(R_NOWE_004_1[0], "subject_version", '=HYPERLINK("http://x")'),
        R_NOWE_004_1[0],
        "a spreadsheet would run as a formula",
    ),
    ("formula-in-reviewer-id", FORMULA_REVIEWER, FORMULA_SCORING, "starts with '@'"),
    (
        "symlink-outside-corpus",
        symlink_outside(R_NOWE_004_2[0]),
        R_NOWE_004_2[0],
        "outside the corpus",
    ),
    (
        "file-name-vs-layout",
        rename(R_NOWE_005_1[0], f"responses/v1.0/{ATLAS}/RO-NOWE-005.json"),
        f"responses/v1.0/{ATLAS}/RO-NOWE-005.json",
        "file name is not",
    ),
]
# The kinds whose check reads files other kinds break (the registry entry of
# atlas-7b-2026-03-q4 and the tracks of its responses) run alone; all others together.
ALONE = {"mixed-tracks-without-policy", "version-not-registered"}
BATCHES = {
    "files": [case[0] for case in REJECTIONS if case[0] not in ALONE],
    **{name: [name] for name in sorted(ALONE)},
}
BATCH_OF = {name: batch for batch, names in BATCHES.items() for name in names}


@dataclass
class Rejected:
    """A run on a corpus broken by some mutations, and the states it had to leave alone."""

    corpus: Path
    run: Run
    results_unchanged: bool
    corpus_unchanged: bool

    def problems(self) -> list[str]:
        """The problems the run listed: `<corpus>/<path>: <message>` without the corpus."""
        prefix = f"  {self.corpus}/"
        return [
            line[len(prefix) :] for line in self.run.output.splitlines() if line.startswith(prefix)
        ]


def published_results(tmp_path: Path) -> Path:
    results = tmp_path / "published"
    shutil.copytree(COMMITTED_RESULTS, results)
    return results


def rejected_run(workdir: Path, tmp_path: Path, mutations, partitions=1, **config) -> Rejected:
    corpus = corpus_copy(tmp_path / "corpus")
    for mutate in mutations:
        mutate(corpus)
    results = published_results(tmp_path)
    before = tree_digest(results)
    corpus_before = tree_digest(corpus)
    if partitions is not None:
        config["partitions"] = partitions
    run = run_workflow(workdir, corpus=corpus, results=results, **config)
    return Rejected(
        corpus, run, tree_digest(results) == before, tree_digest(corpus) == corpus_before
    )


def assert_rejected(rejected: Rejected, named: list[str], fragments: list[str]) -> None:
    """Stopped, no traceback, results and corpus untouched, each file listed with its problem."""
    run = rejected.run
    assert rejected.corpus_unchanged  # a failed run changes no input either
    assert run.returncode != 0, run.output
    assert "Traceback" not in run.output, run.output
    problems = rejected.problems()
    # Every problem is listed (no "... and N more"): the count in the header is the list's.
    assert f"The corpus has {len(problems)} problem(s)" in run.output, run.output
    for path, fragment in zip(named, fragments, strict=True):
        # Only the message after the file's path counts (the path holds the test's name).
        messages = [problem.split(path, 1)[1] for problem in problems if problem.startswith(path)]
        assert any(fragment in message for message in messages), (path, fragment, run.output)
    assert rejected.results_unchanged


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    return workflow_copy(tmp_path_factory.mktemp("workflow"))


@pytest.fixture(scope="module")
def batch_runs(workdir, tmp_path_factory):
    """Batch name → its run, made when a test first asks for it."""
    runs = {}

    def run_of(batch: str) -> Rejected:
        if batch not in runs:
            mutations = [case[1] for case in REJECTIONS if BATCH_OF[case[0]] == batch]
            runs[batch] = rejected_run(workdir, tmp_path_factory.mktemp(batch), mutations)
        return runs[batch]

    return run_of


CASE_ID = re.compile(r"RO-[A-Z]{4}-\d{3}")


def corpus_state(root: Path) -> dict[str, tuple[bool, str]]:
    """Relative path → (a symbolic link?, SHA-256 of the content) of every file below root."""
    return {
        str(path.relative_to(root)): (
            path.is_symlink(),
            hashlib.sha256(path.read_bytes()).hexdigest() if path.exists() else "",
        )
        for path in sorted(root.rglob("*"))
        if path.is_file() or path.is_symlink()
    }


def test_the_kinds_run_together_break_files_of_their_own(tmp_path):
    """The premise of the batch: no file is changed by two of its kinds, and a kind that
    changes a gold (which makes every scoring of its case a problem) shares its case
    with no other kind."""
    corpus = corpus_copy(tmp_path / "corpus")
    state = corpus_state(corpus)
    changed_by, cases = {}, {}
    for name, mutate, named, fragment in REJECTIONS:
        if BATCH_OF[name] != "files":
            continue
        mutate(corpus)
        after = corpus_state(corpus)
        changed = {
            path for path in state.keys() | after.keys() if state.get(path) != after.get(path)
        }
        assert changed, name
        for path in changed:
            assert path not in changed_by, (name, path, changed_by.get(path))
            changed_by[path] = name
        cases[name] = set(CASE_ID.findall(" ".join([*changed, named, fragment])))
        state = after
    gold_kinds = {name for path, name in changed_by.items() if path.startswith("golds/")}
    assert len(gold_kinds) == 6
    for name in gold_kinds:
        for other, other_cases in cases.items():
            assert other == name or not cases[name] & other_cases, (name, other)


@pytest.mark.parametrize(
    ("name", "named", "fragment"),
    [pytest.param(case[0], *case[2:], id=case[0]) for case in REJECTIONS],
)
def test_rejection(batch_runs, name, named, fragment):
    assert_rejected(batch_runs(BATCH_OF[name]), [named], [fragment])


def test_two_scorings_for_one_run_name_every_file(batch_runs):
    # The kind two-scorings-one-run: each of the two files names the other.
    assert_rejected(
        batch_runs(BATCH_OF["two-scorings-one-run"]),
        [R_SCAL_001_1[1], SECOND_SCORING],
        [SECOND_SCORING, R_SCAL_001_1[1]],
    )


def test_every_problem_is_reported_in_one_run(workdir, tmp_path):
    # Independent problems in different files: each must be reported.
    wanted = {"confidence-101", "unknown-severity", "gold-block-twice", "version-not-registered"}
    chosen = [case for case in REJECTIONS if case[0] in wanted]
    # 8 partitions: the problems come from several load jobs.
    rejected = rejected_run(workdir, tmp_path, [case[1] for case in chosen], partitions=8)
    assert_rejected(rejected, [case[2] for case in chosen], [case[3] for case in chosen])
    assert len(rejected.problems()) > len(chosen)  # the gold's scorings are reported too


def test_strict_mode_rejects_unscored_responses(workdir, tmp_path):
    unscored = f"responses/v1.0/{ATLAS}/RO-NOWE-006__run-2026-05-12-001.json"
    rejected = rejected_run(workdir, tmp_path, [], strict="true")
    assert_rejected(rejected, [unscored], ["has no scoring (strict mode)"])
