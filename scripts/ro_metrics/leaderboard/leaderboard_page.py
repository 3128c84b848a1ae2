"""The leaderboard as one self-contained HTML page (no network: no CDN, no web font),
in each language of rendering/translations.py (leaderboard.html, leaderboard.es.html):
the leaderboard's view (leaderboard_view.py) printed by
rendering/templates/leaderboard.html, with each version's reliability diagram.

The templates escape every text that comes from the corpus or the registry; the
diagrams' SVG is passed in as trusted markup. Numbers are the published CSV texts,
written with the language's decimal mark, and the benchmark version they belong to is
stated once, in the header; every label, note and caption comes from the labels' data
file (rendering/labels.json). The page holds no clock: "Last update" is the
newest scoring timestamp, so the same inputs give the same bytes. The ranking table,
the critical-fail evidence, the "Disqualified subject versions" section and the
operational table are components (templates/components.html) shared with the site's
index (site/site_pages.py); only the page has, between two adjacent ranked rows, the
line that says whether the neighbour test separates them.
"""

from typing import NamedTuple

from markupsafe import Markup

from ro_metrics.leaderboard.leaderboard_view import LeaderboardView
from ro_metrics.rendering.page_templates import Labels, render
from ro_metrics.rendering.reliability_diagram import diagram_text
from ro_metrics.rendering.reliability_svg import reliability_svg_text
from ro_metrics.rendering.translations import Language

# Links to snapshots are relative to the results folder; a snapshot's own copy of
# the page lives two levels down and rewrites this prefix (see history/snapshot.py;
# templates/components.html writes it, in snapshot_links).
SNAPSHOT_HREF_PREFIX = 'href="historico/'
# Where the changes step's section goes (with_changes_section).
CHANGES_PLACEHOLDER = '<section id="changes"></section>'


class Diagram(NamedTuple):
    """A version's reliability diagram in the page's language: its SVG and its bins
    (bin, runs, mean confidence, soft accuracy), the largest bin's count."""

    svg: Markup
    bins: list
    fullest_bin: int


def diagram(svg: str, bins: list) -> Diagram:
    # Trusted: the package's own drawing (rendering/reliability_diagram.py).
    return Diagram(Markup(svg), bins, max(n for _, n, _, _ in bins))  # noqa: S704


def reliability_diagrams(calibration: dict, t: Language) -> dict[tuple[str, str], tuple]:
    """Each version's reliability diagram in language t, as its SVG file's text, and its
    bins (calibration: aggregates.calibration_of_subjects), by (subject_id,
    subject_version): what the page and the site's index show (rendering/
    reliability_diagram.inline of the text)."""
    words = diagram_text(t)
    return {
        key: (reliability_svg_text(bins, " · ".join(key), words), bins)
        for key, bins in calibration.items()
    }


def render_page(
    view: LeaderboardView,
    t: Language,
    *,
    diagrams: dict[tuple[str, str], tuple[str, list]],
    snapshots: list[str],
) -> str:
    """The whole page in language t (module docstring); diagrams: each version's SVG
    (in language t) and bins by (subject_id, subject_version); snapshots: the dates of
    the earlier snapshots it links."""
    return render(
        "leaderboard.html",
        view=view,
        t=Labels(t),
        diagrams={key: diagram(svg, bins) for key, (svg, bins) in diagrams.items()},
        # The page's own sections are its anchors; its runs have no page of their own.
        subject_href=lambda row: f"#subject-{row.index}",
        run_href=lambda _fail: None,
        snapshots=snapshots,
        changes_placeholder=Markup(CHANGES_PLACEHOLDER),  # noqa: S704 - a constant of this module
        # The page is published beside the files its agreement line names.
        files_linked=True,
    )


def with_changes_section(page: str, section: str) -> str:
    """The page with the changes section in its place (exactly one placeholder)."""
    if page.count(CHANGES_PLACEHOLDER) != 1:
        raise ValueError("the leaderboard page has no single place for the changes section")
    return page.replace(CHANGES_PLACEHOLDER, section)
