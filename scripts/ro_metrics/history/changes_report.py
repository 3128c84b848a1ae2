"""The changes report in its three forms: changes.csv rows, changes.md, the page section.

All three say the same (history/changes.py computes it): which snapshot the
results were compared with, what happened to the input files, and one line per
value that moved with its cause, in the order of changes.csv (parameters, golds,
subject versions, runs; each by its key). No clock: the same comparison gives the
same bytes. The texts around the values are labels
(rendering/labels.json): changes.md is in English, the page's section in the
page's language; the values (ids, old and new values, causes) are changes.csv's.
"""

from typing import NamedTuple

from ro_metrics.contracts.tables import CHANGES_COLUMNS
from ro_metrics.history.changes import SCOPES, Change, Comparison
from ro_metrics.rendering.markdown import gfm_table, markdown_text
from ro_metrics.rendering.page_templates import macros
from ro_metrics.rendering.translations import ENGLISH, Language, language

# The page shows this many run-level lines; changes.csv and changes.md have all.
PAGE_RUN_LINES = 200
# Columns of each section: (label of its heading, Change field).
SECTION_COLUMNS = {
    "parameter": ["field", "old", "new", "cause"],
    "gold": ["case_id", "field", "old", "new", "cause"],
    "version": [
        "subject_id",
        "subject_version",
        "change",
        "field",
        "old",
        "new",
        "outside_old_ci95",
        "cause",
    ],
    "run": [
        "subject_id",
        "subject_version",
        "case_id",
        "run_id",
        "change",
        "field",
        "old",
        "new",
        "cause",
    ],
}
INPUT_KINDS = (
    ("subjects/", "registry"),
    ("golds/", "golds"),
    ("responses/", "responses"),
    ("scoring/", "scorings"),
)
ENGLISH_LABELS = language(ENGLISH)


def csv_rows(comparison: Comparison) -> list[list[str]]:
    """The rows of changes.csv (tables.CHANGES_COLUMNS)."""
    return [list(change) for change in comparison.changes]


def title(comparison: Comparison, t: Language = ENGLISH_LABELS) -> str:
    if comparison.snapshot_date is None:
        return t("changes_title_none")
    return t("changes_title", date=comparison.snapshot_date)


def lead(comparison: Comparison, t: Language = ENGLISH_LABELS) -> str:
    """What was compared with what (plain text)."""
    if comparison.snapshot_date is None:
        if comparison.since:
            return t("changes_lead_none_since", since=comparison.since)
        if comparison.seen:
            return t(
                "changes_lead_none_seen",
                date=comparison.current_date,
                snapshots=", ".join(comparison.seen),
                settings=", ".join(f"changes_since={date}" for date in comparison.seen),
            )
        return t("changes_lead_none", date=comparison.current_date)
    if comparison.since:
        which = t("changes_which_since", since=comparison.since)
    elif comparison.snapshot_date == comparison.current_date:
        which = t("changes_which_same_day")
    else:
        which = t("changes_which")
    return t(
        "changes_lead",
        current=comparison.current_date,
        snapshot=comparison.snapshot_date,
        which=which,
    )


def inputs_text(comparison: Comparison, t: Language = ENGLISH_LABELS) -> str:
    """What happened to the input files (plain text); "" without a snapshot."""
    inputs = comparison.inputs
    if inputs is None:
        return ""
    if inputs.same_inputs:
        return t("changes_inputs_same", n_files=inputs.n_files)
    if inputs.status is None:
        return t("changes_inputs_unknown")
    parts = []
    for prefix, kind in INPUT_KINDS:
        found = {"added": 0, "changed": 0, "removed": 0}
        for path, status in inputs.status.items():
            if path.startswith(prefix):
                found[status] += 1
        moved = [t(f"changes_files_{status}", n=count) for status, count in found.items() if count]
        if moved:
            parts.append(f"{t(f'changes_kind_{kind}')} {', '.join(moved)}")
    return t("changes_inputs", parts="; ".join(parts), n_files=inputs.n_files)


def summary_text(comparison: Comparison, t: Language = ENGLISH_LABELS) -> str:
    if comparison.snapshot_date is None:
        return ""
    if not comparison.changes:
        return t("changes_none")
    scopes = [change.scope for change in comparison.changes]
    counts = [
        t(f"changes_count_{scope}", n=scopes.count(scope)) for scope in SCOPES if scope in scopes
    ]
    return t("changes_summary", n=len(comparison.changes), counts=", ".join(counts))


def _by_scope(changes: list[Change]) -> dict[str, list[Change]]:
    found = {scope: [] for scope in SCOPES}
    for change in changes:
        found[change.scope].append(change)
    return found


# --- Markdown ------------------------------------------------------------------------


def _escaped_table(headings: list[str], rows: list[list[str]]) -> str:
    """A table of changes.md: the headings are labels, the cells changes.csv's values."""
    return gfm_table(headings, [[markdown_text(cell) for cell in row] for row in rows])


def markdown(comparison: Comparison) -> str:
    """changes.md: the whole report (every line of changes.csv, grouped by scope)."""
    lines = [f"# {title(comparison)}", "", markdown_text(lead(comparison)), ""]
    for paragraph in (inputs_text(comparison), summary_text(comparison)):
        if paragraph:
            lines += [markdown_text(paragraph), ""]
    if not comparison.changes:
        # No snapshot or no change: the table of changes.csv with its header only.
        lines.append(_escaped_table(CHANGES_COLUMNS, []))
        return "\n".join(lines) + "\n"
    for scope, changes in _by_scope(comparison.changes).items():
        if not changes:
            continue
        columns = SECTION_COLUMNS[scope]
        rows = [[getattr(change, name) for name in columns] for change in changes]
        lines += [f"## {ENGLISH_LABELS(f'changes_section_{scope}')}", ""]
        lines.append(
            _escaped_table([ENGLISH_LABELS(f"changes_col_{name}") for name in columns], rows)
        )
        lines.append("")
    return "\n".join(lines)


# --- the page section ----------------------------------------------------------------


class ScopeTable(NamedTuple):
    """The changes of one scope as the page shows them (plain texts, escaped by the
    template)."""

    heading: str
    headings: list[str]
    rows: list[list[str]]
    # Why the table stops short of changes.csv, "" when it does not.
    note: str


class PageSection(NamedTuple):
    title: str
    lead: str
    paragraphs: list[str]
    # The columns of changes.csv: the empty table's, without a change.
    all_columns: list[str]
    scopes: list[ScopeTable]


def page_section(comparison: Comparison, t: Language = ENGLISH_LABELS) -> str:
    """The page's section in language t (templates/changes.html): as changes.md, the
    run lines cut at PAGE_RUN_LINES."""
    scopes = []
    for scope, changes in _by_scope(comparison.changes).items():
        if not changes:
            continue
        columns = SECTION_COLUMNS[scope]
        shown = changes[:PAGE_RUN_LINES] if scope == "run" else changes
        note = ""
        if len(shown) < len(changes):
            note = t("changes_run_lines_note", shown=len(shown), total=len(changes))
        scopes.append(
            ScopeTable(
                heading=t(f"changes_section_{scope}"),
                headings=[t(f"changes_col_{name}") for name in columns],
                rows=[[getattr(change, name) for name in columns] for change in shown],
                note=note,
            )
        )
    section = PageSection(
        title=title(comparison, t),
        lead=lead(comparison, t),
        paragraphs=[
            paragraph
            for paragraph in (inputs_text(comparison, t), summary_text(comparison, t))
            if paragraph
        ],
        all_columns=list(CHANGES_COLUMNS),
        scopes=scopes,
    )
    # A str, not markup: the section is written into a JSON file for the leaderboard.
    return str(macros("changes.html").changes_section(section))
