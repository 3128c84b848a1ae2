"""report/report_templates.py and the default findings report (system/report/):
the filters' exact rounding in both languages, errors with file and line, and the
default templates on the facts a report must survive (tests/findings_facts.py)."""

import re

import pytest
from findings_facts import demo_facts, with_more_versions, without_critical_fails, without_telemetry
from markdown_it import MarkdownIt

from ro_metrics.rendering.translations import language
from ro_metrics.report.claims_lint import lint_template
from ro_metrics.report.report_templates import (
    ReportError,
    ReportFilters,
    render_report,
    version_names,
)
from workflow_runs import REPO

DEFAULTS = {code: REPO / f"system/report/findings.{code}.md.j2" for code in ("en", "es")}
GFM = MarkdownIt("commonmark", {"html": False}).enable("table")
EN, ES = ReportFilters(language("en")), ReportFilters(language("es"))


def test_rounding_is_half_even_on_the_exact_value_never_the_float():
    # 2.675 as a float is 2.67499999…; its published text 2.675 is a tie → even 2.68.
    assert EN.number(2.675, 2) == "2.68"
    assert EN.number(2.665, 2) == "2.66"  # tie → even 6
    # 1/8 = 12.5 % → 12 (even) with no decimal; 3/8 = 37.5 % → 38.
    assert EN.pct({"num": 1, "den": 8, "value": 0.125}, 0) == "12%"
    assert EN.pct({"num": 3, "den": 8, "value": 0.375}, 0) == "38%"
    # 11/48 = 0.229166… → 22.9 %; the "value" field (0.2292) is not what is rounded:
    # 0.2292 would give 22.92 → 22.9 too, so check 2 decimals: 22.916… → 22.92.
    assert EN.pct({"num": 11, "den": 48, "value": 0.2292}, 2) == "22.92%"


def test_each_filter_in_both_languages():
    half = {"num": 16, "den": 5, "value": 3.2}
    assert (EN.pct(0.1234), ES.pct(0.1234)) == ("12.3%", "12,3 %")
    assert (EN.number("0.705", 1), ES.number("0.705", 1)) == ("0.7", "0,7")
    assert (EN.n_of_m(11, 48), ES.n_of_m(11, 48)) == ("11 of 48", "11 de 48")
    assert (EN.times(half), ES.times(half)) == ("3.2×", "3,2×")
    assert [EN.ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "101st",
        "111th",
    ]  # fmt: skip
    assert [ES.ordinal(n) for n in (1, 2, 11)] == ["1.º", "2.º", "11.º"]
    assert (EN.versions([]), ES.versions([])) == ("no version", "ninguna versión")
    assert EN.versions(["a"]) == "a"
    assert (EN.versions(["a", "b", "c"]), ES.versions(["a", "b", "c"])) == (
        "a, b and c",
        "a, b y c",
    )
    assert EN.versions(["x|y", "*z*"]) == r"x\|y and \*z\*"  # names are data: escaped
    cost = {"num": 123, "den": 10000, "value": 0.0123}
    assert (EN.money(cost), ES.money(cost)) == ("$0.0123", "0,0123 US$")


def render_text(tmp_path, text, facts=None, code="en"):
    path = tmp_path / "t.md.j2"
    path.write_text(text, "utf-8")
    return render_report(path, demo_facts() if facts is None else facts, code)


def test_a_typo_in_a_fact_name_fails_with_file_and_line(tmp_path):
    text = "# Report\n\nVersions: {{ facts.n_versions }}\nCases: {{ facts.n_casess }}\n"
    with pytest.raises(ReportError) as error:
        render_text(tmp_path, text)
    assert str(error.value) == f"{tmp_path / 't.md.j2'}:4: unknown fact facts.n_casess"
    # Deep in a loop, the same: the line of the placeholder, the path of the fact.
    text = "a\n{% for e in facts.safety.events %}\n{{ e.quotee }}\n{% endfor %}\n"
    with pytest.raises(
        ReportError, match=r"t\.md\.j2:3: unknown fact facts\.safety\.events\[0\]\.quotee$"
    ):
        render_text(tmp_path, text)


def test_a_syntax_error_and_a_wrong_value_name_file_and_line(tmp_path):
    with pytest.raises(ReportError, match=r"t\.md\.j2:2: expected token 'name'"):
        render_text(tmp_path, "a\n{{ facts.n_cases| }}\nb\n")
    # A decimal printed without a filter.
    with pytest.raises(ReportError, match=r"t\.md\.j2:1: the number 0\.0561 printed without"):
        render_text(tmp_path, "{{ facts.calibration.versions['borealis-xl-2026-04-02'].brier }}")


@pytest.mark.parametrize(("code", "mark"), [("en", "n/a"), ("es", "n/d")])
def test_a_null_fact_given_to_a_number_filter_is_written_undefined(tmp_path, code, mark):
    # atlas-7b-2026-03-q4 declares no price: its cost per case is null in the facts.
    cost = "facts.cost.versions['atlas-7b-2026-03-q4'].cost_per_case_usd"
    text = "".join(f"{{{{ {cost}|{name} }}}};" for name in ("money", "number", "pct", "times"))
    path = tmp_path / "t.md.j2"
    path.write_text(text + "{{ none|ordinal }}\n", "utf-8")
    assert render_report(path, demo_facts(), code) == f"{mark};{mark};{mark};{mark};{mark}\n"


def test_facts_are_read_by_key_and_data_texts_escaped(tmp_path):
    facts = demo_facts() | {"items": {"keys": "<b>[x](y)</b>"}}
    assert render_text(tmp_path, "{{ facts['items'].keys }}", facts) == r"\<b\>\[x\](y)\</b\>"


@pytest.mark.parametrize("code", ["en", "es"])
def test_the_default_report_quotes_every_critical_fail_and_never_the_gold(code):
    facts = demo_facts()
    report = render_report(DEFAULTS[code], facts, code)
    trigger = {
        "en": {"recommended_action": "recommended action", "not_located": "not located"},
        "es": {"recommended_action": "acción recomendada", "not_located": "no localizado"},
    }[code]
    for event in facts["safety"]["events"]:
        field = "recommended\\_action" if event["response_field"] else "—"
        row = (
            f"| {event['subject_version']} | {event['case_id']} | {event['run_id']} | "
            f"{trigger[event['trigger']]} | {field} | "
        )
        assert row in report
    # The third quote holds a cell break and emphasis: escaped, one cell; the match value
    # in the edition's words, then the reviewer who flagged it.
    close, none = {"en": ("≈ close", "no quote"), "es": ("≈ aproximada", "sin cita")}[code]
    assert (
        rf"Raise the recovery to 85 % \| and \*skip\* the antiscalant | {close} | R01 |" in report
    )
    # No quote of the response matches the fourth: the reviewer's words stand in for it
    # (the scoring's public justification, as in critical_fails.csv; never its reference).
    assert f"The reviewer's words on RO-SCAL-004 | {none} | R01 |" in report
    other = "findings.es.md" if code == "en" else "findings.md"
    assert f"]({other})" in report


def test_the_default_english_summary_says_what_the_facts_say():
    report = render_report(DEFAULTS["en"], demo_facts(), "en")
    # By hand from tests/findings_facts.py: FOUL is the hardest family, 8 passes of 36
    # runs (4+4+0+0+0), 8/36 = 22.2 %; cheapest borealis-xl-2026-04-02 at $0.019268,
    # dearest borealis-xl-2026-01-15 at $0.0307: 0.0307/0.019268 = 1.593… → 1.6×.
    assert (
        "- **Hardest family.** FOUL (Organic / biological fouling): 22.2% of\n"
        "  its runs pass over all versions (8 of 36)." in report
    )
    assert "in\n  1 of 5 versions:\n" in report
    assert "  Disqualified: borealis-xl-2026-01-15.\n" in report
    assert "1.6× as much per case" in report
    assert (
        "- borealis-xl-2026-01-15 would rank 4th (bootstrap interval\n"
        "  3rd to 5th), Q_final 0.3912." in report
    )
    assert "- cirrus-reasoner-r1 and borealis-xl-2026-04-02 (Holm-adjusted p = 0.60)\n" in report
    # The Spanish edition: the same numbers with a decimal comma.
    spanish = render_report(DEFAULTS["es"], demo_facts(), "es")
    assert "aprueba el 22,2 %" in spanish and "cuesta 1,6×" in spanish


VARIANTS = {
    "demo": demo_facts(),
    "more versions": with_more_versions(demo_facts(), 4),
    "no critical fail": without_critical_fails(demo_facts()),
    "no telemetry": without_telemetry(demo_facts()),
    "all three": without_telemetry(without_critical_fails(with_more_versions(demo_facts(), 4))),
}


def tables(markdown: str) -> list[tuple[int, list[int]]]:
    """Each table as markdown-it reads it: (its header's cells, each body row's cells)."""
    found = []
    tokens = GFM.parse(markdown)
    for index, token in enumerate(tokens):
        if token.type == "table_open":
            end = next(i for i in range(index, len(tokens)) if tokens[i].type == "table_close")
            rows, cells = [], 0
            for inner in tokens[index:end]:
                if inner.type == "tr_close":
                    rows.append(cells)
                    cells = 0
                elif inner.type in ("th_open", "td_open"):
                    cells += 1
            found.append((rows[0], rows[1:]))
    return found


@pytest.mark.parametrize("code", ["en", "es"])
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_the_default_report_survives_the_data_changing(code, variant):
    facts = VARIANTS[variant]
    report = render_report(DEFAULTS[code], facts, code)
    assert report == render_report(DEFAULTS[code], facts, code)  # deterministic
    # Every table is whole: each row has its header's cells, and no table is empty.
    for header, rows in tables(report):
        assert rows and all(cells == header for cells in rows)
    assert "\n\n\n" not in report
    n_tables = len(tables(report))
    gate, telemetry = facts["safety"]["events"], facts["cost"]["has_telemetry"]
    # By hand: families, calibration and neighbours always; the events' table with
    # events; cost with telemetry; provider, track, access type (weights: not declared).
    assert n_tables == 3 + bool(gate) + telemetry + 3
    sentence = {
        "en": "No counted run has a critical fail.",
        "es": "Ninguna ejecución contada tiene un fallo crítico.",
    }[code]
    assert (sentence in report) is (not gate)
    no_cost = {"en": "The corpus has no telemetry", "es": "El corpus no trae telemetría"}[code]
    assert (no_cost in report) is (not telemetry)
    if variant == "more versions":
        for name in facts["safety"]["eligible"]["versions"]:
            assert name in report


@pytest.mark.parametrize("code", ["en", "es"])
def test_the_default_templates_type_no_number(code):
    assert lint_template(DEFAULTS[code], version_names(demo_facts())) == []


def test_no_decimal_point_in_the_spanish_edition():
    facts = demo_facts()
    spanish = render_report(DEFAULTS["es"], facts, "es")
    for event in facts["safety"]["events"]:  # the model's words, as written
        spanish = spanish.replace(event["quote"], "")
    # Outside names and ids (a letter before it, or a digest), no digit.digit.
    prose = re.sub(r"[\w-]*[A-Za-z][\w.-]*|sha256:\w+", " ", spanish)
    assert not re.search(r"\d\.\d", prose)
