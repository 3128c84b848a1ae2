"""The languages of the leaderboard: every user-visible text comes from one data file,
rendering/labels.json (each key with its text in every language of LANGUAGES, side by
side), never from code. A family's name is not a label: contracts/vocabulary.py.

A value is a str.format template; the code fills in values it has already escaped.
Numbers are the published texts (a dot as decimal mark); `number()` writes them with
the language's own mark (a comma in Spanish). Sort values, dates, ids and versions
are never converted.
"""

import json
import re
from dataclasses import dataclass
from pathlib import Path

from ro_metrics.contracts.vocabulary import LANGUAGES

LABELS_FILE = Path(__file__).with_name("labels.json")
ENGLISH, SPANISH = LANGUAGES  # English is the default edition (leaderboard.html)
# A decimal number inside a text: "0.705", "95 % CI 0.55–0.67" (not "v1.0": a letter
# before it makes it a name, and neither are the parts of a date or a version id).
_DECIMAL = re.compile(r"(?<![\w.-])(\d+)\.(\d+)(?![\w.-])")


def all_labels() -> dict[str, dict[str, str]]:
    """Every label: key -> {language code: text} (keys starting with _ are documentation)."""
    labels = json.loads(LABELS_FILE.read_text("utf-8"))
    return {key: texts for key, texts in labels.items() if not key.startswith("_")}


def load_labels(code: str) -> dict[str, str]:
    """The labels of one language: key -> text."""
    return {key: texts[code] for key, texts in all_labels().items()}


@dataclass(frozen=True)
class Language:
    """The labels of one language, and how it writes numbers."""

    labels: dict[str, str]

    @property
    def code(self) -> str:
        return self.labels["lang"]

    def __call__(self, key: str, **values) -> str:
        return self.labels[key].format(**values)

    def number(self, text) -> str:
        """A published number (or a text of numbers) with this language's decimal mark."""
        mark = self.labels["decimal_mark"]
        text = str(text)
        if mark == ".":
            return text
        return _DECIMAL.sub(lambda match: f"{match[1]}{mark}{match[2]}", text)


def language(code: str) -> Language:
    return Language(load_labels(code))
