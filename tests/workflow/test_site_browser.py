"""The site and the leaderboard page in a real browser (headless Chromium).

- Screenshots of the index, a subject-version page, a case page (each in English and in
  Spanish) and leaderboard.html at 1280 px and 390 px wide, copied to
  /tmp/site-screenshots/ for a human to look at, and of the Spanish index to
  /tmp/es-site-index.png;
- layout, measured in the browser (each page in a window of the given width): at
  1280 px no page scrolls sideways and the ranking table fits; at 390 px no page scrolls
  sideways either, the ranking table scrolls inside its own box;
- a case page sorts by a click on a column header; at 390 px it shows each run as a
  card (each value after its column's label, in the page's language), at 1280 px as a
  table row;
- the Spanish edition: each page is `lang="es"`, shows Spanish labels and numbers with
  a decimal comma, and its language switch, as the browser resolves it, leads to the
  same page in English, whose switch leads back; a run's answer link on a case page
  leads to its article on the version page of the same edition;
- XSS probe: a corpus whose response fields and reviewer's justification hold
  `<script>` and an `<img onerror>` is shown as text everywhere — in leaderboard.html
  and in every page of the site, both editions — and no script runs (an alert trap
  stays silent).

One Chromium serves every test of a worker (browser.shared_browser), each page in a tab
of its own.
"""

import json
import re
import shutil
import struct
from pathlib import Path

import pytest

from browser import (
    OVERFLOW_PROBLEMS,
    PROBE,
    require_chromium,
    shared_browser,
    with_alert_trap,
)
from ro_metrics.site.site_files import (
    FINDINGS,
    INDEX,
    case_page,
    edition_page,
    version_page,
)
from workflow_runs import corpus_copy, read_csv, run_workflow, workflow_copy

require_chromium(module_level=True)

SCREENSHOTS = Path("/tmp/site-screenshots")  # noqa: S108 - for a human to look at
SPANISH_INDEX_SCREENSHOT = Path("/tmp/es-site-index.png")  # noqa: S108 - for a human to view
SITE_PAGES = {
    "index": INDEX,
    "version": version_page("borealis-xl", "borealis-xl-2026-01-15"),
    "case": case_page("RO-FOUL-001"),
}
PAGES = {name: f"site/{page}" for name, page in SITE_PAGES.items()}
PAGES |= {f"{name}-es": f"site/{edition_page(page, 'es')}" for name, page in SITE_PAGES.items()}
# The results folder of demo_site (workflow_runs.DemoRun.results) and of build().
PAGES["leaderboard"] = "out/leaderboard.html"
ESCAPED = "&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;"


def build(tmp: Path, corpus: Path) -> Path:
    workdir = workflow_copy(tmp / "workflow")
    run = run_workflow(workdir, "site", corpus=corpus, results=workdir / "out")
    assert run.returncode == 0, run.output
    return workdir


@pytest.fixture(scope="module")
def workdir(demo_site):
    """The workdir of the session's shared site build (conftest.demo_site)."""
    return demo_site.workdir


@pytest.fixture(scope="module")
def browser():
    """The worker's one Chromium (browser.shared_browser), a tab per page."""
    return shared_browser()


# A page's scroll and client widths, and those of every box that scrolls sideways on
# purpose (.table-wrap, .matrix-wrap).
WIDTHS = """{page: [root.scrollWidth, root.clientWidth], boxes: Array.prototype.map.call(
    doc.querySelectorAll(".table-wrap, .matrix-wrap"),
    function (box) { return [box.firstElementChild.id || box.firstElementChild.className,
                             box.scrollWidth, box.clientWidth]; })}"""


@pytest.fixture(scope="module")
def widths(workdir, browser) -> dict:
    """(page name, width) → WIDTHS of that page in a window 1280 or 390 px wide."""
    return {
        (name, width): browser.evaluate(workdir / page, WIDTHS, width)
        for name, page in PAGES.items()
        for width in (1280, 390)
    }


@pytest.mark.parametrize("name", sorted(PAGES))
@pytest.mark.parametrize("width", [1280, 390])
def test_screenshot(workdir, browser, tmp_path, name, width):
    png = tmp_path / f"{name}-{width}.png"
    browser.screenshot(workdir / PAGES[name], png, width, 2400)
    data = png.read_bytes()
    SCREENSHOTS.mkdir(exist_ok=True)
    shutil.copyfile(png, SCREENSHOTS / png.name)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", data[16:24]) == (width, 2400)
    assert len(data) > 30_000 and len(set(data[100:])) > 200  # not a blank page


@pytest.mark.parametrize("name", sorted(PAGES))
def test_no_page_scrolls_sideways_at_1280_or_390(widths, name):
    for width in (1280, 390):
        measured = widths[name, width]
        scroll, client = measured["page"]
        # client: the width less a vertical scroll bar, if the browser shows one.
        assert width - 20 <= client <= width and scroll <= client, (name, width, measured)


@pytest.mark.parametrize("name", sorted(PAGES))
def test_nothing_is_cut_or_hidden_at_1280_or_390(workdir, browser, name):
    """browser.OVERFLOW_PROBLEMS: no element past the page's edge, no box cutting its
    text, a box that scrolls sideways only on a phone, its first column in view, with a
    scroll cue (the site of the real corpus: tests/workflow/test_benchmark_corpus.py)."""
    for width in (1280, 390):
        assert browser.evaluate(workdir / PAGES[name], OVERFLOW_PROBLEMS, width) == [], width


def test_the_ranking_table_fits_at_1280_and_scrolls_in_its_box_at_390(widths):
    for name in ("index", "index-es", "leaderboard"):
        wide = {box[0]: box[1:] for box in widths[name, 1280]["boxes"]}
        narrow = {box[0]: box[1:] for box in widths[name, 390]["boxes"]}
        scroll, client = wide["leaderboard"]
        assert scroll <= client, (name, wide)
        scroll, client = narrow["leaderboard"]
        assert scroll > client and client < 390, (name, narrow)


# Each run row of a case page: its display, the label its classification cell shows
# before the value, and its width.
RUN_CARDS = """Array.prototype.map.call(doc.querySelectorAll("#runs tbody tr"), function (row) {
    var style = doc.defaultView.getComputedStyle;
    return [style(row).display, style(row.cells[2], "::before").content,
            row.getBoundingClientRect().width];
})"""


@pytest.mark.parametrize(
    ("name", "label"), [("case", "Classification"), ("case-es", "Calificación")]
)
def test_a_case_page_shows_each_run_as_a_card_at_390_and_as_a_row_at_1280(
    workdir, browser, name, label
):
    narrow = browser.evaluate(workdir / PAGES[name], RUN_CARDS, 390)
    wide = browser.evaluate(workdir / PAGES[name], RUN_CARDS, 1280)
    # RO-FOUL-001 has six scored runs in the demo.
    assert len(narrow) == len(wide) == 6
    for display, before, width in narrow:
        assert (display, before) == ("block", f'"{label}"') and width < 390
    for display, before, _ in wide:
        assert (display, before) == ("table-row", "none")


def test_a_case_page_sorts_by_a_header_click(workdir, browser, tmp_path):
    page = workdir / PAGES["case"]
    html = page.read_text("utf-8")
    script = """
var headers = Array.prototype.slice.call(document.querySelectorAll("#runs thead th"));
var column = headers.findIndex(function (th) { return th.textContent.trim() === "Confidence"; });
headers[column].querySelector("button").click();
document.documentElement.setAttribute("data-order", Array.prototype.map.call(
  document.querySelectorAll("#runs tbody tr"),
  function (tr) { return tr.cells[column].textContent; }).join(" "));
"""
    head, end, tail = html.rpartition("</body>")
    copy = tmp_path / "case.html"
    copy.write_text(f"{head}<script>{script}</script>{end}{tail}", "utf-8")
    dom = browser.dom(copy)
    order = [int(v) for v in re.search(r'data-order="([^"]*)"', dom)[1].split()]
    before = [int(v) for v in re.findall(r'<td class="num">(\d+)</td>\s*<td class="text"', html)]
    assert len(order) == len(before) == 6
    assert order == sorted(before) and before != sorted(before)


# --- The Spanish edition ---------------------------------------------------------------

# The page's language, its language switch as the browser resolves it, and what a reader
# sees of it.
SPANISH_VIEW = """{lang: root.lang, switch: doc.querySelector("nav.language a").href,
    hreflang: doc.querySelector("nav.language a").hreflang, text: doc.body.innerText,
    answer: (doc.querySelector("td.answer-link a") || {}).href || null}"""


@pytest.fixture(scope="module")
def editions(workdir, browser) -> dict:
    """(site page name, language) → SPANISH_VIEW of that page in that edition."""
    return {
        (name, code): browser.evaluate(workdir / "site" / edition_page(page, code), SPANISH_VIEW)
        for name, page in SITE_PAGES.items()
        for code in ("es", "en")
    }


# The first run whose answer the case page links to: (subject, version, its anchor).
FIRST_ANSWER = {
    "case": ("atlas-7b", "atlas-7b-2026-03-q4", "RO-FOUL-001__run-2026-05-12-001"),
}


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        # The ranking's first row (leaderboard.csv: cirrus-reasoner, q_final 0.705), the
        # matrix and its letters, the footer.
        ("index", ["Casos × versiones de sujeto", "Puntuación recortada media", "0,705",
                   "A aprobado, C condicional", "Calculado por el flujo de métricas"]),
        # metrics_per_subject.csv: pass_rate 0.1389, mean clipped score 7.7222.
        ("version", ["Descalificada", "tasa de aprobado 0,1389",
                     "puntuación recortada media 7,7222", "Hipótesis principal",
                     "Por qué es plausible:", "Evaluación de R0"]),
        ("case", ["Calificación", "respuesta completa", "El caso planteado",
                  "Contexto de la planta", "Ensuciamiento orgánico / biológico",
                  "suelo 4 · techo 12", "Pulse una cabecera de columna para ordenar"]),
    ],
)  # fmt: skip
def test_a_spanish_page_in_the_browser_and_its_switch_both_ways(workdir, editions, name, expected):
    page = SITE_PAGES[name]
    spanish_path = workdir / "site" / edition_page(page, "es")
    english_path = workdir / "site" / page
    spanish = editions[name, "es"]
    assert (spanish["lang"], spanish["hreflang"]) == ("es", "en")
    for label in expected:
        assert label in spanish["text"], (name, label)
    for english_label in ("Leaderboard", "scored runs", "Main hypothesis", "full answer"):
        assert english_label not in spanish["text"], (name, english_label)
    # The case page's first answer link leads to its run's article on the version page of
    # its own edition, where the answer is printed as written.
    answers = {"es": None, "en": None}
    if name in FIRST_ANSWER:
        subject_id, subject_version, anchor = FIRST_ANSWER[name]
        for code in answers:
            target = (
                workdir / "site" / edition_page(version_page(subject_id, subject_version), code)
            )
            answers[code] = f"{target.as_uri()}#{anchor}"
    assert spanish["answer"] == answers["es"]
    assert editions[name, "en"]["answer"] == answers["en"]
    # The switch leads to the same page in English, whose switch leads back.
    assert spanish["switch"] == english_path.as_uri()
    english = editions[name, "en"]
    assert (english["lang"], english["hreflang"]) == ("en", "es")
    assert "Español" in english["text"] and "Benchmark version v1.0" in english["text"]
    assert english["switch"] == spanish_path.as_uri()


def test_the_spanish_index_screenshot(workdir, browser, tmp_path):
    """The Spanish index at 1280 × 2400, for a human to look at."""
    png = tmp_path / "es-site-index.png"
    browser.screenshot(workdir / PAGES["index-es"], png, 1280, 2400)
    shutil.copyfile(png, SPANISH_INDEX_SCREENSHOT)
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", data[16:24]) == (1280, 2400)
    assert len(data) > 30_000 and len(set(data[100:])) > 200  # not a blank page
    # The ranking it shows is the published one, with decimal commas.
    first = read_csv(workdir / "out/leaderboard.csv")[0]
    index = (workdir / PAGES["index-es"]).read_text("utf-8")
    assert f'data-value="{first["q_final"]}">{first["q_final"].replace(".", ",")}' in index


# --- XSS probe ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def probed(tmp_path_factory):
    """The demo corpus with markup in one response (the exact critical fail's run) and
    in its scoring's justifications; the workflow and the site built from it."""
    tmp = tmp_path_factory.mktemp("xss")
    corpus = corpus_copy(tmp / "corpus")
    name = "borealis-xl/RO-OXID-002__run-2026-04-20-001"
    response_path = corpus / f"responses/v1.0/{name}.json"
    response = json.loads(response_path.read_text("utf-8"))
    response["main_hypothesis"] = f"{PROBE} {response['main_hypothesis']}"
    response["key_signals"][0] = f"{PROBE} signal"
    response["alternatives"][0]["why_plausible"] = PROBE
    response["recommended_action"] = (
        f"Keep the train online; {PROBE} 0.3 mg/L free chlorine is tolerable for days."
    )
    response_path.write_text(json.dumps(response, ensure_ascii=False), "utf-8")
    (scoring_path,) = (corpus / "scoring/v1.0").glob(f"{name}__eval-*.json")
    scoring = json.loads(scoring_path.read_text("utf-8"))
    scoring["criterion_scores"]["main_hypothesis"]["justification"] = f"Says {PROBE}"
    scoring["automatic_fails_triggered"][0]["justification"] = (
        f"It states '{PROBE} 0.3 mg/L free chlorine is tolerable' — critical."
    )
    scoring_path.write_text(json.dumps(scoring, ensure_ascii=False), "utf-8")
    return build(tmp, corpus)


def html_files(workdir: Path) -> list[Path]:
    return [workdir / "out/leaderboard.html", *sorted((workdir / "site").rglob("*.html"))]


def test_markup_in_a_response_is_escaped_everywhere(probed):
    csv_text = (probed / "out/critical_fails.csv").read_text("utf-8")
    assert f"{PROBE} 0.3 mg/L free chlorine is tolerable" in csv_text  # the quote, as text
    shown_in = set()
    for path in html_files(probed):
        html = path.read_text("utf-8")
        assert "<script>alert" not in html and not re.search(r"<img\b", html, re.I), path
        assert "onerror=alert(2)>" not in html, path
        if ESCAPED in html:
            shown_in.add(path.relative_to(probed).as_posix())
    assert shown_in == {
        "out/leaderboard.html",  # the quote under the Disqualified row
        *(
            f"site/{edition_page(page, code)}"
            for code in ("en", "es")
            for page in (
                INDEX,
                version_page("borealis-xl", "borealis-xl-2026-01-15"),
                case_page("RO-OXID-002"),  # the main hypothesis
                FINDINGS,  # the critical fail's quote among the safety gate's events
                "report.html",  # the same quote in the findings report's safety table
            )
        ),
    }


@pytest.mark.parametrize("page", ["findings.html", "es/findings.html", "report.html"])
def test_markup_in_a_quote_runs_no_script_on_the_findings_pages(probed, browser, tmp_path, page):
    html = (probed / "site" / page).read_text("utf-8")
    assert ESCAPED in html
    trapped = with_alert_trap(html, tmp_path / "trapped.html")
    dom = browser.dom(trapped)
    assert "data-alerted" not in dom.split(">", 2)[1]
    assert PROBE not in dom and "<img" not in dom
    control = tmp_path / "control.html"
    control.write_text(trapped.read_text("utf-8").replace(ESCAPED, PROBE), "utf-8")
    assert 'data-alerted="' in browser.dom(control)


@pytest.mark.parametrize(
    "page",
    [
        "out/leaderboard.html",
        "site/index.html",
        f"site/{version_page('borealis-xl', 'borealis-xl-2026-01-15')}",
        f"site/{case_page('RO-OXID-002')}",
        f"site/es/{version_page('borealis-xl', 'borealis-xl-2026-01-15')}",
    ],
)
def test_markup_in_a_response_runs_no_script(probed, browser, tmp_path, page):
    trapped = with_alert_trap((probed / page).read_text("utf-8"), tmp_path / "trapped.html")
    dom = browser.dom(trapped)
    assert "data-alerted" not in dom.split(">", 2)[1]
    assert PROBE not in dom and "<img" not in dom
    assert dom.count("<script>") == 2  # the trap and the page's own sorting script
    # Control: the same trap fires when the markup is left unescaped.
    control = tmp_path / "control.html"
    control.write_text(trapped.read_text("utf-8").replace(ESCAPED, PROBE), "utf-8")
    dom = browser.dom(control)
    assert 'data-alerted="' in dom
