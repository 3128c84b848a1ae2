"""Reading one corpus file: strict JSON decoding, gold blocks, schema checks.

The standard library's decoder parses corpus files because only it can refuse a
duplicate key (orjson, used for the workflow's own intermediate files, keeps the
last value silently).

Every function returns problems as plain messages instead of raising, so a load
job can report every problem of every file in one run.
"""

import hashlib
import json
import math
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import fastjsonschema
import orjson
import yaml

from ro_metrics.contracts.vocabulary import FORMULA_STARTS


class CorpusFileError(Exception):
    """A file that cannot be read as the artifact it should be."""


# Nesting levels of arrays and objects a corpus file may have (the registry's YAML,
# which holds the same data model, included). The schemas need 5 (registry: root,
# subjects, subject, versions, version); the margin leaves room for free-form members.
# Without it the only bound would be the interpreter's recursion limit: about 1,000
# levels, fewer the deeper the caller's stack, and a RecursionError wherever a later
# step (the schema report) recursed over a document that had just fitted.
MAX_JSON_DEPTH = 64
TOO_DEEP = f"nesting deeper than {MAX_JSON_DEPTH} levels"


# Only a \uD800-\uDFFF escape can put a lone surrogate into a decoded string.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def decode_utf8(raw: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise CorpusFileError(
            f"not valid UTF-8: byte 0x{raw[error.start]:02x} at offset {error.start}"
        ) from None


def _unique_keys(pairs: list) -> dict:
    document = dict(pairs)
    if len(document) < len(pairs):
        seen, repeated = set(), []
        for key, _ in pairs:
            if key in seen and key not in repeated:
                repeated.append(key)
            seen.add(key)
        names = ", ".join(repr(key) for key in repeated)
        raise CorpusFileError(
            f"duplicate key {names} in one object: which value counts would be a guess"
        )
    return document


def _reject_constant(name: str):
    raise CorpusFileError(f"{name} is not a JSON number (NaN and Infinity are not allowed)")


def _finite_float(text: str) -> float:
    value = float(text)
    if math.isinf(value):
        raise CorpusFileError(f"number {text} is out of range")
    return value


_STRICT = json.JSONDecoder(
    object_pairs_hook=_unique_keys, parse_constant=_reject_constant, parse_float=_finite_float
)


def decode_json(raw, first_line: int = 1):
    """Parse JSON strictly: UTF-8 without BOM, no NaN/Infinity, no duplicate keys.

    Also no lone surrogates (they could not be written back as UTF-8) and no nesting
    deeper than MAX_JSON_DEPTH. A failure is explained with the line and column,
    counted in the whole file when the JSON starts at first_line.
    """
    text = decode_utf8(raw) if isinstance(raw, bytes) else raw
    if text.startswith("\ufeff"):
        raise CorpusFileError(
            "starts with a UTF-8 byte order mark (BOM), which JSON does not allow"
        )
    try:
        document = _STRICT.decode(text)
    except json.JSONDecodeError as error:
        where = f"line {error.lineno + first_line - 1}, column {error.colno}"
        message = error.msg.removesuffix(" at")  # some of json's messages end with "at"
        raise CorpusFileError(f"malformed JSON: {message} at {where}") from None
    except RecursionError:
        # The C decoder recursed ~1,000 levels: far beyond the limit.
        raise CorpusFileError(f"{TOO_DEEP} of arrays and objects") from None
    except ValueError as error:
        # int() refuses integers of more than 4,300 digits.
        raise CorpusFileError(f"number out of range: {str(error)[:80]}") from None
    # Each level opens a bracket, so a text with at most MAX_JSON_DEPTH of them (all
    # but a rare file: ours have 5 to 15) cannot be too deep. Counting runs in C, about
    # 0.5 µs per KB (a quarter of the decoding); only the other files are walked.
    if text.count("[") + text.count("{") > MAX_JSON_DEPTH and _deeper_than_limit(document):
        raise CorpusFileError(f"{TOO_DEEP} of arrays and objects")
    if _SURROGATE_ESCAPE.search(text):
        try:
            orjson.loads(text)
        except orjson.JSONDecodeError as error:
            where = f"line {error.lineno + first_line - 1}, column {error.colno}"
            raise CorpusFileError(f"malformed JSON: {error.msg} at {where}") from None
    return document


def _deeper_than_limit(document) -> bool:
    """Whether a decoded document nests more than MAX_JSON_DEPTH arrays and objects."""
    stack = [(document, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_JSON_DEPTH:
            return True
        children = node.values() if isinstance(node, dict) else node
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return False


def gold_json_block(raw: bytes):
    """The one fenced ```json block of a gold Markdown file, parsed."""
    # The lines as re.split(r"\r\n|\r|\n") cuts them, in a third of its time.
    lines = decode_utf8(raw).replace("\r\n", "\n").replace("\r", "\n").split("\n")
    blocks = []
    opening = None
    for number, line in enumerate(lines, start=1):
        if opening is None:
            if line.startswith("```json"):
                opening = number
        elif line.startswith("```"):
            blocks.append((opening, number))
            opening = None
    if opening is not None:
        raise CorpusFileError(f"the ```json block opened at line {opening} is never closed")
    if not blocks:
        raise CorpusFileError("no ```json block found (a gold needs exactly one)")
    if len(blocks) > 1:
        starts = ", ".join(str(start) for start, _ in blocks)
        raise CorpusFileError(
            f"{len(blocks)} ```json blocks found (lines {starts}); a gold needs exactly one"
        )
    start, end = blocks[0]
    return decode_json("\n".join(lines[start : end - 1]), first_line=start + 1)


class _KeepDatesAsText(yaml.SafeLoader):
    """A YAML loader for the registry: dates stay text (as the schema expects), a
    duplicate key is an error (as in JSON), and aliases are refused (a 1 KB file of
    nested aliases expands into gigabytes)."""

    _depth = 0  # mappings and sequences open around the node being composed

    def compose_node(self, parent, index):
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            raise yaml.composer.ComposerError(
                None, None, "aliases are not allowed", event.start_mark
            )
        if not self.check_event(yaml.CollectionStartEvent):
            return super().compose_node(parent, index)
        # Stopping here also spares PyYAML's recursive composer and constructor the
        # rest of a deep document.
        if self._depth >= MAX_JSON_DEPTH:
            mark = self.peek_event().start_mark
            raise CorpusFileError(
                f"{TOO_DEEP} of mappings and sequences at line {mark.line + 1}, "
                f"column {mark.column + 1}"
            )
        self._depth += 1
        try:
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1

    def construct_mapping(self, node, deep=False):
        seen = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=True)
            try:
                if key in seen:
                    raise yaml.constructor.ConstructorError(
                        None, None, f"duplicate key {key!r}", key_node.start_mark
                    )
                seen.add(key)
            except TypeError:
                pass
        return super().construct_mapping(node, deep=deep)


_KeepDatesAsText.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def decode_yaml(raw: bytes):
    text = decode_utf8(raw)
    try:
        return yaml.load(text, Loader=_KeepDatesAsText)  # noqa: S506 - a SafeLoader
    except RecursionError:
        # Unreachable through nesting (compose_node stops it at MAX_JSON_DEPTH); kept
        # so that no other recursion in PyYAML can end in a traceback.
        raise CorpusFileError("malformed YAML: nested too deeply") from None
    except (ValueError, TypeError, IndexError, KeyError, AttributeError) as error:
        raise CorpusFileError(f"malformed YAML: {error}") from None
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(error, "problem", None) or str(error)
        raise CorpusFileError(f"malformed YAML: {problem}{where}") from None


class SchemaCheck:
    """A JSON Schema compiled for speed, with a readable report for failing documents.

    fastjsonschema decides; only a failing document is re-checked by jsonschema to
    list every violation with its location.
    """

    def __init__(self, schema_path: Path):
        schema = json.loads(Path(schema_path).read_text(encoding="utf-8"))
        self._schema = schema

    @cached_property
    def _fast(self):
        # Compiled when a first document is checked (50 ms a schema): a load job with
        # no file of that kind to check compiles none.
        return fastjsonschema.compile(inline_definitions(self._schema))

    def problems(self, document, *, shown_fields=None) -> list[str]:
        """Every violation with its location. With shown_fields (golds, whose content is
        private), a violation outside those top-level fields is described by the rule
        it breaks, never by the value: error messages go to terminals and logs too."""
        try:
            self._fast(document)
            return []
        except fastjsonschema.JsonSchemaException as fast_error:
            # Imported only when a file fails: most runs never need it.
            import jsonschema

            full = jsonschema.Draft7Validator(self._schema)

            def describe(error) -> str:
                path = error.absolute_path
                if shown_fields is None or (path and path[0] in shown_fields):
                    return error.message
                return _rule_broken(error)

            try:
                messages = [
                    f"{_location(error)}: {describe(error)}"
                    for error in sorted(
                        full.iter_errors(document),
                        key=lambda e: [str(part) for part in e.absolute_path],
                    )
                ]
            except RecursionError:
                messages = []
            if messages:
                return messages
            return [
                f"schema violation: {fast_error.message}"
                if shown_fields is None
                else "schema violation (value not shown: private)"
            ]


def _rule_broken(error) -> str:
    """A violation described by the schema's rule alone (the value may be private)."""
    if error.validator == "required":  # names a key of the schema, not of the document
        return error.message
    rule = repr(error.validator_value)
    if len(rule) > 120:
        rule = rule[:117] + "..."
    return f"breaks the schema's {error.validator!r} rule ({rule}); value not shown (private)"


def inline_definitions(schema: dict) -> dict:
    """The schema with every local "$ref" replaced by its definition.

    fastjsonschema compiles a $ref into a function call; inlined, the same checks
    run 1.2-2.5 times faster on our documents. Our schemas have no recursive $ref.
    """
    definitions = schema.get("definitions", {})

    def inline(node, depth):
        if depth > 32:
            raise ValueError("recursive $ref in a schema")
        if isinstance(node, dict):
            reference = node.get("$ref", "")
            if reference.startswith("#/definitions/"):
                return inline(definitions[reference.removeprefix("#/definitions/")], depth + 1)
            return {
                key: inline(value, depth + 1) for key, value in node.items() if key != "definitions"
            }
        if isinstance(node, list):
            return [inline(value, depth + 1) for value in node]
        return node

    return inline(schema, 0)


def _location(error) -> str:
    parts = [str(part) for part in error.absolute_path]
    return ".".join(parts) if parts else "(top level)"


def size_problem(size: int, limit: int) -> str | None:
    """A file too large to be read (config max_file_mib)."""
    if size <= limit:
        return None
    return (
        f"file is {size / 2**20:.1f} MiB, above the limit of {limit / 2**20:g} MiB "
        "(config max_file_mib); not read"
    )


# A cell starting with one of these is run as a formula by spreadsheet programs.


def formula_problems(fields: dict) -> list[str]:
    """Free-text ids that reach a published CSV must not read as spreadsheet formulas."""
    return [
        f"{name} {value!r} starts with {value[0]!r}, which a spreadsheet would run as a formula"
        for name, value in fields.items()
        if isinstance(value, str) and value.startswith(FORMULA_STARTS)
    ]


# What a read asks for past the size the corpus scan gave, should the file have grown.
_READ_CHUNK = 2**20


def read_whole_file(path, size: int) -> bytes:
    """Every byte of the file, as open(path, "rb").read() gives them.

    size: what the corpus scan says the file has; a file that grew or shrank since is
    still read to its end. One open, one read of size + 1 bytes, one read that finds
    the end, one close: Python's buffered open() adds two fstat, two lseek and an
    ioctl, and costs twice as much for our ~1.5 KB files (~10 µs, a sixth of a file's
    check).
    """
    descriptor = os.open(path, os.O_RDONLY)
    try:
        content = os.read(descriptor, size + 1)
        chunk = os.read(descriptor, _READ_CHUNK) if content else b""
        if not chunk:
            return content
        chunks = [content, chunk]
        while chunk := os.read(descriptor, _READ_CHUNK):
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(descriptor)


@dataclass(frozen=True)
class CheckedDocument:
    """A corpus file after the guarded read: its digest ("" if it was not read), the
    decoded document (None unless every check passed) and the problems found."""

    digest: str
    document: object
    problems: list[str]


def read_checked(
    path: str | Path,
    size: int,
    max_bytes: int,
    decode: Callable[[bytes], object],
    schema: SchemaCheck,
    *,
    shown_fields=None,
) -> CheckedDocument:
    """The guarded read of every corpus file: size → read → digest → strict decode → schema.

    Each stage stops the file at its first problem, so a too-large file is never
    read and a file that does not decode is never validated.
    """
    if too_large := size_problem(size, max_bytes):
        return CheckedDocument("", None, [too_large])
    try:
        raw = read_whole_file(path, size)
    except OSError as error:
        return CheckedDocument("", None, [f"cannot be read: {error.strerror}"])
    digest = hashlib.sha256(raw).hexdigest()
    try:
        document = decode(raw)
    except CorpusFileError as error:
        return CheckedDocument(digest, None, [str(error)])
    problems = schema.problems(document, shown_fields=shown_fields)
    return CheckedDocument(digest, None if problems else document, problems)
