"""The families' names: the taxonomy's words (shared/spec/families.md) in one home,
contracts/vocabulary.py, in every language of the editions; a code the vocabulary does
not know is shown as its code wherever a family is named (vocabulary, pages, report);
the committed demo results name every family with the taxonomy's words and no others.
The site's pages: tests/workflow/test_site.py."""

import pytest

from ro_metrics.contracts.vocabulary import FAMILIES, FAMILY_NAMES, family_name
from ro_metrics.rendering.page_templates import Labels, macros
from ro_metrics.rendering.translations import ENGLISH, LANGUAGES, SPANISH, language
from ro_metrics.report.report_templates import report_environment
from taxonomy import ORACLE, invented_names, misnamed_families, named_families, spec_table
from workflow_runs import REPO

SPEC = REPO.parent / "shared" / "spec" / "families.md"
UNKNOWN = "ZZZZ"  # a family of a later version of the taxonomy


def test_the_vocabulary_names_every_family_in_every_language_with_the_taxonomys_words():
    assert tuple(FAMILY_NAMES) == FAMILIES
    assert FAMILY_NAMES == ORACLE
    for code in FAMILIES:
        assert set(FAMILY_NAMES[code]) == set(LANGUAGES), code
    assert family_name("NOWE", ENGLISH) == "No-wetting / abnormal startup"
    assert family_name("NOWE", SPANISH) == "Falta de mojado / arranque anómalo"


@pytest.mark.skipif(not SPEC.is_file(), reason="shared/spec absent")
def test_the_oracle_is_the_specs_table():
    assert spec_table(SPEC) == ORACLE


def test_an_unknown_family_code_is_shown_as_its_code():
    for code in LANGUAGES:
        assert family_name(UNKNOWN, code) == UNKNOWN
    # On a page (the leaderboard's and the findings page's family cells): the code
    # alone, no name beside it; a known one with the vocabulary's name.
    components = macros("components.html")
    spanish = Labels(language(SPANISH))
    assert components.family_label(UNKNOWN, spanish) == UNKNOWN
    assert components.family_label("MECH", spanish) == (
        'MECH <span class="muted">Daño mecánico / integridad</span>'
    )
    # In the findings report (its `family` filter).
    for code, known in [
        (ENGLISH, "NOWE (No-wetting / abnormal startup)"),
        (SPANISH, "NOWE (Falta de mojado / arranque anómalo)"),
    ]:
        environment = report_environment(REPO / "system/report", language(code))
        template = environment.from_string("{{ 'NOWE'|family }}; {{ unknown|family }}")
        assert template.render(unknown=UNKNOWN) == f"{known}; {UNKNOWN}"


def test_the_oracle_finds_a_wrong_name():
    """The check below can fail: an old label and an old report phrase are found."""
    page = (
        'NOWE <span class="muted">No-fault / other</span> · '
        'FOUL <span class="muted">Organic / biological fouling</span>'
    )
    assert misnamed_families(page, ENGLISH) == ["NOWE named 'No-fault / other'"]
    report = "| NOWE (normal operation, no fault) | RO-FOUL-001 (x) |"
    assert named_families(report) == [("NOWE", "normal operation, no fault")]
    assert invented_names(report) == ["no fault", "normal operation"]


# The committed demo results that name families, each with its language.
PUBLISHED = {
    "leaderboard.html": ENGLISH,
    "leaderboard.es.html": SPANISH,
    "findings.md": ENGLISH,
    "findings.es.md": SPANISH,
}


@pytest.mark.parametrize("name", sorted(PUBLISHED))
def test_the_published_pages_and_markdown_name_families_with_the_taxonomys_words(name):
    text = (REPO / "results" / name).read_text("utf-8")
    code = PUBLISHED[name]
    # Every family is named (so the check has something to check), each with its name.
    assert {family for family, _ in named_families(text)} == set(FAMILIES)
    assert misnamed_families(text, code) == []
    assert invented_names(text) == []


def test_the_other_published_markdown_pages_and_charts_invent_no_family_name():
    results = REPO / "results"
    names = {
        path.relative_to(results).as_posix()
        for path in results.rglob("*")
        if path.suffix in (".md", ".html", ".svg")
    }
    assert set(PUBLISHED) <= names and "charts/family_heatmap.es.svg" in names
    for other in sorted(names - set(PUBLISHED)):
        text = (results / other).read_text("utf-8")
        code = SPANISH if ".es." in other else ENGLISH
        assert misnamed_families(text, code) == [], other
        assert invented_names(text) == [], other
