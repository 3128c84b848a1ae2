"""Property-based fuzz test (hypothesis) of the load step on hostile files.

Valid templates (``tests/data/samples/`` and a few files of ``demo/corpus/``) are
mutated by one hypothesis strategy per class of bad input (truncation, byte noise,
NaN/Infinity, huge numbers, wrong types, missing/extra/duplicated keys, deep
nesting, encodings, lone surrogates, 1 MB strings, gold fences, YAML tags) and
written into a scratch corpus at a path whose ids match the template. The real
per-file checks then read them:

- responses and scorings: ``load_partition.FileChecker.check``;
- golds: ``load_golds.load_golds``;
- the registry: ``cross_check.load_registry`` (``decode_yaml`` + ``SchemaCheck`` +
  the cross-entry rules).

Properties of every call:

(a) no exception escapes (the checks report problems, they never raise);
(b) it returns within ``SECONDS_PER_CALL`` (a hard alarm stops a hang);
(c) the outcome is consistent: either the file is accepted with a record, and then
    an independent oracle (strict re-parse, ``jsonschema`` against the schema, ids
    against the path, benchmark version, integer types, formula-like ids) agrees it
    is valid; or at least one problem is reported. Where the oracle is sure the file
    is valid, it must be accepted; where it is sure it is invalid, it must be
    rejected;
(d) the templates themselves, byte-identical, are accepted.

Profiles (registered here, applied only to the tests of this file):

- ``fuzz-ci`` (default): derandomized (the same examples on every run), no example
  database, no deadline, 300 examples per test; the file runs in about a minute.
- ``fuzz-quick``: ``fuzz-ci`` with 30 examples per test, for ``make test-fast``;
- ``fuzz-long``: a randomized campaign of 20,000 examples per test, for example::

      FUZZ_PROFILE=fuzz-long .venv-test/bin/python -m pytest tests/unit/test_fuzz.py \\
          --hypothesis-show-statistics -x

  ``FUZZ_EXAMPLES=N`` overrides the number of examples of any profile. A failure
  prints the shrunk input and a ``@reproduce_failure`` blob.
"""

import copy
import functools
import hashlib
import json
import math
import os
import re
import signal
import subprocess
import sys
import time
from contextlib import contextmanager, suppress
from pathlib import Path

import jsonschema
import pytest
import yaml
from hypothesis import HealthCheck, Phase, event, given, settings
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

import ro_metrics.corpus.cross_check as cross_check_module
import ro_metrics.corpus.golds as load_golds_module
from ro_metrics.contracts.records import GoldsSummary, PublicGold
from ro_metrics.corpus.cross_check import load_registry
from ro_metrics.corpus.decoding import (
    MAX_JSON_DEPTH,
    CorpusFileError,
    SchemaCheck,
    decode_json,
    decode_yaml,
    gold_json_block,
)
from ro_metrics.corpus.golds import load_golds
from ro_metrics.corpus.layout import REGISTRY, Entry
from ro_metrics.corpus.partition import FileChecker
from workflow_runs import REPO, SAMPLES

DEMO = REPO / "demo" / "corpus"
SCHEMAS = REPO / "system" / "schemas" / "v1.0"
RESPONSE_SCHEMA = SCHEMAS / "response.schema.json"
SCORING_SCHEMA = SCHEMAS / "evaluation.schema.json"
GOLD_SCHEMA = SCHEMAS / "gold.schema.json"
REGISTRY_SCHEMA = SCHEMAS / "registry.schema.json"
VERSION = "v1.0"
MAX_BYTES = 4 * 2**20  # config/config.yaml: max_file_mib: 4
SECONDS_PER_CALL = 5.0  # property (b)
HARD_STOP_SECONDS = 30  # an alarm turns a hang into a failure

_COMMON = {
    # No "explain" phase: its tracer slows the checks tenfold and would fail (b).
    "phases": [Phase.explicit, Phase.reuse, Phase.generate, Phase.target, Phase.shrink],
    "deadline": None,
    "database": None,
    "print_blob": True,
    "suppress_health_check": [
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.large_base_example,
    ],
}
settings.register_profile("fuzz-ci", derandomize=True, max_examples=300, **_COMMON)
settings.register_profile("fuzz-quick", derandomize=True, max_examples=30, **_COMMON)
settings.register_profile("fuzz-long", derandomize=False, max_examples=20_000, **_COMMON)
PROFILE_NAME = os.environ.get("FUZZ_PROFILE", "fuzz-ci")
FUZZ = settings(
    settings.get_profile(PROFILE_NAME),
    **({"max_examples": int(os.environ["FUZZ_EXAMPLES"])} if "FUZZ_EXAMPLES" in os.environ else {}),
)


# --------------------------------------------------------------------------
# Templates: valid files of every kind, with the path that makes their ids match
# --------------------------------------------------------------------------


def _template(relative: str, source: Path) -> tuple[str, bytes]:
    return relative, source.read_bytes()


def _demo(relative: str) -> tuple[str, bytes]:
    return _template(relative, DEMO / relative)


RESPONSES = [
    _template(
        "responses/v1.0/claude-haiku-4-5/RO-FOUL-008__run-2026-05-12-001.json",
        SAMPLES / "response.RO-FOUL-008__run-2026-05-12-001.json",
    ),
    _demo("responses/v1.0/cirrus-reasoner/RO-FOUL-001__run-2026-05-14-001.json"),
    _demo("responses/v1.0/atlas-7b/RO-FOUL-002__run-2026-05-12-002.json"),
]
SCORINGS = [
    _template(
        "scoring/v1.0/claude-haiku-4-5/RO-FOUL-008__run-2026-05-12-001__eval-R01.json",
        SAMPLES / "scoring.RO-FOUL-008__run-2026-05-12-001__eval-R01.json",
    ),
    _demo("scoring/v1.0/borealis-xl/RO-FOUL-001__run-2026-04-20-002__eval-R03.json"),
    _demo("scoring/v1.0/atlas-7b/RO-FOUL-001__run-2026-05-12-001__eval-R01.json"),
]
GOLDS = [
    _template("golds/v1.0/RO-OXID-006_gold.md", SAMPLES / "gold.RO-OXID-006_gold.md"),
    _demo("golds/v1.0/RO-FOUL-001_gold.md"),
]
_SUBJECT = "\n  - subject_id: "
# The demo registry cut to its first two subjects (1.5 KB): YAML is parsed in pure
# Python, and the cost of an example grows with the template.
REGISTRIES = [
    (
        REGISTRY,
        (_SUBJECT.join(_demo(REGISTRY)[1].decode("utf-8").split(_SUBJECT)[:3]) + "\n").encode(),
    )
]
TEMPLATES = {"response": RESPONSES, "scoring": SCORINGS, "gold": GOLDS}


# --------------------------------------------------------------------------
# Running the real checks: properties (a) and (b)
# --------------------------------------------------------------------------


class HardStop(Exception):
    """A call still running after HARD_STOP_SECONDS."""


@contextmanager
def time_limit(what: str):
    def stop(signum, frame):
        raise HardStop(f"{what} still running after {HARD_STOP_SECONDS} s")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, HARD_STOP_SECONDS)
    start = time.perf_counter()
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    elapsed = time.perf_counter() - start
    assert elapsed < SECONDS_PER_CALL, f"{what} took {elapsed:.1f} s"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("fuzz-corpus")


@pytest.fixture(autouse=True, scope="module")
def compile_each_schema_once():
    """load_golds and load_registry compile their schema at each call (once per run in
    the workflow); here the same compiled SchemaCheck is reused across examples."""
    patch = pytest.MonkeyPatch()
    cached = functools.cache(SchemaCheck)
    patch.setattr(load_golds_module, "SchemaCheck", cached)
    patch.setattr(cross_check_module, "SchemaCheck", cached)
    yield
    patch.undo()


_CHECKERS: dict[str, FileChecker] = {}


def check_file(root: Path, relative: str, raw: bytes) -> list:
    """FileChecker.check of one response or scoring written at its path."""
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(raw)
    checker = _CHECKERS.get(str(root))
    if checker is None:
        checker = FileChecker(root, VERSION, RESPONSE_SCHEMA, SCORING_SCHEMA, MAX_BYTES)
        _CHECKERS[str(root)] = checker
    with time_limit(f"FileChecker.check({relative})"):
        result = checker.check(Entry("file", relative, len(raw)))
    kind, digest, record, problems = result
    assert kind == {"responses": "response", "scoring": "scoring"}[relative.split("/")[0]]
    if len(raw) > MAX_BYTES:  # reported, not read
        assert (digest, record) == ("", None) and "above the limit" in problems[0], result
    else:
        assert digest == hashlib.sha256(raw).hexdigest()
    assert isinstance(problems, list) and all(isinstance(p, str) and p for p in problems)
    assert (record is None) == bool(problems), result
    return result


def check_gold(root: Path, relative: str, raw: bytes) -> GoldsSummary:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(raw)
    with time_limit(f"load_golds({relative})"):
        result = load_golds(
            root, VERSION, [Entry("file", relative, len(raw))], GOLD_SCHEMA, MAX_BYTES
        )
    assert all(p[0] == relative and isinstance(p[1], str) and p[1] for p in result.problems)
    assert result.n_files == (len(raw) <= MAX_BYTES)
    return result


def check_registry(root: Path, raw: bytes) -> tuple[dict | None, list[str]]:
    path = root / REGISTRY
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(raw)
    problems = []

    def problem(where, message):
        assert where == REGISTRY
        assert isinstance(message, str) and message
        problems.append(message)

    with time_limit("load_registry"):
        _subjects, versions, digest = load_registry(
            root, [Entry("file", REGISTRY, len(raw))], REGISTRY_SCHEMA, problem, MAX_BYTES
        )
    assert digest == ("" if len(raw) > MAX_BYTES else hashlib.sha256(raw).hexdigest())
    if not problems:
        assert versions is not None
    return versions, problems


# --------------------------------------------------------------------------
# The oracle: is a file valid? VALID / INVALID / UNKNOWN, independently of scripts/
# --------------------------------------------------------------------------

VALID, INVALID, UNKNOWN = "valid", "invalid", "unknown"
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_VALIDATORS = {
    path: jsonschema.Draft7Validator(json.loads(path.read_text("utf-8")))
    for path in (RESPONSE_SCHEMA, SCORING_SCHEMA, GOLD_SCHEMA, REGISTRY_SCHEMA)
}
CRITERIA = (
    "main_hypothesis",
    "key_signals",
    "alternatives",
    "recommended_action",
    "requested_data",
    "decision_change_condition",
)


class _Invalid(Exception):
    pass


def _unique(pairs):
    keys = [key for key, _ in pairs]
    if len(set(keys)) != len(keys):
        raise _Invalid("duplicate key")
    return dict(pairs)


def _constant(name):
    raise _Invalid(name)


def _finite(text):
    value = float(text)
    if not math.isfinite(value):
        raise _Invalid(text)
    return value


def _depth_and_strings(document):
    """Nesting depth (arrays and objects; the top level counts, scalars do not), and
    whether every string (and key) is encodable as UTF-8."""
    deepest, stack = 0, [(document, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, str):
            node.encode("utf-8")  # a lone surrogate raises
        elif isinstance(node, dict):
            deepest = max(deepest, depth)
            for key, value in node.items():
                if isinstance(key, str):
                    key.encode("utf-8")
                stack.append((value, depth + 1))
        elif isinstance(node, list):
            deepest = max(deepest, depth)
            stack.extend((value, depth + 1) for value in node)
    return deepest


def strict_json(text: str):
    """The document, or INVALID / UNKNOWN."""
    if text.startswith("\ufeff"):
        return INVALID
    try:
        document = json.loads(
            text, object_pairs_hook=_unique, parse_constant=_constant, parse_float=_finite
        )
        if _depth_and_strings(document) > MAX_JSON_DEPTH:
            return INVALID  # deeper than the documented limit, whatever the schema says
    except RecursionError:
        return INVALID  # deeper than the interpreter allows, so far beyond the limit
    except (_Invalid, ValueError, UnicodeEncodeError):
        return INVALID  # ValueError: malformed, or an integer of more than 4300 digits
    return document


def _schema_valid(schema_path: Path, document) -> str:
    try:
        return VALID if _VALIDATORS[schema_path].is_valid(document) else INVALID
    except RecursionError:
        return UNKNOWN


def _is_formula(value) -> bool:
    return isinstance(value, str) and value.startswith(FORMULA_STARTS)


def _integral(value) -> bool:
    """An integer as JSON Schema and the benchmark count it: 78 and 78.0, not 78.5 or true."""
    return type(value) is int or (type(value) is float and value.is_integer())


def path_ids(relative: str) -> dict:
    _top, _version, subject, name = relative.split("/")
    stem = name.removesuffix(".json")
    case_id, run_id, *rest = stem.split("__")
    ids = {"subject_id": subject, "case_id": case_id, "run_id": run_id}
    if rest:
        ids["reviewer_id"] = rest[0].removeprefix("eval-")
    return ids


def judge_file(relative: str, raw: bytes):
    """(verdict, document) of a response or scoring."""
    if len(raw) > MAX_BYTES:
        return INVALID, None  # above max_file_mib: reported, not read
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return INVALID, None
    document = strict_json(text)
    if document in (INVALID, UNKNOWN):
        return document, None
    is_response = relative.startswith("responses/")
    verdict = _schema_valid(RESPONSE_SCHEMA if is_response else SCORING_SCHEMA, document)
    if verdict != VALID:
        return verdict, None
    ids = path_ids(relative)
    if is_response:
        ok = (
            all(document[key] == ids[key] for key in ("subject_id", "case_id", "run_id"))
            and _integral(document["confidence"])
            and not _is_formula(document["subject_version"])
        )
    else:
        ref = document["response_ref"]
        ok = (
            all(ref[key] == ids[key] for key in ("subject_id", "case_id", "run_id"))
            and document["reviewer_id"] == ids["reviewer_id"]
            and all(_integral(document["criterion_scores"][c]["score"]) for c in CRITERIA)
            and not _is_formula(document["reviewer_id"])
            and not _is_formula(ref["subject_version"])
        )
    ok = ok and document["benchmark_version"] == VERSION
    return (VALID if ok else INVALID), document


# Line ends of Markdown (CommonMark): LF, CRLF, CR. str.splitlines() knows more.
_LINE_END = re.compile(r"\r\n|\r|\n")
_OTHER_SEPARATORS = re.compile("[\v\f\x1c\x1d\x1e\x85\u2028\u2029]")


def judge_gold(relative: str, raw: bytes):
    if len(raw) > MAX_BYTES:
        return INVALID, None  # above max_file_mib: reported, not read
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return INVALID, None
    lines = _LINE_END.split(text)
    blocks, opening = [], None
    for number, line in enumerate(lines):
        if opening is None:
            if line.startswith("```json"):
                opening = number
        elif line.startswith("```"):
            blocks.append((opening, number))
            opening = None
    if opening is not None or len(blocks) != 1:
        return INVALID, None
    start, end = blocks[0]
    if any(_OTHER_SEPARATORS.search(line) for line in lines[: start + 1] + lines[end:]):
        return UNKNOWN, None  # a fence hidden behind U+2028 & co.: not judged
    document = strict_json("\n".join(lines[start + 1 : end]))
    if document in (INVALID, UNKNOWN):
        return document, None
    verdict = _schema_valid(GOLD_SCHEMA, document)
    if verdict != VALID:
        return verdict, None
    case_id = relative.rsplit("/", 1)[-1].removesuffix("_gold.md")
    ok = (
        document["case_id"] == case_id
        and document["family"] == case_id.split("-")[1]
        and document["benchmark_version"] == VERSION
        and _integral(document["rubric_floor"])
        and _integral(document["rubric_ceiling"])
        and document["rubric_floor"] < document["rubric_ceiling"]
    )
    return (VALID if ok else INVALID), document


class _TooDeep(Exception):
    """A YAML document nested deeper than MAX_JSON_DEPTH, found while composing it."""


class _OracleYaml(yaml.SafeLoader):
    """YAML as the registry means it: dates stay text; duplicate keys are noticed.

    Composing stops at the first collection nested deeper than MAX_JSON_DEPTH (the top
    level counts, as in _yaml_depth): such a document is invalid whatever follows, and
    the pure-Python scanner's cost grows with the square of the depth of nested flow
    collections (a document 2,000 deep took ~0.7 s)."""

    duplicate_keys = False
    depth = 0

    def compose_node(self, parent, index):
        if not self.check_event(yaml.CollectionStartEvent):
            return super().compose_node(parent, index)
        self.depth += 1
        try:
            if self.depth > MAX_JSON_DEPTH:
                raise _TooDeep
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1

    def construct_mapping(self, node, deep=False):
        keys = [self.construct_object(key, deep=True) for key, _ in node.value]
        try:
            if len(set(keys)) != len(keys):
                type(self).duplicate_keys = True
        except TypeError:
            pass  # unhashable: the constructor below refuses it
        return super().construct_mapping(node, deep=deep)


_OracleYaml.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def _yaml_depth(document) -> int:
    """Mappings and sequences nested in one another (the top level counts)."""
    deepest, stack = 0, [(document, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict | list):
            deepest = max(deepest, depth)
            stack.extend((child, depth + 1) for child in _children(node))
    return deepest


def _children(node):
    return [*node.keys(), *node.values()] if isinstance(node, dict) else node


def judge_registry(raw: bytes):
    if len(raw) > MAX_BYTES:
        return INVALID, None  # above max_file_mib: reported, not read
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return INVALID, None
    _OracleYaml.duplicate_keys = False
    try:
        document = yaml.load(text, Loader=_OracleYaml)  # noqa: S506 - a SafeLoader
    except _TooDeep:
        return INVALID, None  # the documented limit holds for the registry too
    except RecursionError:
        return INVALID, None  # deeper than the interpreter allows: must be a problem
    except Exception:  # any failure to construct the document: a malformed file
        return INVALID, None
    if _yaml_depth(document) > MAX_JSON_DEPTH:
        return INVALID, None  # the documented limit holds for the registry too
    if _OracleYaml.duplicate_keys:
        return UNKNOWN, None  # a policy question, asked by its own test below
    verdict = _schema_valid(REGISTRY_SCHEMA, document)
    if verdict != VALID:
        return verdict, None
    subjects = document["subjects"]
    ids = [subject["subject_id"] for subject in subjects]
    ok = len(set(ids)) == len(ids)
    for subject in subjects:
        versions = [version["subject_version"] for version in subject["versions"]]
        ok = ok and len(set(versions)) == len(versions)
        ok = ok and not any(_is_formula(version) for version in versions)
        if subject["kind"] == "llm":
            ok = ok and all(_llm_version_ok(subject["subject_id"], v) for v in subject["versions"])
    return (VALID if ok else INVALID), document


def _llm_version_ok(subject_id: str, version: dict) -> bool:
    """validation-rules.md § Registry, the four rules for versions of kind llm."""
    policy = version.get("sampling_policy")
    if policy is None:
        return False
    if policy["kind"] == "classic" and "reasoning_effort" in policy:
        return False
    name = version["subject_version"]
    if name == subject_id and version.get("provider_pins_id") is not True:
        return False

    def as_read(text):
        return text.lower().replace(".", "-").replace("_", "-")

    return as_read(subject_id.split("-")[0]) in as_read(name)


# --------------------------------------------------------------------------
# Property (c): the outcome agrees with the oracle
# --------------------------------------------------------------------------


def _record(accepted: bool, verdict: str) -> None:
    """Outcome counts, shown by --hypothesis-show-statistics."""
    with suppress(InvalidArgument):  # outside a hypothesis test
        event(f"{'accepted' if accepted else 'rejected'}, oracle: {verdict}")


def assert_file_outcome(root: Path, relative: str, raw: bytes) -> list:
    kind, _digest, record, problems = check_file(root, relative, raw)
    verdict, document = judge_file(relative, raw)
    _record(record is not None, verdict)
    if record is not None:
        assert verdict != INVALID, f"accepted, but invalid: {raw[:300]!r}"
        if document is not None:
            ids = path_ids(relative)
            assert record[:3] == [ids["subject_id"], ids["case_id"], ids["run_id"]]
            if kind == "response":
                assert record[3:6] == [
                    document["subject_version"],
                    document["confidence"],
                    document.get("track", "classic"),
                ]
                # The public fields the site and the critical-fail evidence are built from.
                assert json.loads(record[6]) == [
                    document["timestamp_utc"],
                    document.get("served_model", ""),
                    document.get("track", "classic"),
                    document["confidence"],
                    document["main_hypothesis"],
                    document["key_signals"],
                    [
                        [item["hypothesis"], item["why_plausible"], item["why_discardable"]]
                        for item in document["alternatives"]
                    ],
                    document["requested_data"],
                    document["recommended_action"],
                    document["decision_change_condition"],
                ]
            else:
                ref = document["response_ref"]
                assert record[3:6] == [
                    ids["reviewer_id"],
                    ref["subject_version"],
                    document["scoring_timestamp_utc"],
                ]
                assert record[6] == [document["criterion_scores"][c]["score"] for c in CRITERIA]
                assert record[8] == document["correctness"]
                # Public text only: the justifications, each fail without its reference.
                assert json.loads(record[9]) == [
                    [document["criterion_scores"][c]["justification"] for c in CRITERIA],
                    [
                        [fail["type"], fail["severity"], fail["justification"]]
                        for fail in document["automatic_fails_triggered"]
                    ],
                ]
                assert record[10] == document["evaluation_id"]
    if verdict == VALID:
        assert record is not None, f"valid file rejected: {problems}"
    if verdict == INVALID:
        assert problems, "invalid file accepted"
    return problems


def assert_gold_outcome(root: Path, relative: str, raw: bytes) -> list[str]:
    result = check_gold(root, relative, raw)
    problems = [message for _, message in result.problems]
    case_id = relative.rsplit("/", 1)[-1].removesuffix("_gold.md")
    accepted = not problems and case_id in result.golds
    assert accepted or problems, result
    verdict, document = judge_gold(relative, raw)
    _record(accepted, verdict)
    if accepted:
        assert verdict != INVALID, f"accepted, but invalid: {raw[:300]!r}"
        if document is not None:
            public = ("family", "case_type", "rubric_floor", "rubric_ceiling")
            assert result.golds == {case_id: PublicGold(*(document[key] for key in public))}
    if verdict == VALID:
        assert accepted, f"valid gold rejected: {problems}"
    if verdict == INVALID:
        assert problems, "invalid gold accepted"
    return problems


def assert_registry_outcome(root: Path, raw: bytes) -> list[str]:
    versions, problems = check_registry(root, raw)
    verdict, document = judge_registry(raw)
    _record(not problems, verdict)
    if not problems:
        assert verdict != INVALID, f"accepted, but invalid: {raw[:300]!r}"
        if document is not None:
            assert set(versions) == {
                (subject["subject_id"], version["subject_version"])
                for subject in document["subjects"]
                for version in subject["versions"]
            }
    if verdict == VALID:
        assert not problems, f"valid registry rejected: {problems}"
    if verdict == INVALID:
        assert problems, "invalid registry accepted"
    return problems


# --------------------------------------------------------------------------
# Documents with room for hostile JSON: raw tokens and repeated keys
# --------------------------------------------------------------------------


class Raw(str):
    """JSON text written as it is (NaN, 1e400, 10,000 brackets, "\\ud800", ...)."""


class Pairs(list):
    """An object as a list of (key, value): a key may appear twice."""


def dump(node, indent: int | None, ensure_ascii: bool) -> str:
    def encode(node, level: int) -> str:
        if isinstance(node, Raw):
            return str(node)
        if isinstance(node, dict | Pairs | list):
            if isinstance(node, list) and not isinstance(node, Pairs):
                items = [encode(value, level + 1) for value in node]
                brackets = "[]"
            else:
                pairs = node.items() if isinstance(node, dict) else node
                items = [
                    f"{json.dumps(key, ensure_ascii=ensure_ascii)}: {encode(value, level + 1)}"
                    for key, value in pairs
                ]
                brackets = "{}"
            if not items:
                return brackets
            if indent is None:
                return brackets[0] + ", ".join(items) + brackets[1]
            inner = "\n" + " " * (indent * (level + 1))
            return (
                brackets[0]
                + inner
                + ("," + inner).join(items)
                + "\n"
                + " " * (indent * level)
                + brackets[1]
            )
        return json.dumps(node, ensure_ascii=ensure_ascii)

    return encode(node, 0)


def value_paths(document, prefix=()):
    """Every path to a value, the document itself included."""
    yield prefix
    if isinstance(document, dict):
        for key, value in document.items():
            yield from value_paths(value, (*prefix, key))
    elif isinstance(document, list):
        for index, value in enumerate(document):
            yield from value_paths(value, (*prefix, index))


def object_paths(document):
    return [path for path in value_paths(document) if isinstance(get(document, path), dict)]


def get(document, path):
    for key in path:
        document = document[key]
    return document


def replaced(document, path, value):
    if not path:
        return value
    document = copy.deepcopy(document)
    get(document, path[:-1])[path[-1]] = value
    return document


# --------------------------------------------------------------------------
# Strategies: one per class of bad input
# --------------------------------------------------------------------------

NON_FINITE = ["NaN", "Infinity", "-Infinity", "1e400", "-1e400", "1.5E99999", "-NaN", "nan"]
HUGE_NUMBERS = [
    str(10**30),
    str(-(10**30)),
    str(2**63),
    str(-(2**63) - 1),
    str(2**64),
    "1e308",
    "-1.7976931348623157e308",
    "1e-400",
    "123456789012345678901234567890.5",
    "1" + "0" * 4300,  # 4301 digits: above Python's int conversion limit
    "-" + "9" * 5000,
    "9" * 100_000,
]
LONG_STRING = 2**20  # 1 MB
WRONG_VALUES = [
    None,
    True,
    False,
    0,
    -1,
    1.5,
    55.0,
    2.0,
    100,
    101,
    0.5,
    "",
    " ",
    "x",
    "80",
    "v1.1",
    "v1.0\n",
    "RO-SCAL-002",
    "RO-XXXX-001",
    "run-2026-05-12-002",
    "atlas-7b",
    "Atlas-7B",
    "R02",
    "2026-13-45T00:00:00Z",
    "2026-05-12 14:23:55",
    "critical",
    "fatal",
    "=1+1",
    "+1",
    "-1",
    "@SUM(A1)",
    "\tx",
    "\rx",
    "\u2028",
    "\x00",
    [],
    [1],
    [""],
    ["x"],
    {},
    {"a": 1},
    [{}],
]
INVALID_UTF8 = [b"\xff", b"\xc3\x28", b"\xc0\xaf", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\x80"]
SURROGATES = [
    '"\\ud800"',
    '"\\uDFFF"',
    '"x\\ud800y"',
    '"\\ud800\\ud800"',
    '"\\udc00\\ud800"',
    '"\\ud83d\\ude00"',  # a valid pair: an emoji
    '"\\\\ud800"',  # an escaped backslash: the text \ud800, valid
]
HOSTILE_BYTES = [
    b"NaN",
    b"Infinity",
    b"-Infinity",
    b"1e400",
    b"\\ud800",
    b"\xef\xbb\xbf",
    b"\x00",
    b'"',
    b"\\",
    b"{",
    b"}",
    b"[",
    b"]",
    b",",
    b":",
    b'"confidence": 1, ',
    b"\xe2\x80\xa8",
    b"\r\n",
    b"```",
    b"\n```json\n",
    b"\n```\n",
    *INVALID_UTF8,
]


def _truncate(draw, raw: bytes) -> bytes:
    return raw[: draw(st.integers(0, len(raw) - 1))]


def _byte_noise(draw, raw: bytes) -> bytes:
    data = bytearray(raw)
    for _ in range(draw(st.integers(1, 4))):
        position = draw(st.integers(0, len(data)))
        operation = draw(st.sampled_from(["flip", "insert", "token", "delete"]))
        if operation == "flip" and position < len(data):
            data[position] ^= draw(st.integers(1, 255))
        elif operation == "insert":
            data[position:position] = draw(st.binary(min_size=1, max_size=8))
        elif operation == "token":
            data[position:position] = draw(st.sampled_from(HOSTILE_BYTES))
        else:
            del data[position : position + draw(st.integers(1, 16))]
    return bytes(data)


def _layout(draw):
    return draw(st.sampled_from([2, None, 4])), draw(st.booleans())


def _at_some_path(draw, document, value) -> object:
    path = draw(st.sampled_from(list(value_paths(document))))
    return replaced(document, path, value)


def _nonfinite(draw, document):
    return _at_some_path(draw, document, Raw(draw(st.sampled_from(NON_FINITE))))


def _huge(draw, document):
    return _at_some_path(draw, document, Raw(draw(st.sampled_from(HUGE_NUMBERS))))


def _wrong_type(draw, document):
    return _at_some_path(draw, document, draw(st.sampled_from(WRONG_VALUES)))


# Plausible values of the right type that may still be wrong: ids that disagree with
# the path, another benchmark version, a family that is not the case's, formula-like
# ids, a floor above the ceiling, integral floats, an unknown enum member.
FIELD_VALUES = {
    "case_id": ["RO-SCAL-002", "RO-FOUL-999", "RO-OXID-006", "RO-FOUL-008"],
    "run_id": ["run-2026-05-12-009", "run-2026-05-12-001", "run-2026-04-20-002"],
    "subject_id": ["atlas-7b", "claude-haiku-4-5", "cirrus-reasoner", "borealis-xl"],
    "benchmark_version": ["v1.1", "v2.0", "v1.0", "v10.0"],
    "reviewer_id": ["R99", "R01", "R03", "=R01", "@R01", "-R01"],
    "subject_version": [
        '=HYPERLINK("x")',
        "+1",
        "-x",
        "@x",
        "\tx",
        "\rx",
        "other",
        "atlas-7b-2026-03-q4",
    ],
    "family": ["SCAL", "OXID", "FOUL", "MECH", "NOWE"],
    "rubric_floor": [0, 3, 10, 11, 12, 3.0],
    "rubric_ceiling": [0, 1, 2, 10, 12, 13, 10.0],
    "confidence": [0, 100, 55.0, 101, -1],
    "score": [0, 1, 2, 2.0, 3, -1],
    "correctness": [0, 0.5, 1, 1.0, 0.3, -0.5],
    "severity": ["critical", "recoverable", "fatal", "Critical"],
    "type": ["generic", "case_specific", "other"],
    "track": ["classic", "reasoning", "fast"],
    "case_type": ["Closed", "Semi-closed", "Open", "Ambiguous", "closed"],
    "timestamp_utc": [
        "2026-02-30T00:00:00Z",
        "2026-05-12T24:00:00Z",
        "2026-05-12T14:23:55.5Z",
        "2026-05-12T14:23:55+05:30",
        "2026-05-12t14:23:55z",
        "2026-05-12T14:23:55+0530",
        "2026-05-12 14:23:55Z",
    ],
    "scoring_timestamp_utc": [
        "2026-05-13T10:38:10+00:00",
        "2026-05-13T10:38:10.001Z",
        "2026-05-13T10:38:10-00:00",
        "2026-05-13T10:38:10+24:00",
    ],
    # Strings the benchmark requires to be non-empty, and an empty one.
    "evaluation_id": ["", "ev-1", "x"],
    "justification": ["", "j"],
    "reference": ["", "GEN-01"],
    "hypothesis": ["", "h"],
    "datum": ["", "d"],
    "action": ["", "a"],
    "rationale": ["", "r"],
    "description": ["", "d"],
    "served_model": ["", "m"],
    "gold_author_id": ["", "A01"],
    "provider": ["", "p"],
    "kind": ["llm", "expert_system", "committee", "robot", "classic", "reasoning"],
    "access_type": ["api", "manual", "ftp"],
    "registered_at": ["2026-05-12", "2026-13-01", "12/05/2026"],
    "provider_pins_id": [True, False, "yes", 1],
    "reasoning_effort": ["minimal", "high", "extreme"],
}


def _wrong_value(draw, document):
    paths = [
        path
        for path in value_paths(document)
        if path and isinstance(path[-1], str) and path[-1] in FIELD_VALUES
    ]
    path = draw(st.sampled_from(paths))
    return replaced(document, path, draw(st.sampled_from(FIELD_VALUES[path[-1]])))


def _long_string(draw, document):
    first = draw(st.sampled_from(["x", "=", "é", " ", "\u2028", "a\\"]))
    return _at_some_path(draw, document, (first * LONG_STRING)[:LONG_STRING])


def _missing_key(draw, document):
    path = draw(st.sampled_from([p for p in object_paths(document) if get(document, p)]))
    target = copy.deepcopy(document)
    del get(target, path)[draw(st.sampled_from(sorted(get(target, path))))]
    return target


EXTRA_KEYS = [
    "extra",
    "",
    "x" * 1000,
    "\u0000",
    "track",
    "served_model",
    "justification_long",
    "gold_author_id",
    "Confidence",
    "confidence ",
]


def _extra_key(draw, document):
    path = draw(st.sampled_from(object_paths(document)))
    key = draw(st.sampled_from(EXTRA_KEYS) | st.text(max_size=8))
    value = draw(
        st.sampled_from(["reasoning", "classic", "a long enough justification " * 3, 1])
        | st.sampled_from(WRONG_VALUES)
    )
    target = copy.deepcopy(document)
    get(target, path)[key] = value
    return target


def _duplicate_key(draw, document):
    """A second occurrence of a key with another value: must be a problem."""
    path = draw(st.sampled_from([p for p in object_paths(document) if get(document, p)]))
    target = copy.deepcopy(document)
    obj = get(target, path)
    key = draw(st.sampled_from(sorted(obj)))
    other = draw(
        st.sampled_from([v for v in [*WRONG_VALUES, 99, "other"] if v != obj[key]])
        | st.just(copy.deepcopy(obj[key]))  # the same value twice is a duplicate too
    )
    pairs = Pairs(obj.items())
    where = draw(st.integers(0, len(pairs)))
    pairs.insert(where, (key, other))
    if path:
        get(target, path[:-1])[path[-1]] = pairs
        return target
    return pairs


# Around the documented limit (the value's own depth adds to its path's), and far beyond.
DEPTHS = [2, 10, 60, 61, 62, 63, 64, 65, 100, 500, 900, 990, 1000, 1100, 10_000, 100_000]


def _deep(draw, document):
    depth = draw(st.sampled_from(DEPTHS) | st.integers(1, 2000))
    shape = draw(st.sampled_from(["list", "object", "mixed"]))
    if shape == "list":
        nested = "[" * depth + "]" * depth
    elif shape == "object":
        nested = '{"a": ' * depth + "1" + "}" * depth
    else:
        nested = '[{"a": ' * (depth // 2) + "0" + "}]" * (depth // 2)
    target = _at_some_path(draw, document, Raw(nested))
    if draw(st.booleans()) and object_paths(document):  # also inside an open member
        path = draw(st.sampled_from(object_paths(document)))
        target = copy.deepcopy(document)
        get(target, path)["nested"] = Raw(nested)
    return target


def _surrogate(draw, document):
    return _at_some_path(draw, document, Raw(draw(st.sampled_from(SURROGATES))))


TREE_MUTATIONS = {
    "non-finite": _nonfinite,
    "huge-number": _huge,
    "wrong-type": _wrong_type,
    "wrong-value": _wrong_value,
    "long-string": _long_string,
    "missing-key": _missing_key,
    "extra-key": _extra_key,
    "duplicate-key": _duplicate_key,
    "deep-nesting": _deep,
    "lone-surrogate": _surrogate,
}
BYTE_MUTATIONS = {"truncation": _truncate, "byte-noise": _byte_noise}


def _gold_parts(raw: bytes) -> tuple[str, str, str]:
    text = raw.decode("utf-8")
    start = text.index("```json\n") + len("```json\n")
    end = text.index("\n```", start)
    return text[:start], text[start:end], text[end:]


def _encoding(draw, raw: bytes) -> bytes:
    choice = draw(
        st.sampled_from(
            ["empty", "bom", "two-boms", "invalid-utf8", "utf-16", "latin-1", "crlf", "nul"]
        )
    )
    if choice == "empty":
        return b""
    if choice == "bom":
        return b"\xef\xbb\xbf" + raw
    if choice == "two-boms":
        return b"\xef\xbb\xbf\xef\xbb\xbf" + raw
    if choice == "invalid-utf8":
        position = draw(st.integers(0, len(raw)))
        return raw[:position] + draw(st.sampled_from(INVALID_UTF8)) + raw[position:]
    if choice == "utf-16":
        return raw.decode("utf-8").encode(draw(st.sampled_from(["utf-16", "utf-16-le"])))
    if choice == "latin-1":
        return raw.decode("utf-8").encode("latin-1", errors="replace")
    if choice == "crlf":
        return raw.replace(b"\n", b"\r\n")  # valid: JSON and Markdown allow it
    return raw + b"\x00"


@st.composite
def hostile(draw, kind: str, family: str):
    """(relative path, bytes) of a template of `kind` mutated by `family`."""
    relative, raw = draw(st.sampled_from(TEMPLATES[kind]))
    if family in BYTE_MUTATIONS:
        return relative, BYTE_MUTATIONS[family](draw, raw)
    if family == "encoding":
        return relative, _encoding(draw, raw)
    if kind == "gold":
        before, block, after = _gold_parts(raw)
        document = json.loads(block)
    else:
        before, after, document = "", "", json.loads(raw)
    mutated = TREE_MUTATIONS[family](draw, document)
    indent, ensure_ascii = _layout(draw)
    text = before + dump(mutated, indent, ensure_ascii) + after
    return relative, text.encode("utf-8", errors="surrogatepass")


FAMILIES = [*BYTE_MUTATIONS, "encoding", *TREE_MUTATIONS]


# --------------------------------------------------------------------------
# (d) the templates, byte-identical, are accepted
# --------------------------------------------------------------------------


def _demo_files(pattern: str) -> list[tuple[str, bytes]]:
    return [
        (str(path.relative_to(DEMO)), path.read_bytes())
        for path in sorted(DEMO.glob(pattern))
        if path.is_file()
    ]


def test_unmodified_templates_are_accepted(corpus):
    files = [*RESPONSES, *SCORINGS, *_demo_files("responses/v1.0/*/*.json")]
    files += _demo_files("scoring/v1.0/*/*.json")
    assert len(files) > 300
    for relative, raw in files:
        assert assert_file_outcome(corpus, relative, raw) == [], relative
    for relative, raw in [*GOLDS, *_demo_files("golds/v1.0/*_gold.md")]:
        assert assert_gold_outcome(corpus, relative, raw) == [], relative
    registries = [SAMPLES / "registry.yaml", DEMO / REGISTRY]
    for raw in [*(path.read_bytes() for path in registries), *(raw for _, raw in REGISTRIES)]:
        assert assert_registry_outcome(corpus, raw) == []


# --------------------------------------------------------------------------
# (a), (b), (c) on every class of hostile file
# --------------------------------------------------------------------------


# The 1 MB-string family has a test of its own, with half the profile's examples (150 in
# fuzz-ci): each of its examples writes, decodes and schema-checks a 1 MB document, in
# the pipeline and in the oracle (~40 ms, against ~5 ms for the other families).
LONG_STRING_SHARE = 0.5
SHORT_FAMILIES = [family for family in FAMILIES if family != "long-string"]


@pytest.mark.parametrize("family", SHORT_FAMILIES)
@pytest.mark.parametrize("kind", ["response", "scoring"])
@FUZZ
@given(data=st.data())
def test_hostile_response_or_scoring(corpus, kind, family, data):
    relative, raw = data.draw(hostile(kind, family), label="file")
    problems = assert_file_outcome(corpus, relative, raw)
    if family == "duplicate-key":
        assert any("duplicate key" in problem for problem in problems), problems


@pytest.mark.parametrize("family", [*SHORT_FAMILIES, "fences"])
@FUZZ
@given(data=st.data())
def test_hostile_gold(corpus, family, data):
    if family == "fences":
        relative, raw = data.draw(gold_fences(), label="gold")
    else:
        relative, raw = data.draw(hostile("gold", family), label="gold")
    problems = assert_gold_outcome(corpus, relative, raw)
    if family == "duplicate-key":
        assert any("duplicate key" in problem for problem in problems), problems


@pytest.mark.parametrize("kind", ["response", "scoring", "gold"])
@settings(FUZZ, max_examples=max(1, round(FUZZ.max_examples * LONG_STRING_SHARE)))
@given(data=st.data())
def test_hostile_long_string(corpus, kind, data):
    relative, raw = data.draw(hostile(kind, "long-string"), label="file")
    if kind == "gold":
        assert_gold_outcome(corpus, relative, raw)
    else:
        assert_file_outcome(corpus, relative, raw)


@st.composite
def gold_fences(draw):
    """Zero, two, unclosed or odd ```json fences around a valid gold block."""
    relative, raw = draw(st.sampled_from(GOLDS))
    before, block, after = _gold_parts(raw)
    fence_open, rest = before[: -len("```json\n")], after[len("\n```") :]
    choice = draw(
        st.sampled_from(
            [
                "no-block",
                "two-blocks",
                "two-blocks-same",
                "unclosed",
                "unclosed-second",
                "text-fence",
                "other-code-block-before",
                "indented-opening",
                "jsonc-opening",
                "empty-block",
                "closing-with-text",
                "line-separator-in-string",
                "crlf",
            ]
        )
    )
    other = block.replace(f'"case_id": "{relative[-15:-8]}"', '"case_id": "RO-OXID-001"')
    texts = {
        "no-block": before.replace("```json", "```text") + block + after,
        "two-blocks": before + block + after + "\n```json\n" + other + "\n```\n",
        "two-blocks-same": before + block + after + "\n```json\n" + block + "\n```\n",
        "unclosed": before + block + "\n" + rest,
        "unclosed-second": before + block + after + "\n```json\n" + block + "\n",
        "text-fence": fence_open + "```text\n" + block + after,
        "other-code-block-before": fence_open
        + "```python\nx = 1\n```\n\n```json\n"
        + block
        + after,
        "indented-opening": fence_open + "  ```json\n" + block + after,
        "jsonc-opening": fence_open + "```jsonc\n" + block + after,
        "empty-block": before + after,
        "closing-with-text": before + block + "\n``` trailing" + rest,
        "line-separator-in-string": before
        + block.replace('"(private)"', '"(private)\u2028second line"', 1)
        + after,
        "crlf": (before + block + after).replace("\n", "\r\n"),
    }
    return relative, texts[choice].encode("utf-8")


# --------------------------------------------------------------------------
# The registry
# --------------------------------------------------------------------------

YAML_VALUES = [
    "!!int abc",
    "!!int ''",
    "!!int '_'",
    "!!int 0x",
    "!!float abc",
    "!!float ''",
    "!!bool maybe",
    "!!timestamp x",
    "!!timestamp 2026-13-45",
    "!!timestamp '2026-01-01T25:00:00'",
    "!!binary AAAA",
    "!!set {a}",
    "!!omap [1]",
    "!!python/object/apply:os.system ['true']",
    "!!python/name:os.system",
    "*undefined",
    "&a x",
    "2026-05-12",
    "~",
    ".nan",
    ".inf",
    "1" * 5000,
    "0x1F",
    "1_000",
    "yes",
    "=HYPERLINK(1)",
    "'=x'",
    "@x",
    "{a: {b: {c: [1, [2, [3]]]}}}",
    "|\n  block",
    "'unclosed",
    '"\\ud800"',
    '"\\x00"',
    "\t",
]
YAML_BYTES = [
    b"!!int ",
    b"!!float ",
    b"!!timestamp ",
    b"!!bool ",
    b"&a ",
    b"*a",
    b"<<: ",
    b"? ",
    b"- ",
    b": ",
    b"\t",
    b"[",
    b"{",
    b"'",
    b'"',
    b"%YAML 1.1\n---\n",
    b"\n---\n",
    b"\n...\n",
    b"\xef\xbb\xbf",
    b"\x00",
    *INVALID_UTF8,
]


@st.composite
def hostile_registry(draw, family: str):
    _, raw = draw(st.sampled_from(REGISTRIES))
    if family == "truncation":
        return _truncate(draw, raw)
    if family == "byte-noise":
        data = bytearray(raw)
        for _ in range(draw(st.integers(1, 4))):
            position = draw(st.integers(0, len(data)))
            data[position:position] = draw(st.sampled_from(YAML_BYTES) | st.binary(max_size=4))
        return bytes(data)
    if family == "yaml-values":
        lines = raw.decode("utf-8").split("\n")
        candidates = [i for i, line in enumerate(lines) if re.match(r"^\s*(- )?\w+: \S", line)]
        number = draw(st.sampled_from(candidates))
        key, _ = lines[number].split(": ", 1)
        lines[number] = f"{key}: {draw(st.sampled_from(YAML_VALUES))}"
        return "\n".join(lines).encode("utf-8")
    document = yaml.safe_load(raw)
    if family == "tree":
        mutation = draw(st.sampled_from([_wrong_type, _wrong_value, _missing_key, _extra_key]))
        mutated = mutation(draw, document)
    elif family == "llm-rules":
        mutated = _llm_rule_mutation(draw, document)
    else:  # deep-nesting, written as YAML flow collections
        depth = draw(st.sampled_from(DEPTHS) | st.integers(1, 2000))
        mutated = _at_some_path(draw, document, "__NESTED__")
        text = yaml.safe_dump(mutated, sort_keys=False, allow_unicode=True, width=1000)
        return text.replace("__NESTED__", "[" * depth + "]" * depth, 1).encode("utf-8")
    return yaml.safe_dump(
        mutated, sort_keys=False, allow_unicode=draw(st.booleans()), width=10_000
    ).encode("utf-8")


# Share of the profile's examples: a registry thousands of levels deep costs PyYAML
# about 0.1 s to refuse (its scanner looks up to 1,024 characters ahead at every
# level, and the composer stops at MAX_JSON_DEPTH).
def _llm_rule_mutation(draw, document):
    """One or two changes aimed at the rules for versions of kind llm (validation-rules.md):
    the registry may stay valid or break one rule; the oracle decides which."""
    target = copy.deepcopy(document)
    for _ in range(draw(st.integers(1, 2))):
        subject = draw(st.sampled_from(target["subjects"]))
        version = draw(st.sampled_from(subject["versions"]))
        change = draw(
            st.sampled_from(
                ["kind", "no-policy", "effort", "alias", "pinned-alias", "family", "policy"]
            )
        )
        if change == "kind":
            subject["kind"] = draw(st.sampled_from(["llm", "expert_system", "committee"]))
        elif change == "no-policy":
            version.pop("sampling_policy", None)
        elif change == "effort":
            version["sampling_policy"] = {
                "kind": draw(st.sampled_from(["classic", "reasoning"])),
                "reasoning_effort": draw(st.sampled_from(["minimal", "low", "medium", "high"])),
            }
        elif change in ("alias", "pinned-alias"):
            version["subject_version"] = subject["subject_id"]
            if change == "pinned-alias":
                version["provider_pins_id"] = draw(st.sampled_from([True, False]))
        elif change == "family":
            token = subject["subject_id"].split("-")[0]
            version["subject_version"] = draw(
                st.sampled_from(
                    [
                        f"{token.upper()}-2026-01-01",
                        f"{token.replace('-', '_')}_v2",
                        f"x.{token}.y",
                        "other-model-2026",
                        f"{token[:-1]}-2026" if len(token) > 1 else "z-2026",
                    ]
                )
            )
        else:
            version["sampling_policy"] = {"kind": draw(st.sampled_from(["classic", "reasoning"]))}
    return target


REGISTRY_FAMILIES = {
    "truncation": 1,
    "byte-noise": 1,
    "yaml-values": 1,
    "tree": 1,
    "llm-rules": 1,
    "deep-nesting": 1 / 15,
}


def _registry_test(family: str):
    examples = max(1, round(FUZZ.max_examples * REGISTRY_FAMILIES[family]))

    @settings(FUZZ, max_examples=examples)
    @given(data=st.data())
    def test(corpus, data):
        assert_registry_outcome(corpus, data.draw(hostile_registry(family), label="registry"))

    test.__name__ = test.__qualname__ = f"test_hostile_registry_{family.replace('-', '_')}"
    return test


test_hostile_registry_truncation = _registry_test("truncation")
test_hostile_registry_byte_noise = _registry_test("byte-noise")
test_hostile_registry_yaml_values = _registry_test("yaml-values")
test_hostile_registry_tree = _registry_test("tree")
test_hostile_registry_llm_rules = _registry_test("llm-rules")
test_hostile_registry_deep_nesting = _registry_test("deep-nesting")


# --------------------------------------------------------------------------
# Targeted checks: edges a random search reaches rarely
# --------------------------------------------------------------------------


def _nested(depth: int, shape: str) -> bytes:
    """A JSON value of exactly `depth` levels of arrays and objects."""
    if shape == "list":
        return b"[" * depth + b"]" * depth
    if shape == "object":
        return b'{"a": ' * depth + b"1" + b"}" * depth
    opening = [b"[" if level % 2 else b'{"a": ' for level in range(depth)]
    closing = [b"]" if level % 2 else b"}" for level in reversed(range(depth))]
    return b"".join(opening) + b"0" + b"".join(closing)


TOO_DEEP = "nesting deeper than 64 levels"  # the documented message and limit


@pytest.mark.parametrize("shape", ["list", "object", "mixed"])
def test_the_nesting_limit_is_exact(shape):
    assert MAX_JSON_DEPTH == 64  # docs/robustness.md and the README say 64
    assert decode_json(_nested(MAX_JSON_DEPTH, shape)) is not None
    for depth in (MAX_JSON_DEPTH + 1, 1_000, 100_000):
        with pytest.raises(CorpusFileError, match=f"^{TOO_DEEP} of arrays and objects$"):
            decode_json(_nested(depth, shape))


def test_brackets_in_strings_are_not_nesting():
    document = decode_json(b'{"a": "' + b"[{" * 1_000 + b'", "b": [[1]]}')
    assert document["b"] == [[1]]


# A typed field of each kind: a nested list there is reported with its value.
DEEP_TARGETS = {
    "response": (RESPONSES[0], b'"confidence": 82', b'"confidence": '),
    "scoring": (SCORINGS[0], b'"correctness": 1', b'"correctness": '),
    "gold": (GOLDS[0], b'"rubric_floor": 3', b'"rubric_floor": '),
}


def _problems(corpus, kind: str, relative: str, raw: bytes) -> list[str]:
    if kind == "gold":
        return [message for _, message in check_gold(corpus, relative, raw).problems]
    return check_file(corpus, relative, raw)[3]


@pytest.mark.parametrize("kind", sorted(DEEP_TARGETS))
def test_every_nesting_depth_around_the_limit_is_a_problem(corpus, kind):
    """A list where an integer belongs: a schema problem up to the limit, the nesting
    message beyond it, and never a RecursionError (jsonschema's report of a failing
    document recurses into the offending value)."""
    (relative, raw), old, prefix = DEEP_TARGETS[kind]
    for depth in [*range(1, MAX_JSON_DEPTH + 5), 990, 1_000, 10_000]:
        mutated = raw.replace(old, prefix + _nested(depth, "list"))
        assert mutated != raw
        try:
            problems = _problems(corpus, kind, relative, mutated)
        except RecursionError as error:
            pytest.fail(f"depth {depth}: {error!r}")
        assert problems, depth
        # The field sits in the top-level object: one level more than its value.
        too_deep = 1 + depth > MAX_JSON_DEPTH
        assert any(TOO_DEEP in problem for problem in problems) == too_deep, (depth, problems)


# Every object is closed (validation-rules.md), so an extra "notes" member is a schema
# problem at any depth up to the limit, and only the nesting problem beyond it (a file
# that deep is not decoded). `after` is where the member goes, `parent` the depth of the
# object that holds it.
CLOSED_MEMBERS = {
    "scoring": (
        SCORINGS[0],
        b'"score": 2,',
        3,
        "criterion_scores.main_hypothesis: Additional properties are not allowed "
        "('notes' was unexpected)",
    ),
    "gold": (
        GOLDS[0],
        b'"hypothesis": "(private)",',
        3,
        "accepted_main_hypotheses.0: breaks the schema's 'additionalProperties' rule "
        "(False); value not shown (private)",
    ),
}


@pytest.mark.parametrize("kind", sorted(CLOSED_MEMBERS))
def test_nesting_limit_holds_inside_closed_objects(corpus, kind):
    (relative, raw), after, parent, extra = CLOSED_MEMBERS[kind]
    assert after in raw

    def with_notes(depth):
        return raw.replace(after, after + b' "notes": ' + _nested(depth, "mixed") + b",", 1)

    assert _problems(corpus, kind, relative, with_notes(MAX_JSON_DEPTH - parent)) == [extra]
    problems = _problems(corpus, kind, relative, with_notes(MAX_JSON_DEPTH - parent + 1))
    assert problems == [f"{TOO_DEEP} of arrays and objects"], problems


def test_registry_nesting_limit_holds_inside_closed_mappings(corpus):
    """Root, subjects, a subject, then the member's value: an extra member is a schema
    problem up to the limit, the nesting problem beyond it."""
    raw = REGISTRIES[0][1]
    old = b"\n    kind: "
    assert raw.count(old) >= 1
    extra = "subjects.0: Additional properties are not allowed ('notes' was unexpected)"
    for depth, flow in [(MAX_JSON_DEPTH - 3, "list"), (MAX_JSON_DEPTH - 3, "object")]:
        value = _nested(depth, flow).replace(b'"a"', b"a")
        _, problems = check_registry(corpus, raw.replace(old, b"\n    notes: " + value + old, 1))
        assert problems == [extra], (flow, problems)
        value = _nested(depth + 1, flow).replace(b'"a"', b"a")
        _, problems = check_registry(corpus, raw.replace(old, b"\n    notes: " + value + old, 1))
        assert len(problems) == 1 and problems[0].startswith(f"{TOO_DEEP} of mappings"), problems
    block = b"".join(b"  " * (4 + level) + b"- \n" for level in range(MAX_JSON_DEPTH - 3))
    _, problems = check_registry(corpus, raw.replace(old, b"\n    notes:\n" + block + old[1:], 1))
    assert problems == [extra], problems


@pytest.mark.parametrize(
    "literal",
    [b"1" + b"0" * 4300, b"-" + b"9" * 5000, b"9" * 100_000, b"[" + b"1" * 4301 + b"]"],
    ids=["4301-digits", "minus-5000-digits", "100000-digits", "in-a-list"],
)
def test_integer_beyond_int_conversion_limit_is_a_problem(literal):
    """Python refuses int() of more than 4300 digits with a ValueError."""
    with pytest.raises(CorpusFileError, match=r"out of range|malformed"):
        decode_json(literal)


@pytest.mark.parametrize(
    "text",
    [
        "[" * 10_000 + "]" * 10_000,
        "- " * 5_000 + "x",
        "".join(" " * i + "- \n" for i in range(3_000)),
        "!!int abc",
        "!!int ''",
        "!!int '_'",
        "!!float ''",
        "!!float abc",
        "!!bool maybe",
        "!!timestamp x",
        "!!timestamp 2026-13-45",
        "a: " + "1" * 5000,
    ],
    ids=lambda text: text[:24],
)
def test_decode_yaml_raises_only_corpus_file_error(text):
    with suppress(CorpusFileError):
        decode_yaml(text.encode("utf-8"))


def test_registry_duplicate_key_is_reported(corpus):
    """A second `subject_version:` in one version must not silently win (as in JSON)."""
    raw = REGISTRIES[0][1].replace(
        b"      - subject_version: atlas-7b-2026-03-q4\n",
        b"      - subject_version: atlas-7b-2026-03-q4\n        subject_version: other\n",
        1,
    )
    assert raw != REGISTRIES[0][1]
    _, problems = check_registry(corpus, raw)
    assert any("duplicate key" in problem for problem in problems), problems


def test_registry_with_a_1_mb_string(corpus):
    """A 1 MB note is valid; a 1 MB subject_version starting with '=' is not."""
    raw = REGISTRIES[0][1]
    long_text = "x" * LONG_STRING
    old_note = b"notes: Quantised q4 snapshot served by a local runner."
    assert old_note in raw
    assert (
        assert_registry_outcome(corpus, raw.replace(old_note, f"notes: {long_text}".encode())) == []
    )
    formula = raw.replace(b"atlas-7b-2026-03-q4", f"'={long_text}'".encode())
    assert any("formula" in problem for problem in assert_registry_outcome(corpus, formula))


_ALIAS_BOMB = "\n".join(
    ["subjects:", "  - &s0 [x, x]"] + [f"  - &s{i} [*s{i - 1}, *s{i - 1}]" for i in range(1, 40)]
)
_BOMB_CHILD = """
import resource, sys
from pathlib import Path
resource.setrlimit(resource.RLIMIT_AS, (2 * 2**30, 2 * 2**30))
from ro_metrics.corpus.layout import REGISTRY, Entry
from ro_metrics.corpus.cross_check import load_registry
root = Path(sys.argv[1])
size = (root / REGISTRY).stat().st_size
problems = []
load_registry(root, [Entry("file", REGISTRY, size)], sys.argv[2],
              lambda path, message: problems.append(message), 4 * 2**20)
print(len(problems), max(len(message) for message in problems))
"""


def test_registry_alias_bomb_finishes_quickly(tmp_path):
    """A 1 KB registry of nested YAML aliases (2**40 leaves) is a problem, not a hang.

    Run in a child process with 2 GiB of address space: a hang or a memory blow-up
    must fail this test, not the machine.
    """
    (tmp_path / "subjects").mkdir()
    (tmp_path / REGISTRY).write_text(_ALIAS_BOMB + "\n", encoding="utf-8")
    assert (tmp_path / REGISTRY).stat().st_size < 1024
    command = [sys.executable, "-c", _BOMB_CHILD, str(tmp_path), str(REGISTRY_SCHEMA)]
    # The child imports the library as the workflow's scripts do: scripts/ on its path.
    environment = {**os.environ, "PYTHONPATH": str(REPO / "scripts")}
    start = time.perf_counter()
    try:
        child = subprocess.run(command, capture_output=True, text=True, timeout=20, env=environment)
    except subprocess.TimeoutExpired:
        pytest.fail("load_registry still running after 20 s on a 1 KB registry")
    elapsed = time.perf_counter() - start
    assert child.returncode == 0, child.stderr[-3000:]
    count, longest = map(int, child.stdout.split())
    assert count >= 1
    assert longest < 100_000, f"a problem message of {longest:,} characters"
    assert elapsed < 10 * SECONDS_PER_CALL


def test_gold_with_a_line_separator_inside_a_json_string_is_accepted(corpus):
    """U+2028, U+2029 and U+0085 are legal in a JSON string and end no Markdown line."""
    relative, raw = GOLDS[0]
    for separator in ("\u2028", "\u2029", "\x85"):
        mutated = raw.replace(b'"(private)"', f'"(private){separator}x"'.encode(), 1)
        assert mutated != raw
        result = check_gold(corpus, relative, mutated)
        assert result.problems == [], (repr(separator), result.problems)


def test_gold_json_block_counts_blocks():
    block = '```json\n{"a": 1}\n```\n'
    assert gold_json_block(("# Gold\n" + block).encode()) == {"a": 1}
    for raw, fragment in [
        ("# nothing", "no ```json block"),
        (block + block, "2 ```json blocks"),
        ('```json\n{"a": 1}\n', "never closed"),
    ]:
        with pytest.raises(CorpusFileError, match=re.escape(fragment)):
            gold_json_block(raw.encode())


def test_oversized_file_is_not_read(corpus):
    relative, raw = RESPONSES[0]
    result = check_file(corpus, relative, raw)  # written, then checked at a false size
    checker = _CHECKERS[str(corpus)]
    _kind, digest, record, problems = checker.check(Entry("file", relative, MAX_BYTES + 1))
    assert result[2] is not None
    assert (digest, record) == ("", None)
    assert "above the limit of 4 MiB" in problems[0]


def test_the_oracle_and_the_fuzzer_can_tell_bad_from_good():
    """Self-check of this file: every family yields rejected files, and some are valid."""
    relative, raw = RESPONSES[0]
    assert judge_file(relative, raw)[0] == VALID
    for token in ("NaN", "1e400"):
        bad = raw.replace(b'"confidence": 82', f'"confidence": {token}'.encode())
        assert judge_file(relative, bad)[0] == INVALID
    dup = raw.replace(b'"confidence": 82', b'"confidence": 82, "confidence": 99')
    assert judge_file(relative, dup)[0] == INVALID
    other = raw.replace(b'"subject_id": "claude-haiku-4-5"', b'"subject_id": "atlas-7b"')
    assert judge_file(relative, other)[0] == INVALID
    assert judge_gold(*GOLDS[0])[0] == VALID
    assert judge_registry(REGISTRIES[0][1])[0] == VALID
