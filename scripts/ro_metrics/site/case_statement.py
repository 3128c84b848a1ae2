"""A case's public statement on its case page, above the runs (site_pages.render_case_page).

The statement is the corpus' Markdown (corpus/statements.py reads it), shown as written in every
edition (in Spanish for v1.0: translation is part of the evaluation); only the headings
and the note around it are labels. It is rendered by markdown-it-py (CommonMark and GFM
tables) with raw HTML off: a tag in it is text, a link to a `javascript:` (or other
unsafe) URL stays text (markdown-it's own link validation), and images are not rendered
(a page loads nothing from the network). Each cell of a table carries its column's
header (data-label), which a phone's width shows before the value, a row per card
(site.css), so that the operational data stay readable without scrolling sideways.
"""

from markdown_it import MarkdownIt

from ro_metrics.contracts.records import CaseStatement
from ro_metrics.contracts.vocabulary import STATEMENT_SECTIONS
from ro_metrics.rendering.translations import Language

# Who reported the case and when: one line under the statement; every other section
# but the case id (the page's own heading) under a heading of its own.
REPORT = ("reporting_party", "reporting_date")
SHOWN = tuple(name for name in STATEMENT_SECTIONS if name not in ("case_id", *REPORT))


def _renderer() -> MarkdownIt:
    renderer = MarkdownIt("commonmark", {"html": False}).enable("table").disable("image")
    renderer.add_render_rule("table_open", lambda *_: '<div class="table-wrap"><table>\n')
    renderer.add_render_rule("table_close", lambda *_: "</table></div>\n")
    return renderer


RENDERER = _renderer()


def markdown_html(markdown: str) -> str:
    """Statement Markdown as HTML (module docstring): every table in a box of its own,
    each body cell labelled with its column's header."""
    tokens = RENDERER.parse(markdown)
    headers: list[str] = []
    column = 0
    for index, token in enumerate(tokens):
        if token.type == "thead_open":
            headers = []
        elif token.type == "th_open":
            following = tokens[index + 1]
            headers.append(following.content if following.type == "inline" else "")
        elif token.type == "tr_open":
            column = 0
        elif token.type == "td_open":
            if column < len(headers):
                token.attrSet("data-label", headers[column])
            column += 1
    return RENDERER.renderer.render(tokens, RENDERER.options, {})


def statement_html(statement: CaseStatement | None, t: Language) -> str:
    """The case page's statement section in edition t; without a statement, the line
    that says it is not public."""
    if statement is None:
        return (
            f'<section class="statement" id="statement"><h2>{t("statement_heading")}</h2>'
            f'<p class="note">{t("statement_not_public")}</p></section>'
        )
    parts = [
        f'<section class="statement" id="statement"><h2>{t("statement_heading")}</h2>',
        f'<p class="note">{t("statement_note")}</p>',
    ]
    if statement.note:
        parts.append(f'<div class="statement-note">{markdown_html(statement.note)}</div>')
    for name in SHOWN:
        if name in statement.sections:
            parts.append(
                f"<h3>{t(f'statement_section_{name}')}</h3>"
                f'<div class="statement-{name.replace("_", "-")}">'
                f"{markdown_html(statement.sections[name])}</div>"
            )
    report = [
        f"<dt>{t(f'statement_section_{name}')}</dt>"
        f"<dd>{RENDERER.renderInline(statement.sections[name])}</dd>"
        for name in REPORT
        if name in statement.sections
    ]
    if report:
        parts.append(f'<dl class="statement-report">{"".join(report)}</dl>')
    parts.append("</section>")
    return "".join(parts)
