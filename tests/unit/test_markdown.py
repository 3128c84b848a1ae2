"""rendering/markdown.py: the one escaper of corpus text for the published .md files
and the one GFM table builder, checked as written and as markdown-it-py (CommonMark with
GFM's tables and strikethrough) reads them."""

import pytest
from markdown_it import MarkdownIt

from ro_metrics.rendering.markdown import gfm_table, markdown_label, markdown_text

GFM = MarkdownIt("commonmark").enable(["table", "strikethrough"])


def test_every_inline_markup_character_is_escaped():
    assert markdown_text("a|b *c* _d_ `e` <f> [g] ~h~ & \\ # i @ j") == (
        r"a\|b \*c\* \_d\_ \`e\` \<f\> \[g\] \~h\~ \& \\ \# i \@ j"
    )


def test_html_and_entities_stay_text():
    escaped = markdown_text("<script>alert(1)</script> &amp; <b>x</b>")
    assert escaped == r"\<script\>alert(1)\</script\> \&amp; \<b\>x\</b\>"
    assert GFM.render(escaped) == (
        "<p>&lt;script&gt;alert(1)&lt;/script&gt; &amp;amp; &lt;b&gt;x&lt;/b&gt;</p>\n"
    )


def test_line_breaks_and_blank_runs_become_one_space_and_controls_go():
    assert markdown_text(" one\ntwo\r\n\tthree\u2028four  five\x00\x1b ") == (
        "one two three four five"
    )
    # A no-break space is text, not a blank.
    assert markdown_text("95\u00a0%") == "95\u00a0%"


def test_autolinks_are_broken_up_and_still_read_the_same():
    # GFM (GitHub, not markdown-it's CommonMark) links www., scheme:// and e-mail
    # addresses by itself; the escapes break each pattern and still read the same.
    escaped = markdown_text("see www.example.com and https://x.y or a@b.c")
    assert escaped == "see www\\.example.com and https\\://x.y or a\\@b.c"
    assert GFM.render(escaped) == "<p>see www.example.com and https://x.y or a@b.c</p>\n"


@pytest.mark.parametrize(
    ("value", "escaped"),
    [
        ("- item", r"\- item"),
        ("+ item", r"\+ item"),
        ("---", r"\---"),
        ("===", r"\==="),
        ("- - -", r"\- - -"),
        ("1. first", r"1\. first"),
        ("12) twelfth", r"12\) twelfth"),
        ("# heading", r"\# heading"),
        ("> quote", r"\> quote"),
        ("* item", r"\* item"),
    ],
)
def test_a_line_start_that_opens_a_block_is_escaped(value, escaped):
    assert markdown_text(value) == escaped
    # As a paragraph of its own, the text reads as written.
    assert GFM.render(escaped) == f"<p>{value.replace('>', '&gt;')}</p>\n"


@pytest.mark.parametrize("value", ["-0.125", "+3", "1.5", "2026-05-01", "v1.0", "-x"])
def test_numbers_and_dates_are_left_as_they_are(value):
    assert markdown_text(value) == value


def test_a_table_with_alignments_and_an_empty_cell():
    table = gfm_table(["a", "b"], [[r"x\|y", ""], ["1", "2"]], "lr")
    assert table == "| a | b |\n|---|---:|\n| x\\|y |   |\n| 1 | 2 |"
    html = GFM.render(table)
    assert '<td>x|y</td>\n<td style="text-align:right"></td>' in html
    assert html.count("<tr>") == 3


def test_a_table_is_left_aligned_by_default_and_may_have_no_rows():
    assert gfm_table(["a", "b", "c"], []) == "| a | b | c |\n|---|---|---|"


def test_a_row_of_the_wrong_width_is_refused():
    with pytest.raises(ValueError, match="a row of 1 cells under 2 headers"):
        gfm_table(["a", "b"], [["x"]])
    with pytest.raises(ValueError, match="3 alignments for 2 headers"):
        gfm_table(["a", "b"], [], "lrl")


def test_a_label_becomes_markdown_its_bold_kept():
    # Q<sub>final</sub> (a page's markup) as Q_final; ECE* (indicative) a literal star.
    assert markdown_label("Q<sub>final</sub> and ECE*") == "Q_final and ECE\\*"
    assert markdown_label("**bold** *x") == "**bold** \\*x"
    assert GFM.render(markdown_label("ECE* **bold**")) == "<p>ECE* <strong>bold</strong></p>\n"
