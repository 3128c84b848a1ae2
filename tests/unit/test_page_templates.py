"""rendering/page_templates.py: the pages' Jinja2 environment escapes what is not
marked as markup, with the same spelling as the site's string fragments; labels are
markup with their values escaped in; an undefined name is an error."""

import pytest
from jinja2 import UndefinedError
from markupsafe import Markup

from ro_metrics.rendering.html_fragments import text
from ro_metrics.rendering.page_templates import ENVIRONMENT, Labels, css_string, escaped
from ro_metrics.rendering.translations import Language

PROBE = "<b>\"a\" & 'b'</b>"
ESCAPED_PROBE = "&lt;b&gt;&quot;a&quot; &amp; &#x27;b&#x27;&lt;/b&gt;"


def render(source: str, **context) -> str:
    return ENVIRONMENT.from_string(source).render(**context)


def test_a_value_is_escaped_as_the_string_fragments_escape_it():
    assert render("<p>{{ value }}</p>", value=PROBE) == f"<p>{ESCAPED_PROBE}</p>"
    assert text(PROBE) == ESCAPED_PROBE
    assert render('<a title="{{ value }}">', value=PROBE) == f'<a title="{ESCAPED_PROBE}">'
    assert render("{{ value }}", value=12) == "12"


def test_markup_is_printed_as_it_is():
    assert render("{{ svg }}", svg=Markup('<svg width="1"/>')) == '<svg width="1"/>'
    assert escaped(Markup("<i>x</i>")) == "<i>x</i>"
    assert escaped("<i>x</i>") == "&lt;i&gt;x&lt;/i&gt;"


def test_a_label_is_markup_and_its_values_are_escaped_into_it():
    t = Labels(Language({"lang": "en", "decimal_mark": ",", "greeting": "Q<sub>{name}</sub> {n}"}))
    assert t("greeting", name=PROBE, n=3) == f"Q<sub>{ESCAPED_PROBE}</sub> 3"
    assert t("greeting", name=Markup("<i>x</i>"), n=3) == "Q<sub><i>x</i></sub> 3"
    assert render("{{ t('greeting', name='&', n=1) }}", t=t) == "Q<sub>&amp;</sub> 1"
    # As plain text (an attribute's value), the label itself is escaped where printed.
    assert render('<a title="{{ t.text("greeting", name="x", n=1) }}">', t=t) == (
        '<a title="Q&lt;sub&gt;x&lt;/sub&gt; 1">'
    )
    assert t.number("0.705") == "0,705"
    assert t.optional_text("fail_type_NONE") == ""


def test_an_undefined_name_is_an_error():
    with pytest.raises(UndefinedError, match="'missing' is undefined"):
        render("{{ missing }}")
    with pytest.raises(UndefinedError):
        render("{{ row.missing }}", row={"present": 1})


def test_a_block_tag_on_its_own_line_leaves_nothing_and_the_last_newline_stays():
    assert render(
        "<ul>\n{% for x in xs %}\n<li>{{ x }}</li>\n{% endfor %}\n</ul>\n", xs=[1, 2]
    ) == ("<ul>\n<li>1</li>\n<li>2</li>\n</ul>\n")


def test_a_css_string_escapes_what_could_end_it_or_its_style_element():
    assert css_string("Calificación") == '"Calificación"'
    assert css_string('a "b" \\ </style> & c\n') == (
        '"a \\22 b\\22  \\5c  \\3c /style\\3e  \\26  c\\a "'
    )
    assert render("{{ label|css_string }}", label='"') == '"\\22 "'
