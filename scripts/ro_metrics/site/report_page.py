"""The site's findings report page, report.html in each edition, from the report's
Markdown (results/findings.md, findings.es.md: rule findings_report).

The Markdown is rendered by markdown-it-py (CommonMark, plus GFM's tables) with raw
HTML disabled: the report's data texts are escaped as Markdown already
(report_templates), and nothing in it can become markup. A link from one edition's
Markdown to the other's file (findings.es.md ↔ findings.md) becomes the link to the
other edition's page; tables are wrapped to scroll on a narrow screen.
"""

from markdown_it import MarkdownIt
from markupsafe import Markup

from ro_metrics.contracts.published import FINDINGS_REPORTS
from ro_metrics.contracts.vocabulary import LANGUAGES
from ro_metrics.rendering.page_templates import Labels, render
from ro_metrics.rendering.translations import Language
from ro_metrics.site.site_files import INDEX, REPORT, edition_page, href
from ro_metrics.site.site_pages import other_edition_href

# The published Markdown file of each edition, as the editions link to each other.
REPORT_FILES = {code: entry.name for code, entry in zip(LANGUAGES, FINDINGS_REPORTS, strict=True)}


def markdown_renderer() -> MarkdownIt:
    renderer = MarkdownIt("commonmark", {"html": False}).enable("table")
    renderer.add_render_rule("table_open", _table_open)
    renderer.add_render_rule("table_close", _table_close)
    return renderer


def _table_open(self, tokens, index, options, env) -> str:
    return '<div class="table-wrap"><table>\n'


def _table_close(self, tokens, index, options, env) -> str:
    return "</table></div>\n"


def report_html(markdown: str, code: str) -> str:
    """The report's Markdown of edition `code` as HTML (module docstring)."""
    renderer = markdown_renderer()
    tokens = renderer.parse(markdown)
    page = edition_page(REPORT, code)
    pages = {name: edition_page(REPORT, other) for other, name in REPORT_FILES.items()}
    for token in tokens:
        for child in token.children or []:
            target = child.attrGet("href") if child.type == "link_open" else None
            if target in pages:
                child.attrSet("href", href(page, pages[target]))
    return renderer.renderer.render(tokens, renderer.options, {})


def render_report_page(markdown: str, benchmark_version: str, t: Language) -> str:
    """The report page of edition t."""
    page = edition_page(REPORT, t.code)
    return render(
        "site_report.html",
        t=Labels(t),
        version=benchmark_version,
        language_target=other_edition_href(REPORT, t),
        index_href=href(page, edition_page(INDEX, t.code)),
        # markdown-it escapes the text it renders and writes no raw HTML (html off).
        body=Markup(report_html(markdown, t.code)),  # noqa: S704
    )
