"""GitHub-flavoured Markdown for the published .md files: the one escaper of corpus and
registry text, the one table builder (leaderboard.md, changes.md), and a label made
Markdown (`markdown_label`).

`markdown_text()` makes any value literal inline text, wherever it is put: a table cell, a
heading or a paragraph of its own. It can then hold neither a cell break (`|`), nor
emphasis, code, strikethrough, a link or an autolink, nor HTML or an entity, nor a line
break, nor a line start that opens a block (list item, heading, quote, thematic break).
"""

import re

# Characters with a meaning inside inline text or a table cell (cell break, code,
# emphasis, strikethrough, link brackets, HTML and entities, a heading's # and a quote's
# >, GFM's e-mail autolink); each is written with a backslash, which CommonMark allows
# before any ASCII punctuation.
_INLINE_SYNTAX = re.compile(r"([\\`*_\[\]<>#|~&@])")
# GFM's other autolinks (www., scheme://) are broken up the same way.
_AUTOLINK = re.compile(r"(?i)(www)\.|:(?=//)")
# A line break ends a table row; a run of blanks reads as one space anyway. A
# no-break space is not a blank here: it is part of the text.
_BLANKS = re.compile(r"[ \t\r\n\u2028\u2029\x0b\x0c\x85]+")
_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1f\x7f]")
# A lone * (ECE*, the mark of an indicative value), not one of the ** of bold.
_LONE_STAR = re.compile(r"(?<!\*)\*(?!\*)")
# Starts of a line that open a block when the text is a paragraph of its own: a bullet
# (- or + then a blank), a thematic break or setext underline (---, ===), an ordered
# item (1. or 1) then a blank). #, >, * and | are escaped everywhere already.
_BLOCK_START = re.compile(r"^(?:[-+=](?=[\s\-+=]|$)|\d{1,9}(?=[.)](?:\s|$)))")


def markdown_text(value) -> str:
    """A registry or corpus value as literal Markdown inline text (module docstring)."""
    flat = _BLANKS.sub(" ", _CONTROL.sub("", str(value))).strip()
    escaped = _INLINE_SYNTAX.sub(r"\\\1", flat)
    escaped = _AUTOLINK.sub(lambda match: f"{match[1]}\\." if match[1] else "\\:", escaped)
    return _BLOCK_START.sub(_escape_block_start, escaped, count=1)


def _escape_block_start(match: re.Match) -> str:
    # A bullet or rule: escape its character; an ordered item: the . or ) after the
    # digits (a backslash before a digit would be printed).
    marker = match[0]
    return f"{marker}\\" if marker[0].isdigit() else f"\\{marker}"


def gfm_table(headers: list[str], rows: list[list[str]], alignments: str | None = None) -> str:
    """A GFM table (no trailing newline). Headers and cells must already be Markdown
    (corpus text through `markdown_text()`); `alignments` is "l" or "r" per column, all "l" by
    default. An empty cell is written as one blank between the cell's own two, the
    layout leaderboard.md has always had."""
    alignments = alignments or "l" * len(headers)
    if len(alignments) != len(headers):
        raise ValueError(f"{len(alignments)} alignments for {len(headers)} headers")
    rule = {"l": "---", "r": "---:"}
    lines = [
        "| " + " | ".join(headers) + " |",
        "|" + "|".join(rule[alignment] for alignment in alignments) + "|",
    ]
    for row in rows:
        if len(row) != len(headers):
            raise ValueError(f"a row of {len(row)} cells under {len(headers)} headers")
        lines.append("| " + " | ".join(cell if cell else " " for cell in row) + " |")
    return "\n".join(lines)


def markdown_label(label: str) -> str:
    """A label (rendering/labels.json, written for the HTML pages) as Markdown:
    Q<sub>final</sub> as Q_final, a lone * as a literal star; ** stays bold."""
    return _LONE_STAR.sub(r"\\*", label.replace("<sub>final</sub>", "_final"))
