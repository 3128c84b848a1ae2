"""A small writer of plain SVG: the elements the diagrams use, every text escaped.

Each helper returns one element as text. Presentation attributes are keyword
arguments, an underscore standing for the hyphen of SVG's name (stroke_width →
stroke-width), written in the order given. A number is printed by `number` (exact,
three decimals at most), so the same drawing gives the same bytes on every machine;
a string is escaped by `escape`, so no text from the corpus can open or close markup.
"""

import re
from fractions import Fraction

# Characters XML 1.0 does not allow in a document, even escaped (C0 controls except
# tab, newline and return; lone surrogates; U+FFFE and U+FFFF).
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}
_MARKUP = re.compile("[&<>\"']")


def escape(value: str) -> str:
    """Text safe in element content and in a quoted attribute alike: the five markup
    characters as entities, and characters XML forbids as U+FFFD (shown, not dropped)."""
    value = _NOT_XML.sub("\ufffd", value)
    return _MARKUP.sub(lambda match: _ENTITIES[match[0]], value)


def number(value) -> str:
    """A coordinate or length as SVG text: rounded half to even at the third decimal,
    exactly (through Fraction, whatever the type given), trailing zeros dropped, never
    "-0"."""
    thousandths = round(Fraction(value) * 1000)
    whole, part = divmod(abs(thousandths), 1000)
    sign = "-" if thousandths < 0 else ""
    return f"{sign}{whole}.{part:03d}".rstrip("0").rstrip(".")


def _attributes(attributes: dict) -> str:
    return "".join(
        f' {name.replace("_", "-")}="{escape(value) if isinstance(value, str) else number(value)}"'
        for name, value in attributes.items()
        if value is not None
    )


def element(name: str, attributes: dict, content: str | None = None) -> str:
    """<name attributes/>, or <name attributes>content</name>; content is markup
    already (escape a text before passing it)."""
    if content is None:
        return f"<{name}{_attributes(attributes)}/>"
    return f"<{name}{_attributes(attributes)}>{content}</{name}>"


def rect(x, y, width, height, **presentation) -> str:
    return element("rect", {"x": x, "y": y, "width": width, "height": height, **presentation})


def line(x1, y1, x2, y2, **presentation) -> str:
    return element("line", {"x1": x1, "y1": y1, "x2": x2, "y2": y2, **presentation})


def circle(cx, cy, r, **presentation) -> str:
    return element("circle", {"cx": cx, "cy": cy, "r": r, **presentation})


def text(x, y, value: str, **presentation) -> str:
    """One line of text whose baseline starts (or is anchored) at (x, y)."""
    return element("text", {"x": x, "y": y, **presentation}, escape(value))


def text_lines(x, first_baseline, line_height, lines: list[str], **presentation) -> str:
    """Several lines as one <text>, one <tspan> per line, each with its own baseline
    line_height below the one before."""
    spans = "".join(
        element("tspan", {"x": x, "y": first_baseline + i * line_height}, escape(value))
        for i, value in enumerate(lines)
    )
    return element("text", presentation, spans)


def group(children: list[str], **presentation) -> str:
    """<g> around the children, for attributes they share."""
    return element("g", presentation, "\n" + "".join(f"{child}\n" for child in children))


def document(width, height, children: list[str]) -> str:
    """A standalone SVG file: the XML declaration and the <svg> element, its user units
    pixels (width × height)."""
    root = element(
        "svg",
        {
            "xmlns": "http://www.w3.org/2000/svg",
            "width": width,
            "height": height,
            "viewBox": f"0 0 {number(width)} {number(height)}",
        },
        "\n" + "".join(f"{child}\n" for child in children),
    )
    return f'<?xml version="1.0" encoding="utf-8"?>\n{root}\n'
