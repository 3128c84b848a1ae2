"""The site's run markup is compiled from its labels once per edition
(site_pages.compiled_template): it must fill in exactly what str.format fills in, and a
label's own text (braces, quotes, backslashes included) must reach the page as
translations.Language writes it."""

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ro_metrics.site.site_pages import EDITIONS, compiled_template
from site_records import site_pages

FIELDS = ("anchor", "run_id", "score_0", "served")
SUMMARY = ["atlas", "zzversion", 1, 0, 0, 1, 1, 0, "0.0", "10.0", "0.04", "0.2", "0.5", "0.4",
           "Disqualified"]  # fmt: skip


def literal(text: str) -> str:
    """Text as a format template writes it: its braces doubled."""
    return text.replace("{", "{{").replace("}", "}}")


@settings(max_examples=300, deadline=None)
@given(
    pieces=st.lists(
        st.one_of(st.text(max_size=12).map(literal), st.sampled_from(FIELDS).map("{{{}}}".format)),
        max_size=10,
    ),
    values=st.tuples(*(st.one_of(st.text(max_size=8), st.integers()) for _ in FIELDS)),
)
def test_a_compiled_template_fills_in_what_str_format_does(pieces, values):
    template = "".join(pieces)
    given_values = dict(zip(FIELDS, values, strict=True))
    fill = compiled_template(template, *FIELDS)
    assert fill(**given_values) == template.format(**given_values)
    assert fill(*values) == template.format(**given_values)


def test_a_compiled_template_keeps_quotes_backslashes_and_doubled_braces():
    template = '<p class="x">It\'s {{not}} \\N{{DIGIT ONE}} \\x41 {anchor}\n</p>'
    fill = compiled_template(template, "anchor")
    assert fill(anchor="{run_id}") == '<p class="x">It\'s {not} \\N{DIGIT ONE} \\x41 {run_id}\n</p>'
    assert compiled_template("", "anchor")(anchor="x") == ""


@pytest.mark.parametrize("template", ["{other}", "{anchor:>4}", "{anchor!r}", "{0}", "{}"])
def test_a_compiled_template_refuses_a_field_it_was_not_given(template):
    with pytest.raises(ValueError, match="template field"):
        compiled_template(template, "anchor")


def test_a_labels_own_braces_quotes_and_backslashes_reach_the_page_as_written():
    english = EDITIONS["en"]
    labels = dict(english.labels)
    labels["site_col_criterion"] = 'Crit{{erion}} "\\n"'
    labels["site_run_scores"] = english.labels["site_run_scores"] + " {{raw}}"
    labels["reviewer_id"] = "by {reviewer} {{reviewer}}"
    edited = dataclasses.replace(english, labels=labels)
    page, _, case = site_pages("zzversion", "the filter is fouled", SUMMARY, edited)
    assert '<th>Crit{erion} "\\n"</th>' in page
    assert "correctness 1.0 {raw}</p>" in page
    assert '<span class="ci">by R01 {reviewer}</span>' in case
    # The edition's own markup is unchanged by it: made for the other Language object.
    page, _, _ = site_pages("zzversion", "the filter is fouled", SUMMARY, english)
    assert "<th>Criterion</th>" in page
    assert "{raw}" not in page
