"""The site's files (ro_metrics.site.site_files) and its pages' escaping.

- page names: safe on every file system, one page per subject version, links relative;
- PageWriter: a page is written only when its bytes change, a page whose inputs did not
  change is not even rendered, a page removed from the site is deleted (only if the
  workflow wrote it);
- drop_outdated_manifests: a page deleted or edited by hand, or another site folder,
  drops its job's manifest;
- the parts a partition hands on (records.VersionParts, one small JSON file; a rows file
  per case of records.VersionRows, written only when its bytes change) read back as
  written, and a case page joins its versions' rows in the order given;
- a subject version or corpus text holding markup is escaped on the pages, in every
  language.
"""

import os

import pytest

from ro_metrics.contracts.files import remove_stale_staging
from ro_metrics.contracts.records import (
    CasePart,
    VersionParts,
    VersionRows,
    read_case_rows,
    read_page_manifest,
    read_version_parts,
    rows_digest,
    write_case_rows,
    write_version_parts,
)
from ro_metrics.rendering.translations import LANGUAGES
from ro_metrics.site.site_files import (
    PageWriter,
    case_page,
    case_rows_path,
    drop_outdated_manifests,
    edition_page,
    href,
    run_anchor,
    version_page,
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


def test_a_page_is_written_only_when_its_bytes_change(tmp_path):
    site, manifest = tmp_path / "site", tmp_path / "m.json"
    writer = PageWriter(site, manifest, "code-1")
    assert writer.write("cases/A.html", "in-1", b"<p>A</p>") is True
    writer.save(manifest)
    first = os.stat(site / "cases/A.html")

    writer = PageWriter(site, manifest, "code-1")
    assert writer.is_current("cases/A.html", "in-1")  # same inputs: not even rendered
    assert not writer.is_current("cases/B.html", "in-1")
    writer = PageWriter(site, manifest, "code-1")
    assert writer.write("cases/A.html", "in-2", b"<p>A</p>") is False  # same bytes
    writer.save(manifest)
    assert os.stat(site / "cases/A.html").st_ino == first.st_ino
    assert read_page_manifest(manifest).pages["cases/A.html"][0] == "in-2"

    writer = PageWriter(site, manifest, "code-2")  # new code: nothing is current...
    assert not writer.is_current("cases/A.html", "in-2")
    assert writer.write("cases/A.html", "in-2", b"<p>A</p>") is False  # ...same bytes kept
    assert writer.write("cases/A.html", "in-3", b"<p>A2</p>") is True
    assert (site / "cases/A.html").read_bytes() == b"<p>A2</p>"
    assert writer.written == ["cases/A.html"]


def test_a_page_no_longer_rendered_is_removed_and_other_files_are_kept(tmp_path):
    site, manifest = tmp_path / "site", tmp_path / "m.json"
    writer = PageWriter(site, manifest, "c")
    writer.write("versions/a/v1.html", "1", b"v1")
    writer.write("index.html", "1", b"i")
    writer.save(manifest)
    (site / "CNAME").write_text("example.org")
    writer = PageWriter(site, manifest, "c")
    writer.write("index.html", "2", b"i2")
    assert writer.remove_dropped() == ["versions/a/v1.html"]
    assert not (site / "versions").exists()  # emptied folders go too
    assert (site / "CNAME").read_text() == "example.org"


def test_a_killed_runs_staging_files_go_when_a_page_is_written_in_their_folder(tmp_path):
    """write_bytes_atomic stages a page as .<name>.<pid>.tmp beside it; a killed run
    leaves it there. The next job writing a page into that folder removes every such
    file (each site folder has one writer), and nothing else."""
    site, manifest = tmp_path / "site", tmp_path / "m.json"
    (site / "cases").mkdir(parents=True)
    (site / "versions").mkdir()
    left = [site / "cases/.B.html.123.tmp", site / "cases/.A.html.9.tmp"]
    other = [site / "cases/.keep", site / "cases/B.tmp", site / "versions/.A.html.9.tmp"]
    for path in left + other:
        path.write_bytes(b"x")
    writer = PageWriter(site, manifest, "c")
    assert writer.write("cases/A.html", "1", b"a") is True
    assert not any(path.exists() for path in left)
    assert all(path.exists() for path in other)
    assert sorted(path.name for path in (site / "cases").iterdir()) == [".keep", "A.html", "B.tmp"]


def test_stale_staging_files_of_named_files_only(tmp_path):
    for name in (".a.csv.1.tmp", ".a.csv.22.tmp", ".b.csv.1.tmp", "a.csv", ".a.csv.tmp.x"):
        (tmp_path / name).write_bytes(b"x")
    remove_stale_staging(tmp_path, ["a.csv"])
    assert sorted(p.name for p in tmp_path.iterdir()) == [".a.csv.tmp.x", ".b.csv.1.tmp", "a.csv"]
    remove_stale_staging(tmp_path / "missing", ["a.csv"])  # no folder: nothing to do


def test_a_damaged_or_moved_site_drops_the_manifest(tmp_path):
    site, manifest = tmp_path / "site", tmp_path / "m.pages.json"
    writer = PageWriter(site, manifest, "c")
    writer.write("index.html", "1", b"index")
    writer.write("cases/A.html", "1", b"a")
    writer.save(manifest)
    assert drop_outdated_manifests(site, [manifest]) == []
    assert manifest.exists()
    (site / "cases/A.html").write_bytes(b"edited")
    (messages,) = [drop_outdated_manifests(site, [manifest])]
    assert len(messages) == 1 and "cases/A.html not as the workflow wrote it" in messages[0]
    assert not manifest.exists()
    writer = PageWriter(site, manifest, "c")
    writer.write("index.html", "1", b"index")
    writer.save(manifest)
    assert drop_outdated_manifests(tmp_path / "elsewhere", [manifest]) == [
        f"site: {tmp_path / 'elsewhere'} does not exist (any more); building it anew"
    ]
    writer = PageWriter(site, manifest, "c")
    writer.write("index.html", "1", b"index")
    writer.save(manifest)
    other = tmp_path / "other"
    other.mkdir()
    assert "the site folder changed" in drop_outdated_manifests(other, [manifest])[0]


@pytest.mark.parametrize("code", LANGUAGES)
def test_markup_in_corpus_text_is_escaped_on_the_pages(code):
    summary = ["atlas", PROBE, 1, 0, 0, 1, 1, 0, "0.0", "10.0", "0.04", "0.2", "0.5", "0.4", "Q"]
    page, parts, case = site_pages(PROBE, PROBE, summary, EDITIONS[code])
    matrix_row = parts.matrix_row[code]
    escaped = "&lt;script&gt;alert(1)&lt;/script&gt;&quot;&amp;&#x27;"
    for html in (page, case, matrix_row):
        assert "<script>alert" not in html
        assert html.count("<script>") == (0 if html is matrix_row else 1)
        assert escaped in html
    # The version (title, heading), the 6 justifications, the fail's reviewer words and
    # the answer's 9 texts: on the English page all of them, on the Spanish one only its
    # served model (the others are on the English page only).
    assert page.count(escaped) == {"en": 2 + 6 + 1 + 9, "es": 2 + 6 + 1 + 1}[code]
    # The quote: the span up to PROBE's own closing apostrophe, found in main_hypothesis.
    found = version_run(PROBE, PROBE).evidence[0]
    assert found == ("main_hypothesis", '<script>alert(1)</script>"&', "exact", 1.0)
    assert '<q class="quote">&lt;script&gt;alert(1)&lt;/script&gt;&quot;&amp;</q>' in page


def test_a_partitions_parts_are_read_back_as_written(tmp_path):
    """One small JSON file per partition: each version's parts as an array in field
    order, its cases' parts as [counts, the SHA-256 of its rows in every language]."""
    path = tmp_path / "partition-0.parts.json"
    assert read_version_parts(path) is None  # a first run
    rows = {"es": "<tr>S</tr>", "en": "<tr>F</tr>"}
    digest = "4ff7db6ba83acb27802e5e7f13679dd2e8f2656c3471eebcb2e626e99128d3a6"
    assert rows_digest(rows) == digest  # of b'{"en":"<tr>F</tr>","es":"<tr>S</tr>"}'
    parts = [
        VersionParts(
            "atlas",
            "v1",
            "in-1",
            {"en": "<tr>A</tr>", "es": "<tr>a</tr>"},
            {"RO-FOUL-001": CasePart([1, 0, 0, 1, 1], digest)},
        ),
        VersionParts("birch", "v2", "in-2", {"en": "<tr>B</tr>", "es": "<tr>b</tr>"}, {}),
    ]
    write_version_parts(path, parts)
    assert path.read_bytes() == (
        b'{"version_parts":[["atlas","v1","in-1",{"en":"<tr>A</tr>","es":"<tr>a</tr>"},'
        b'{"RO-FOUL-001":[[1,0,0,1,1],"' + digest.encode() + b'"]}],'
        b'["birch","v2","in-2",{"en":"<tr>B</tr>","es":"<tr>b</tr>"},{}]]}\n'
    )
    assert read_version_parts(path) == parts
    assert read_version_parts(path)[0].cases["RO-FOUL-001"].counts == [1, 0, 0, 1, 1]


def test_a_partitions_rows_file_of_a_case_is_written_only_when_its_bytes_change(tmp_path):
    """partition-N.cases/<case_id>.json beside partition-N.parts.json: the versions'
    rows of the case as arrays [subject_id, subject_version, rows by language code]."""
    path = case_rows_path(tmp_path / "partition-3.parts.json", "RO-FOUL-001")
    assert path == tmp_path / "partition-3.cases" / "RO-FOUL-001.json"
    assert read_case_rows(path) is None
    rows = [
        VersionRows("atlas", "v1", {"en": "<tr>F</tr>", "es": "<tr>S</tr>"}),
        VersionRows("birch", "v2", {"en": "<tr>B</tr>", "es": "<tr>b</tr>"}),
    ]
    assert write_case_rows(path, rows) is True
    assert path.read_bytes() == (
        b'{"case_rows":[["atlas","v1",{"en":"<tr>F</tr>","es":"<tr>S</tr>"}],'
        b'["birch","v2",{"en":"<tr>B</tr>","es":"<tr>b</tr>"}]]}\n'
    )
    assert read_case_rows(path) == rows
    os.utime(path, ns=(1_000_000_000, 1_000_000_000))
    assert write_case_rows(path, rows) is False  # the same bytes: not written
    assert path.stat().st_mtime_ns == 1_000_000_000
    assert write_case_rows(path, rows[:1]) is True
    assert read_case_rows(path) == rows[:1]
    assert sorted(p.name for p in path.parent.iterdir()) == ["RO-FOUL-001.json"]


@pytest.mark.parametrize("code", LANGUAGES)
def test_a_case_page_joins_its_versions_rows_in_the_order_given(code):
    """The case pages job hands each version's part of the case and its rows, by
    subject_id and subject_version; the page shows their rows in that order, in its
    edition, and the sums of their counts."""
    rows = [
        {"en": "<tr>a-en</tr>", "es": "<tr>a-es</tr>"},
        {"en": "<tr>b-en</tr>", "es": "<tr>b-es</tr>"},
    ]
    parts = [
        CasePart([2, 1, 1, 0, 0], rows_digest(rows[0])),
        CasePart([1, 0, 0, 1, 1], rows_digest(rows[1])),
    ]
    page = render_case_page(
        case_id="RO-FOUL-001",
        gold=SITE_GOLD,
        parts=parts,
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
