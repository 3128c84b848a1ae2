"""The languages of the leaderboard and the site: one data file, every label in every
language with the same placeholders, every label the code asks for present, and no
user-visible text left in code (the leaderboard page and the site's three kinds of
page)."""

import json
import re
import string
from html.parser import HTMLParser

import pytest

from ro_metrics.contracts.vocabulary import (
    CONDITIONAL,
    CRITERIA,
    FAIL,
    FAMILY_NAMES,
    PASS,
    STATEMENT_SECTIONS,
)
from ro_metrics.formulas import findings as fd
from ro_metrics.history.changes import SCOPES
from ro_metrics.history.changes_report import INPUT_KINDS, SECTION_COLUMNS
from ro_metrics.leaderboard.leaderboard_page import render_page
from ro_metrics.leaderboard.leaderboard_view import leaderboard_view
from ro_metrics.rendering.translations import (
    ENGLISH,
    LABELS_FILE,
    LANGUAGES,
    SPANISH,
    Language,
    all_labels,
    language,
    load_labels,
)
from ro_metrics.site.site_pages import (
    render_index,
)
from site_records import site_pages
from workflow_runs import REPO

# Every file that may ask for a label: the library's modules and templates, the rule
# scripts.
CODE = sorted(
    [
        *(REPO / "scripts/ro_metrics").rglob("*.py"),
        *(REPO / "scripts/ro_metrics/rendering/templates").glob("*.html"),
        *(REPO / "scripts/ro_metrics/rendering/templates").glob("*.md"),
        *(REPO / "scripts").glob("*.py"),
    ]
)
# Keys the code builds instead of naming them literally.
BUILT_KEYS = {
    f"col_{name}" for name in ("q_final", "pass_rate", "mean_clipped_score", "brier", "ece")
}
BUILT_KEYS |= {f"changes_files_{status}" for status in ("added", "changed", "removed")}
BUILT_KEYS |= {f"changes_kind_{kind}" for _, kind in INPUT_KINDS}
BUILT_KEYS |= {f"changes_{part}_{scope}" for part in ("count", "section") for scope in SCOPES}
BUILT_KEYS |= {f"changes_col_{name}" for names in SECTION_COLUMNS.values() for name in names}
# The findings page's: what triggered a critical fail, a pending run's status.
BUILT_KEYS |= {f"findings_trigger_{name}" for name in fd.TRIGGERS}
BUILT_KEYS |= {f"findings_{status}" for status in ("pending_arbitration", "awaiting_second_review")}


def schema(name: str) -> dict:
    return json.loads((REPO / "system/schemas/v1.0" / name).read_text("utf-8"))


# The site's: the rubric's criteria and the closed vocabularies of the spec (a run's
# classification and its letter in the matrix, a fail's severity and type, a case's
# type; the last two as the schemas enumerate them).
AUTOMATIC_FAIL = schema("evaluation.schema.json")["definitions"]["automatic_fail"]["properties"]
CASE_TYPES = schema("gold.schema.json")["properties"]["case_type"]["enum"]
BUILT_KEYS |= {f"criterion_{name}" for name in CRITERIA}
BUILT_KEYS |= {f"criterion_short_{name}" for name in CRITERIA}
BUILT_KEYS |= {
    f"{part}_{name}" for part in ("classification", "letter") for name in (PASS, CONDITIONAL, FAIL)
}
BUILT_KEYS |= {f"severity_{name}" for name in AUTOMATIC_FAIL["severity"]["enum"]}
BUILT_KEYS |= {f"fail_type_{name}" for name in AUTOMATIC_FAIL["type"]["enum"]}
BUILT_KEYS |= {f"case_type_{name}" for name in CASE_TYPES}
# A case statement's sections but its case id (the page's heading): shared/spec/families.md.
BUILT_KEYS |= {f"statement_section_{name}" for name in STATEMENT_SECTIONS if name != "case_id"}
# A row's annotation (lifecycle.md): the schema's labels.
BUILT_KEYS |= {
    f"annotation_{label}"
    for label in schema("annotations.schema.json")["definitions"]["annotation"]["properties"][
        "label"
    ]["enum"]
}


# The families' names (contracts/vocabulary.py), which the pages print beside a family's
# code: the vocabulary's words, not labels, so data to these tests.
FAMILY_NAME_TEXTS = "|".join(
    re.escape(name) for names in FAMILY_NAMES.values() for name in names.values()
)


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_label_has_every_language_with_the_same_placeholders():
    labels = all_labels()
    assert LANGUAGES == (ENGLISH, SPANISH)
    for key, texts in labels.items():
        assert set(texts) == set(LANGUAGES), key
        for code in LANGUAGES:
            assert isinstance(texts[code], str) and texts[code].strip(), (key, code)
            assert placeholders(texts[code]) == placeholders(texts[ENGLISH]), (key, code)
    assert labels["decimal_mark"] == {ENGLISH: ".", SPANISH: ","}
    assert {code: labels["lang"][code] for code in LANGUAGES} == {code: code for code in LANGUAGES}
    assert load_labels(SPANISH)["decimal_mark"] == ","


def test_the_labels_file_is_sorted_by_key():
    """One file, keys in order (documentation keys, _*, first): a new label has one place."""
    keys = list(json.loads(LABELS_FILE.read_text("utf-8")))
    assert keys == sorted(keys)


def test_every_key_the_code_asks_for_is_in_the_files():
    asked, named = set(BUILT_KEYS), set(BUILT_KEYS)
    for path in CODE:
        source = path.read_text("utf-8")
        # t("key") in code and templates, t.text("key") in templates; not
        # a built key's prefix (t("criterion_" ~ name) in a template).
        asked |= set(re.findall(r"""\b(?:t|t\.text)\(\s*["']([a-z0-9_]+)["'](?!\s*~)""", source))
        asked |= set(re.findall(r"""\.labels\[["']([a-z0-9_]+)["']\]""", source))
        named |= set(re.findall(r"""["']([a-z0-9_]+)["']""", source))
    labels = load_labels(ENGLISH)
    assert asked - set(labels) == set()
    # And every label is named somewhere in the code (nothing stale in the files).
    assert set(labels) - named - {"lang", "decimal_mark"} == set()


def test_numbers_get_the_decimal_comma_and_names_keep_their_dots():
    spanish = language(SPANISH)
    assert spanish.number("0.705") == "0,705"
    assert spanish.number("95 % CI 0.55–0.67") == "95 % CI 0,55–0,67"
    assert spanish.number("12") == "12"
    for name in ("v1.0", "ro-expert-rules-3.2.0", "2026-05-16T12:43:22Z", "claude-3.5"):
        assert spanish.number(name) == name
    assert language(ENGLISH).number("0.705") == "0.705"


class VisibleText(HTMLParser):
    """The text a reader sees: no tags, attributes, style or script."""

    def __init__(self):
        super().__init__()
        self.parts, self.skip = [], 0

    def handle_starttag(self, tag, attrs):
        self.skip += tag in ("style", "script")

    def handle_endtag(self, tag):
        self.skip -= tag in ("style", "script")

    def handle_data(self, data):
        if not self.skip:
            self.parts.append(data)


def keys_as_labels(code: str = SPANISH) -> Language:
    """A language whose every label is its own key in brackets (placeholders kept); its
    code: "es", an edition that does not print the answers, or "en", the one that does."""
    english = load_labels(ENGLISH)
    labels = {}
    for key, value in english.items():
        names = sorted(placeholders(value))
        labels[key] = f"⟦{key}⟧" + "".join(f"{{{name}}}⟦⟧" for name in names)
    labels |= {"lang": code, "decimal_mark": ".", "page_file": "x.html"}
    return Language(labels)


@pytest.mark.parametrize("with_operational", [True, False])
def test_the_page_holds_no_text_of_its_own(with_operational):
    """Rendered with labels replaced by their keys, what a reader sees is keys, data and
    numbers only: every label, note and caption comes from the language file."""
    row = {
        "subject_id": "zzsubject",
        "subject_version": "zzversion",
        "q_final": "0.5",
        "pass_rate": "0.5",
        "mean_clipped_score": "9.0",
        "brier": "0.1",
        "ece": "0.1",
        "n_runs": "2",
        "n_pass": "1",
        "n_conditional": "1",
        "n_fail": "0",
        "n_critical_fails": "0",
        "leaderboard_status": "Eligible",
    }
    disqualified = {
        **row,
        "subject_version": "zzother",
        "n_critical_fails": "1",
        "leaderboard_status": "Disqualified",
    }
    family = {
        "subject_id": "zzsubject",
        "n_runs": "2",
        "n_pass": "1",
        "n_conditional": "1",
        "n_fail": "0",
        "pass_rate_family": "0.5",
        "mean_clipped_score_family": "9.0",
    }
    interval = {"ci_low": "0.4", "ci_high": "0.6"}
    operational = [
        {
            "subject_id": "zzsubject",
            "subject_version": "zzversion",
            "n_runs": "2",
            "mean_input_tokens": "10.0",
            "mean_output_tokens": "5.0",
            "output_to_input_ratio": "0.500",
            "median_latency_s": "1.00",
            "p95_latency_s": "1.95",
            "price_per_input_token_usd": "0.0000010000",
            "price_per_output_token_usd": "",
        },
        {
            **row,
            "subject_version": "zzunranked",
            "n_runs": "1",
            "mean_input_tokens": "1.0",
            "mean_output_tokens": "1.0",
            "output_to_input_ratio": "1.000",
            "median_latency_s": "1.00",
            "p95_latency_s": "1.00",
            "price_per_input_token_usd": "",
            "price_per_output_token_usd": "",
        },
    ]
    view = leaderboard_view(
        benchmark_version="v1.0",
        alpha=0.5,
        last_update="2026-05-16T12:43:22Z",
        subjects=[row, disqualified],
        uncertainty={
            ("zzsubject", "zzversion", "rank"): {"ci_low": "1", "ci_high": "2"},
            ("zzsubject", "zzversion", "q_final"): interval,
            ("zzsubject", "zzother", "critical_fail_rate"): interval,
        },
        tracks={("zzsubject", "zzversion"): "zztrack", ("zzsubject", "zzother"): "zztrack"},
        families=[
            {**family, "subject_version": v, "family": "FOUL"} for v in ("zzversion", "zzother")
        ],
        registry={
            "zzsubject": {
                "kind": "zzkind",
                "provider": "zzprovider",
                "description": "zzdescription",
            }
        },
        critical_fails=[
            {
                "subject_id": "zzsubject",
                "subject_version": "zzother",
                "case_id": "zzcase",
                "run_id": "zzrun",
                "reviewer_id": "zzreviewer",
                "fail_type": "zztype",
                "response_field": field,
                "quote": quote,
                "match": match,
                "reviewer_justification": "zzjustification",
            }
            for field, quote, match in [
                ("zzfield", "zzquote", "exact"),
                ("zzfield", "zzquote", "close"),
                ("", "", "none"),
            ]
        ],
        operational=operational if with_operational else None,
    )
    page = render_page(
        view,
        keys_as_labels(),
        diagrams={
            key: ("<svg></svg>", [(8, 2, 0.75, 0.5)])
            for key in [("zzsubject", "zzversion"), ("zzsubject", "zzother")]
        },
        snapshots=["2026-05-01"],
    )
    parser = VisibleText()
    parser.feed(page)
    seen = " ".join(parser.parts)
    assert "⟦col_rank⟧" in seen and "⟦heading⟧" in seen
    assert "⟦disqualified_heading⟧" in seen and "⟦match_close⟧" in seen
    assert re.search(r"⟦reviewer_words⟧\s+zzjustification", seen)
    assert ("⟦operational_heading⟧" in seen) is with_operational
    # A family's name is the vocabulary's, not a label: printed beside its code.
    assert re.search(r"FOUL\s+Ensuciamiento orgánico / biológico", seen)
    data = rf"zz\w+|FOUL|{FAMILY_NAME_TEXTS}|v1\.0|2026-05-\d\dT\d\d:\d\d:\d\dZ|2026-05-01"
    leftover = re.sub(rf"⟦\w*⟧|{data}|\d+(?:\.\d+)?", " ", seen)
    assert not re.search(r"[A-Za-z]", leftover), leftover


def seen_text(page: str) -> str:
    parser = VisibleText()
    parser.feed(page)
    return " ".join(parser.parts)


@pytest.mark.parametrize("code", [ENGLISH, SPANISH])
def test_the_site_pages_hold_no_text_of_their_own(code):
    """The same for the site's three kinds of page: a version page, a case page and the
    index (whose ranking and notes are the leaderboard page's, tested above), in each
    edition."""
    t = keys_as_labels(code)
    summary = ["atlas", "zzversion", 1, 0, 0, 1, 1, 0, "0.0", "10.0", "0.04", "0.2", "0.5",
               "0.4", "Disqualified"]  # fmt: skip
    version, matrix_row, case = site_pages("zzversion", "zztext one two three", summary, t)
    view = leaderboard_view(
        benchmark_version="v1.0",
        alpha=0.5,
        last_update="2026-05-16T12:43:22Z",
        subjects=[],
        uncertainty={},
        tracks={},
        registry={},
        families=[],
        critical_fails=[],
    )
    index = render_index(
        view, t, case_ids=["RO-FOUL-001"], matrix_rows=[matrix_row], diagrams={}, changes_section=""
    )
    seen = {name: seen_text(page) for name, page in [("version", version), ("case", case),
                                                     ("index", index)]}  # fmt: skip
    assert "⟦criterion_short_main_hypothesis⟧" in seen["case"]
    assert "⟦letter_critical⟧" in seen["index"] and "⟦site_run_fail⟧" in seen["version"]
    assert "⟦other_language_name⟧" in seen["version"]
    # Every edition prints the answers (the model's own words, as written).
    assert "⟦site_why_plausible⟧" in seen["version"]
    assert "⟦site_version_note⟧" in seen["version"]
    assert "⟦site_full_answer⟧" in seen["case"]
    assert "⟦site_case_note⟧" in seen["case"]
    # The case's family named by the vocabulary, in the edition's language.
    assert FAMILY_NAMES["FOUL"][code] in seen["case"]
    data = (
        r"zz\w+|atlas|one two three|now|Shock it:|RO-FOUL-001|run-2026-05-12-001|R01|v1\.0|classic"
        rf"|FOUL|{FAMILY_NAME_TEXTS}|recommended_action|20\d\d-\d\d-\d\dT\d\d:\d\d:\d\dZ"
    )
    for name, text in seen.items():
        leftover = re.sub(rf"⟦\w*⟧|{data}|\d+(?:\.\d+)?", " ", text)
        assert not re.search(r"[A-Za-z]", leftover), (name, leftover)


def test_one_glossary_every_spanish_text_uses_its_terms():
    # labels.json's _glossary: one term per concept; no Spanish label, no Spanish report
    # template and no English one uses a variant the glossary rejects.
    glossary = json.loads(LABELS_FILE.read_text("utf-8"))["_glossary"]
    terms = {name: entry for name, entry in glossary.items() if not name.startswith("_")}
    assert {"safety gate", "scored run", "confidence bin", "p-value", "not separable"} <= set(terms)
    texts = {
        "es": [
            *(text for text in load_labels(SPANISH).values()),
            (REPO / "system/report/findings.es.md.j2").read_text("utf-8"),
        ],
        "en": [
            *(text for text in load_labels(ENGLISH).values()),
            (REPO / "system/report/findings.en.md.j2").read_text("utf-8"),
        ],
    }
    found = [
        (name, variant)
        for name, entry in terms.items()
        for code in ("es", "en")
        for variant in entry.get(f"avoid_{code}", [])
        for text in texts[code]
        if variant.casefold() in text.casefold()
    ]
    assert found == []
    # The glossary's own Spanish terms are in use.
    spanish = " ".join(texts["es"]).casefold()
    for name in ("safety gate", "scored run", "p-value"):
        assert terms[name]["es"].casefold() in spanish, name
