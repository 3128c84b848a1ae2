"""What a reliability diagram says (rendering/reliability_svg.py, rendering/svg.py):
the SVG is parsed as XML and its bars, dots, counts, axes and title compared with
values worked out by hand from the layout (x 0→1 over 300 px from x = 64, 30 px per
bin; accuracy 1 is 200 px tall; the plot is 225 px tall and starts 20 px from the top,
15 px lower per line of title)."""

import xml.etree.ElementTree as ET
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ro_metrics.contracts.vocabulary import N_BINS
from ro_metrics.rendering import svg
from ro_metrics.rendering.reliability_diagram import DiagramText, inline
from ro_metrics.rendering.reliability_svg import reliability_svg_text
from ro_metrics.rendering.translations import LANGUAGES, language

SVG = "{http://www.w3.org/2000/svg}"
WORDS = {
    code: DiagramText(t("diagram_xlabel"), t("diagram_ylabel"), t("decimal_mark"))
    for code in LANGUAGES
    for t in [language(code)]
}
# Bin 1: 3 runs, mean confidence 0.05, accuracy 1/2; bin 4: 2 runs, 0.35, 1/3;
# bin 10: 5 runs, 0.95, 1.
BINS = (
    (1, 3, Fraction(1, 20), Fraction(1, 2)),
    (4, 2, Fraction(7, 20), Fraction(1, 3)),
    (10, 5, Fraction(19, 20), Fraction(1)),
)


def xml_tree(text: str) -> ET.Element:
    return ET.fromstring(text.encode("utf-8"))  # noqa: S314 - our own output, not untrusted


def parse(text: str) -> ET.Element:
    """The diagram's <svg> element, from a standalone file (the XML declaration first)."""
    assert text.startswith('<?xml version="1.0" encoding="utf-8"?>\n')
    return xml_tree(text)


def numbers(element: ET.Element, *names: str) -> tuple:
    return tuple(float(element.get(name)) for name in names)


def bars(root: ET.Element) -> list[tuple]:
    return [
        numbers(rect, "x", "y", "width", "height")
        for rect in root.iter(f"{SVG}rect")
        if rect.get("fill") == "#4c78a8"
    ]


def texts(root: ET.Element) -> list[tuple]:
    """(x, y, text) of every <text> without lines of its own."""
    return [
        (*numbers(text, "x", "y"), text.text)
        for text in root.iter(f"{SVG}text")
        if text.find(f"{SVG}tspan") is None
    ]


def title_lines(root: ET.Element) -> list[tuple]:
    return [
        (*numbers(span, "x", "y"), span.text or "")
        for text in root.iter(f"{SVG}text")
        for span in text.iter(f"{SVG}tspan")
    ]


def test_bars_dots_and_counts_come_from_the_bins():
    root = parse(reliability_svg_text(BINS, "atlas-7b · v1", WORDS["en"]))
    # One title line: the plot spans y 35 (accuracy 1.125) to 260 (accuracy 0).
    assert (root.get("width"), root.get("height"), root.get("viewBox")) == (
        "384",
        "304",
        "0 0 384 304",
    )
    # A bar spans its bin (x 64 + 30·(m − 1), 30 wide) and rises 200·accuracy.
    assert bars(root) == [
        (64, 160, 30, 100),
        (154, 193.333, 30, 66.667),
        (334, 60, 30, 200),
    ]
    # A dot at (the bin's mean confidence, its accuracy).
    dots = [numbers(dot, "cx", "cy") for dot in root.iter(f"{SVG}circle")]
    assert dots == [(79, 160), (169, 193.333), (349, 60)]
    # The count centred on its bin, 4 px above the bar.
    counts = [text for text in texts(root) if text[2].startswith("n=")]
    assert counts == [(79, 156, "n=3"), (169, 189.333, "n=2"), (349, 56, "n=5")]
    # The diagonal from (0, 0) to (1, 1).
    [diagonal] = [line for line in root.iter(f"{SVG}line") if line.get("stroke-dasharray")]
    assert numbers(diagonal, "x1", "y1", "x2", "y2") == (64, 260, 364, 60)


@pytest.mark.parametrize("code", ["en", "es"])
def test_axes_ticks_and_labels(code):
    words = WORDS[code]
    root = parse(reliability_svg_text(BINS, "a · b", words))
    frames = [rect for rect in root.iter(f"{SVG}rect") if rect.get("fill") == "none"]
    assert [numbers(frame, "x", "y", "width", "height") for frame in frames] == [(64, 35, 300, 225)]
    ticks = [
        numbers(line, "x1", "y1", "x2", "y2")
        for line in root.iter(f"{SVG}line")
        if not line.get("stroke-dasharray")
    ]
    assert ticks == [(x, 260, x, 264) for x in (64, 124, 184, 244, 304, 364)] + [
        (60, y, 64, y) for y in (260, 210, 160, 110, 60)
    ]
    mark = "," if code == "es" else "."
    labels = [text for text in texts(root) if not text[2].startswith("n=")]
    x_ticks = [(64 + 60 * i, 276, f"0{mark}{2 * i}") for i in range(5)]
    y_ticks = [
        (57, 263.5, f"0{mark}00"),
        (57, 213.5, f"0{mark}25"),
        (57, 163.5, f"0{mark}50"),
        (57, 113.5, f"0{mark}75"),
        (57, 63.5, f"1{mark}00"),
    ]
    assert labels == [
        *x_ticks,
        (364, 276, f"1{mark}0"),
        *y_ticks,
        (214, 294, words.xlabel),
        (18, 147.5, words.ylabel),
    ]
    [ylabel] = [text for text in root.iter(f"{SVG}text") if text.text == words.ylabel]
    assert ylabel.get("transform") == "rotate(-90 18 147.5)"


def test_the_title_is_one_tspan_per_line_and_moves_the_plot_down():
    one = parse(reliability_svg_text(BINS, "atlas-7b · v1", WORDS["en"]))
    assert title_lines(one) == [(214, 20, "atlas-7b · v1")]
    two = parse(reliability_svg_text(BINS, "atlas-7b · line one\nline two", WORDS["en"]))
    assert title_lines(two) == [(214, 20, "atlas-7b · line one"), (214, 35, "line two")]
    # The second line takes 15 px: the whole plot, and the figure, 15 px lower/taller.
    assert two.get("height") == "319"
    assert bars(two) == [(x, y + 15, w, h) for x, y, w, h in bars(one)]
    none = parse(reliability_svg_text(BINS, "", WORDS["en"]))
    assert title_lines(none) == []
    assert bars(none) == [(x, y - 15, w, h) for x, y, w, h in bars(one)]


def test_hostile_text_stays_text():
    hostile = "<script>&\"'"
    words = DiagramText(hostile, f"y {hostile}", ".")
    text = reliability_svg_text(BINS, f"{hostile}\n{hostile}\x01", words)
    root = parse(text)
    assert not list(root.iter("script")) and not list(root.iter(f"{SVG}script"))
    assert "<script" not in text
    assert "&lt;script&gt;&amp;&quot;&#39;" in text
    # A character XML cannot hold at all shows as U+FFFD.
    assert [line for _, _, line in title_lines(root)] == [hostile, f"{hostile}\ufffd"]
    labels = [line for _, _, line in texts(root)]
    assert hostile in labels and f"y {hostile}" in labels
    # Embedded in a page, the element keeps the escaping and parses alone.
    element = inline(text)
    assert element.startswith("<svg ") and "<?xml" not in element
    assert xml_tree(element).tag == f"{SVG}svg"


def test_no_bins_leaves_the_axes():
    root = parse(reliability_svg_text((), "x", WORDS["en"]))
    assert bars(root) == [] and list(root.iter(f"{SVG}circle")) == []
    assert not [text for text in texts(root) if text[2].startswith("n=")]
    assert len([line for line in root.iter(f"{SVG}line")]) == 6 + 5 + 1


def test_the_same_diagram_is_the_same_bytes():
    first = reliability_svg_text(BINS, "a · b", WORDS["es"])
    assert reliability_svg_text(tuple(BINS), "a · b", WORDS["es"]) == first
    # The page hands exact fractions; floats of the same values draw the same.
    floats = tuple((m, n, float(c), float(a)) for m, n, c, a in BINS)
    assert reliability_svg_text(floats, "a · b", WORDS["es"]) == first
    assert "id=" not in first  # nothing to clash with another diagram on the page


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (0, "0"),
        (10, "10"),
        (2.5, "2.5"),
        (Fraction(1, 3), "0.333"),
        (Fraction(200, 3), "66.667"),
        (Fraction(-1, 3), "-0.333"),
        (-0.0001, "0"),
        (Fraction(1, 2000), "0"),  # half a thousandth: to the even 0
        (Fraction(3, 2000), "0.002"),  # one and a half: to the even 2
        (0.1 + 0.2, "0.3"),
    ],
)
def test_numbers_are_printed_exactly_to_three_decimals(value, text):
    assert svg.number(value) == text


def test_escape_covers_markup_and_characters_xml_forbids():
    assert svg.escape("a<b>&\"'") == "a&lt;b&gt;&amp;&quot;&#39;"
    assert svg.escape("\x00\x1f\ud800\ufffe\tok\n") == "\ufffd\ufffd\ufffd\ufffd\tok\n"
    assert svg.element("text", {"x": 1, "font_family": 'a"b'}, "t") == (
        '<text x="1" font-family="a&quot;b">t</text>'
    )


@st.composite
def bins(draw_from):
    """Bins as the ECE gives them: a strictly increasing subset of 1..10, each with its
    count, a mean confidence inside the bin and a soft accuracy in [0, 1]."""
    chosen = draw_from(st.lists(st.integers(1, N_BINS), unique=True, max_size=N_BINS))
    result = []
    for m in sorted(chosen):
        n = draw_from(st.integers(1, 5000))
        accuracy = Fraction(draw_from(st.integers(0, 2 * n)), 2 * n)
        confidence = Fraction(draw_from(st.integers((m - 1) * 10 * n, m * 10 * n)), 100 * n)
        result.append((m, n, confidence, accuracy))
    return tuple(result)


# Characters XML can hold (the others: test_hostile_text_stays_text), line breaks too.
TITLES = st.text(
    st.characters(blacklist_categories=["Cs", "Cc", "Cn"]) | st.sampled_from("\n\t<>&\"'"),
    max_size=40,
)


@settings(max_examples=60, deadline=None)
@given(bins(), TITLES, st.sampled_from(LANGUAGES))
def test_any_diagram_parses_and_says_its_data(data, title, code):
    root = parse(reliability_svg_text(data, title, WORDS[code]))
    lines = title.splitlines()
    bottom = 20 + 15 * len(lines) + 225
    assert bars(root) == [
        (
            float(svg.number(64 + 30 * (m - 1))),
            float(svg.number(bottom - 200 * accuracy)),
            30,
            float(svg.number(200 * accuracy)),
        )
        for m, _, _, accuracy in data
    ]
    counts = [text for text in texts(root) if text[2].startswith("n=")]
    assert [count for _, _, count in counts] == [f"n={n}" for _, n, _, _ in data]
    assert [line for _, _, line in title_lines(root)] == lines
