"""The benchmark's family names, written out from the spec's table
(shared/spec/families.md, "The five families"), and the family names a published text
gives: the oracle of the tests that every page, report and table names a family with
the taxonomy's words and no others."""

import re
from pathlib import Path

# code: (English name, Spanish name), as families.md's table gives them.
SPEC_FAMILY_NAMES = {
    "OXID": ("Oxidative damage", "Daño oxidativo"),
    "SCAL": ("Inorganic scaling", "Incrustación inorgánica"),
    "FOUL": ("Organic / biological fouling", "Ensuciamiento orgánico / biológico"),
    "MECH": ("Mechanical damage / integrity", "Daño mecánico / integridad"),
    "NOWE": ("No-wetting / abnormal startup", "Falta de mojado / arranque anómalo"),
}
ORACLE = {
    code: {"en": english, "es": spanish} for code, (english, spanish) in SPEC_FAMILY_NAMES.items()
}
# Names the workflow once gave (its own labels and the report templates' prose), none
# of them the taxonomy's: NOWE is a fault family, never "no fault"/"normal operation".
# Searched for as they stand alone (a page's muted name, a report's parenthesis).
INVENTED = (
    "No-fault",
    "no fault",
    "normal operation",
    "Normal operation",
    "Sin fallo",
    "sin fallo",
    "operación normal",
    "Operación normal",
    "Fouling</span>",
    "Scaling</span>",
    "Oxidation</span>",
    "Mechanical</span>",
    "(fouling)",
    "(scaling)",
    "(oxidation)",
    "(mechanical damage)",
    "Ensuciamiento</span>",
    "Incrustación</span>",
    "Oxidación</span>",
    "Mecánico</span>",
    "(ensuciamiento)",
    "(incrustación)",
    "(oxidación)",
    "(daño mecánico)",
)
# A family's code followed by its name, as the pages (`CODE <span class="muted">name
# </span>`, a case's facts `CODE (name) ·`) and the Markdown (`CODE (name)`) write it;
# not a case id's segment (RO-FOUL-001).
_NAMED = re.compile(
    r"(?<![\w-])(?P<code>OXID|SCAL|FOUL|MECH|NOWE)(?![\w-])"
    r"(?: <span class=\"muted\">(?P<span>[^<]*)</span>| \((?P<paren>[^)]*)\))"
)


def spec_table(path: Path) -> dict[str, dict[str, str]]:
    """The names of families.md's table: a row `| \\`CODE\\` | English | Spanish | … |`."""
    names = {}
    for line in path.read_text("utf-8").splitlines():
        match = re.match(r"\| `([A-Z]{4})` \| ([^|]+?) \| ([^|]+?) \|", line)
        if match:
            names[match[1]] = {"en": match[2], "es": match[3]}
    return names


def named_families(text: str) -> list[tuple[str, str]]:
    """Every (code, name) the text names a family with."""
    return [
        (match["code"], match["span"] if match["span"] is not None else match["paren"])
        for match in _NAMED.finditer(text)
    ]


def misnamed_families(text: str, language: str) -> list[str]:
    """Every family the text names otherwise than the taxonomy does in its language."""
    return [
        f"{code} named {name!r}"
        for code, name in named_families(text)
        if name != ORACLE[code][language]
    ]


def invented_names(text: str) -> list[str]:
    """The names of INVENTED the text holds (for a text with no corpus words in it: a
    model's answer may well say "normal operation")."""
    return [phrase for phrase in INVENTED if phrase in text]
