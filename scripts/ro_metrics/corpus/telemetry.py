"""Reading the runner's telemetry (telemetry.md): the checked calls of every batch log,
and which of them the operational tables count.

A batch log is a CSV file under ``logs/batch_logs/`` (UTF-8, a header line, the
columns of tables.TELEMETRY_COLUMNS in that order). Every cell is checked against
telemetry.md; a problem names the file, the line and the column, and all problems of
all files are collected, never raised: the cross-check reports them together with
every other problem of the corpus.

Which calls count: the latest passing call (by timestamp_utc, then file name, then
line) of each run that has a response in the corpus. Earlier passing calls of that run
are superseded, passing calls of a run without a response are counted apart, and so
are responses without any passing call (telemetry.md, "Known weakness").
"""

import csv
import datetime
import hashlib
import io
import math
import re
from collections import defaultdict
from typing import NamedTuple

from ro_metrics.contracts.records import ResponseKey, TelemetryCall
from ro_metrics.contracts.tables import TELEMETRY_COLUMNS
from ro_metrics.contracts.vocabulary import (
    CASE_ID,
    FORMULA_STARTS,
    RESPONSE_NAME_RE,
    RUN_ID,
    SUBJECT_ID_RE,
)
from ro_metrics.corpus.layout import FILE, NOT_A_FILE

PASS_STATUS, FAIL_STATUS = "pass", "fail"
TRACKS = ("classic", "reasoning")
TIMESTAMP_FORMAT = "%Y-%m-%dT%H:%M:%SZ"
_TIMESTAMP = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z")
_CASE_ID = re.compile(CASE_ID)
_RUN_ID = re.compile(RUN_ID)
_COUNT = re.compile(r"[0-9]{1,15}")  # a token count or a latency: a plain integer
_NUMBER = re.compile(r"[0-9]+(?:\.[0-9]*)?(?:[eE][+-]?[0-9]+)?|\.[0-9]+(?:[eE][+-]?[0-9]+)?")
COLUMN = {name: index for index, name in enumerate(TELEMETRY_COLUMNS)}
SHOWN_CHARACTERS = 40  # of a wrong cell, in a problem


class Call(NamedTuple):
    """A checked passing call: what the operational tables and the matching need."""

    timestamp_utc: str
    subject_id: str
    subject_version: str
    case_id: str
    run_id: str
    prompt_tokens: int | None
    completion_tokens: int | None
    latency_ms: int | None
    price_in: str  # the cell's text ("" when unknown), turned into a number exactly once
    price_out: str
    file: str  # relative to the corpus
    line: int

    def where(self) -> str:
        return f"{self.file}, line {self.line}"

    def has_usage(self) -> bool:
        """Only calls whose prompt_tokens, completion_tokens and latency_ms are integers count."""
        return None not in (self.prompt_tokens, self.completion_tokens, self.latency_ms)


class BatchLog(NamedTuple):
    """One checked batch log: its digest, its passing calls, its failed calls, its problems."""

    digest: str
    calls: list[Call]
    n_failed: int
    problems: list[str]


def _shown(value: str) -> str:
    return repr(value if len(value) <= SHOWN_CHARACTERS else value[:SHOWN_CHARACTERS] + "…")


def _timestamp_problem(value: str) -> str | None:
    if _TIMESTAMP.fullmatch(value):
        try:
            datetime.datetime.strptime(value, TIMESTAMP_FORMAT)
            return None
        except ValueError:
            return "is not a date and time that exists"
    return "is not a UTC time YYYY-MM-DDTHH:MM:SSZ"


def _count_problem(value: str) -> str | None:
    if value == "" or _COUNT.fullmatch(value):
        return None
    return "is not a non-negative integer (or empty)"


def _amount_problem(value: str) -> str | None:
    if value == "":
        return None
    if _NUMBER.fullmatch(value) and math.isfinite(float(value)):
        return None
    return "is not a non-negative number (or empty)"


def _id_problem(pattern):
    def check(value: str) -> str | None:
        return None if pattern.fullmatch(value) else "is not a valid id"

    return check


def _version_problem(value: str) -> str | None:
    if value == "":
        return "is empty"
    if value.startswith(FORMULA_STARTS):
        return f"starts with {value[0]!r}, which a spreadsheet would run as a formula"
    return None


CELL_CHECKS = {
    "timestamp_utc": _timestamp_problem,
    "case_id": _id_problem(_CASE_ID),
    "subject_id": _id_problem(SUBJECT_ID_RE),
    "subject_version": _version_problem,
    "run_id": _id_problem(_RUN_ID),
    "track": lambda value: None if value in TRACKS else "is not classic or reasoning",
    "prompt_tokens": _count_problem,
    "completion_tokens": _count_problem,
    "total_tokens": _count_problem,
    "cost_usd": _amount_problem,
    "price_per_input_token_usd": _amount_problem,
    "price_per_output_token_usd": _amount_problem,
    "latency_ms": _count_problem,
    "status": lambda value: None if value in (PASS_STATUS, FAIL_STATUS) else "is not pass or fail",
}


def _row_problems(row: list[str]) -> list[str]:
    """Problems of one row's cells, each as "column N (name): 'value' <what is wrong>"."""
    found = []
    for name, check in CELL_CHECKS.items():
        value = row[COLUMN[name]]
        problem = check(value)
        if problem:
            found.append(f"column {COLUMN[name] + 1} ({name}): {_shown(value)} {problem}")
    status, error_type = row[COLUMN["status"]], row[COLUMN["error_type"]]
    column = f"column {COLUMN['error_type'] + 1} (error_type)"
    if status == PASS_STATUS and error_type:
        found.append(f"{column}: {_shown(error_type)} on a passing call (must be empty)")
    if status == FAIL_STATUS and not error_type:
        found.append(f"{column}: empty on a failed call (the error class is required)")
    return found


def _integer(value: str) -> int | None:
    return int(value) if value else None


def _decode(raw: bytes) -> tuple[str | None, str | None]:
    """The text of a batch log, or the problem that prevents reading it."""
    if not raw:
        return None, "line 1: the file is empty (a batch log has at least its header line)"
    if raw.startswith(b"\xef\xbb\xbf"):
        return None, "line 1: starts with a UTF-8 byte order mark (BOM)"
    try:
        return raw.decode("utf-8"), None
    except UnicodeDecodeError as error:
        line = raw.count(b"\n", 0, error.start) + 1
        column = error.start - (raw.rfind(b"\n", 0, error.start) + 1) + 1
        return None, (
            f"line {line}, column {column} (byte): not valid UTF-8 "
            f"(byte 0x{raw[error.start]:02x} at offset {error.start})"
        )


def read_batch_log(raw: bytes, relative: str) -> BatchLog:
    """Check every line of one batch log; its passing calls and its problems."""
    digest = hashlib.sha256(raw).hexdigest()
    text, problem = _decode(raw)
    if text is None:
        return BatchLog(digest, [], 0, [problem])
    reader = csv.reader(io.StringIO(text, newline=""))
    problems, calls, n_failed = [], [], 0
    try:
        header = next(reader, None)
        if header != TELEMETRY_COLUMNS:
            return BatchLog(digest, [], 0, [_header_problem(header)])
        line = reader.line_num + 1  # where the next record starts
        for row in reader:
            start, line = line, reader.line_num + 1
            if not row:
                continue  # a blank line
            if len(row) != len(TELEMETRY_COLUMNS):
                problems.append(
                    f"line {start}: {len(row)} fields where the header has {len(TELEMETRY_COLUMNS)}"
                )
                continue
            row_problems = _row_problems(row)
            if row_problems:
                problems += [f"line {start}, {message}" for message in row_problems]
                continue
            if row[COLUMN["status"]] == FAIL_STATUS:
                n_failed += 1
                continue
            calls.append(
                Call(
                    row[COLUMN["timestamp_utc"]],
                    row[COLUMN["subject_id"]],
                    row[COLUMN["subject_version"]],
                    row[COLUMN["case_id"]],
                    row[COLUMN["run_id"]],
                    _integer(row[COLUMN["prompt_tokens"]]),
                    _integer(row[COLUMN["completion_tokens"]]),
                    _integer(row[COLUMN["latency_ms"]]),
                    row[COLUMN["price_per_input_token_usd"]],
                    row[COLUMN["price_per_output_token_usd"]],
                    relative,
                    start,
                )
            )
    except csv.Error as error:
        problems.append(f"line {reader.line_num}: malformed CSV ({error}); the rest is not read")
    return BatchLog(digest, calls, n_failed, problems)


def _header_problem(header: list[str] | None) -> str:
    if not header:
        return "line 1: no header line (expected the columns of telemetry.md)"
    for index, (found, expected) in enumerate(
        zip(header, TELEMETRY_COLUMNS, strict=False), start=1
    ):
        if found != expected:
            return (
                f"line 1, column {index}: header {_shown(found)} where telemetry.md has "
                f"{expected!r} (the columns and their order are fixed)"
            )
    return (
        f"line 1: the header has {len(header)} columns, telemetry.md's "
        f"{len(TELEMETRY_COLUMNS)} (the columns and their order are fixed)"
    )


def response_keys(paths: list[str]) -> set[ResponseKey]:
    """The runs that have a response file: subject folder and file name of each path
    (responses/<version>/<subject_id>/<case_id>__<run_id>.json); other names are not
    responses (the load step reports them)."""
    keys = set()
    for path in paths:
        parts = path.split("/")
        if len(parts) != 4 or not SUBJECT_ID_RE.fullmatch(parts[2]):
            continue
        match = RESPONSE_NAME_RE.fullmatch(parts[3])
        if match:
            keys.add(ResponseKey(parts[2], match["case_id"], match["run_id"]))
    return keys


class Selection(NamedTuple):
    """The passing calls sorted into what the operational tables count and the rest."""

    counted: list[Call]
    without_usage: list[Call]
    without_response: list[Call]
    without_call: list[ResponseKey]
    n_superseded: int


def _order(call: Call) -> tuple:
    return call.timestamp_utc, call.file, call.line


def select_calls(calls: list[Call], responses: set[ResponseKey]) -> Selection:
    """The latest passing call of each run that has a response (module docstring)."""
    by_run = defaultdict(list)
    for call in calls:
        by_run[ResponseKey(call.subject_id, call.case_id, call.run_id)].append(call)
    counted, without_usage, without_response = [], [], []
    n_superseded = 0
    for key, run_calls in by_run.items():
        if key not in responses:
            without_response += run_calls
            continue
        latest = max(run_calls, key=_order)
        n_superseded += len(run_calls) - 1
        (counted if latest.has_usage() else without_usage).append(latest)
    return Selection(
        sorted(counted, key=_order),
        sorted(without_usage, key=_order),
        sorted(without_response, key=_order),
        sorted(responses - by_run.keys()),
        n_superseded,
    )


def telemetry_call(call: Call) -> TelemetryCall:
    return TelemetryCall(
        call.subject_id, call.subject_version, call.case_id, call.run_id, call.where()
    )


def read_batch_logs(entries, corpus) -> dict[str, BatchLog]:
    """The BatchLog of every listed entry, by path."""
    logs = {}
    for entry in entries:
        if entry.kind != FILE:
            result = BatchLog("", [], 0, [NOT_A_FILE[entry.kind]])
        else:
            try:
                with open(f"{corpus}/{entry.path}", "rb") as handle:
                    raw = handle.read()
            except OSError as error:  # removed or unreadable since the scan
                result = BatchLog("", [], 0, [f"cannot be read: {error.strerror}"])
            else:
                result = read_batch_log(raw, entry.path)
        logs[entry.path] = result
    return logs
