"""What changed since a snapshot, and why: the rows of changes.csv.

Two sets of published results are compared: a snapshot (results/historico/<date>/)
and the results of this run, each as the text of its files. Rows are joined on the
spec's keys with pandas: runs on (subject_id, subject_version, case_id, run_id) — v1.0
has one scoring per (case, subject, run), so the reviewer is a value of the run —,
subject versions on (subject_id, subject_version), input files on their path.

Only rows whose text differs are parsed and joined: a line present byte for byte in
both files is the same row, and both tables are sorted on their keys, so equal
stretches are skipped whole (differing_lines). The cost grows with what changed, not
with the corpus (175,801 files at size L). Tables with a quoted field (a free-text
subject_version with a comma) are joined whole instead, as a quoted field may span
lines.

Each change names its cause, found by comparing the two sets' input digests
(input_files.csv: one SHA-256 per corpus file) and their provenance in metadata.json
(α, benchmark version, workflow version, rubric, schemas, tools). A snapshot taken
before input_files.csv existed still compares: its changes say that their cause is
unknown at file level. A snapshot without criterion_scores.csv gives re-scores as a
raw_score move instead of the criteria that moved. A snapshot whose table lacks a column
the results' table has, or has one it no longer has (the workflow's tables changed),
still compares: on the columns both have, the column itself reported as a change of its
own (comparable).
"""

import csv
import dataclasses
import io
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from ro_metrics.contracts.published import (
    ANNOTATIONS,
    CRITERION_SCORES,
    INPUT_FILES,
    METADATA,
    METRICS_PER_SUBJECT,
    PER_RUN,
    UNCERTAINTY,
    PublishedFile,
)
from ro_metrics.contracts.tables import (
    ANNOTATION_COLUMNS,
    CHANGES_COLUMNS,
    CRITERION_COLUMNS,
    INPUT_FILE_COLUMNS,
    PER_RUN_COLUMNS,
    SUBJECT_COLUMNS,
    UNCERTAINTY_COLUMNS,
)
from ro_metrics.contracts.vocabulary import CORRECTED, CRITERIA, DISQUALIFIED
from ro_metrics.corpus.layout import REGISTRY, gold_path, response_path, scoring_path
from ro_metrics.formulas.ranking import left_out, ranked, tie_groups, with_rank_intervals

RUN_KEY = ["subject_id", "subject_version", "case_id", "run_id"]
# The metrics whose moves are reported, in the order of the report.
METRICS = ("pass_rate", "mean_clipped_score", "brier", "ece", "q_final")
# What metadata.json records besides the inputs, as (field, path in the document,
# what a change of it is).
PROVENANCE = [
    ("alpha", ("alpha",), "configuration"),
    ("benchmark_version", ("benchmark_version",), "configuration"),
    ("strict", ("strict",), "configuration"),
    ("bootstrap_seed", ("uncertainty", "bootstrap_seed"), "configuration"),
    ("bootstrap_replicates", ("uncertainty", "bootstrap_replicates"), "configuration"),
    ("workflow_version", ("workflow_version",), "a new version of the workflow"),
    ("rubric", ("rubric", "digest"), "the rubric document changed"),
    ("uncertainty_methods", ("uncertainty", "digest"), "the methods document changed"),
]
SCOPES = ("parameter", "gold", "version", "run")
UNKNOWN_AT_FILE_LEVEL = "cause unknown at file level (the snapshot records no per-file digests)"
NOT_RECORDED = "(not recorded)"
TABLES_CHANGED = "the workflow's tables changed"


class Change(NamedTuple):
    """One row of changes.csv (tables.CHANGES_COLUMNS)."""

    scope: str  # parameter, gold, version or run
    change: str  # added, removed or changed
    subject_id: str
    subject_version: str
    case_id: str
    run_id: str
    field: str
    old: str
    new: str
    outside_old_ci95: str  # "True"/"False" for a metric with an old interval, else ""
    cause: str


assert list(Change._fields) == CHANGES_COLUMNS


@dataclass(frozen=True)
class PublishedResults:
    """One set of published results as its files' text; None: the file is absent."""

    per_run: bytes | str
    subjects: bytes | str
    metadata: dict
    criteria: bytes | str | None = None
    uncertainty: bytes | str | None = None
    input_files: bytes | str | None = None
    # annotations.csv (lifecycle.md); None before annotations existed, or without any.
    annotations: bytes | str | None = None


@dataclass(frozen=True)
class InputChanges:
    """The input files that differ between two sets (None: unknown at file level)."""

    status: dict[str, str] | None  # path → added, removed or changed
    n_files: int  # files of the current set
    same_inputs: bool  # the whole inputs digest is equal

    def of(self, path: str) -> str:
        """added, removed, changed, unchanged, or "" when unknown."""
        if self.same_inputs:
            return "unchanged"
        if self.status is None:
            return ""
        return self.status.get(path, "unchanged")


@dataclass(frozen=True)
class Comparison:
    """Everything the report says: the two sets, the input changes, the rows."""

    snapshot_date: str | None  # None: no earlier snapshot
    current_date: str
    since: str  # config changes_since, "" if not given
    inputs: InputChanges | None = None
    changes: list[Change] = field(default_factory=list)
    # Without a snapshot to compare with: the dates of the snapshots of other results
    # (oldest first), for the message.
    seen: tuple[str, ...] = ()


class SnapshotFormatError(ValueError):
    """A snapshot's file is not in the format this workflow can compare."""


def comparison_snapshot(dates, current_date: str, since: str = "", these_results=()) -> str | None:
    """The snapshot to compare with: the newest dated on or before the current results'
    date that does not hold these very results (`these_results`, dates: a scoring later
    the same day makes results that differ from the day's snapshot), or with `since`
    the newest dated on or before it; None if there is none.

    Without `since`, a snapshot of these very results is never the base: taking one
    must not change the results it froze (their changes.md), or `snakemake snapshot`
    would find the snapshot no longer holds them."""
    if since:
        candidates = [date for date in dates if date <= since]
    else:
        candidates = [date for date in dates if date <= current_date and date not in these_results]
    return max(candidates, default=None)


def holds_these_results(folder: Path, metadata: dict) -> bool:
    """Whether a snapshot holds the results that `metadata` describes: its metadata.json
    is the same (the same inputs, parameters, workflow and tools give the same bytes)."""
    path = folder / METADATA.name
    try:
        return path.is_file() and json.loads(path.read_bytes()) == metadata
    except ValueError:
        # Not JSON: other results (comparing with it names what is wrong with it).
        return False


def compare(
    old: PublishedResults, new: PublishedResults, snapshot_date: str, current_date: str, since=""
) -> Comparison:
    """The comparison of a snapshot (old) with the current results (new)."""
    old, new, headers, columns = comparable(old, new)
    inputs = input_changes(old, new, headers)
    workflow = provenance_changes(old.metadata, new.metadata)
    runs = run_changes(old, new, inputs, workflow, headers)
    changes = [
        *workflow,
        *columns,
        *gold_changes(runs, new.metadata["benchmark_version"], inputs),
        *version_changes(old, new, runs, workflow, inputs, headers),
        *runs,
    ]
    return Comparison(snapshot_date, current_date, since, inputs, changes)


# --- the tables compared ---------------------------------------------------------------


class SnapshotTable(NamedTuple):
    """A published table the comparison reads (with metadata.json, the snapshot's files
    it reads)."""

    field: str  # its PublishedResults field
    entry: PublishedFile  # its entry in the registry
    columns: list[str]  # its columns as this workflow writes them
    needed: tuple[str, ...]  # the columns the comparison reads by name: a snapshot needs them


SNAPSHOT_FILES = (
    SnapshotTable(
        "per_run",
        PER_RUN,
        PER_RUN_COLUMNS,
        (*RUN_KEY, "reviewer_id", "classification", "has_critical_fail"),
    ),
    SnapshotTable(
        "subjects",
        METRICS_PER_SUBJECT,
        SUBJECT_COLUMNS,
        ("subject_id", "subject_version", "q_final", "leaderboard_status"),
    ),
    SnapshotTable("criteria", CRITERION_SCORES, CRITERION_COLUMNS, (*RUN_KEY, "reviewer_id")),
    SnapshotTable(
        "uncertainty",
        UNCERTAINTY,
        UNCERTAINTY_COLUMNS,
        ("subject_id", "subject_version", "metric", "ci_low", "ci_high"),
    ),
    SnapshotTable("input_files", INPUT_FILES, INPUT_FILE_COLUMNS, ("path", "digest")),
    SnapshotTable("annotations", ANNOTATIONS, ANNOTATION_COLUMNS, tuple(ANNOTATION_COLUMNS)),
)
# Files every snapshot has; the others appeared later and may be absent.
REQUIRED = (PER_RUN, METRICS_PER_SUBJECT)


def _header(text: bytes) -> list[str]:
    return text.partition(b"\r\n")[0].decode("utf-8").split(",")


def comparable(old: PublishedResults, new: PublishedResults):
    """(old, new, headers, column changes): the two sets with each table on the columns
    both have, when the workflow's tables changed between them.

    headers: the columns compared of each table (PublishedResults field → columns). A
    column of one side only is not compared: it is a change of its own, scope
    "parameter". A snapshot's table without a column the comparison reads by name
    (its keys, the ranking's q_final, …) cannot be compared (SnapshotFormatError).
    """
    headers, changes, old_tables, new_tables = {}, [], {}, {}
    for table in SNAPSHOT_FILES:
        headers[table.field] = table.columns
        old_text, new_text = getattr(old, table.field), getattr(new, table.field)
        if old_text is None or new_text is None:
            continue
        old_text, new_text = _as_bytes(old_text), _as_bytes(new_text)
        name = table.entry.name
        old_header, new_header = _header(old_text), _header(new_text)
        if new_header != table.columns:
            raise SnapshotFormatError(f"{name}: header {new_header} is not {table.columns}")
        if old_header == new_header:
            continue
        lacking = [column for column in table.needed if column not in old_header]
        if lacking or len(set(old_header)) != len(old_header):
            raise SnapshotFormatError(
                f"{name}: the snapshot's header {old_header} lacks "
                f"{', '.join(lacking) or 'nothing'} or repeats a column; the comparison "
                f"needs {', '.join(table.needed)} once each"
            )
        common = [column for column in new_header if column in old_header]
        changes += [
            _column_change("added", name, column, "the snapshot's table has no such column")
            for column in new_header
            if column not in old_header
        ]
        changes += [
            _column_change("removed", name, column, "the results' table no longer has it")
            for column in old_header
            if column not in new_header
        ]
        headers[table.field] = common
        old_tables[table.field] = _projected(old_text, common)
        new_tables[table.field] = _projected(new_text, common)
    return (
        dataclasses.replace(old, **old_tables),
        dataclasses.replace(new, **new_tables),
        headers,
        changes,
    )


def _column_change(change: str, name: str, column: str, why: str) -> Change:
    """A column of one side only (its values are not compared)."""
    cause = f"{TABLES_CHANGED}: {why}; the columns both have are compared"
    return Change("parameter", change, "", "", "", "", f"{name}:{column}", "", "", "", cause)


def _projected(text: bytes, columns: list[str]) -> bytes:
    """A published CSV with only the given columns, in that order (both sides of a
    comparison are written alike, so equal rows stay equal lines)."""
    rows = csv.reader(io.StringIO(text.decode("utf-8"), newline=""))
    header = next(rows)
    positions = [header.index(column) for column in columns]
    out = io.StringIO(newline="")
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(columns)
    writer.writerows([row[position] for position in positions] for row in rows)
    return out.getvalue().encode("utf-8")


# --- joins -------------------------------------------------------------------------


def _frame(header: list[str], lines: list[str]):
    """Lines of a published CSV (without its header) as a frame of texts."""
    # pandas costs 0.5-0.8 s to import: only a run that has a snapshot to compare pays it.
    import pandas as pd

    text = "\r\n".join([",".join(header), *lines])
    return pd.read_csv(
        io.StringIO(text), dtype=str, keep_default_na=False, na_filter=False, header=0
    )


def _lines(text: str | bytes, header: list[str], name: str) -> list[str]:
    """The rows of a published CSV as lines, after checking its header."""
    text = _as_bytes(text).decode("utf-8")
    lines = text.split("\r\n")
    found = lines[0].split(",")
    if found != header:
        raise SnapshotFormatError(f"{name}: header {found} is not {header}")
    return [line for line in lines[1:] if line]


def _as_bytes(text: str | bytes) -> bytes:
    return text.encode("utf-8") if isinstance(text, str) else text


def _body(text: bytes, header: list[str], name: str) -> bytes:
    """The lines after the header (each ending in \\r\\n), after checking the header."""
    first, _, body = text.partition(b"\r\n")
    found = first.decode("utf-8").split(",")
    if found != header:
        raise SnapshotFormatError(f"{name}: header {found} is not {header}")
    return body


def differing_rows(old_text: str | bytes, new_text: str | bytes, header: list[str], name: str):
    """(old rows, new rows) that are not in the other table, as frames of texts."""
    old_text, new_text = _as_bytes(old_text), _as_bytes(new_text)
    old_body, new_body = _body(old_text, header, name), _body(new_text, header, name)
    if b'"' in old_body or b'"' in new_body:
        # A quoted field may hold a line break: compare whole parsed rows instead.
        old_all = _frame(header, _lines(old_text, header, name))
        new_all = _frame(header, _lines(new_text, header, name))
        both = old_all.merge(new_all, how="outer", indicator=True)
        return (
            both[both["_merge"] == "left_only"][header].reset_index(drop=True),
            both[both["_merge"] == "right_only"][header].reset_index(drop=True),
        )
    removed, added = differing_lines(old_body, new_body)
    return (
        _frame(header, [line.decode("utf-8") for line in removed]),
        _frame(header, [line.decode("utf-8") for line in added]),
    )


# The tables are compared in about this many blocks; a block that differs is split
# into lines. How far past its expected place a block's first line is looked for.
BLOCKS = 256
SEARCH_SLACK = 1 << 20


def differing_lines(old: bytes, new: bytes) -> tuple[list[bytes], list[bytes]]:
    """Lines of `old` not in `new`, and of `new` not in `old`.

    Both are the rows of a table sorted on a unique key, each line ending in \\r\\n.
    A line of `new` found in `old` splits both into the rows before it and the rows
    after it (sorted, unique keys), so the tables are cut at such anchor lines into
    blocks compared whole (one memory comparison each); only a block that differs is
    split into lines. A rerun that adds one scoring to 85,500 compares 256 blocks and
    splits two, instead of hashing 2 × 85,500 lines.
    """
    pairs = []  # (old start, old end, new start, new end) of each block
    old_at = new_at = 0
    step = max(len(new) // BLOCKS, 1)
    target = step
    while target < len(new):
        boundary = new.rfind(b"\r\n", new_at, target)
        start = boundary + 2 if boundary != -1 else new_at
        end = new.find(b"\r\n", start) + 2
        if end < 2:
            break
        line = new[start:end]
        window = min(len(old), old_at + 4 * (end - new_at) + SEARCH_SLACK)
        found = old.find(line, old_at, window)
        while found > 0 and old[found - 2 : found] != b"\r\n":
            found = old.find(line, found + 1, window)
        if found != -1:
            pairs.append((old_at, found, new_at, start))
            old_at, new_at = found + len(line), end
        target = max(target + step, new_at + 1)
    pairs.append((old_at, len(old), new_at, len(new)))

    removed, added = [], []
    for old_start, old_end, new_start, new_end in pairs:
        old_part, new_part = old[old_start:old_end], new[new_start:new_end]
        if old_part == new_part:
            continue
        old_lines, new_lines = old_part.split(b"\r\n"), new_part.split(b"\r\n")
        old_set, new_set = set(old_lines), set(new_lines)
        removed += [line for line in old_lines if line and line not in new_set]
        added += [line for line in new_lines if line and line not in old_set]
    return removed, added


def joined(old_rows, new_rows, key: list[str]):
    """Outer join of old and new rows on `key`: columns <name>_old, <name>_new and
    `_merge` (left_only: removed, right_only: added, both: changed), sorted by key."""
    both = old_rows.merge(new_rows, on=key, how="outer", suffixes=("_old", "_new"), indicator=True)
    return both.sort_values(key, kind="stable").reset_index(drop=True)


# --- inputs and provenance -----------------------------------------------------------


def input_changes(old: PublishedResults, new: PublishedResults, headers) -> InputChanges:
    """Which input files were added, removed or changed (joined on their path)."""
    same = old.metadata.get("inputs", {}).get("digest") == new.metadata["inputs"]["digest"]
    n_files = new.metadata["inputs"]["n_files"]
    if old.input_files is None or new.input_files is None:
        return InputChanges(None, n_files, same)
    old_rows, new_rows = differing_rows(
        old.input_files, new.input_files, headers["input_files"], INPUT_FILES.name
    )
    both = joined(old_rows, new_rows, ["path"])
    kinds = {"left_only": "removed", "right_only": "added", "both": "changed"}
    status = dict(zip(both["path"], (kinds[kind] for kind in both["_merge"]), strict=True))
    return InputChanges(status, n_files, same)


def _at(document: dict, path: tuple[str, ...]):
    for part in path:
        if not isinstance(document, dict) or part not in document:
            return None
        document = document[part]
    return document


def _text(value) -> str:
    if value is None:
        return NOT_RECORDED
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float):
        return repr(value)
    return str(value)


def provenance_changes(old_metadata: dict, new_metadata: dict) -> list[Change]:
    """Parameters, workflow version, documents, schemas and tools that differ."""
    entries = list(PROVENANCE)
    schemas = sorted(set(old_metadata.get("schemas", {})) | set(new_metadata.get("schemas", {})))
    entries += [(f"schema {name}", ("schemas", name), "a schema changed") for name in schemas]
    tools = sorted(set(old_metadata.get("tools", {})) | set(new_metadata.get("tools", {})))
    entries += [(f"tool {name}", ("tools", name), "another tool version") for name in tools]
    changes = []
    for name, path, what in entries:
        old_value, new_value = _at(old_metadata, path), _at(new_metadata, path)
        if old_value == new_value:
            continue
        changes.append(
            Change(
                "parameter",
                "changed",
                "",
                "",
                "",
                "",
                name,
                _text(old_value),
                _text(new_value),
                "",
                what,
            )
        )
    return changes


def _workflow_cause(workflow: list[Change]) -> str:
    """The cause of a value that moved while its own inputs did not."""
    if not workflow:
        return "no input, parameter or workflow change explains it"
    moves = "; ".join(f"{change.field} {change.old} → {change.new}" for change in workflow)
    return f"no input change: {moves}"


def _file_cause(path: str, inputs: InputChanges, workflow: list[Change]) -> str:
    status = inputs.of(path)
    if not status:
        return UNKNOWN_AT_FILE_LEVEL
    if status == "unchanged":
        return f"{path} unchanged; {_workflow_cause(workflow)}"
    return f"{path} {status}"


# --- runs ----------------------------------------------------------------------------


def _run_paths(row, side: str, benchmark_version: str) -> tuple[str, str, str]:
    """(scoring, response, gold) paths of a joined run row on one side."""
    subject_id, case_id, run_id = row["subject_id"], row["case_id"], row["run_id"]
    return (
        scoring_path(benchmark_version, subject_id, case_id, run_id, row[f"reviewer_id_{side}"]),
        response_path(benchmark_version, subject_id, case_id, run_id),
        gold_path(benchmark_version, case_id),
    )


def run_changes(
    old: PublishedResults, new: PublishedResults, inputs, workflow, headers
) -> list[Change]:
    """Added, removed and changed runs: one row per value that moved, with its cause."""
    old_runs, new_runs = differing_rows(old.per_run, new.per_run, headers["per_run"], PER_RUN.name)
    runs = joined(old_runs, new_runs, RUN_KEY)
    criteria = None
    if old.criteria is not None and new.criteria is not None:
        old_scores, new_scores = differing_rows(
            old.criteria, new.criteria, headers["criteria"], CRITERION_SCORES.name
        )
        criteria = joined(old_scores, new_scores, RUN_KEY)
    old_version = old.metadata.get("benchmark_version", new.metadata["benchmark_version"])
    new_version = new.metadata["benchmark_version"]

    rows_of = {}
    for row in runs.to_dict("records"):
        rows_of[tuple(row[name] for name in RUN_KEY)] = row
    scores_of = {}
    if criteria is not None:
        for row in criteria.to_dict("records"):
            scores_of[tuple(row[name] for name in RUN_KEY)] = row

    changes = []
    for key in sorted(set(rows_of) | set(scores_of)):
        row = rows_of.get(key)
        scores = scores_of.get(key)
        merge = row["_merge"] if row is not None else "both"
        if merge == "right_only":
            scoring, response, _ = _run_paths(row, "new", new_version)
            cause = _file_cause(scoring, inputs, workflow)
            if inputs.of(response) == "added":
                cause += f"; {response} added"
            changes.append(
                Change(
                    "run", "added", *key, "classification", "", row["classification_new"], "", cause
                )
            )
            if row["has_critical_fail_new"] == "True":
                changes.append(
                    Change("run", "added", *key, "has_critical_fail", "", "True", "", cause)
                )
        elif merge == "left_only":
            scoring, _, _ = _run_paths(row, "old", old_version)
            cause = _file_cause(scoring, inputs, workflow)
            changes.append(
                Change(
                    "run",
                    "removed",
                    *key,
                    "classification",
                    row["classification_old"],
                    "",
                    "",
                    cause,
                )
            )
            if row["has_critical_fail_old"] == "True":
                changes.append(
                    Change("run", "removed", *key, "has_critical_fail", "True", "", "", cause)
                )
        else:
            changes += changed_run(
                key, row, scores, criteria is None, inputs, workflow, new_version
            )
    return changes


def changed_run(key, row, scores, criteria_unknown, inputs, workflow, version) -> list[Change]:
    """The rows of one run present in both sets whose values moved."""
    if row is None:
        # Only its criterion scores moved (a re-score that kept the same sum).
        reviewer = scores["reviewer_id_new"]
        row = {**scores, "reviewer_id_new": reviewer, "reviewer_id_old": reviewer}
        moved_fields = {}
    else:
        # (A column of one side only is not compared: comparable.)
        moved_fields = {
            name: (row[f"{name}_old"], row[f"{name}_new"])
            for name in PER_RUN_COLUMNS
            if f"{name}_old" in row and row[f"{name}_old"] != row[f"{name}_new"]
        }
    scoring, response, gold = _run_paths(row, "new", version)
    scoring_cause = _file_cause(scoring, inputs, workflow)
    gold_cause = _file_cause(gold, inputs, workflow)
    moves = []  # (field, old, new, cause)
    if "reviewer_id" in moved_fields:
        old_scoring, _, _ = _run_paths(row, "old", version)
        moves.append(
            (
                "reviewer_id",
                *moved_fields["reviewer_id"],
                f"scoring replaced: {_file_cause(old_scoring, inputs, workflow)}; {scoring_cause}",
            )
        )
    if scores is not None and scores["_merge"] == "both":
        moves += [
            (name, scores[f"{name}_old"], scores[f"{name}_new"], f"re-scored: {scoring_cause}")
            for name in CRITERIA
            if f"{name}_old" in scores and scores[f"{name}_old"] != scores[f"{name}_new"]
        ]
    if criteria_unknown and "raw_score" in moved_fields:
        moves.append(
            (
                "raw_score",
                *moved_fields["raw_score"],
                f"re-scored (criteria not recorded by the snapshot): {scoring_cause}",
            )
        )
    for name, cause in [
        ("has_critical_fail", f"re-scored: {scoring_cause}"),
        ("has_recoverable_fail", f"re-scored: {scoring_cause}"),
        ("rubric_floor", f"gold changed: {gold_cause}"),
        ("rubric_ceiling", f"gold changed: {gold_cause}"),
        ("reported_confidence", f"response changed: {_file_cause(response, inputs, workflow)}"),
        ("correctness", f"re-scored: {scoring_cause}"),
    ]:
        if name in moved_fields:
            moves.append((name, *moved_fields[name], cause))
    if "classification" in moved_fields:
        explained = [f"{name} {old} → {new}" for name, old, new, _ in moves]
        cause = "; ".join(explained) if explained else _workflow_cause(workflow)
        moves.append(("classification", *moved_fields["classification"], cause))
    return [
        Change("run", "changed", *key, name, old_value, new_value, "", cause)
        for name, old_value, new_value, cause in moves
    ]


def gold_changes(runs: list[Change], version: str, inputs: InputChanges) -> list[Change]:
    """A case's floor or ceiling that moved, seen in its runs (one row per case)."""
    moved = {}
    for change in runs:
        if change.field in ("rubric_floor", "rubric_ceiling"):
            moved.setdefault((change.case_id, change.field), (change.old, change.new))
    changes = []
    for (case_id, name), (old_value, new_value) in sorted(moved.items()):
        path = gold_path(version, case_id)
        status = inputs.of(path)
        cause = f"{path} {status}" if status else UNKNOWN_AT_FILE_LEVEL
        changes.append(
            Change("gold", "changed", "", "", case_id, "", name, old_value, new_value, "", cause)
        )
    return changes


# --- subject versions ----------------------------------------------------------------


def _annotation_rows(results: PublishedResults) -> list[dict[str, str]]:
    """The rows of a set's annotations.csv (none when it has no such file). Notes are
    free text: parsed whole by the csv module."""
    if results.annotations is None:
        return []
    text = _as_bytes(results.annotations).decode("utf-8")
    return list(csv.DictReader(io.StringIO(text, newline="")))


def _annotation_text(row: dict[str, str]) -> str:
    return f"{row['label']} {row['date']}: {row['note']}" + (
        f" {row['link']}" if row["link"] else ""
    )


def _standing(results: PublishedResults, headers):
    """(subjects by key, ranked rows by key, tie group members by key) of one set; its
    withdrawn and invalidated versions unranked (its annotations.csv)."""
    columns = headers["subjects"]
    subjects = _frame(columns, _lines(results.subjects, columns, METRICS_PER_SUBJECT.name))
    rows = subjects.to_dict("records")
    uncertainty = {}
    if results.uncertainty is not None:
        columns = headers["uncertainty"]
        table = _frame(columns, _lines(results.uncertainty, columns, UNCERTAINTY.name))
        uncertainty = {
            (row["subject_id"], row["subject_version"], row["metric"]): row
            for row in table.to_dict("records")
        }
    ordered = with_rank_intervals(ranked(rows, left_out(_annotation_rows(results))), uncertainty)
    groups = tie_groups(ordered)
    members = {}
    for row, group in zip(ordered, groups, strict=True):
        members.setdefault(group, []).append((row["subject_id"], row["subject_version"]))
    by_key = {(row["subject_id"], row["subject_version"]): row for row in ordered}
    group_of = {
        (row["subject_id"], row["subject_version"]): group
        for row, group in zip(ordered, groups, strict=True)
    }
    tied_with = {
        key: sorted(set(members[group]) - {key}) if group is not None else []
        for key, group in group_of.items()
    }
    return by_key, group_of, tied_with, uncertainty


def _names(keys) -> str:
    return ", ".join(version for _, version in keys)


def version_changes(old, new, runs, workflow, inputs, headers) -> list[Change]:
    """Versions added or removed, status flips, rank and tie-group moves, metrics."""
    old_rows, old_groups, old_ties, old_uncertainty = _standing(old, headers)
    new_rows, new_groups, new_ties, _ = _standing(new, headers)
    runs_of = {}
    for change in runs:
        runs_of.setdefault((change.subject_id, change.subject_version), []).append(change)
    alpha = next((change for change in workflow if change.field == "alpha"), None)
    registry = inputs.of(REGISTRY)
    # The annotations added since the snapshot (lifecycle.md): a change each, and the
    # cause of what they change (a corrected version's metrics, a withdrawn one's rank).
    old_annotations = _annotation_rows(old)
    added_annotations = {}
    for row in _annotation_rows(new):
        if row not in old_annotations:
            added_annotations.setdefault((row["subject_id"], row["subject_version"]), []).append(
                row
            )

    changes = []
    for key in sorted(set(old_rows) | set(new_rows)):
        before, after = old_rows.get(key), new_rows.get(key)
        own = runs_of.get(key, [])
        if before is None:
            n_added = sum(change.change == "added" for change in own)
            cause = f"first scored runs: {n_added} run(s) added"
            if registry in ("added", "changed"):
                cause += f"; {REGISTRY} {registry}"
            changes.append(
                _version_change(
                    "added", key, "leaderboard_status", "", after["leaderboard_status"], cause
                )
            )
            if after["rank"]:
                changes.append(
                    _version_change("changed", key, "rank", "", after["rank"], "version added")
                )
            continue
        if after is None:
            n_removed = sum(change.change == "removed" for change in own)
            changes.append(
                _version_change(
                    "removed",
                    key,
                    "leaderboard_status",
                    before["leaderboard_status"],
                    "",
                    f"its scored runs removed ({n_removed})",
                )
            )
            continue
        if before["leaderboard_status"] != after["leaderboard_status"]:
            changes.append(
                _version_change(
                    "changed",
                    key,
                    "leaderboard_status",
                    before["leaderboard_status"],
                    after["leaderboard_status"],
                    _status_cause(after["leaderboard_status"], own, workflow),
                )
            )
        annotated = added_annotations.get(key, [])
        changes += [
            _version_change(
                "added",
                key,
                "annotation",
                "",
                _annotation_text(row),
                f"annotation {row['label']} {row['date']}",
            )
            for row in annotated
        ]
        if before["rank"] != after["rank"]:
            leaving = [row for row in annotated if row["label"] != CORRECTED]
            changes.append(
                _version_change(
                    "changed",
                    key,
                    "rank",
                    before["rank"],
                    after["rank"],
                    f"annotation {leaving[-1]['label']} {leaving[-1]['date']}: left out of "
                    "active comparisons"
                    if leaving and not after["rank"]
                    else _rank_cause(key, before, after, old_rows, new_rows),
                )
            )
        if old_ties[key] != new_ties[key]:
            changes.append(
                _version_change(
                    "changed",
                    key,
                    "tie_group",
                    _group_text(old_groups[key]),
                    _group_text(new_groups[key]),
                    _tie_cause(before, after, old_ties[key], new_ties[key]),
                )
            )
        for metric in METRICS:
            # (A metric of one side only is a column change: comparable.)
            if metric not in before or before[metric] == after[metric]:
                continue
            interval = old_uncertainty.get((*key, metric))
            outside = ""
            if interval and interval["ci_low"]:
                value = float(after[metric])
                outside = str(
                    value < float(interval["ci_low"]) or value > float(interval["ci_high"])
                )
            cause = _metric_cause(metric, own, alpha, workflow)
            corrected = [row for row in annotated if row["label"] == CORRECTED]
            if corrected:
                cause = f"annotation {CORRECTED} {corrected[-1]['date']}; {cause}"
            changes.append(
                _version_change(
                    "changed",
                    key,
                    metric,
                    before[metric],
                    after[metric],
                    cause,
                    outside=outside,
                )
            )
    return changes


def _version_change(
    change: str, key, field: str, old: str, new: str, cause: str, *, outside: str = ""
) -> Change:
    """A row of scope "version" (no case, no run)."""
    return Change("version", change, *key, "", "", field, old, new, outside, cause)


def _group_text(group) -> str:
    return "" if group is None else str(group)


def _status_cause(status: str, own: list[Change], workflow) -> str:
    """The runs whose critical fail disqualifies (or whose removal requalifies)."""
    critical = [change for change in own if change.field == "has_critical_fail"]
    if status == DISQUALIFIED:
        found = [change for change in critical if change.new == "True"]
        verb = "critical fail in"
    else:
        found = [change for change in critical if change.old == "True"]
        verb = "no critical fail left: removed from"
    if not found:
        return _workflow_cause(workflow)
    named = "; ".join(f"{change.case_id} {change.run_id} ({change.cause})" for change in found)
    return f"{verb} {named}"


def _rank_cause(key, before, after, old_rows, new_rows) -> str:
    if not after["rank"]:
        return "disqualified: unranked"
    if not before["rank"]:
        return "eligible again: ranked"

    def above(rows, own_rank):
        return {other for other, row in rows.items() if row["rank"] and int(row["rank"]) < own_rank}

    old_above = above(old_rows, int(before["rank"]))
    new_above = above(new_rows, int(after["rank"]))
    parts = []
    if before["q_final"] != after["q_final"]:
        parts.append(f"q_final {before['q_final']} → {after['q_final']}")
    if new_above - old_above:
        parts.append(f"now ranked below {_names(sorted(new_above - old_above))}")
    if old_above - new_above:
        parts.append(f"no longer ranked below {_names(sorted(old_above - new_above))}")
    return "; ".join(parts) or "ties changed"


def _tie_cause(before, after, old_ties, new_ties) -> str:
    def interval(row):
        return f"{row['rank_low']}–{row['rank_high']}" if row["rank_low"] else "none"

    parts = [f"rank interval {interval(before)} → {interval(after)}"]
    if set(new_ties) - set(old_ties):
        parts.append(f"now tied with {_names(sorted(set(new_ties) - set(old_ties)))}")
    if set(old_ties) - set(new_ties):
        parts.append(f"no longer tied with {_names(sorted(set(old_ties) - set(new_ties)))}")
    return "; ".join(parts)


MAX_RUNS_NAMED = 3
RUN_MOVES = (
    "run(s) added",
    "run(s) removed",
    "run(s) re-scored",
    "run(s) under a changed gold",
    "response(s) changed",
)


def _examples(keys) -> str:
    """The runs named, when there are few enough to read."""
    if len(keys) > MAX_RUNS_NAMED:
        return ""
    return " (" + ", ".join(f"{case_id} {run_id}" for case_id, run_id in sorted(keys)) + ")"


def _metric_cause(metric: str, own: list[Change], alpha, workflow) -> str:
    """What moved among the version's own runs (metrics depend on nothing else but α)."""
    counts = {label: set() for label in RUN_MOVES}
    for change in own:
        if change.change == "changed" and change.field == "classification":
            continue  # a consequence: the rows before it in the run say what moved
        if change.change in ("added", "removed"):
            label = f"run(s) {change.change}"
        elif change.field in ("rubric_floor", "rubric_ceiling"):
            label = "run(s) under a changed gold"
        elif change.field == "reported_confidence":
            label = "response(s) changed"
        else:
            label = "run(s) re-scored"
        counts[label].add((change.case_id, change.run_id))
    parts = [f"{len(keys)} {label}{_examples(keys)}" for label, keys in counts.items() if keys]
    if metric == "q_final" and alpha is not None:
        parts.append(f"alpha {alpha.old} → {alpha.new}")
    if not parts:
        return _workflow_cause(workflow)
    if not own:
        parts.append("no input change")
    return "; ".join(parts)


# --- reading a snapshot --------------------------------------------------------------


def csv_text(path) -> bytes:
    """A published CSV's bytes (decoded only where rows differ)."""
    with open(path, "rb") as handle:
        return handle.read()


def read_snapshot(folder) -> PublishedResults:
    """The published results frozen in historico/<date>/, as the comparison needs them."""
    folder = Path(folder)
    texts = {}
    for table in SNAPSHOT_FILES:
        path = folder / table.entry.name
        if path.is_file():
            texts[table.field] = csv_text(path)
        elif table.entry in REQUIRED:
            raise SnapshotFormatError(f"{path}: missing from the snapshot")
    path = folder / METADATA.name
    try:
        metadata = json.loads(path.read_bytes())
    except (OSError, ValueError) as error:
        raise SnapshotFormatError(f"{path}: unreadable ({error})") from None
    return PublishedResults(metadata=metadata, **texts)
