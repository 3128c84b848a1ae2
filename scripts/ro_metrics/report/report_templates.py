"""The findings report's Markdown templates (config `findings_templates`, one per
language; the defaults in system/report/): a Jinja2 environment whose context is the
document of results/findings.json (`facts`, docs/findings-json.md), and the filters
that write its numbers the way a report does, in the edition's language.

Every number comes from a fact, through a filter (so the Spanish edition writes a
decimal comma wherever a decimal is written):

    pct(n=1)       a fraction or rate as a percentage: 0.2292 → "22.9%" / "22,9 %"
    number(n=2)    a plain number with n decimals: "0.71" / "0,71"
    n_of_m(m)      a count of a total: "11 of 48" / "11 de 48"
    times(n=1)     a ratio: "3.2×" / "3,2×"
    ordinal        a rank: "1st", "2nd", "3rd", "4th", "11th" / "1.º", "2.º"
    versions       a list of version names: "A, B and C" / "A, B y C"; empty: "no version"
    money(n=4)     US dollars: "$0.0123" / "0,0123 US$" (the amount after the number,
                   as Spanish style guides write a currency, with its ISO-like symbol)
    p              a p-value, two significant digits: "0.00020" / "0,00020"
    share          a bootstrap share as a whole percentage: "58%" / "58 %" ("< 1%")
    points         a rate as percentage points (the words are the template's): "3.2"
    match          how a quote was found (exact, close, none), in the edition's words
    md             a data text as literal Markdown (markdown.markdown_text)
    family         a family code with its name in the edition's language, the
                   vocabulary's (contracts/vocabulary.py FAMILY_NAMES, the taxonomy's
                   words): "NOWE (No-wetting / abnormal startup)"; a code the vocabulary
                   does not know, alone: "XXXX" (never an invented name)
    fraction(n, m) (a function) the exact quotient of two counts, for a number filter
    literal        a figure that is not the benchmark's (a year, a test's threshold):
                   printed as written, and the claims lint (claims_lint.py) lets it pass

A number filter takes a fraction object {"num", "den", "value"}, an int, a float or a
number as text; it rounds the exact value (num/den, or the decimal as written: a float
is the published text of a 4-decimal value) half-even, never the float. A null (a fact
undefined for these data: an ECE rank without runs, a correlation of one version, a
price not declared) is written as the edition's "undefined" mark (n/a, n/d), so a
template written against one corpus keeps rendering on another; a sentence that must
read differently tests it with `is none`.

Printing escapes: every value a placeholder prints is a data text and is escaped for
Markdown (markdown.markdown_text: no emphasis, link, HTML or table break can come from
the data) unless it is a filter's result. A float or a fraction object printed without
a number filter is an error, not a dot-decimal in the Spanish edition.

Facts are read by key: `facts.safety.events` is the key "events" of "safety" even
where a Python attribute of that name exists, and a name that is not a key is an
error (StrictUndefined) naming the fact's dotted path. Any error while parsing or
rendering (an unknown fact, a syntax error, a filter given a wrong value) is one line,
`<template file>:<line>: <what>`, raised as ReportError.
"""

import traceback
from fractions import Fraction
from numbers import Integral
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from jinja2.exceptions import TemplateError, TemplateRuntimeError, TemplateSyntaxError

from ro_metrics.contracts.tables import (
    decimal_text,
    exact_fraction,
    p_value_text,
    share_percent_text,
)
from ro_metrics.contracts.vocabulary import family_name
from ro_metrics.rendering.markdown import markdown_text
from ro_metrics.rendering.translations import Language, language


class ReportError(Exception):
    """A template that cannot be rendered: `<file>:<line>: <what>`, one line."""


class Markdown(str):
    """Text that is Markdown already (a filter's result): printed as it is."""


class Facts(dict):
    """An object of findings.json that knows its dotted path (for the error naming an
    unknown fact)."""

    __slots__ = ("path",)


def facts_tree(value, path: str = "facts"):
    """The document with each object a Facts (lists and values as they are)."""
    if isinstance(value, dict):
        node = Facts((key, facts_tree(item, f"{path}.{key}")) for key, item in value.items())
        node.path = path
        return node
    if isinstance(value, list):
        return [facts_tree(item, f"{path}[{index}]") for index, item in enumerate(value)]
    return value


class ReportEnvironment(Environment):
    """Jinja2 with the facts read by key first (a version or a family named like a
    dict method is still a fact) and an unknown key an error naming its path."""

    def getattr(self, obj, attribute):
        if isinstance(obj, dict):
            return self._fact(obj, attribute)
        return super().getattr(obj, attribute)

    def getitem(self, obj, argument):
        if isinstance(obj, dict):
            return self._fact(obj, argument)
        return super().getitem(obj, argument)

    def _fact(self, obj: dict, key):
        try:
            return obj[key]
        except (KeyError, TypeError):
            where = getattr(obj, "path", "facts")
            return self.undefined(hint=f"unknown fact {where}.{key}", obj=obj, name=key)


def number_of_fact(value) -> Fraction:
    """A fact's exact value for a number filter (contracts.tables.exact_fraction: the
    module docstring's kinds); a null fact or anything but a number is an error."""
    if value is None:
        raise TemplateRuntimeError(
            "a null fact (undefined for these data) given to a number filter: "
            "test it with `is none` first"
        )
    try:
        number = exact_fraction(value)
    except ValueError:
        number = None
    if number is None:
        raise TemplateRuntimeError(f"not a number: {value!r}")
    return number


def count(value) -> int:
    if isinstance(value, bool) or not isinstance(value, Integral):
        raise TemplateRuntimeError(f"not a count (an integer): {value!r}")
    return int(value)


# A language's ordinal category of n (CLDR's ordinal plural rules of the two editions):
# English 1st, 2nd, 3rd but 11th, 12th, 13th; Spanish one form.
def ordinal_category(code: str, n: int) -> str:
    if code != "en":
        return "other"
    if n % 10 == 1 and n % 100 != 11:
        return "one"
    if n % 10 == 2 and n % 100 != 12:
        return "two"
    if n % 10 == 3 and n % 100 != 13:
        return "few"
    return "other"


ORDINAL_LABELS = {
    "one": "report_ordinal_one",
    "two": "report_ordinal_two",
    "few": "report_ordinal_few",
    "other": "report_ordinal_other",
}


class ReportFilters:
    """The filters of one edition (module docstring), writing with its labels."""

    def __init__(self, labels: Language):
        self.labels = labels
        self.mark = labels.labels["decimal_mark"]

    def undefined(self) -> Markdown:
        """What a number filter writes for a null fact (module docstring)."""
        return Markdown(self.labels("report_undefined"))

    def number(self, value, places: int = 2) -> Markdown:
        """A plain number with `places` decimals."""
        if value is None:
            return self.undefined()
        return Markdown(decimal_text(number_of_fact(value), places, self.mark))

    def pct(self, value, places: int = 1) -> Markdown:
        """A rate (0–1) as a percentage with `places` decimals."""
        if value is None:
            return self.undefined()
        text = decimal_text(number_of_fact(value) * 100, places, self.mark)
        return Markdown(self.labels("report_percent", value=text))

    def points(self, value, places: int = 1) -> Markdown:
        """A rate (0–1) as a number of percentage points, `places` decimals (the words
        "percentage points" are the template's)."""
        if value is None:
            return self.undefined()
        return Markdown(decimal_text(number_of_fact(value) * 100, places, self.mark))

    def p(self, value) -> Markdown:
        """A p-value as every page writes it (contracts.tables.p_value_text)."""
        if value is None:
            return self.undefined()
        return Markdown(p_value_text(number_of_fact(value), self.mark))

    def share(self, value) -> Markdown:
        """A bootstrap share (0–1) as a whole percentage (contracts.tables.
        share_percent_text): "58%" / "58 %"."""
        if value is None:
            return self.undefined()
        text = share_percent_text(number_of_fact(value), self.mark)
        return Markdown(self.labels("report_percent", value=text))

    def match(self, value) -> Markdown:
        """How a quote was found in the response (exact, close, none), in this edition's
        words (the match_* labels)."""
        if value not in ("exact", "close", "none"):
            raise TemplateRuntimeError(f"not a match value: {value!r}")
        return Markdown(markdown_text(self.labels(f"match_{value}")))

    def n_of_m(self, n, m) -> Markdown:
        return Markdown(self.labels("report_n_of_m", n=count(n), m=count(m)))

    def times(self, value, places: int = 1) -> Markdown:
        """A ratio "N×"."""
        if value is None:
            return self.undefined()
        text = decimal_text(number_of_fact(value), places, self.mark)
        return Markdown(self.labels("report_times", ratio=text))

    def ordinal(self, value) -> Markdown:
        if value is None:
            return self.undefined()
        n = count(value)
        key = ORDINAL_LABELS[ordinal_category(self.labels.code, n)]
        return Markdown(self.labels(key, n=n))

    def versions(self, names) -> Markdown:
        """Version names (data texts, escaped) as a list in prose."""
        if isinstance(names, (str, dict)) or names is None:
            raise TemplateRuntimeError(f"not a list of versions: {names!r}")
        items = [markdown_text(name) for name in names]
        if not items:
            return Markdown(self.labels("report_no_version"))
        if len(items) == 1:
            return Markdown(items[0])
        rest = self.labels("report_list_separator").join(items[:-1])
        return Markdown(self.labels("report_list_last", rest=rest, last=items[-1]))

    def money(self, value, places: int = 4) -> Markdown:
        if value is None:
            return self.undefined()
        text = decimal_text(number_of_fact(value), places, self.mark)
        return Markdown(self.labels("report_money", amount=text))

    @staticmethod
    def md(value) -> Markdown:
        return Markdown(markdown_text(value))

    def family(self, code) -> Markdown:
        """A family code and, in parentheses, its name in this edition's language."""
        if not isinstance(code, str):
            raise TemplateRuntimeError(f"not a family code: {code!r}")
        name = family_name(code, self.labels.code)
        if name == code:
            return Markdown(markdown_text(code))
        return Markdown(f"{markdown_text(code)} ({markdown_text(name)})")

    @staticmethod
    def literal(value) -> Markdown:
        return Markdown(str(value))


def exact_ratio(n, m) -> Fraction:
    """`fraction(n, m)` in a template: the exact quotient of two counts (for a number
    filter: a derived rate is rounded once, exactly)."""
    return Fraction(count(n), count(m))


def printed(value):
    """What a placeholder writes (module docstring: escaping, no bare decimals)."""
    if isinstance(value, Markdown):
        return value
    if isinstance(value, (float, Fraction)) or (isinstance(value, dict) and "num" in value):
        raise TemplateRuntimeError(
            f"the number {value!r} printed without a number filter "
            "(number, pct, times, money): each edition writes its own decimal mark"
        )
    if isinstance(value, (dict, list)):
        raise TemplateRuntimeError(f"a whole object or list printed: {value!r}"[:200])
    return markdown_text(value)


def report_environment(folder: Path, labels: Language) -> ReportEnvironment:
    """The environment of the templates of one folder, writing in one language."""
    environment = ReportEnvironment(
        loader=FileSystemLoader(str(folder)),
        autoescape=False,
        undefined=StrictUndefined,
        keep_trailing_newline=True,
        # A block tag's own line leaves nothing in the Markdown: loops and conditions
        # can be laid out for reading.
        trim_blocks=True,
        lstrip_blocks=True,
        finalize=printed,
    )
    filters = ReportFilters(labels)
    filters_of_edition = (
        "number", "pct", "n_of_m", "times", "ordinal", "versions", "money", "md", "family",
        "points", "p", "match", "share",
    )  # fmt: skip
    for name in filters_of_edition:
        environment.filters[name] = getattr(filters, name)
    environment.filters["literal"] = filters.literal
    environment.globals["fraction"] = exact_ratio
    return environment


def template_line(error: BaseException, folder: Path) -> tuple[str, int] | None:
    """The innermost frame of a template of `folder` in the error's traceback (Jinja
    rewrites its tracebacks so that such a frame has the template's file and line)."""
    found = None
    for frame in traceback.extract_tb(error.__traceback__):
        path = Path(frame.filename)
        if path.suffix != ".py" and path.parent.resolve() == folder.resolve():
            found = (frame.filename, frame.lineno)
    return found


def version_names(facts: dict) -> list[str]:
    """The subject versions the facts name (for the claims lint: a count next to one)."""
    gate = facts.get("safety") or {}
    names = [
        name
        for group in ("eligible", "disqualified")
        for name in (gate.get(group) or {}).get("versions") or []
    ]
    return sorted(set(names))


def render_report(template: Path, facts: dict, code: str) -> str:
    """The template (a path) rendered on the facts (findings.json's document) in the
    language `code`; any failure a ReportError `<file>:<line>: <what>`."""
    template = Path(template)
    if not template.is_file():
        raise ReportError(f"{template}: no such template file (config findings_templates)")
    environment = report_environment(template.parent, language(code))
    try:
        return environment.get_template(template.name).render(facts=facts_tree(facts))
    except TemplateSyntaxError as error:
        where = error.filename or str(template)
        raise ReportError(f"{where}:{error.lineno}: {error.message}") from None
    except (TemplateError, ArithmeticError, LookupError, TypeError, ValueError) as error:
        where, line = template_line(error, template.parent) or (str(template), 0)
        message = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise ReportError(f"{where}:{line}: {message}") from None
