"""The few HTML fragments written as strings, not templates: those the site writes per
run or per page (~10^5 runs and ~6·10^4 pages at size L, where a template call each
would cost more than the rest of their rendering), which the leaderboard's templates
print too (rendering/page_templates.py passes them in as markup).

Every value from the corpus or the registry goes through `text()`; labels (from
rendering/labels.json) are trusted markup and go in as they are.
"""

from html import escape

from ro_metrics.rendering.translations import Language


def text(value) -> str:
    """Escape a value for HTML text and attribute values alike (& < > " ')."""
    value = value if type(value) is str else str(value)
    # Most texts hold none of the five characters: five scans for them cost a seventh
    # of escape()'s five replacements, and the site escapes ~3 million texts at size L.
    if "&" in value or "<" in value or ">" in value or '"' in value or "'" in value:
        return escape(value, quote=True)
    return value


def number(value, t: Language) -> str:
    """A published number, escaped, with the language's decimal mark."""
    return text(t.number(value))


def evidence_html(fail: dict, t: Language, *, long: bool = False) -> str:
    """A row of critical_fails.csv as the reader sees it: the model's quote with its
    field and kind of match, or, without a quote, the reviewer's words labelled so.
    long: also the reviewer's justification next to a quote (the fails tables)."""
    reviewer_words = (
        f'<span class="reviewer-words"><span class="reviewer-label">{t("reviewer_words")}'
        f"</span> {text(fail['reviewer_justification'])}</span>"
    )
    match = fail["match"]
    if match == "none":
        return f'<span class="match none">{t("match_none")}</span> {reviewer_words}'
    mark = (
        f'<span class="match exact" title="{t("match_exact_title")}">{t("match_exact")}</span>'
        if match == "exact"
        else f'<span class="match close" title="{t("match_close_title")}">{t("match_close")}</span>'
    )
    shown = (
        f'<q class="quote">{text(fail["quote"])}</q> '
        f'<span class="field">{text(fail["response_field"])}</span> {mark}'
    )
    if long:
        shown += f"<br>{reviewer_words}"
    return shown


def language_link(t: Language, target: str) -> str:
    """A link to the same page in the other language, at target (escaped)."""
    code = t("other_language_code")
    return f'<a href="{target}" hreflang="{code}" lang="{code}">{t("other_language_name")}</a>'
