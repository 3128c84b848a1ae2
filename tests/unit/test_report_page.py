"""site/report_page.py: the site's report page from the report's Markdown — raw
HTML never rendered, the editions' links between each other's pages, tables wrapped,
each edition from its own published Markdown file."""

from findings_facts import demo_facts

from ro_metrics.rendering.translations import language
from ro_metrics.report.report_templates import render_report
from ro_metrics.site.report_page import REPORT_FILES, render_report_page, report_html
from workflow_runs import REPO


def test_raw_html_is_text_and_the_editions_link_to_each_others_page():
    markdown = "[Versión en español](findings.es.md)\n\n<script>alert(1)</script>\n"
    html = report_html(markdown, "en")
    assert '<a href="es/report.html">Versión en español</a>' in html
    assert "<script>" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert '<a href="../report.html">' in report_html("[English](findings.md)", "es")


def test_a_quote_with_markup_stays_text_on_the_page():
    facts = demo_facts()
    facts["safety"]["events"][0]["quote"] = '<img src=x onerror="alert(1)"> [a](javascript:x)'
    markdown = render_report(REPO / "system/report/findings.en.md.j2", facts, "en")
    page = render_report_page(markdown, "v1.0", language("en"))
    assert "<img" not in page and 'href="javascript' not in page
    assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt; [a](javascript:x)" in page
    assert '<div class="table-wrap"><table>' in page


def test_each_edition_is_rendered_from_its_own_published_markdown():
    assert REPORT_FILES == {"en": "findings.md", "es": "findings.es.md"}
    page = render_report_page("# Informe\n\n[English](findings.md)\n", "v1.0", language("es"))
    assert page.startswith('<!DOCTYPE html>\n<html lang="es">')
    assert "<h1>Informe</h1>" in page and '<a href="../report.html">English</a>' in page
