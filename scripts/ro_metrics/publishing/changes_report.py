"""The changes report in its three forms: changes.csv rows, changes.md, the page section.

All three say the same (publishing/changes.py computes it): which snapshot the
results were compared with, what happened to the input files, and one line per
value that moved with its cause, in the order of changes.csv (parameters, golds,
subject versions, runs; each by its key). No clock: the same comparison gives the
same bytes.
"""

from html import escape

from ro_metrics.contracts.tables import CHANGES_COLUMNS
from ro_metrics.publishing.changes import SCOPES, Change, Comparison

# The page shows this many run-level lines; changes.csv and changes.md have all.
PAGE_RUN_LINES = 200
SECTION_TITLES = {
    "parameter": "Parameters and workflow",
    "gold": "Golds",
    "version": "Subject versions",
    "run": "Runs",
}
SCOPE_NOUNS = {
    "parameter": "of parameters or workflow",
    "gold": "of golds",
    "version": "of subject versions",
    "run": "of runs",
}
# Columns of each section: (heading, Change field).
SECTION_COLUMNS = {
    "parameter": [("field", "field"), ("old", "old"), ("new", "new"), ("cause", "cause")],
    "gold": [
        ("case", "case_id"),
        ("field", "field"),
        ("old", "old"),
        ("new", "new"),
        ("cause", "cause"),
    ],
    "version": [
        ("subject", "subject_id"),
        ("version", "subject_version"),
        ("change", "change"),
        ("field", "field"),
        ("old", "old"),
        ("new", "new"),
        ("outside old 95 % CI", "outside_old_ci95"),
        ("cause", "cause"),
    ],
    "run": [
        ("subject", "subject_id"),
        ("version", "subject_version"),
        ("case", "case_id"),
        ("run", "run_id"),
        ("change", "change"),
        ("field", "field"),
        ("old", "old"),
        ("new", "new"),
        ("cause", "cause"),
    ],
}
INPUT_KINDS = (
    ("subjects/", "registry"),
    ("golds/", "golds"),
    ("responses/", "responses"),
    ("scoring/", "scorings"),
)


def csv_rows(comparison: Comparison) -> list[list[str]]:
    """The rows of changes.csv (tables.CHANGES_COLUMNS)."""
    return [list(change) for change in comparison.changes]


def title(comparison: Comparison) -> str:
    if comparison.snapshot_date is None:
        return "Changes since the last snapshot"
    return f"Changes since the snapshot of {comparison.snapshot_date}"


def lead(comparison: Comparison) -> str:
    """What was compared with what (plain text)."""
    if comparison.snapshot_date is None:
        if comparison.since:
            return (
                f"No earlier snapshot: historico/ has none dated on or before "
                f"{comparison.since} (changes_since); nothing to compare."
            )
        return (
            f"No earlier snapshot: historico/ has none dated before "
            f"{comparison.current_date}; nothing to compare."
        )
    which = (
        f"the newest snapshot dated on or before {comparison.since} (changes_since)"
        if comparison.since
        else "the newest snapshot dated before them"
    )
    return (
        f"The results of {comparison.current_date} compared with "
        f"historico/{comparison.snapshot_date}/, {which}."
    )


def inputs_text(comparison: Comparison) -> str:
    """What happened to the input files (plain text); "" without a snapshot."""
    inputs = comparison.inputs
    if inputs is None:
        return ""
    if inputs.same_inputs:
        return f"Inputs: no input file changed ({inputs.n_files} files, same digest)."
    if inputs.status is None:
        return (
            "Inputs: the inputs digest differs; which files changed is unknown (the "
            "snapshot records no per-file digests)."
        )
    parts = []
    for prefix, kind in INPUT_KINDS:
        found = {"added": 0, "changed": 0, "removed": 0}
        for path, status in inputs.status.items():
            if path.startswith(prefix):
                found[status] += 1
        moved = [f"{count} {status}" for status, count in found.items() if count]
        if moved:
            parts.append(f"{kind} {', '.join(moved)}")
    return f"Inputs: {'; '.join(parts)} ({inputs.n_files} files now)."


def summary_text(comparison: Comparison) -> str:
    if comparison.snapshot_date is None:
        return ""
    if not comparison.changes:
        return "No change: every published value is the same as in the snapshot."
    scopes = [change.scope for change in comparison.changes]
    counts = [f"{scopes.count(scope)} {SCOPE_NOUNS[scope]}" for scope in SCOPES if scope in scopes]
    return f"{len(comparison.changes)} change(s): {', '.join(counts)}."


def _by_scope(changes: list[Change]) -> dict[str, list[Change]]:
    found = {scope: [] for scope in SCOPES}
    for change in changes:
        found[change.scope].append(change)
    return found


# --- Markdown ------------------------------------------------------------------------

# Characters that are active inside a GFM table cell (a cell never starts a line, so
# #, -, + and ! are plain text there).
MARKDOWN_SPECIAL = set("\\`*_[]<>|~&")


def md(value: str) -> str:
    """A table cell's text with every Markdown-active character escaped (GFM)."""
    value = " ".join(str(value).split())
    return "".join(f"\\{char}" if char in MARKDOWN_SPECIAL else char for char in value)


def _md_table(headings: list[str], rows: list[list[str]]) -> list[str]:
    lines = [
        "| " + " | ".join(headings) + " |",
        "|" + "|".join("---" for _ in headings) + "|",
    ]
    lines += ["| " + " | ".join(md(cell) for cell in row) + " |" for row in rows]
    return lines


def markdown(comparison: Comparison) -> str:
    """changes.md: the whole report (every line of changes.csv, grouped by scope)."""
    lines = [f"# {title(comparison)}", "", md(lead(comparison)), ""]
    for paragraph in (inputs_text(comparison), summary_text(comparison)):
        if paragraph:
            lines += [md(paragraph), ""]
    if not comparison.changes:
        # No snapshot or no change: the table of changes.csv with its header only.
        lines += _md_table(CHANGES_COLUMNS, [])
        return "\n".join(lines) + "\n"
    for scope, changes in _by_scope(comparison.changes).items():
        if not changes:
            continue
        columns = SECTION_COLUMNS[scope]
        rows = [[getattr(change, name) for _, name in columns] for change in changes]
        lines += [f"## {SECTION_TITLES[scope]}", ""]
        lines += _md_table([heading for heading, _ in columns], rows)
        lines.append("")
    return "\n".join(lines)


# --- the page section ----------------------------------------------------------------


def _html_table(headings: list[str], rows: list[list[str]]) -> str:
    """A table whose last column (the cause, with long file paths) wraps anywhere."""
    head = "".join(f'<th scope="col">{escape(heading)}</th>' for heading in headings)
    body = "".join(
        "<tr>"
        + "".join(f"<td>{escape(str(cell))}</td>" for cell in row[:-1])
        + f'<td class="cause">{escape(str(row[-1]))}</td>'
        + "</tr>"
        for row in rows
    )
    return (
        '<div class="table-wrap"><table class="changes">'
        f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>"
    )


def page_section(comparison: Comparison) -> str:
    """The page's section: as changes.md, the run lines cut at PAGE_RUN_LINES."""
    parts = [
        f'<section id="changes">\n<h2>{escape(title(comparison))}</h2>',
        f'<p class="meta">{escape(lead(comparison))}</p>',
    ]
    for paragraph in (inputs_text(comparison), summary_text(comparison)):
        if paragraph:
            parts.append(f"<p>{escape(paragraph)}</p>")
    if not comparison.changes:
        parts.append(_html_table(CHANGES_COLUMNS, []))
    for scope, changes in _by_scope(comparison.changes).items():
        if not changes:
            continue
        columns = SECTION_COLUMNS[scope]
        shown = changes[:PAGE_RUN_LINES] if scope == "run" else changes
        rows = [[getattr(change, name) for _, name in columns] for change in shown]
        parts.append(f"<h3>{escape(SECTION_TITLES[scope])}</h3>")
        parts.append(_html_table([heading for heading, _ in columns], rows))
        if len(shown) < len(changes):
            parts.append(
                f'<p class="note">The first {len(shown)} of {len(changes)} run-level '
                "changes; all are in changes.csv and changes.md beside this page.</p>"
            )
    parts.append("</section>")
    return "\n".join(parts)
