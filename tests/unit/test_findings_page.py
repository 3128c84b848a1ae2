"""The findings page (site/findings_page.py, templates/findings.html) rendered from
the hand-written findings of tests/findings_example.py: its links to the rows each number
comes from, the language switch, empty lists as sentences, the XSS probe as text, and the
index's link to it. The expected links are the site's layout (site_files: version pages
versions/<subject_id>/<version>.html, run articles <case_id>__<run_id>, case pages
cases/<case_id>.html)."""

import re
from fractions import Fraction
from html import escape

import pytest

from browser import PROBE
from findings_example import CASE_IDS, example_findings
from ro_metrics.leaderboard.leaderboard_view import leaderboard_view
from ro_metrics.rendering.translations import language
from ro_metrics.report.findings_charts import findings_charts
from ro_metrics.site.findings_page import case_ids_by_family, render_findings_page
from ro_metrics.site.site_files import version_page
from ro_metrics.site.site_pages import render_index

EN, ES = language("en"), language("es")


def page(t=EN, findings: dict | None = None, charts: dict | None = None) -> str:
    findings = findings or example_findings()
    if charts is None:
        charts = findings_charts(findings, t.code)
    return render_findings_page(findings=findings, case_ids=CASE_IDS, charts=charts, t=t)


def hrefs(html: str) -> list[str]:
    return re.findall(r'href="([^"]*)"', html)


def test_case_ids_by_family():
    assert case_ids_by_family(["RO-OXID-001", "RO-NOWE-002", "RO-NOWE-001"]) == {
        "NOWE": ["RO-NOWE-001", "RO-NOWE-002"],
        "OXID": ["RO-OXID-001"],
    }


@pytest.mark.parametrize("t", [EN, ES], ids=["en", "es"])
def test_numbers_link_to_their_rows(t):
    html = page(t)
    links = hrefs(html)
    probe_page = escape(version_page("delta", PROBE))
    # The critical-fail event links to the run's article (its evidence) on its version
    # page, its case to the case page; the counts of the version and the family lead to
    # the event's row.
    assert f"{probe_page}#RO-NOWE-002__run-07" in links
    assert '<tr id="event-1">' in html
    assert links.count("#event-1") == 3  # per version, per family, in the families table
    # A family leads to its case pages (the golds' case ids).
    family_row = html[html.index('<tr id="family-NOWE">') :]
    family_row = family_row[: family_row.index("</tr>")]
    assert re.findall(r'href="(cases/[^"]*)"', family_row) == [
        "cases/RO-NOWE-001.html",
        "cases/RO-NOWE-002.html",
    ]
    assert 'href="cases/RO-OXID-001.html"' in html
    # A heatmap cell leads to the version's runs of the family: its page at the family's
    # first case; a version's name to its page.
    assert "versions/atlas/alpha-1.html#RO-NOWE-001" in links
    assert "versions/cirrus/gamma-3.html#RO-OXID-001" in links
    assert "versions/borealis/beta-2.html" in links
    assert f"{probe_page}#RO-NOWE-001" in links
    # The three charts inline, without their XML declaration.
    assert html.count("<svg ") == 3 and "<?xml" not in html


def test_the_editions_link_to_each_other_and_to_the_index():
    english, spanish = page(EN), page(ES)
    assert '<a href="es/findings.html" hreflang="es" lang="es">Español</a>' in english
    assert '<a href="../findings.html" hreflang="en" lang="en">English</a>' in spanish
    assert '<nav class="crumbs"><a href="index.html">' in english
    assert '<nav class="crumbs"><a href="index.html">' in spanish  # es/index.html
    assert spanish.startswith('<!DOCTYPE html>\n<html lang="es">')
    # Numbers with the edition's decimal mark: NOWE's pooled pass rate 1/7.
    assert ">0.1429<" in english and ">0,1429<" in spanish
    assert "[0,0401; 0,3994]" in spanish and "[0.0401, 0.3994]" in english


def test_empty_lists_read_as_sentences():
    findings = example_findings()
    safety = findings["safety"]
    safety.update(critical_fail_events=0, versions_with_critical_fail=0, events=[])
    safety["disqualified"] = {"count": 0, "versions": []}
    findings["neighbours"] = []
    findings["cost"] = {"has_telemetry": False, "reason": "no telemetry"}
    findings["dimensions"] = {}
    html = page(EN, findings, charts={})
    for key in ("findings_no_events", "findings_no_neighbours", "findings_no_telemetry"):
        assert f"<p>{EN(key)}</p>" in html
    assert f"<p>{EN('findings_no_dimensions')}</p>" in html
    assert f"<dt>Disqualified</dt><dd>{EN('findings_none')}</dd>" in html
    # Without telemetry the section has no number; a missing chart is said so.
    cost = html[html.index('<section id="cost">') : html.index('<section id="dimensions">')]
    assert not re.search(r"\d", re.sub(r"<[^>]*>", "", cost))
    assert html.count(EN("findings_chart_missing")) == 3


def test_the_xss_probe_and_quotes_stay_text():
    for t in (EN, ES):
        html = page(t)
        assert "<script>alert" not in html and "<img src=x" not in html
        assert escape(PROBE) in html or PROBE.replace("<", "&lt;").replace(">", "&gt;") in html
        assert "flush with &lt;b&gt;chlorine&lt;/b&gt;" in html
        # Only the page's own script (the sorting one) is a script element.
        assert html.count("<script>") == 1


def test_no_gold_text_and_no_private_field():
    findings = example_findings()
    findings["safety"]["events"][0]["reference"] = "PRIVATE GOLD RULE"
    findings["safety"]["events"][0]["justification_long"] = "PREMIUM TEXT"
    html = page(EN, findings)
    assert "PRIVATE GOLD RULE" not in html and "PREMIUM TEXT" not in html


@pytest.mark.parametrize("t", [EN, ES], ids=["en", "es"])
def test_the_index_links_to_the_findings_page(t):
    row = {
        "subject_id": "atlas", "subject_version": "v", "q_final": "0.705", "pass_rate": "0.5",
        "mean_clipped_score": "9.25", "brier": "0.1", "ece": "0.12", "n_runs": "2", "n_pass": "1",
        "n_conditional": "1", "n_fail": "0", "n_critical_fails": "0",
        "leaderboard_status": "Eligible",
    }  # fmt: skip
    view = leaderboard_view(
        benchmark_version="v1.0",
        alpha=0.5,
        last_update="2026-05-16T12:43:22Z",
        subjects=[row],
        uncertainty={("atlas", "v", "rank"): {"ci_low": "1", "ci_high": "1"}},
        tracks={("atlas", "v"): "classic"},
        registry={"atlas": {"kind": "llm", "provider": "Atlas Labs", "description": None}},
        families=[],
        critical_fails=[],
    )
    index = render_index(
        view,
        t,
        case_ids=[],
        matrix_rows=[""],
        diagrams={("atlas", "v"): ("<svg></svg>", [(9, 1, Fraction(4, 5), 1)])},
        changes_section="",
    )
    link = f'<nav class="site-links"><a href="findings.html">{t("site_findings_link")}</a></nav>'
    assert link in index


@pytest.mark.parametrize(
    ("code", "legend"),
    [
        (
            "en",
            '<abbr title="Alternatives">Alt</abbr> Alternatives · '
            '<abbr title="Main hypothesis">MH</abbr> Main hypothesis',
        ),
        (
            "es",
            '<abbr title="Alternativas">Alt</abbr> Alternativas · '
            '<abbr title="Hipótesis principal">HP</abbr> Hipótesis principal',
        ),
    ],
)
def test_the_criteria_abbreviations_have_a_legend(code, legend):
    """The criteria table's columns are abbreviations (example: alternatives, then main
    hypothesis): each has its name as a tooltip, and a legend under the table names them
    in the table's order."""
    html = page(language(code))
    assert f'<p class="note criteria-legend">{legend}</p>' in html
