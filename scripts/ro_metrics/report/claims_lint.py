"""The claims lint of the findings report's templates: a number typed into the prose
instead of taken from findings.json.

It reads a template's literal prose, what the template prints as it is:
- outside Jinja's {{ … }}, {% … %} and {# … #};
- outside Markdown code (fenced blocks, code spans) and link targets;
- outside ids and names as written: case ids (RO-FOUL-001), run ids, any word that
  starts with a letter and holds a digit (v1.0, a subject version such as
  borealis-xl-2026-01-15), the version names it is given, and dates (2026-05-12).
A string constant a placeholder prints is prose too ({{ "45 %" }}), and a number
constant it prints is always a typed number ({{ 12 }}), unless
it goes through the explicit literal marker, the `literal` filter:
`{{ "2030"|literal }}` for a figure that is not the benchmark's (a year, an outside
cost estimate, a test's threshold).

In that prose it finds typed numbers: percentages (12 %, 12%, 12 per cent), "N of M"
and "N de M", ratios (3×, 3x, 3 times), rank ordinals written in digits (4th, 4.º),
decimals (0.41, 0,41), and counts next to a count word (runs, cases, versions, fails,
events, …, in English or Spanish: "5 critical fails", "12 versions"), a metric's name
(Brier, ECE, Q_final, pass rate, rank) or a version's name. Ordinal words ("the
second") and other bare integers pass.

Each finding names the file, the line and the text; the report step logs them as
warnings, or refuses to publish with config strict=true.
"""

import re
from dataclasses import dataclass
from pathlib import Path

from jinja2 import Environment, nodes
from jinja2.exceptions import TemplateSyntaxError

from ro_metrics.contracts.vocabulary import CASE_ID, RUN_ID

# What masking writes over a span that is not prose: not a word character, not a digit,
# so nothing found next to it reads as part of a number or a word.
_MASK = "\ue000"
_JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.DOTALL)
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,}).*?(?:^ {0,3}\1[ \t]*$|\Z)", re.DOTALL | re.MULTILINE)
_CODE_SPAN = re.compile(r"(`+)(?!`).+?(?<!`)\1(?!`)", re.DOTALL)
_LINK_TARGET = re.compile(r"\]\([^)\n]*\)|<[a-z][a-z0-9+.-]*:[^>\s]*>|\bhttps?://\S+", re.I)
_DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2})?Z?)?\b")
_IDS = re.compile(rf"\b(?:{CASE_ID}|{RUN_ID})\b")
# A name as written: starts with a letter (or _), holds a digit (v1.0, gpt-4.1).
_NAME = re.compile(r"(?<![\w.-])[^\W\d][\w.\-/]*\d[\w.\-/]*", re.UNICODE)

_NUMBER = r"\d+(?:[.,]\d+)?"
_COUNT_WORDS = (
    r"runs?|cases?|versions?|fails?|failures?|events?|models?|subjects?|famil(?:y|ies)"
    r"|scorings?|responses?|answers?|reviewers?|pairs?|replicates?|bins?|points?"
    r"|ejecuci(?:ón|ones)|casos?|versi(?:ón|ones)|fallos?|eventos?|modelos?|sujetos?"
    r"|familias?|evaluaci(?:ón|ones)|respuestas?|revisor(?:es)?|pares|par|réplicas?"
    r"|puntos?|intervalos?"
)
_METRICS = (
    r"Brier|ECE|Q_final|Q final|pass rate|mean clipped score|rank(?:ed)?|puesto"
    r"|tasa de aprobado|puntuación media"
)
# The forms, in the order they are looked for; each match is reported once.
_FORMS = [
    ("percentage", re.compile(rf"{_NUMBER}\s?(?:%|‰|per ?cent\b|percent\b|por ciento\b)", re.I)),
    (
        "N of M",
        re.compile(
            r"\b\d+\s+(?:of|out of|de|sobre)\s+"
            r"(?:(?:the|all|los|las|todos los|todas las)\s+)?\d+\b",
            re.I,
        ),
    ),
    ("ratio", re.compile(rf"(?<![\w.,]){_NUMBER}\s?(?:×|x(?!\w)|times\b|veces\b)", re.I)),
    ("rank ordinal", re.compile(r"\b\d+(?:st|nd|rd|th)\b|\b\d+\.?[ºª°]", re.I)),
    ("decimal", re.compile(r"(?<![\w.,])\d+[.,]\d+(?!\w)")),
]
_INTEGER = re.compile(r"(?<![\w.,])\d+(?!\w|[.,]\d)")
_COUNT_AFTER = re.compile(rf"\s+(?:[^\W\d]+\s+)?(?:{_COUNT_WORDS})\b", re.I)
_METRIC_BEFORE = re.compile(rf"\b(?:{_METRICS})\s*(?:[:=<>≤≥]|of|de|is|es)?\s*$", re.I)


@dataclass(frozen=True)
class Claim:
    """A typed number in a template's prose."""

    file: str
    line: int
    kind: str
    text: str

    def __str__(self) -> str:
        return (
            f"{self.file}:{self.line}: typed {self.kind} {self.text!r} in the report's prose: "
            "print it from a fact, or mark a figure that is not the benchmark's with |literal"
        )


def lint_template(path, names=()) -> list[Claim]:
    """The typed numbers of a template file (names: the version names of the facts)."""
    return lint_source(Path(path).read_text("utf-8"), str(path), names)


def lint_source(source: str, file: str, names=()) -> list[Claim]:
    """The typed numbers of a template's text, sorted by position (module docstring)."""
    claims = []
    for line, value in printed_constants(source):
        if isinstance(value, str):
            claims += [
                Claim(file, line, kind, text) for _, kind, text in typed_numbers(value, names)
            ]
        else:
            claims.append(Claim(file, line, "number constant", str(value)))
    prose = masked_prose(source, names)
    for offset, kind, text in typed_numbers(prose, names, masked=True):
        claims.append(Claim(file, source.count("\n", 0, offset) + 1, kind, text))
    return sorted(claims, key=lambda claim: claim.line)


def masked_prose(source: str, names=()) -> str:
    """The source with everything that is not literal prose written over (same length,
    same line breaks)."""
    text = source
    for pattern in (_JINJA, _FENCE, _CODE_SPAN, _LINK_TARGET, _DATE, _IDS):
        text = pattern.sub(_masked, text)
    for name in sorted({str(name) for name in names if name}, key=len, reverse=True):
        text = re.sub(rf"(?<![\w.-]){re.escape(name)}(?![\w-])", _masked, text)
    return _NAME.sub(_masked, text)


def _masked(match: re.Match) -> str:
    return re.sub(r"[^\n]", _MASK, match[0])


def typed_numbers(text: str, names=(), masked: bool = False):
    """(offset, kind, text) of each typed number of a prose text (already masked, or a
    printed string constant, masked here)."""
    if not masked:
        text = masked_prose(text, names)
    taken: list[tuple[int, int]] = []
    found = []
    for kind, pattern in _FORMS:
        for match in pattern.finditer(text):
            if not any(start < match.end() and match.start() < end for start, end in taken):
                taken.append(match.span())
                found.append((match.start(), kind, match[0]))
    names_before = _names_pattern(names, before=True)
    names_after = _names_pattern(names, before=False)
    for match in _INTEGER.finditer(text):
        if any(start < match.end() and match.start() < end for start, end in taken):
            continue
        before, after = text[: match.start()], text[match.end() :]
        line_before = before.rsplit("\n", 1)[-1]
        if (
            _COUNT_AFTER.match(after)
            or _METRIC_BEFORE.search(line_before)
            or (names_before and names_before.search(line_before))
            or (names_after and names_after.match(after))
        ):
            found.append((match.start(), "count", match[0]))
    return sorted(found)


def _names_pattern(names, before: bool):
    # The names are masked in the prose: a count next to a version's name is a number
    # next to a masked run as long as one of the names.
    lengths = sorted({len(str(name)) for name in names if name}, reverse=True)
    if not lengths:
        return None
    runs = "|".join(f"{_MASK}{{{length}}}" for length in lengths)
    if before:
        return re.compile(rf"(?<!{_MASK})(?:{runs})\s*[:=]?\s*$")
    return re.compile(rf"\s*(?:{runs})(?!{_MASK})")


_PARSER = Environment()  # noqa: S701 - parses templates, never renders one


def printed_constants(source: str) -> list[tuple[int, str | int | float]]:
    """(line, text) of each string or number constant a placeholder prints or a {% set %}
    assigns, unless marked with the literal filter. A template that does not parse has
    none here (rendering reports its syntax error)."""
    try:
        tree = _PARSER.parse(source)
    except TemplateSyntaxError:
        return []
    found = []
    for output in tree.find_all(nodes.Output):
        for node in output.nodes:
            if not isinstance(node, nodes.TemplateData):
                found.extend(_constants(node))
    for assign in tree.find_all(nodes.Assign):
        found.extend(_constants(assign.node))
    return sorted(found, key=lambda item: item[0])


def _constants(node: nodes.Node) -> list[tuple[int, str | int | float]]:
    """The constants that would be printed as they are: not a filter's or a call's
    argument, not a test's operand, nothing under the literal filter."""
    if isinstance(node, nodes.Filter):
        return [] if node.name == "literal" else _constants(node.node)
    if isinstance(node, nodes.Const):
        value = node.value
        if isinstance(value, bool) or value is None:
            return []
        return [(node.lineno, value)] if isinstance(value, (str, int, float)) else []
    if isinstance(node, nodes.CondExpr):
        return _constants(node.expr1) + (_constants(node.expr2) if node.expr2 else [])
    if isinstance(node, nodes.Concat):
        return [found for item in node.nodes if item for found in _constants(item)]
    if isinstance(node, (nodes.List, nodes.Tuple)):  # their members are `items`
        return [found for item in node.items if item for found in _constants(item)]
    if isinstance(node, nodes.BinExpr):
        return _constants(node.left) + _constants(node.right)
    return []
