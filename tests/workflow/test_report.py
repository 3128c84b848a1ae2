"""`snakemake --report` on the demo corpus: the report holds every published result.

What is proved: after a run on the demo corpus, `snakemake --report report.html`
exits 0 and writes a report that embeds (as base64 data URIs in its `results`
table) exactly the published files the registry gives a caption and one reliability
diagram per
subject version of leaderboard.csv (`<subject_id>__<subject_version>.svg`), each
byte-identical to the file the workflow wrote, with its MIME type, its category
and its caption: the first sentence of each caption in workflow/report/*.rst (the
Jinja template of the diagrams rendered with the diagram's name). The report, a
JavaScript application, also renders in headless Chromium and shows the workflow's
result categories (skipped when /usr/bin/chromium is missing, except on CI).
"""

import base64
import csv
import html
import json
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from browser import chromium, require_chromium
from ro_metrics.contracts.published import published_files
from workflow_runs import REPO, run_workflow

CAPTIONS = REPO / "workflow" / "report"
# A caption names its file first, as an rst literal: ``coverage.csv``. The diagrams
# share one Jinja template, rendered with each diagram's name.
NAMED_FILE = re.compile(r"``([^`]+)``")
DIAGRAM_NAME = re.compile(r"\{\{\s*snakemake\.wildcards\.name\s*\}\}")
DATA_URI = re.compile(r"data:([^;,]+)((?:;[^;,]+)*);base64,([A-Za-z0-9+/=]*)")


@dataclass
class Report:
    workdir: Path
    results: Path
    html: str
    items: dict[str, dict]


@pytest.fixture(scope="module")
def report(demo_run):
    """The report of the shared run on the demo corpus (writes only report.html beside it)."""
    workdir, results = demo_run.workdir, demo_run.results
    with demo_run.exclusive():
        run = run_workflow(workdir, "--report", "report.html", **demo_run.config)
    assert run.returncode == 0, run.output
    page = (workdir / "report.html").read_text("utf-8")
    return Report(workdir, results, page, report_items(page))


def report_items(page: str) -> dict[str, dict]:
    """The report's `var results = {...}` (path → item), keyed by file name."""
    script = page.index('<script id="results">')
    start = page.index("var results = ", script) + len("var results = ")
    table, _ = json.JSONDecoder().raw_decode(page, start)
    items = {item["name"]: item for item in table.values()}
    assert len(items) == len(table), "two report items with the same name"
    return items


def decode(item: dict) -> tuple[str, dict[str, str], bytes]:
    """MIME type, parameters and content of an item's data URI."""
    match = DATA_URI.fullmatch(item["data_uri"])
    assert match, item["data_uri"][:200]
    mime, parameters, payload = match.groups()
    params = dict(p.split("=", 1) for p in parameters.strip(";").split(";") if p)
    return mime, params, base64.b64decode(payload, validate=True)


def expected_diagrams(results: Path) -> list[str]:
    with open(results / "leaderboard.csv", encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert rows
    return [f"{row['subject_id']}__{row['subject_version']}.svg" for row in rows]


def plain(text: str) -> str:
    """Text with HTML tags (rendered captions) or rst literals (sources) removed."""
    text = html.unescape(re.sub(r"<[^>]+>", "", text)).replace("``", "")
    return " ".join(text.split())


def first_sentence(rst: str) -> str:
    sentence = re.split(r"(?<=\.)\s+(?=[A-Z])", plain(rst), maxsplit=1)[0]
    assert sentence.endswith(".") and len(sentence) > 40, sentence
    return sentence


def test_report_holds_exactly_the_published_results(report):
    # The registry's files with a caption (contracts/published.py).
    published = [
        entry.name
        for entry in published_files(has_telemetry=True, double_review=False)
        if entry.caption
    ]
    diagrams = expected_diagrams(report.results)
    assert len(set(diagrams)) == len(diagrams) == 5
    assert sorted(report.items) == sorted(published + diagrams)
    for name in published + diagrams:
        assert name in report.html


def test_embedded_files_equal_the_written_ones(report):
    mimes = {
        ".csv": "text/csv",
        ".html": "text/html",
        ".md": "text/markdown",
        ".svg": "image/svg+xml",
    }
    for name, item in report.items.items():
        mime, params, content = decode(item)
        assert mime == mimes[Path(name).suffix] == item["mime_type"], name
        assert params.get("filename") == name
        if name.endswith(".svg"):
            written = list(report.workdir.rglob(f".cache/*/reliability/{name}"))
            assert len(written) == 1, written
            assert content.startswith(b"<?xml") and b"<svg" in content
        else:
            written = [report.results / name]
        assert content == written[0].read_bytes(), name


def test_categories_and_labels(report):
    for name, item in report.items.items():
        if name.endswith(".svg"):
            assert item["labels"] == {"subject version": name.removesuffix(".svg")}
    categories = re.search(r"var categories = (\{.*?\});?\s*</script>", report.html, re.S)
    assert categories
    assert set(json.loads(categories.group(1))) == {
        "Metrics",
        "Leaderboard",
        "Changes",
        "Reliability diagrams",
        "Findings",
    }


def test_every_caption_is_in_the_report(report):
    captions = {path.name: path.read_text("utf-8") for path in CAPTIONS.glob("*.rst")}
    templates = [name for name, text in captions.items() if "{{" in text]
    assert templates == ["reliability.rst"]
    template = captions.pop("reliability.rst")
    # Published under double review only (reviewers_per_run=2), or with
    # subjects/annotations.yaml only: not in the demo's v1.0 report.
    for caption in ("per_run_consolidated.rst", "pending_runs.rst", "annotations.rst"):
        captions.pop(caption)
    assert DIAGRAM_NAME.search(template)
    captioned = set(expected_diagrams(report.results))
    for caption, rst in captions.items():
        name = NAMED_FILE.search(rst).group(1)
        assert name in report.items, (caption, name)
        captioned.add(name)
        sentence = first_sentence(rst)
        assert sentence in plain(report.items[name]["caption"]), (name, sentence)
    assert captioned == set(report.items), "a report item has no caption file"
    for name in expected_diagrams(report.results):
        diagram = name.removesuffix(".svg")
        sentence = first_sentence(DIAGRAM_NAME.sub(diagram, template))
        assert sentence.startswith(f"Reliability diagram of {diagram}: ")
        caption = plain(report.items[name]["caption"])
        assert sentence in caption, (name, caption)
        assert "{{" not in caption


def test_report_renders_in_chromium(report, tmp_path):
    require_chromium()
    out = chromium(
        tmp_path,
        "--virtual-time-budget=10000",
        "--dump-dom",
        (report.workdir / "report.html").as_uri(),
        timeout=120,
    )
    # What the application rendered: the markup without the scripts and styles it ships.
    # The static file holds only a "Loading…" notice; the rest was built by its script.
    static, rendered = (
        plain(re.sub(r"<(script|style)\b.*?</\1>", "", page, flags=re.S | re.I))
        for page in (report.html, out.decode("utf-8"))
    )
    for category in ("Leaderboard", "Metrics", "Reliability diagrams"):
        assert category not in static
        assert category in rendered, rendered[:2000]
