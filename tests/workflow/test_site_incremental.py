"""The site is incremental: one added scoring rewrites only the pages it touches.

After a full `snakemake site`, adding the scoring of one unscored response (atlas-7b,
RO-NOWE-006, run-2026-05-12-001) must plan exactly one subject-version pages job (the
partition of atlas-7b) and the case pages and index job, and must rewrite exactly five
pages in each language: atlas-7b's version page, the case page of RO-NOWE-006, the
index, the findings page and the findings report's page (their numbers move), at the
root and under es/; every other file of site/ keeps its bytes, inode and
mtime, and in the cache only that partition's parts file and its rows file of the case
are rewritten. Also: a rerun with no change does nothing; a page deleted or edited by
hand is restored by the next run; a parts file or rows files removed from the cache are
written again without changing a page; a version whose scorings all disappear loses its
page.
"""

import json
import os
import time

import pytest

from ro_metrics.contracts.records import read_version_parts
from ro_metrics.corpus.layout import partition_of
from ro_metrics.site.site_files import case_page, version_page
from workflow_runs import (
    EIGHT_PARTITIONS,
    ONE_PARTITION,
    Plan,
    corpus_copy,
    plan,
    planned_jobs,
    run_workflow,
    workflow_copy,
)

UNSCORED = ("atlas-7b", "RO-NOWE-006", "run-2026-05-12-001")
METRICS = {"load_partition", "cross_check", "per_run", "metrics_per_subject"}
METRICS |= {"metrics_per_family", "uncertainty", "findings", "publish", "findings_report"}
# The pages one added scoring rewrites (see the module docstring).
TOUCHED = [
    "cases/RO-NOWE-006.html",
    "es/cases/RO-NOWE-006.html",
    "es/findings.html",
    "es/index.html",
    "es/report.html",
    "es/versions/atlas-7b/atlas-7b-2026-03-q4.html",
    "findings.html",
    "index.html",
    "report.html",
    "versions/atlas-7b/atlas-7b-2026-03-q4.html",
]


def state(site):
    """Relative path → (inode, mtime_ns, size) of every file of the site."""
    return {
        path.relative_to(site).as_posix(): (path.stat().st_ino, path.stat().st_mtime_ns)
        for path in sorted(site.rglob("*"))
        if path.is_file()
    }


def changed(before, after):
    return sorted(
        name for name in before.keys() | after.keys() if before.get(name) != after.get(name)
    )


def build(tmp_path, partitions: dict):
    workdir = workflow_copy(tmp_path / "workflow")
    corpus = corpus_copy(tmp_path / "corpus")
    config = {"corpus": corpus, "results": workdir / "results", **partitions}
    run = run_workflow(workdir, "site", **config)
    assert run.returncode == 0, run.output
    return workdir, corpus, config


@pytest.fixture
def built(tmp_path):
    """A site built on 8 partitions, for the tests of what one partition's job rewrites."""
    return build(tmp_path, EIGHT_PARTITIONS)


@pytest.fixture
def built_on_one(tmp_path):
    """A site built on one partition (16 jobs fewer), for the tests that do not depend on
    how the corpus is split."""
    return build(tmp_path, ONE_PARTITION)


def add_scoring(corpus):
    subject_id, case_id, run_id = UNSCORED
    folder = corpus / "scoring/v1.0" / subject_id
    template = folder / "RO-NOWE-005__run-2026-05-12-001__eval-R03.json"
    document = json.loads(template.read_text("utf-8"))
    document["response_ref"].update(case_id=case_id, run_id=run_id)
    # An evaluation_id of its own: a duplicate is refused (validation-rules.md).
    document["evaluation_id"] = f"eval-{subject_id}-{case_id}-{run_id}-R03"
    (folder / f"{case_id}__{run_id}__eval-R03.json").write_text(json.dumps(document), "utf-8")


def test_one_added_scoring_rewrites_its_version_page_its_case_page_and_the_index(built):
    workdir, corpus, config = built
    site = workdir / "site"
    assert planned_jobs(workdir, "site", **config) == {}
    before = state(site)
    # index, findings, report, 5 version pages, 30 case pages; in English and Spanish
    assert len(before) == 76

    add_scoring(corpus)
    (cache,) = (workdir / ".cache").glob("*/site")
    cache_before = state(cache)
    started = time.time_ns()
    run = run_workflow(workdir, "site", **config)
    assert run.returncode == 0, run.output
    # What the run planned (and ran): its job stats and the wildcards of its jobs.
    ran = Plan(run.output)
    assert ran.jobs() == dict.fromkeys(METRICS, 1) | {
        "version_pages": 1,
        "case_pages_and_index": 1,
        "site": 1,
    }
    partition = f"partition={partition_of('atlas-7b', 8)}"
    assert ran.wildcards("load_partition") == [partition]
    assert ran.wildcards("version_pages") == [partition]
    assert changed(before, state(site)) == TOUCHED
    # In the cache, of the partitions' parts files only atlas-7b's partition's.
    mine = f"partition-{partition_of('atlas-7b', 8)}"
    parts_files = [
        name for name in changed(cache_before, state(cache)) if name.endswith(".parts.json")
    ]
    assert parts_files == [f"{mine}.parts.json"]
    rows_files = [name for name in changed(cache_before, state(cache)) if ".cases/" in name]
    assert rows_files == [f"{mine}.cases/RO-NOWE-006.json"]
    # The logs of the jobs that ran name exactly the pages they wrote.
    (logs,) = (workdir / ".cache").glob("*/logs")
    ran = [log for log in logs.glob("*pages*.log") if log.stat().st_mtime_ns >= started]
    assert sorted(log.name for log in ran) == [
        "case_pages_and_index.log",
        f"version_pages-{partition_of('atlas-7b', 8)}.log",
    ]
    written = [
        line.split("written: ", 1)[1]
        for log in ran
        for line in log.read_text("utf-8").splitlines()
        if "written: " in line
    ]
    assert sorted(written) == TOUCHED
    for edition in (site, site / "es"):
        page = (edition / version_page("atlas-7b", "atlas-7b-2026-03-q4")).read_text("utf-8")
        assert 'id="RO-NOWE-006__run-2026-05-12-001"' in page
        assert "atlas-7b-2026-03-q4" in (edition / case_page("RO-NOWE-006")).read_text("utf-8")
    assert planned_jobs(workdir, "site", **config) == {}


def test_a_page_deleted_or_edited_by_hand_is_restored(built_on_one):
    workdir, _, config = built_on_one
    site = workdir / "site"
    page = site / version_page("cirrus-reasoner", "cirrus-reasoner-r1")
    original = page.read_bytes()
    spanish = site / "es" / version_page("cirrus-reasoner", "cirrus-reasoner-r1")
    spanish_original = spanish.read_bytes()
    case = site / case_page("RO-OXID-001")
    case_original = case.read_bytes()
    page.unlink()
    spanish.unlink()  # the same job's (one manifest a job, every language in it)
    case.write_bytes(case_original.replace(b"RO-OXID-001", b"EDITED", 1))
    # Found when the workflow starts (a dry run included): the two jobs will run again.
    dry = plan(workdir, "site", **config)
    assert dry.output.count("not as the workflow wrote it (missing or edited)") == 2, dry.output
    assert dry.jobs() == {"version_pages": 1, "case_pages_and_index": 1, "site": 1}
    run = run_workflow(workdir, "site", **config)
    assert run.returncode == 0, run.output
    assert page.read_bytes() == original
    assert spanish.read_bytes() == spanish_original
    assert case.read_bytes() == case_original
    assert planned_jobs(workdir, "site", **config) == {}


def test_a_parts_file_removed_from_the_cache_is_written_again(built):
    """A partition's parts file is its job's output: removed, it is written again as soon
    as the case pages job runs (here for a scoring added in another partition), by its
    partition's job, which renders every version again (it has no last parts to keep);
    its versions' pages come out with the same bytes, so none of them is rewritten, and
    its rows files too (one removed is written again). A rows file removed from the
    partition that runs is written again as well: the versions with runs of its case are
    rendered again rather than kept."""
    workdir, corpus, config = built
    site = workdir / "site"
    (cache,) = (workdir / ".cache").glob("*/site")
    mine = partition_of("atlas-7b", 8)
    (removed, *_) = [
        path
        for path in sorted(cache.glob("partition-*.parts.json"))
        if path.name != f"partition-{mine}.parts.json" and read_version_parts(path)
    ]
    other = removed.name.removeprefix("partition-").removesuffix(".parts.json")
    written = removed.read_bytes()
    removed.unlink()
    # A rows file of that partition, and one of atlas-7b's partition (not of the case
    # the added scoring is of).
    (removed_rows, *_) = sorted(cache.glob(f"partition-{other}.cases/*.json"))
    (mine_rows,) = cache.glob(f"partition-{mine}.cases/RO-FOUL-001.json")
    rows_written = {path: path.read_bytes() for path in (removed_rows, mine_rows)}
    for path in rows_written:
        path.unlink()
    assert planned_jobs(workdir, "site", **config) == {}  # nothing needs it yet
    before = state(site)
    add_scoring(corpus)
    run = run_workflow(workdir, "site", **config)
    assert run.returncode == 0, run.output
    ran = Plan(run.output)
    assert sorted(ran.wildcards("version_pages")) == sorted(
        [f"partition={mine}", f"partition={other}"]
    )
    assert removed.read_bytes() == written
    assert {path: path.read_bytes() for path in rows_written} == rows_written
    assert changed(before, state(site)) == TOUCHED
    assert planned_jobs(workdir, "site", **config) == {}


def test_a_version_without_scorings_any_more_loses_its_page(built_on_one):
    workdir, corpus, config = built_on_one
    site = workdir / "site"
    page = site / version_page("expert-rules-ro", "ro-expert-rules-3.2.0")
    assert page.is_file()
    (site / "CNAME").write_text("bench.example.org\n")  # a file the workflow never wrote
    for scoring in (corpus / "scoring/v1.0/expert-rules-ro").glob("*.json"):
        scoring.unlink()
    run = run_workflow(workdir, "site", **config)
    assert run.returncode == 0, run.output
    spanish = site / "es" / version_page("expert-rules-ro", "ro-expert-rules-3.2.0")
    assert not page.exists() and not page.parent.exists()
    assert not spanish.exists() and not spanish.parent.exists()
    assert "expert-rules-ro" not in (site / "index.html").read_text("utf-8")
    assert "expert-rules-ro" not in (site / "es/index.html").read_text("utf-8")
    assert (site / "CNAME").read_text() == "bench.example.org\n"
    assert os.path.isfile(site / "index.html")


def test_a_corpus_problem_leaves_the_site_as_it_was(built_on_one):
    workdir, corpus, config = built_on_one
    site = workdir / "site"
    before = {p: p.read_bytes() for p in site.rglob("*") if p.is_file()}
    stamps = state(site)
    add_scoring(corpus)  # a change the site would show...
    bad = corpus / "responses/v1.0/atlas-7b/RO-NOWE-005__run-2026-05-12-001.json"
    bad.write_text(bad.read_text("utf-8").replace('"confidence": ', '"confidence": 1'), "utf-8")
    run = run_workflow(workdir, "site", **config)
    assert run.returncode != 0
    assert "RO-NOWE-005__run-2026-05-12-001.json: confidence" in run.output
    assert "Traceback" not in run.output
    # ...but the corpus has a problem: no page was written.
    assert {p: p.read_bytes() for p in site.rglob("*") if p.is_file()} == before
    assert state(site) == stamps
