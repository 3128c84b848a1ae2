"""The site's arbitration worklist, worklist.html in each edition (under double review
only): pending_runs.csv as a page for the committee's coordinator (multi-reviewer.md;
issue 36), every run left out of R for its review in the table's order (critical-fail
disagreements first, then by subject_id, subject_version, case_id, run_id).

Each run with its files (the response, the primaries' scorings: paths in the corpus),
its primaries, the divergence rules that fired, the primaries who raised a critical
fail, the date of the second review and the eligible arbiters (registered with the
arbiter role, active then, not a primary: corpus/reviewers.eligible_arbiters), linked
to its article on its version's page.
"""

from typing import NamedTuple

from ro_metrics.formulas.consolidation import AWAITING_SECOND_REVIEW
from ro_metrics.leaderboard.review_view import RULE_LABELS
from ro_metrics.rendering.page_templates import Labels, render
from ro_metrics.rendering.translations import Language
from ro_metrics.site.site_files import (
    INDEX,
    WORKLIST,
    edition_page,
    href,
    run_anchor,
    version_page,
)
from ro_metrics.site.site_pages import other_edition_href


class WorklistRun(NamedTuple):
    """A row of pending_runs.csv as the worklist shows it."""

    row: dict[str, str]  # its cells (tables.PENDING_COLUMNS)
    run_href: str  # its article on its version's page
    status_label: str  # the label key of its status
    rules: list[str]  # the label keys of the divergence rules that fired
    critical: bool  # a critical-fail disagreement
    critical_by: str  # the primaries who raised a critical fail, ", "-joined
    primaries: str
    day: str  # the second review's date (YYYY-MM-DD), "" while awaiting it
    arbiters: str  # the eligible arbiters, ", "-joined
    files: list[str]  # the response, then the primaries' scorings


def _listed(cell: str) -> list[str]:
    return cell.split(";") if cell else []


def worklist_runs(rows: list[dict[str, str]]) -> list[WorklistRun]:
    """The worklist's rows from pending_runs.csv's (tables.assembled_table: in the
    table's order). Its links are relative to the worklist, the same in every edition."""
    runs = []
    for row in rows:
        target = version_page(row["subject_id"], row["subject_version"])
        runs.append(
            WorklistRun(
                row,
                href(WORKLIST, target, run_anchor(row["case_id"], row["run_id"])),
                f"review_status_{row['status']}",
                [RULE_LABELS[rule] for rule in _listed(row["divergent"])],
                row["critical_disagreement"] == "True",
                ", ".join(_listed(row["critical_fail_by"])),
                ", ".join(_listed(row["primary_ids"])),
                row["second_review_utc"][:10],
                ", ".join(_listed(row["eligible_arbiters"])),
                [row["response_file"], *_listed(row["scoring_files"])],
            )
        )
    return runs


def render_worklist_page(rows: list[dict[str, str]], benchmark_version: str, t: Language) -> str:
    """The worklist page of edition t from pending_runs.csv's rows."""
    page = edition_page(WORKLIST, t.code)
    runs = worklist_runs(rows)
    awaiting = sum(row["status"] == AWAITING_SECOND_REVIEW for row in rows)
    return render(
        "site_worklist.html",
        t=Labels(t),
        version=benchmark_version,
        language_target=other_edition_href(WORKLIST, t),
        index_href=href(page, edition_page(INDEX, t.code)),
        rows=runs,
        n_pending=len(rows) - awaiting,
        n_awaiting=awaiting,
    )
