"""The leaderboard page as a reader sees it: rendered by a real browser (headless Chromium).

What is proved, each value derived independently from the published CSVs:

- the committed results/leaderboard.html, after its script ran, shows the ranking of
  results/leaderboard.csv row for row (order, rank or "—", subject, version, track,
  provider, status badge and critical-fail count, every score and count as its CSV
  value, the benchmark version once in the header, the sort values), links each row to
  its subject section, draws one SVG diagram per subject section, and shows as "Last
  update" the newest scoring_timestamp_utc of per_run.csv;
- the page loads nothing from the network (no http(s) URL in a src/href, no <link>);
- it renders to a non-blank screenshot (also copied to /tmp/leaderboard-screenshot.png
  for a human to look at);
- clicking a column header sorts the table (ascending, then descending, ties stable).

A registry description holding markup, run through the real workflow and shown as text,
is tests/workflow/test_leaderboard_xss.py.

Chromium is Debian's /usr/bin/chromium, driven over its DevTools pipe by
browser.shared_browser (the DOM after load, screenshots): no Selenium or Playwright.
Without it the module is skipped, except on CI (the CI environment variable set), where
it fails: CI must install it.
"""

import json
import re
import shutil
import struct
import tempfile
from datetime import datetime
from pathlib import Path

import pytest

from browser import (
    Element,
    dump_dom,
    parse_html,
    require_chromium,
    shared_browser,
    subject_sections,
)
from workflow_runs import COMMITTED_RESULTS, read_csv

SCREENSHOT_COPY = Path("/tmp/leaderboard-screenshot.png")  # noqa: S108 - for a human to view
WIDTH, HEIGHT = 1600, 2000

require_chromium(module_level=True)

# Header text of the ranking table → the leaderboard.csv column it shows. The version
# has a column of its own or shares the subject's ("Subject · version"); other columns
# the page may add are not checked here.
COLUMNS = {
    "Rank": "rank",
    "Subject": "subject_id",
    "Subject · version": "subject_id",
    "Version": "subject_version",
    "Track": "track",
    "Provider": "provider",
    "Pass": "n_pass",
    "Cond.": "n_conditional",
    "Fail": "n_fail",
    "Status": "leaderboard_status",
    "Qfinal": "q_final",
    "Pass rate": "pass_rate",
    "Mean clipped score": "mean_clipped_score",
    "Brier": "brier",
    "ECE*": "ece",
    "Runs": "n_runs",
    "Critical fails": "n_critical_fails",
}
SCORES = ["q_final", "pass_rate", "mean_clipped_score", "brier", "ece"]
REQUIRED = {"rank", "subject_id", "track", "leaderboard_status", *SCORES, "n_runs",
            "n_critical_fails", "provider", "n_pass", "n_conditional", "n_fail"}  # fmt: skip


# --- The page's parts ------------------------------------------------------------------


def ranking(dom: Element) -> tuple[list[Element], list[Element]]:
    """Header cells and body rows of table#leaderboard."""
    tables = [t for t in dom.find_all("table") if t.attrs.get("id") == "leaderboard"]
    assert len(tables) == 1
    table = tables[0]
    headers = table.one("thead").find_all("th")
    labels = [th.text() for th in headers]
    shown = [COLUMNS[label] for label in labels if label in COLUMNS]
    assert len(shown) == len(set(shown)) and set(shown) >= REQUIRED, labels
    # A Disqualified row is followed by a detail row listing its critical fails.
    rows = [tr for tr in table.one("tbody").element_children("tr") if "detail" not in tr.classes]
    return headers, rows


def row_cells(dom: Element, row: Element) -> dict[str, Element]:
    """leaderboard.csv column → the td showing it ("subject_version": maybe the subject's)."""
    headers, _ = ranking(dom)
    cells = row.element_children("td")
    assert len(cells) == len(headers)
    shown = {
        COLUMNS[th.text()]: td
        for th, td in zip(headers, cells, strict=True)
        if th.text() in COLUMNS
    }
    shown.setdefault("subject_version", shown["subject_id"])
    return shown


def subject_of(cells: dict[str, Element]) -> tuple[str, str]:
    """(subject_id, subject_version) shown by a row: the link text, then the version."""
    link = cells["subject_id"].one("a")
    version = cells["subject_version"].raw_text()
    if cells["subject_version"] is cells["subject_id"]:
        version = version.replace(link.raw_text(), "", 1)
    return link.text(), version.strip()


def row_keys(dom: Element) -> list[tuple[str, str]]:
    _, rows = ranking(dom)
    return [subject_of(row_cells(dom, row)) for row in rows]


def newest_timestamp(timestamps) -> str:
    """The latest UTC timestamp, compared as instants (not as text)."""
    return max(timestamps, key=lambda t: datetime.fromisoformat(t.replace("Z", "+00:00")))


def with_script(page: Path, destination: Path, script: str) -> Path:
    """A copy of a page with a script appended at the end of <body>."""
    html = page.read_text("utf-8")
    head, body_end, tail = html.rpartition("</body>")
    assert body_end, page
    destination.write_text(f"{head}<script>{script}</script>\n{body_end}{tail}", "utf-8")
    return destination


@pytest.fixture(scope="module")
def leaderboard():
    rows = read_csv(COMMITTED_RESULTS / "leaderboard.csv")
    assert {row["leaderboard_status"] for row in rows} == {"Eligible", "Disqualified"}
    return rows


@pytest.fixture(scope="module")
def committed_dom():
    return dump_dom(COMMITTED_RESULTS / "leaderboard.html")


# --- a. The committed page shows the committed CSVs -------------------------------------


def test_ranking_table_shows_leaderboard_csv(committed_dom, leaderboard):
    _, rows = ranking(committed_dom)
    assert len(rows) == len(leaderboard)
    for row, expected in zip(rows, leaderboard, strict=True):
        cells = row_cells(committed_dom, row)
        assert subject_of(cells) == (expected["subject_id"], expected["subject_version"])
        # The sort values: what a click on the header orders by.
        for column in ("rank", "track", "leaderboard_status", *SCORES, "n_runs"):
            assert cells[column].attrs.get("data-value") == expected[column], (column, expected)
        assert cells["n_critical_fails"].attrs.get("data-value") == expected["n_critical_fails"]
        for column in ("track", "provider", "n_runs", "n_pass", "n_conditional", "n_fail"):
            assert cells[column].value_text() == expected[column], (column, expected)
        assert cells["n_critical_fails"].value_text() == expected["n_critical_fails"]
        assert expected["benchmark_version"] == "v1.0"
        for column in SCORES:
            shown = cells[column].value_text()
            assert shown == expected[column], (column, expected)
        status = cells["leaderboard_status"]
        disqualified_badges = status.find_all("span", "disqualified")
        if expected["leaderboard_status"] == "Eligible":
            assert expected["rank"] != ""
            assert cells["rank"].value_text() == expected["rank"]
            assert "eligible" in row.classes and "disqualified" not in row.classes
            assert status.text() == "Eligible"
            assert disqualified_badges == []
        else:
            assert expected["leaderboard_status"] == "Disqualified"
            assert expected["rank"] == ""
            assert cells["rank"].value_text() == "—"
            assert "disqualified" in row.classes and "eligible" not in row.classes
            n = int(expected["n_critical_fails"])
            assert n > 0
            assert len(disqualified_badges) == 1
            assert disqualified_badges[0].classes == {"badge", "disqualified"}
            assert disqualified_badges[0].text() == "Disqualified"
            assert status.text() == f"Disqualified {n} critical fail{'s' * (n != 1)}"


def test_one_section_with_one_diagram_per_subject(committed_dom, leaderboard):
    _, rows = ranking(committed_dom)
    sections = subject_sections(committed_dom)
    assert len(sections) == len(leaderboard)
    by_id = {section.attrs["id"]: section for section in sections}
    assert len(by_id) == len(sections)
    for index, (row, section, expected) in enumerate(zip(rows, sections, leaderboard, strict=True)):
        assert section.attrs["id"] == f"subject-{index}"
        heading = section.one("h3").text()
        assert heading.startswith(f"{expected['subject_id']} {expected['subject_version']} ")
        # The subject link of the row leads to that subject's section.
        link = row_cells(committed_dom, row)["subject_id"].one("a")
        assert link.attrs["href"] == f"#{section.attrs['id']}"
        figure = section.one("figure")
        assert len(section.find_all("svg")) == 1
        assert len(figure.find_all("svg")) == 1
        assert len(figure.find_all("table", "bins")) == 1


def test_last_update_is_newest_scoring(committed_dom):
    per_run = read_csv(COMMITTED_RESULTS / "per_run.csv")
    newest = newest_timestamp(row["scoring_timestamp_utc"] for row in per_run)
    times = committed_dom.one("header").find_all("time")
    assert len(times) == 1
    assert times[0].attrs["datetime"] == newest
    assert times[0].text() == newest
    assert f"Last update {newest} (newest scoring)" in times[0].parent.text()


# --- b. No network ---------------------------------------------------------------------


def test_page_loads_nothing_from_the_network():
    html = (COMMITTED_RESULTS / "leaderboard.html").read_text("utf-8")
    remote = re.compile(r"^\s*(?:[a-z][a-z0-9+.-]*:)?//", re.I)
    for element in parse_html(html).iter():
        assert element.tag != "link", element.attrs
        for name, value in element.attrs.items():
            if name in {"src", "href", "xlink:href", "srcset", "action", "formaction",
                        "poster", "data", "background"}:  # fmt: skip
                assert not remote.match(value or ""), (element.tag, name, value)
            if value and "://" in value:
                # Namespace names and RDF metadata of the SVGs: identifiers, never fetched.
                assert name == "xmlns" or name.startswith("xmlns:") or name == "rdf:resource", (
                    element.tag,
                    name,
                    value,
                )
        if element.tag in {"style", "script"}:
            code = element.raw_text()
            assert "@import" not in code
            assert not re.search(r"url\(\s*['\"]?\s*(?:[a-z]+:)?//", code, re.I), element.tag
            assert "fetch(" not in code and "XMLHttpRequest" not in code
        if element.tag == "script":
            assert "src" not in element.attrs
    assert not re.search(r"""(?:src|href)\s*=\s*["']?\s*(?:https?:)?//""", html, re.I)


# --- c. Screenshot ---------------------------------------------------------------------


def test_screenshot(tmp_path):
    png = tmp_path / "leaderboard.png"
    shared_browser().screenshot(COMMITTED_RESULTS / "leaderboard.html", png, WIDTH, HEIGHT)
    data = png.read_bytes()
    shutil.copyfile(png, SCREENSHOT_COPY)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    length, kind, width, height = struct.unpack(">I4sII", data[8:24])
    assert (length, kind) == (13, b"IHDR")
    assert (width, height) == (WIDTH, HEIGHT)
    # A blank page compresses to a few KB; this one has text, tables and five diagrams.
    assert len(data) > 50_000
    assert len(set(data[100:])) > 200


# --- d. Sorting ------------------------------------------------------------------------


def clicked(page: Path, tmp: Path, *labels: str) -> Element:
    """The DOM after clicking the header buttons with these texts, in order."""
    script = f"""
(function () {{
  var buttons = Array.prototype.slice.call(document.querySelectorAll("#leaderboard thead button"));
  {json.dumps(list(labels))}.forEach(function (label) {{
    var button = buttons.find(function (b) {{ return b.textContent.trim() === label; }});
    if (!button) {{ throw new Error("no header button " + label); }}
    button.click();
  }});
  document.documentElement.setAttribute("data-clicked", {json.dumps(" ".join(labels))});
}})();
"""
    copy = with_script(page, Path(tempfile.mkdtemp(dir=tmp)) / page.name, script)
    dom = dump_dom(copy)
    assert dom.one("html").attrs.get("data-clicked") == " ".join(labels)
    return dom


def keys(rows) -> list[tuple[str, str]]:
    return [(row["subject_id"], row["subject_version"]) for row in rows]


def aria_sort(dom: Element) -> dict[str, str]:
    headers, _ = ranking(dom)
    return {th.text(): th.attrs["aria-sort"] for th in headers if "aria-sort" in th.attrs}


def test_sorting_by_subject(tmp_path, committed_dom, leaderboard):
    page = COMMITTED_RESULTS / "leaderboard.html"
    assert row_keys(committed_dom) == keys(leaderboard)
    ids = [row["subject_id"] for row in leaderboard]
    assert len(set(ids)) < len(ids), "the demo has a subject with two versions"
    headers, _ = ranking(committed_dom)
    (label,) = [th.text() for th in headers if th.text().startswith("Subject")]
    if label == "Subject":
        # A subject_id column: its two versions tie and keep their previous order.
        def key(row):
            return row["subject_id"]
    else:
        # A "Subject · version" column orders by subject, then version.
        def key(row):
            return row["subject_id"], row["subject_version"]

    # Python's sort is stable, reverse=True included, like the page's comparator.
    ascending = sorted(leaderboard, key=key)
    descending = sorted(ascending, key=key, reverse=True)
    assert keys(ascending) != keys(leaderboard)

    once = clicked(page, tmp_path, label)
    assert row_keys(once) == keys(ascending)
    assert aria_sort(once) == {label: "ascending"}

    twice = clicked(page, tmp_path, label, label)
    assert row_keys(twice) == keys(descending)
    assert aria_sort(twice) == {label: "descending"}


def test_sorting_by_q_final(tmp_path, leaderboard):
    page = COMMITTED_RESULTS / "leaderboard.html"
    assert all(row["q_final"] for row in leaderboard)
    ascending = sorted(leaderboard, key=lambda row: float(row["q_final"]))
    assert keys(ascending) != keys(leaderboard)
    dom = clicked(page, tmp_path, "Qfinal")
    assert row_keys(dom) == keys(ascending)
    assert aria_sort(dom) == {"Qfinal": "ascending"}
