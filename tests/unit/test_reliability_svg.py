"""The diagram written without matplotlib is, byte for byte, the one matplotlib draws
(ro_metrics/publishing/reliability_svg.py), for any bins, title, salt and language."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ro_metrics.contracts.vocabulary import N_BINS
from ro_metrics.publishing.reliability_diagram import (
    DiagramText,
    draw,
    draw_with_matplotlib,
)
from ro_metrics.publishing.reliability_svg import reliability_svg_text
from ro_metrics.publishing.translations import LANGUAGES, language

WORDS = {
    code: DiagramText(t("diagram_xlabel"), t("diagram_ylabel"), t("decimal_mark"))
    for code in LANGUAGES
    for t in [language(code)]
}


@st.composite
def bins(draw_from):
    """Bins as the ECE gives them: a strictly increasing subset of 1..10, each with its
    count, the mean confidence inside the bin and a soft accuracy in [0, 1]. Accuracies
    over powers of two land on the last printed digit's half-way points."""
    chosen = draw_from(st.lists(st.integers(1, N_BINS), unique=True, max_size=N_BINS))
    result = []
    for m in sorted(chosen):
        n = draw_from(st.sampled_from([1, 2, 3, 7, 8, 12, 32, 64, 100, 128, 1000, 4096]))
        accuracy = Fraction(draw_from(st.integers(0, 6 * n)), 6 * n)
        if draw_from(st.booleans()):
            accuracy = Fraction(draw_from(st.integers(0, 1024)), 1024)
        low, high = (m - 1) * 100 * n, m * 100 * n
        confidence = Fraction(draw_from(st.integers(low, high)), 1000 * n)
        result.append((m, n, confidence, accuracy))
    return tuple(result)


TITLES = st.text(st.characters(blacklist_categories=["Cs"], blacklist_characters="\n"), max_size=40)


# matplotlib warns of every glyph DejaVu Sans lacks; the text is kept as text anyway.
@pytest.mark.filterwarnings("ignore:Glyph")
@settings(max_examples=150, deadline=None)
@given(
    bins(), TITLES, st.text("0123456789abcdef", min_size=1, max_size=12), st.sampled_from(LANGUAGES)
)
def test_the_written_svg_is_matplotlibs(tmp_path_factory, data, title, salt, code):
    cache = tmp_path_factory.getbasetemp() / "matplotlib"
    expected = draw_with_matplotlib(data, title, salt, cache, WORDS[code])
    assert reliability_svg_text(data, title, salt, WORDS[code]) == expected
    assert draw(data, title, salt, cache, WORDS[code]) == expected


def test_the_coordinates_worked_out_by_hand(tmp_path):
    # Bin 1 (x from 0 to 0.1), 3 runs, mean confidence 0.05, accuracy 1/2. The axes
    # span x 43.2 to 279.36 (236.16 wide) and y 204.336 up to 21.384 for 0 to 1.12
    # (163.35 per unit): the bar's top 204.336 - 81.675, its right edge 43.2 + 23.616,
    # the dot at 43.2 + 11.808; the count 0.02 higher (3.267) and its descent (1.681641)
    # above that.
    svg = reliability_svg_text(
        ((1, 3, Fraction(1, 20), Fraction(1, 2)),), "a · b", "s", WORDS["en"]
    )
    assert "M 43.2 204.336 \nL 66.816 204.336 \nL 66.816 122.661 \nL 43.2 122.661 \nz\n" in svg
    assert 'x="55.008" y="122.661"' in svg
    assert 'x="55.008" y="117.712359" transform="rotate(-0 55.008 117.712359)">n=3</text>' in svg
    assert ">a · b</text>" in svg


def test_no_bins_and_markup_in_the_title(tmp_path):
    for data, title in [((), "x"), (((10, 1, Fraction(1), Fraction(1)),), "<b>&amp;</b>")]:
        expected = draw_with_matplotlib(data, title, "0", tmp_path, WORDS["es"])
        assert reliability_svg_text(data, title, "0", WORDS["es"]) == expected
    assert "&lt;b&gt;&amp;amp;&lt;/b&gt;" in expected


def test_a_title_of_two_lines_is_drawn_by_matplotlib(tmp_path):
    data = ((4, 2, Fraction(7, 20), Fraction(1, 3)),)
    expected = draw_with_matplotlib(data, "a\nb", "0", tmp_path, WORDS["en"])
    assert draw(data, "a\nb", "0", tmp_path, WORDS["en"]) == expected
    assert reliability_svg_text(data, "a\nb", "0", WORDS["en"]) != expected
