"""The Spanish edition (results/leaderboard.es.html) as a browser shows it (headless
Chromium): the same data as the English page, every label in Spanish from labels.json,
numbers with a decimal comma, the operational table beside the ranking, and the
language switch both ways. The screenshot is copied to
/tmp/leaderboard-es-screenshot.png for a human."""

import csv
import io
import re
import shutil
import struct
from html.parser import HTMLParser
from pathlib import Path

import pytest

from browser import require_chromium, shared_browser
from ro_metrics.rendering.translations import ENGLISH, SPANISH, load_labels
from workflow_runs import COMMITTED_RESULTS

require_chromium(module_level=True)

SCREENSHOT_COPY = Path("/tmp/leaderboard-es-screenshot.png")  # noqa: S108 - for a human to view
ES, EN = load_labels(SPANISH), load_labels(ENGLISH)


class Tables(HTMLParser):
    """Every table of a DOM: rows of (cell text, attributes); plus the page's links."""

    def __init__(self):
        super().__init__()
        self.tables, self.links, self.html_lang = {}, [], None
        self.stack, self.cell, self.row, self.table = [], None, None, None
        self.skip = 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "html":
            self.html_lang = attrs.get("lang")
        if tag in ("svg", "style", "script"):
            self.skip += 1
        if tag == "table":
            self.table = self.tables.setdefault(attrs.get("id") or attrs.get("class"), [])
        elif tag == "tr" and self.table is not None:
            self.row = []
        elif tag in ("td", "th") and self.row is not None:
            self.cell = ["", attrs]
        elif tag == "a":
            self.links.append(attrs)

    def handle_endtag(self, tag):
        if tag in ("svg", "style", "script"):
            self.skip -= 1
        if tag in ("td", "th") and self.cell is not None:
            self.row.append((" ".join(self.cell[0].split()), self.cell[1]))
            self.cell = None
        elif tag == "tr" and self.row is not None:
            self.table.append(self.row)
            self.row = None
        elif tag == "table":
            self.table = None

    def handle_data(self, data):
        if self.cell is not None and not self.skip:
            self.cell[0] += data


def dom(page: Path) -> tuple[Tables, str]:
    text = shared_browser().dom(page)
    parsed = Tables()
    parsed.feed(text)
    return parsed, text


def read_csv(name) -> list[dict]:
    return list(csv.DictReader(io.StringIO((COMMITTED_RESULTS / name).read_text("utf-8"))))


def comma(value: str) -> str:
    return value.replace(".", ",")


@pytest.fixture(scope="module")
def pages():
    return dom(COMMITTED_RESULTS / "leaderboard.es.html"), dom(
        COMMITTED_RESULTS / "leaderboard.html"
    )


def test_the_switch_links_the_two_editions(pages):
    (spanish, _), (english, _) = pages
    assert (spanish.html_lang, english.html_lang) == ("es", "en")
    assert {"href": "leaderboard.html", "hreflang": "en", "lang": "en"} in spanish.links
    assert {"href": "leaderboard.es.html", "hreflang": "es", "lang": "es"} in english.links


def test_the_ranking_has_the_same_data_with_decimal_commas(pages):
    (spanish, _), (english, _) = pages
    # A Disqualified row is followed by a detail row (one cell: its critical fails).
    es_rows, en_rows = (
        [row for row in page.tables["leaderboard"] if len(row) > 1] for page in (spanish, english)
    )
    # The sort values are the published texts in both editions: the same data.
    values = [[attrs.get("data-value") for _, attrs in row] for row in es_rows[1:]]
    assert values == [[attrs.get("data-value") for _, attrs in row] for row in en_rows[1:]]
    assert [text for text, _ in es_rows[0]] == [
        re.sub("<[^>]+>", "", ES[key])
        for key in ("col_rank", "col_subject_version", "col_provider", "col_track", "col_status",
                    "col_q_final", "col_pass_rate", "col_mean_clipped_score", "col_brier",
                    "col_ece", "col_runs", "col_pass", "col_conditional", "col_fail",
                    "col_critical_fails")
    ]  # fmt: skip
    for row, expected in zip(es_rows[1:], read_csv("leaderboard.csv"), strict=True):
        cells = [text for text, _ in row]
        # The version is stated once, in the header: no "[v1.0]" after each number.
        assert cells[5].startswith(comma(expected["q_final"])) and "[v1.0]" not in cells[5]
        assert cells[6].startswith(comma(expected["pass_rate"]))
        assert cells[11:14] == [expected[name] for name in ("n_pass", "n_conditional", "n_fail")]
        status = ES["status_eligible"] if expected["rank"] else ES["status_disqualified"]
        assert cells[4].startswith(status)
        if expected["rank"]:
            assert "IC 95 %" in cells[5]
    # No number with a decimal point is left in what the tables show, but in the model's
    # and the reviewer's own words (the evidence of a critical fail, quoted as written).
    for name, rows in spanish.tables.items():
        for row in rows:
            if name == "fails" or (name == "leaderboard" and len(row) == 1):
                continue
            for text, _ in row:
                assert not re.search(r"(?<![\w.-])\d+\.\d+(?![\w.-])", text), text


def test_the_operational_table_joins_the_csv_in_the_ranking_order(pages):
    (spanish, _), _ = pages
    rows = spanish.tables["operational"]
    assert rows[0][0][0] == ES["col_subject_version"]
    published = {(r["subject_id"], r["subject_version"]): r for r in read_csv(
        "operational_per_subject.csv")}  # fmt: skip
    ranking = read_csv("leaderboard.csv")
    assert len(rows) - 1 == len(ranking)
    for row, ranked in zip(rows[1:], ranking, strict=True):
        cells = [text for text, _ in row]
        assert cells[0] == ranked["subject_id"] + ranked["subject_version"]
        found = published.get((ranked["subject_id"], ranked["subject_version"]))
        if found is None:
            assert cells[1:] == [ES["no_telemetry"]]
            continue
        names = ["n_runs", "mean_input_tokens", "mean_output_tokens", "output_to_input_ratio",
                 "median_latency_s", "p95_latency_s"]  # fmt: skip
        assert cells[1:7] == [comma(found[name]) for name in names]
    borealis = next(row for row in rows if row[0][0].endswith("borealis-xl-2026-01-15"))
    # 2595.8 · 0.000003 + 1527.2 · 0.000015 = 0.0077874 + 0.022908 = 0.0306954 → 0,0307.
    assert [text for text, _ in borealis[7:]] == ["3,00", "15,00", "0,0307"]


def test_every_heading_and_caption_is_spanish(pages):
    (_, text), _ = pages
    for key in ("heading", "ranking_heading", "operational_heading", "subjects_heading",
                "by_family_heading", "no_snapshot", "disqualified_heading",
                "changes_title_none"):  # fmt: skip
        assert ES[key] in text, key
    for key in ("ranking_heading", "operational_heading", "subjects_heading", "by_family_heading",
                "col_pass_rate", "col_mean_clipped_score", "col_critical_fails"):  # fmt: skip
        assert f">{EN[key]}<" not in text, key
    assert "Diagrama de fiabilidad" in text and "Reliability diagram" not in text
    assert f"{ES['reviewer_words']}</span>" in text and EN["reviewer_words"] not in text


def test_screenshot(tmp_path):
    png = tmp_path / "leaderboard.es.png"
    shared_browser().screenshot(COMMITTED_RESULTS / "leaderboard.es.html", png, 1400, 2200)
    data = png.read_bytes()
    shutil.copyfile(png, SCREENSHOT_COPY)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", data[16:24]) == (1400, 2200)
    assert len(data) > 50_000 and len(set(data[100:])) > 200
