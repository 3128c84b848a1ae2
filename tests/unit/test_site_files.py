"""The site's files (ro_metrics.site.site_files) and its pages' escaping.

- page names: safe on every file system, one page per subject version, links relative;
  the page set from the data (site_page_paths);
- what the version pages jobs hand on (records.MatrixRow to the front pages job,
  records.CaseRows to the case pages jobs) reads back as written, and a case page
  joins its versions' rows in the order given;
- a subject version or corpus text holding markup is escaped on the pages, in every
  language.
"""

import pytest

from ro_metrics.contracts.records import (
    CaseRows,
    MatrixRow,
    read_case_rows,
    read_matrix_rows,
    write_case_rows,
    write_matrix_rows,
)
from ro_metrics.rendering.translations import LANGUAGES
from ro_metrics.site.site_files import (
    case_page,
    edition_page,
    href,
    run_anchor,
    site_page_paths,
    version_page,
    write_page,
)
from ro_metrics.site.site_pages import EDITIONS, render_case_page
from site_records import SITE_GOLD, site_pages, version_run

PROBE = "<script>alert(1)</script>\"&'"


def test_version_pages_are_safe_distinct_and_readable():
    assert version_page("atlas-7b", "atlas-7b-2026-03-q4") == (
        "versions/atlas-7b/atlas-7b-2026-03-q4.html"
    )
    odd = version_page("atlas-7b", "../../etc/passwd")
    assert odd.startswith("versions/atlas-7b/etc-passwd-") and odd.count("/") == 2
    # Case and spelling differences never share a page (case-insensitive file systems).
    names = {version_page("a", v) for v in ("V1", "v1", "v 1", "v-1", "v/1", "v1 ")}
    assert len(names) == 6
    assert version_page("a", "v1") == "versions/a/v1.html"
    assert all(name.endswith(".html") and " " not in name for name in names)
    assert version_page("a", "<>").startswith("versions/a/version-")
    assert case_page("RO-FOUL-001") == "cases/RO-FOUL-001.html"
    assert run_anchor("RO-FOUL-001", "run-2026-05-12-001") == "RO-FOUL-001__run-2026-05-12-001"


def test_links_are_relative():
    assert href("index.html", "cases/RO-FOUL-001.html") == "cases/RO-FOUL-001.html"
    assert href("cases/RO-FOUL-001.html", "index.html") == "../index.html"
    assert href("versions/a/v1.html", "cases/X.html", "y") == "../../cases/X.html#y"


def test_the_spanish_edition_mirrors_the_site_under_es():
    assert edition_page("cases/RO-FOUL-001.html", "en") == "cases/RO-FOUL-001.html"
    assert edition_page("cases/RO-FOUL-001.html", "es") == "es/cases/RO-FOUL-001.html"
    assert edition_page("index.html", "es") == "es/index.html"


def test_the_site_is_its_front_pages_and_a_page_per_case_and_version_in_each_edition():
    """Two cases (one without runs still has its page), two versions (one whose name is
    not a safe file name): 3 front pages + 2 case pages + 2 version pages, twice."""
    pages = site_page_paths(["RO-SCAL-002", "RO-FOUL-001"], [("atlas", "v1"), ("birch", "B 2")])
    odd = version_page("birch", "B 2")
    assert odd.startswith("versions/birch/b-2-")
    english = [
        "cases/RO-FOUL-001.html",
        "cases/RO-SCAL-002.html",
        "findings.html",
        "index.html",
        "report.html",
        "versions/atlas/v1.html",
        odd,
    ]
    assert pages == sorted([*english, *(f"es/{page}" for page in english)])
    assert site_page_paths([], []) == [
        "es/findings.html", "es/index.html", "es/report.html",
        "findings.html", "index.html", "report.html",
    ]  # fmt: skip
    # Under double review, the arbitration worklist in every edition too.
    assert site_page_paths([], [], double_review=True) == [
        "es/findings.html", "es/index.html", "es/report.html", "es/worklist.html",
        "findings.html", "index.html", "report.html", "worklist.html",
    ]  # fmt: skip


def test_a_page_is_written_at_its_path_in_its_jobs_folder(tmp_path):
    write_page(tmp_path / "out", "es/cases/RO-FOUL-001.html", "<p>ñ</p>")
    assert (tmp_path / "out/es/cases/RO-FOUL-001.html").read_bytes() == "<p>ñ</p>".encode()


@pytest.mark.parametrize("code", LANGUAGES)
def test_markup_in_corpus_text_is_escaped_on_the_pages(code):
    summary = ["atlas", PROBE, 1, 0, 0, 1, 1, 0, "0.0", "10.0", "0.04", "0.2", "0.5", "0.4", "Q"]
    page, matrix_row, case = site_pages(PROBE, PROBE, summary, EDITIONS[code])
    escaped = "&lt;script&gt;alert(1)&lt;/script&gt;&quot;&amp;&#x27;"
    for html in (page, case, matrix_row):
        assert "<script>alert" not in html
        assert html.count("<script>") == (0 if html is matrix_row else 1)
        assert escaped in html
    # The version (title, heading), the 6 justifications, the fail's reviewer words and
    # the answer's 9 texts, in each edition (the answer as written).
    assert page.count(escaped) == 2 + 6 + 1 + 9
    # The quote: the span up to PROBE's own closing apostrophe, found in main_hypothesis.
    found = version_run(PROBE, PROBE).evidence[0]
    assert found == ("main_hypothesis", '<script>alert(1)</script>"&', "exact", 1.0)
    assert '<q class="quote">&lt;script&gt;alert(1)&lt;/script&gt;&quot;&amp;</q>' in page


def test_a_partitions_matrix_rows_are_read_back_as_written(tmp_path):
    """One JSON file per partition: each version's row as an array in field order."""
    path = tmp_path / "matrix.json"
    rows = [
        MatrixRow("atlas", "v1", {"en": "<tr>A</tr>", "es": "<tr>a</tr>"}),
        MatrixRow("birch", "v2", {"en": "<tr>B</tr>", "es": "<tr>b</tr>"}),
    ]
    write_matrix_rows(path, rows)
    assert path.read_bytes() == (
        b'{"matrix_rows":[["atlas","v1",{"en":"<tr>A</tr>","es":"<tr>a</tr>"}],'
        b'["birch","v2",{"en":"<tr>B</tr>","es":"<tr>b</tr>"}]]}\n'
    )
    assert read_matrix_rows(path) == rows
    write_matrix_rows(path, [])
    assert read_matrix_rows(path) == []


def test_a_partitions_case_rows_of_a_family_are_read_back_as_written(tmp_path):
    """case_rows-<FAMILY>.json: its versions' rows of each case of the family, as arrays
    [case_id, subject_id, subject_version, counts, rows by language code]."""
    path = tmp_path / "case_rows-FOUL.json"
    rows = [
        CaseRows("RO-FOUL-001", "atlas", "v1", [1, 0, 0, 1, 1], {"en": "<tr>F</tr>", "es": "S"}),
        CaseRows("RO-FOUL-002", "birch", "v2", [2, 1, 1, 0, 0], {"en": "<tr>B</tr>", "es": "b"}),
    ]
    write_case_rows(path, rows)
    assert path.read_bytes() == (
        b'{"case_rows":[["RO-FOUL-001","atlas","v1",[1,0,0,1,1],{"en":"<tr>F</tr>","es":"S"}],'
        b'["RO-FOUL-002","birch","v2",[2,1,1,0,0],{"en":"<tr>B</tr>","es":"b"}]]}\n'
    )
    assert read_case_rows(path) == rows
    assert read_case_rows(path)[1].counts == [2, 1, 1, 0, 0]


@pytest.mark.parametrize("code", LANGUAGES)
def test_a_case_page_joins_its_versions_rows_in_the_order_given(code):
    """The case pages job hands each version's rows of the case, by subject_id and
    subject_version; the page shows them in that order, in its edition, and the sums of
    their counts."""
    rows = [
        CaseRows(
            "RO-FOUL-001", "a", "1", [2, 1, 1, 0, 0], {"en": "<tr>a-en</tr>", "es": "<tr>a-es</tr>"}
        ),
        CaseRows(
            "RO-FOUL-001", "b", "1", [1, 0, 0, 1, 1], {"en": "<tr>b-en</tr>", "es": "<tr>b-es</tr>"}
        ),
    ]
    page = render_case_page(
        case_id="RO-FOUL-001",
        gold=SITE_GOLD,
        rows=rows,
        benchmark_version="v1.0",
        t=EDITIONS[code],
    )
    assert f"<tbody><tr>a-{code}</tr><tr>b-{code}</tr></tbody></table></div>\n</main>" in page
    meta = {
        "en": "Benchmark version <strong>v1.0</strong> ·\n FOUL (Organic / biological fouling) · "
        "Closed · floor 4 · ceiling 12\n · 3 scored runs by 2 subject versions: 1 Pass,\n "
        "1 Conditional, 1 Fail (1 with a critical fail)",
        "es": "Versión del benchmark <strong>v1.0</strong> ·\n FOUL (Ensuciamiento orgánico / "
        "biológico) · Cerrado · suelo 4 · techo 12\n · 3 ejecuciones evaluadas de 2 versiones "
        "de sujeto: 1 aprobado,\n 1 condicional, 1 suspenso (1 con un fallo crítico)",
    }[code]
    assert f'<p class="meta">{meta}</p>' in page
    assert page.count("<tr>") == 3  # the head's row and the two versions' rows
