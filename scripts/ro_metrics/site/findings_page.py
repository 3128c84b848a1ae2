"""The site's findings page (findings.html in each edition): the facts of
results/findings.json (docs/findings-json.md; spec findings.md) as tables, section by
section, with the three charts (report/findings_charts.py) inline.

Each number links to the rows it comes from, on the site's other pages: a version's
name to its version page; a critical-fail event to the run's article on that page
(site_files.run_anchor: its evidence) and a version's or family's event count to its
first event in the page's table of events; a family to its case pages (the case ids
are the golds', which findings.json does not list); a heatmap cell to the version's
page at the family's first case (a version page lists its runs case by case, so the
family's runs follow). Lists that are empty read as a sentence.

Gold content never reaches this module beyond the case ids; an event shows the quote,
its field and its match (and the reviewer's public justification when there is no
quote), never a scoring's `reference` or `justification_long`. Every text from the
data is escaped by the template (autoescaping) or by the SVG writer (the charts).
"""

from fractions import Fraction

from markupsafe import Markup

from ro_metrics.contracts.tables import (
    decimal_text,
    exact_fraction,
    p_value_text,
    share_percent_text,
)
from ro_metrics.contracts.vocabulary import family_of
from ro_metrics.rendering.page_templates import Labels, render
from ro_metrics.rendering.reliability_diagram import inline
from ro_metrics.rendering.translations import Language
from ro_metrics.report.findings_charts import leaderboard_order
from ro_metrics.site.site_files import (
    FINDINGS,
    INDEX,
    case_page,
    run_anchor,
    version_page,
)
from ro_metrics.site.site_pages import other_edition_href

# The registry's dimensions (spec § 7) and their headings' labels.
DIMENSIONS = {
    "provider": "findings_dimension_provider",
    "track": "findings_dimension_track",
    "access_type": "findings_dimension_access_type",
    "weights": "findings_dimension_weights",
}
NOT_DECLARED = "not declared"  # findings.json's value of an attribute a version lacks


def case_ids_by_family(case_ids) -> dict[str, list[str]]:
    """The golds' case ids of each family, sorted."""
    families: dict[str, list[str]] = {}
    for case_id in sorted(case_ids):
        families.setdefault(family_of(case_id), []).append(case_id)
    return families


class Numbers:
    """A fact as the page prints it, with the language's decimal mark: a fraction or a
    float with `places` decimals (rounded half to even), a published text as written,
    an int as it is; "—" for null."""

    def __init__(self, t: Language):
        self.t = t
        self.mark = t("decimal_mark")

    def __call__(self, value, places: int = 4) -> str:
        if value is None or value == "":
            return "—"
        if isinstance(value, bool):
            return self.t("findings_yes" if value else "findings_no")
        if isinstance(value, int):
            return str(value)
        if isinstance(value, str):
            return self.t.number(value)
        return decimal_text(exact_fraction(value), places, self.mark)

    def p_value(self, value) -> str:
        """A p-value as every page writes it (tables.p_value_text)."""
        if value is None:
            return "—"
        return p_value_text(exact_fraction(value), self.mark)

    def percent(self, value) -> str:
        """A bootstrap share (0–1) as a whole percentage (tables.share_percent_text)."""
        if value is None:
            return "—"
        return self.t("report_percent", value=share_percent_text(exact_fraction(value), self.mark))

    def points(self, value, places: int = 1) -> str:
        """A rate (0–1) as percentage points, `places` decimals (the words are the label's)."""
        if value is None:
            return "—"
        return decimal_text(exact_fraction(value) * 100, places, self.mark)


def _heatmap_rows(findings: dict, first_case: dict[str, str], version_href) -> list[dict]:
    cells = {(row["subject_version"], row["family"]): row for row in findings["heatmap"]}
    rows = []
    for sv in leaderboard_order(findings):
        row_cells = []
        for family in findings["families"]["order"]:
            cell = cells.get((sv, family))
            n_runs = int(cell["n_runs"]) if cell else 0
            href = version_href(sv)
            if href and family in first_case:
                href = f"{href}#{first_case[family]}"
            row_cells.append(
                {
                    "family": family,
                    "n_runs": n_runs,
                    "n_pass": int(cell["n_pass"]) if n_runs else 0,
                    "pass_rate": Fraction(int(cell["n_pass"]), n_runs) if n_runs else None,
                    "mean_clipped_score": cell.get("mean_clipped_score") if n_runs else None,
                    "href": href,
                }
            )
        rows.append({"version": sv, "cells": row_cells})
    return rows


def render_findings_page(*, findings: dict, case_ids, charts: dict[str, str], t: Language) -> str:
    """The findings page in language t: findings as in results/findings.json, case_ids
    the golds', charts each chart's SVG text in this language by file stem (a missing
    one is said so on the page)."""
    # A version's key in findings.json (its subject_version, or subject_id/subject_version
    # when two subjects share the name) → the names its page is at.
    names = findings.get("versions", {})

    def version_href(key: str) -> str | None:
        name = names.get(key)
        return version_page(name["subject_id"], name["subject_version"]) if name else None

    def run_href(event: dict) -> str:
        name = names.get(event["subject_version"]) or event
        page = version_page(name["subject_id"], name["subject_version"])
        return f"{page}#{run_anchor(event['case_id'], event['run_id'])}"

    events = [
        {"reviewer_justification": "", "reviewer_ids": [], **event, "anchor": f"event-{i}"}
        for i, event in enumerate(findings["safety"]["events"], start=1)
    ]
    first_event: dict[str, str] = {}
    for event in events:
        first_event.setdefault(event["subject_version"], event["anchor"])
        first_event.setdefault(f"family:{event['family']}", event["anchor"])
    by_family = case_ids_by_family(case_ids)
    first_case = {family: cases[0] for family, cases in by_family.items()}
    numbers = Numbers(t)
    return render(
        "findings.html",
        t=Labels(t),
        f=findings,
        versions=leaderboard_order(findings),
        disqualified=set(findings["safety"]["disqualified"]["versions"]),
        num=numbers,
        pvalue=numbers.p_value,
        percent=numbers.percent,
        points=numbers.points,
        version_href=version_href,
        run_href=run_href,
        case_href=case_page,
        events=events,
        first_event=first_event,
        cases_of=by_family,
        heatmap_rows=_heatmap_rows(findings, first_case, version_href),
        dimensions=[
            (name, label) for name, label in DIMENSIONS.items() if name in findings["dimensions"]
        ],
        NOT_DECLARED=NOT_DECLARED,
        # Our own SVG writer's output, every data text escaped there (findings_charts).
        charts={stem: Markup(inline(text)) for stem, text in charts.items()},  # noqa: S704
        language_target=other_edition_href(FINDINGS, t),
        index_href=INDEX,
    )
