"""The site's files (ro_metrics.publishing.site_files) and its pages' escaping.

- page names: safe on every file system, one page per subject version, links relative;
- PageWriter: a page is written only when its bytes change, a page whose inputs did not
  change is not even rendered, a page removed from the site is deleted (only if the
  workflow wrote it);
- drop_outdated_manifests: a page deleted or edited by hand, or another site folder,
  drops its job's manifest;
- update_case_rows: a partition renders again only the case rows that changed, and a
  case's rows read back are the ones written;
- a subject version or corpus text holding markup is escaped on the pages, in every
  language.
"""

import hashlib
import os

import pytest

from ro_metrics.contracts.files import remove_stale_staging
from ro_metrics.contracts.records import (
    CasePart,
    CaseRegion,
    PartitionParts,
    VersionParts,
    read_page_manifest,
)
from ro_metrics.publishing.site_files import (
    PageWriter,
    block_rows,
    case_page,
    case_rows_file,
    drop_outdated_manifests,
    edition_page,
    href,
    read_region,
    region_bytes,
    run_anchor,
    update_case_rows,
    version_entry,
    version_page,
)
from ro_metrics.publishing.site_pages import (
    EDITIONS,
)
from ro_metrics.publishing.translations import LANGUAGES
from site_records import site_pages, version_run

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


def _version(subject_id: str, rows: dict[str, str]) -> VersionParts:
    """A version whose rows of each case are rows[case_id] in English and, upper-cased,
    in Spanish (its digest is the text)."""
    cases = {
        case_id: CasePart(html, [1, 1, 0, 0, 0], {"es": html.upper(), "en": html})
        for case_id, html in rows.items()
    }
    return VersionParts(subject_id, "v1", "in", {"en": "<tr></tr>"}, cases)


def _update(parts_path, versions, previous):
    """update_case_rows for these VersionParts; the versions it had to render (parts_of)."""
    asked = []

    def parts_of(subject_id, subject_version):
        asked.append(subject_id)
        return next(v for v in versions if v.subject_id == subject_id)

    entries = [version_entry(v) for v in versions]
    case_rows, written = update_case_rows(parts_path, entries, previous, parts_of)
    return PartitionParts(entries, case_rows), written, asked


def _rows(parts_path, parts, case_id):
    """(subject_id, English rows, Spanish rows) of each version with rows of the case,
    as the case pages job reads them."""
    region = parts.case_rows[case_id]
    handle = os.open(case_rows_file(parts_path), os.O_RDONLY)
    try:
        rows = block_rows(read_region(handle, region), region.blocks)
    finally:
        os.close(handle)
    return [
        (block.subject_id, by_edition["en"].decode(), by_edition["es"].decode())
        for block, by_edition in zip(region.blocks, rows, strict=True)
    ]


def test_a_partition_rewrites_only_the_case_rows_that_changed(tmp_path):
    parts_path = tmp_path / "partition-0.parts.json"
    assert case_rows_file(parts_path) == tmp_path / "partition-0.rows"
    # The earlier layout's case rows files (one per case) are removed.
    (tmp_path / "partition-0.cases").mkdir()
    (tmp_path / "partition-0.cases/RO-FOUL-001.json").write_text("{}")
    a = _version("a", {"RO-FOUL-001": "a1", "RO-FOUL-002": "a2"})
    b = _version("b", {"RO-FOUL-001": "b1"})
    first, written, asked = _update(parts_path, [b, a], None)
    assert written == ["RO-FOUL-001", "RO-FOUL-002"] and asked == ["a", "b", "a"]
    # Case by case, version by version, each version's rows in each edition (en, es).
    assert case_rows_file(parts_path).read_bytes() == b"a1A1b1B1a2A2"
    assert first.case_rows["RO-FOUL-001"][:2] == (0, 8)
    assert first.case_rows["RO-FOUL-002"][:2] == (8, 4)
    assert first.case_rows["RO-FOUL-001"].blocks[1] == ("b", "v1", "b1", [1, 1, 0, 0, 0],
                                                        {"en": 2, "es": 2})  # fmt: skip
    assert _rows(parts_path, first, "RO-FOUL-001") == [("a", "a1", "A1"), ("b", "b1", "B1")]
    assert sorted(path.name for path in tmp_path.iterdir()) == ["partition-0.rows"]

    # b's row of RO-FOUL-001 changes: only it is rendered, a's rows come from the file.
    b2 = _version("b", {"RO-FOUL-001": "b1 new"})
    second, written, asked = _update(parts_path, [a, b2], first)
    assert written == ["RO-FOUL-001"] and asked == ["b"]
    assert case_rows_file(parts_path).read_bytes() == b"a1A1b1 newB1 NEWa2A2"
    assert second.case_rows["RO-FOUL-002"] == first.case_rows["RO-FOUL-002"]._replace(offset=16)
    assert _rows(parts_path, second, "RO-FOUL-001") == [
        ("a", "a1", "A1"),
        ("b", "b1 new", "B1 NEW"),
    ]

    # Nothing changed: nothing rendered, the file left as it is.
    kept = os.stat(case_rows_file(parts_path))
    assert _update(parts_path, [a, b2], second)[1:] == ([], [])
    assert os.stat(case_rows_file(parts_path)).st_mtime_ns == kept.st_mtime_ns

    # A region changed in the cache is not used: its versions' rows are rendered anew.
    content = case_rows_file(parts_path).read_bytes()
    case_rows_file(parts_path).write_bytes(content.replace(b"a2A2", b"x2A2"))
    third, written, asked = _update(parts_path, [a, b2], second)
    assert written == ["RO-FOUL-002"] and asked == ["a"]
    assert _rows(parts_path, third, "RO-FOUL-002") == [("a", "a2", "A2")]
    # So is a removed file: every version's rows are rendered anew.
    case_rows_file(parts_path).unlink()
    fourth, written, asked = _update(parts_path, [a, b2], third)
    assert written == ["RO-FOUL-001", "RO-FOUL-002"] and asked == ["a", "b", "a"]
    assert case_rows_file(parts_path).read_bytes() == content

    # A case without rows in the partition any more leaves the file.
    a2 = _version("a", {"RO-FOUL-001": "a1"})
    fifth, written, _ = _update(parts_path, [a2, b2], fourth)
    assert written == [] and set(fifth.case_rows) == {"RO-FOUL-001"}
    assert case_rows_file(parts_path).read_bytes() == b"a1A1b1 newB1 NEW"


def test_a_case_region_is_read_only_as_it_was_written(tmp_path):
    path = tmp_path / "partition-0.rows"
    path.write_bytes(b"xx<tr></tr>yy")
    region = CaseRegion(2, 9, hashlib.sha256(b"<tr></tr>").hexdigest(), [])
    handle = os.open(path, os.O_RDONLY)
    try:
        assert read_region(handle, region) == b"<tr></tr>"
        path.write_bytes(b"xx<tr ></tr>yy")  # the same file (inode), changed
        assert read_region(handle, region) is None
        path.write_bytes(b"xx<tr>")  # shorter than the region
        assert read_region(handle, region) is None
    finally:
        os.close(handle)
    assert region_bytes(b"xx<tr></tr>", region) == b"<tr></tr>"
    assert region_bytes(b"", region) is None
