"""The Jinja2 templates of the pages (rendering/templates/) and what they share: the
HTML pages' environment, and the Markdown documents' (leaderboard.md).

Autoescaping is on for every template: a value from the corpus or the registry is
escaped wherever a template prints it, with no call to forget. Trusted markup is
marked so explicitly (`markupsafe.Markup`): a language's labels (rendering/labels.json, a data
file of this project, some holding <sub> or <em>), the diagrams' SVG, the changes
section, the fragments of rendering/html_fragments.py. Undefined names are errors,
not empty text.

Escaping is html.escape (quotes as &quot; and &#x27;), not markupsafe's spelling of
them (&#34;, &#39;): the site's per-run fragments, written without templates
(html_fragments.text), use it, and one text must come out the same whichever path
writes it.

A Markdown template (MARKDOWN_ENVIRONMENT) escapes nothing by itself: every text from
the corpus or the registry goes through the filter `markdown_text` (the one escaper,
rendering/markdown.py), a label through `markdown_label`; its tables are built by
`gfm_table`, the one table builder. Undefined names are errors there too.
"""

from html import escape
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup
from markupsafe import escape as markup_of

from ro_metrics.contracts.vocabulary import ELIGIBLE, family_name
from ro_metrics.rendering.html_fragments import evidence_html, language_link
from ro_metrics.rendering.markdown import gfm_table, markdown_label, markdown_text
from ro_metrics.rendering.translations import Language

TEMPLATES = Path(__file__).with_name("templates")


def escaped(value) -> Markup:
    """A value as HTML: markup as it is, anything else escaped (quotes included)."""
    if hasattr(value, "__html__"):
        return markup_of(value)
    # Escaped just here: the text is markup now.
    return Markup(escape(value if type(value) is str else str(value), quote=True))  # noqa: S704


class Labels:
    """A language's labels as the templates use them: `t(key, **values)` is the label
    as markup with the values escaped into it, `t.text(key, **values)` the same as
    plain text (escaped where printed: an attribute's value), `t.number(value)` a
    published number with the language's decimal mark."""

    def __init__(self, language: Language):
        self.language = language
        self.code = language.code

    def __call__(self, key: str, **values) -> Markup:
        # A label is this project's data, trusted; the values are escaped into it.
        return Markup(self.language.labels[key]).format(  # noqa: S704
            **{name: escaped(value) for name, value in values.items()}
        )

    def text(self, key: str, **values) -> str:
        return self.language(key, **values)

    def optional_text(self, key: str) -> str:
        """A label that not every value has (a fail type's name), or ""."""
        return self.language.labels.get(key, "")

    def number(self, value) -> str:
        return self.language.number(value)


def _evidence(fail: dict, t: Labels, long: bool = False) -> Markup:
    # evidence_html escapes every corpus text it writes (html_fragments.text).
    return Markup(evidence_html(fail, t.language, long=long))  # noqa: S704


def _language_link(t: Labels, target: str) -> Markup:
    # language_link writes labels and the target, escaped here.
    return Markup(language_link(t.language, escape(target, quote=True)))  # noqa: S704


ENVIRONMENT = Environment(
    loader=FileSystemLoader(TEMPLATES),
    autoescape=True,
    undefined=StrictUndefined,
    keep_trailing_newline=True,
    # A block tag's own line leaves nothing in the page: templates can be laid out
    # for reading without changing a byte of what they write.
    trim_blocks=True,
    lstrip_blocks=True,
    finalize=escaped,
)


def css_string(text: str) -> Markup:
    """A text as a CSS string, for a style element (whose content HTML does not escape):
    a quote, a backslash, a control character or < > & written as CSS escapes."""
    escaped_text = "".join(
        f"\\{ord(char):x} " if char in '"\\<>&' or ord(char) < 0x20 or char == "\x7f" else char
        for char in str(text)
    )
    return Markup(f'"{escaped_text}"')  # noqa: S704 - nothing left for HTML to read


ENVIRONMENT.filters["css_string"] = css_string
# family_name(code, t.code): a family's name in the page's language, the vocabulary's
# (contracts/vocabulary.py), or its code when the vocabulary does not know it.
ENVIRONMENT.globals.update(
    ELIGIBLE=ELIGIBLE,
    evidence=_evidence,
    family_name=family_name,
    language_link=_language_link,
)


def render(name: str, **context) -> str:
    """A template of rendering/templates/ filled with its context."""
    return ENVIRONMENT.get_template(name).render(**context)


MARKDOWN_ENVIRONMENT = Environment(
    loader=FileSystemLoader(TEMPLATES),
    autoescape=False,  # noqa: S701 - Markdown, not HTML: its texts go through markdown_text
    undefined=StrictUndefined,
    keep_trailing_newline=True,
    trim_blocks=True,
    lstrip_blocks=True,
    # {% do rows.append(cells) %}: a table's rows are gathered for gfm_table.
    extensions=["jinja2.ext.do"],
)
MARKDOWN_ENVIRONMENT.filters.update(markdown_text=markdown_text, markdown_label=markdown_label)
MARKDOWN_ENVIRONMENT.globals.update(gfm_table=gfm_table)


def render_markdown_template(name: str, **context) -> str:
    """A Markdown template of rendering/templates/ filled with its context."""
    return MARKDOWN_ENVIRONMENT.get_template(name).render(**context)


def macros(name: str):
    """The macros of a template of rendering/templates/, callable from Python (the
    leaderboard's components for the site's pages, the changes section): each returns
    markup."""
    return ENVIRONMENT.get_template(name).module


def static_text(name: str) -> str:
    """A file of rendering/templates/ as it is (a style sheet, a script)."""
    return (TEMPLATES / name).read_text("utf-8")
