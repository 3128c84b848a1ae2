"""The site's findings report page, report.html in each edition, from the report's
Markdown (results/findings.md, findings.es.md: rule findings_report).

The Markdown is rendered by markdown-it-py (CommonMark, plus GFM's tables) with raw
HTML disabled: the report's data texts are escaped as Markdown already
(report_templates), and nothing in it can become markup. A link from one edition's
Markdown to the other's file (findings.es.md ↔ findings.md) becomes the link to the
other edition's page; tables are wrapped to scroll on a narrow screen.
"""

from pathlib import Path

from markdown_it import MarkdownIt
from markupsafe import Markup

from ro_metrics.rendering.page_templates import Labels, render
from ro_metrics.rendering.translations import ENGLISH, Language
from ro_metrics.site.site_files import INDEX, PageWriter, digest_of, edition_page, href
from ro_metrics.site.site_pages import EDITIONS, other_edition_href

REPORT_PAGE = "report.html"
# The published Markdown file of each edition, as the editions link to each other.
REPORT_FILES = {ENGLISH: "findings.md", "es": "findings.es.md"}


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
    page = edition_page(REPORT_PAGE, code)
    pages = {name: edition_page(REPORT_PAGE, other) for other, name in REPORT_FILES.items()}
    for token in tokens:
        for child in token.children or []:
            target = child.attrGet("href") if child.type == "link_open" else None
            if target in pages:
                child.attrSet("href", href(page, pages[target]))
    return renderer.renderer.render(tokens, renderer.options, {})


def render_report_page(markdown: str, benchmark_version: str, t: Language) -> str:
    """The report page of edition t."""
    page = edition_page(REPORT_PAGE, t.code)
    return render(
        "site_report.html",
        t=Labels(t),
        version=benchmark_version,
        language_target=other_edition_href(REPORT_PAGE, t),
        index_href=href(page, edition_page(INDEX, t.code)),
        # markdown-it escapes the text it renders and writes no raw HTML (html off).
        body=Markup(report_html(markdown, t.code)),  # noqa: S704
    )


def write_report_pages(writer: PageWriter, fingerprint: str, markdown_paths, version: str) -> None:
    """Write the report page of every edition through the site job's PageWriter, each
    only when its Markdown (markdown_paths: the published findings.md and findings.es.md)
    or the code changed."""
    by_name = {Path(path).name: Path(path) for path in markdown_paths}
    for code, t in EDITIONS.items():
        markdown = by_name[REPORT_FILES[code]].read_bytes()
        inputs = digest_of(fingerprint.encode("ascii"), markdown, version.encode("utf-8"))
        page = edition_page(REPORT_PAGE, code)
        if not writer.is_current(page, inputs):
            html = render_report_page(markdown.decode("utf-8"), version, t)
            writer.write(page, inputs, html.encode("utf-8"))
