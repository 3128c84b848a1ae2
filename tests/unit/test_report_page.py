"""site/report_page.py: the site's report page from the report's Markdown — raw
HTML never rendered, the editions' links between each other's pages, tables wrapped,
and written through the PageWriter only when the Markdown changes."""

from findings_facts import demo_facts

from ro_metrics.rendering.translations import language
from ro_metrics.report.report_templates import render_report
from ro_metrics.site.report_page import render_report_page, report_html, write_report_pages
from ro_metrics.site.site_files import PageWriter
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


def test_pages_are_written_only_when_the_markdown_changes(tmp_path):
    results = tmp_path / "results"
    results.mkdir()
    (results / "findings.md").write_text("# Report\n\n[es](findings.es.md)\n", "utf-8")
    (results / "findings.es.md").write_text("# Informe\n", "utf-8")
    paths = [results / "findings.md", results / "findings.es.md"]
    manifest = tmp_path / "site.pages.json"

    def run():
        writer = PageWriter(tmp_path / "site", manifest, "code")
        write_report_pages(writer, "code", paths, "v1.0")
        writer.save(manifest)
        return writer.written

    assert run() == ["report.html", "es/report.html"]
    assert run() == []
    (results / "findings.es.md").write_text("# Informe nuevo\n", "utf-8")
    assert run() == ["es/report.html"]
    assert "Informe nuevo" in (tmp_path / "site/es/report.html").read_text("utf-8")
