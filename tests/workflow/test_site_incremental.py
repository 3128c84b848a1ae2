"""The site is incremental through the DAG, and the site folder holds exactly the pages
of the data it was last built from.

After a full `snakemake site` on 8 partitions, adding the scoring of one unscored
response (atlas-7b, RO-NOWE-006, run-2026-05-12-001) plans what the results need (the
plan of the default target) and, for the site, exactly: the version pages job of
atlas-7b's partition, the case sources and case pages jobs of the NOWE family, the
front pages and the site folder. The other partitions' and families' page folders in
the cache keep their files (inode and mtime). An edited case statement reruns the case
pages of its family only (and the corpus check). Also: a version whose scorings all
disappear loses its page and its rows on the case pages; a corpus problem leaves the
site as it was; a site folder built for another corpus holds only the new corpus's
pages afterwards.
"""

import json
import os
from pathlib import Path

import pytest

from ro_metrics.contracts.vocabulary import FAMILIES
from ro_metrics.corpus.layout import partition_of
from ro_metrics.site.site_files import case_page, version_page
from site_links import expected_site
from workflow_runs import (
    EIGHT_PARTITIONS,
    ONE_PARTITION,
    REPO,
    Plan,
    corpus_copy,
    files_below,
    plan,
    planned_jobs,
    run_workflow,
    workflow_copy,
)

# The benchmark's public v1.0 data, as tests/workflow/test_benchmark_corpus.py finds it.
BENCHMARK = Path(
    os.environ.get("BENCHMARK_V1_DIR") or REPO.parent / "shared" / "benchmark-v1.0"
).resolve()
UNSCORED = ("atlas-7b", "RO-NOWE-006", "run-2026-05-12-001")
# The site's own jobs after one added scoring (the results' chain aside): its
# partition's version pages, every family's case pages (the partition's rows of every
# family are one job's outputs), the front pages and the site folder.
SITE_JOBS = {"version_pages": 1, "case_pages": len(FAMILIES), "front_pages": 1}
SITE_JOBS |= {"site_folder": 1, "site": 1}


def state(folder):
    """Relative path → (inode, mtime_ns) of every file below a folder."""
    return {
        path.relative_to(folder).as_posix(): (path.stat().st_ino, path.stat().st_mtime_ns)
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def build(tmp_path, partitions: dict):
    workdir = workflow_copy(tmp_path / "workflow")
    corpus = corpus_copy(tmp_path / "corpus")
    config = {"corpus": corpus, "results": workdir / "results", **partitions}
    run = run_workflow(workdir, "site", **config)
    assert run.returncode == 0, run.output
    return workdir, corpus, config


@pytest.fixture
def built(tmp_path):
    """A site built on 8 partitions, for the tests of what one partition's job reruns."""
    return build(tmp_path, EIGHT_PARTITIONS)


@pytest.fixture
def built_on_one(tmp_path):
    """A site built on one partition (fewer jobs), for the tests that do not depend on
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


def test_one_added_scoring_reruns_its_partition_and_the_pages_of_every_partition(built):
    workdir, corpus, config = built
    site = workdir / "site"
    assert planned_jobs(workdir, "site", **config) == {}
    assert files_below(site) == expected_site(corpus, workdir / "results")
    (pages,) = (workdir / ".cache").glob("*/site")
    before = state(pages)

    add_scoring(corpus)
    results_jobs = planned_jobs(workdir, **config)
    planned = plan(workdir, "site", **config)
    assert planned.jobs() == results_jobs | SITE_JOBS
    partition = partition_of("atlas-7b", 8)
    assert planned.wildcards("version_pages") == [f"partition={partition}"]
    run = run_workflow(workdir, "site", **config)
    assert run.returncode == 0, run.output
    assert Plan(run.output).jobs() == planned.jobs()

    after = state(pages)
    rebuilt = (f"versions-{partition}/", "cases-", "front/")
    assert {name: ino for name, ino in before.items() if not name.startswith(rebuilt)} == {
        name: ino for name, ino in after.items() if not name.startswith(rebuilt)
    }
    assert files_below(site) == expected_site(corpus, workdir / "results")
    for edition in (site, site / "es"):
        page = (edition / version_page("atlas-7b", "atlas-7b-2026-03-q4")).read_text("utf-8")
        assert 'id="RO-NOWE-006__run-2026-05-12-001"' in page
        assert "atlas-7b-2026-03-q4" in (edition / case_page("RO-NOWE-006")).read_text("utf-8")
    assert planned_jobs(workdir, "site", **config) == {}


def test_an_edited_statement_reruns_its_familys_case_pages_and_the_check(built_on_one):
    """A case statement is an input of its family's case pages only (and of the corpus
    check): editing RO-FOUL-003's reruns cross_check (and the steps after it, whose
    results stay the same) and the FOUL case pages, no version page; the page shows it."""
    workdir, corpus, config = built_on_one
    statement = corpus / "cases/v1.0/RO-FOUL-003.md"
    text = statement.read_text("utf-8")
    statement.write_text(text.replace("## operational_data", "Edited line.\n\n## operational_data"))
    planned = plan(workdir, "site", **config)
    assert planned.wildcards("case_pages") == ["family=FOUL"]
    assert "cross_check" in planned.jobs() and "version_pages" not in planned.jobs()
    run = run_workflow(workdir, "site", **config)
    assert run.returncode == 0, run.output
    for edition in ("", "es/"):
        page = (workdir / "site" / edition / case_page("RO-FOUL-003")).read_text("utf-8")
        assert "<p>Edited line.</p>" in page


def test_a_gold_changed_before_the_site_is_built_reaches_every_page(built_on_one):
    """The results first (`snakemake`), then the site: the site's jobs see the new golds
    then, not in the run that made them; the case page shows the new case type too."""
    workdir, corpus, config = built_on_one
    gold = corpus / "golds/v1.0/RO-FOUL-001_gold.md"
    gold.write_text(gold.read_text("utf-8").replace('"Closed"', '"Open"', 1), "utf-8")
    run = run_workflow(workdir, **config)
    assert run.returncode == 0, run.output
    # The golds are one file: every family's case pages (a gold changes rarely).
    planned = plan(workdir, "site", **config)
    assert planned.wildcards("case_pages") == sorted(f"family={f}" for f in FAMILIES)
    run = run_workflow(workdir, "site", **config)
    assert run.returncode == 0, run.output
    for edition, word in (("", "Open"), ("es/", "Abierto")):
        page = (workdir / "site" / edition / case_page("RO-FOUL-001")).read_text("utf-8")
        assert f" · {word} · floor 4 · ceiling 12" in page.replace("suelo", "floor").replace(
            "techo", "ceiling"
        ), edition
    assert planned_jobs(workdir, "site", **config) == {}


def test_a_version_without_scorings_any_more_loses_its_page(built_on_one):
    workdir, corpus, config = built_on_one
    site = workdir / "site"
    page = site / version_page("expert-rules-ro", "ro-expert-rules-3.2.0")
    assert page.is_file()
    (site / "CNAME").write_text("bench.example.org\n")  # a file no job wrote: removed too
    for scoring in (corpus / "scoring/v1.0/expert-rules-ro").glob("*.json"):
        scoring.unlink()
    run = run_workflow(workdir, "site", **config)
    assert run.returncode == 0, run.output
    assert files_below(site) == expected_site(corpus, workdir / "results")
    assert not page.parent.exists() and not (site / "es/versions/expert-rules-ro").exists()
    # Every page, the case pages (of every family) included, is without it.
    for path in site.rglob("*.html"):
        assert "expert-rules-ro" not in path.read_text("utf-8"), path


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


@pytest.mark.skipif(
    not (BENCHMARK / "corpus").is_dir(), reason=f"the benchmark's v1.0 data is not at {BENCHMARK}"
)
def test_a_site_folder_built_for_another_corpus_keeps_none_of_its_pages(tmp_path):
    """The demo's site, then the benchmark's real corpus's into the same folder (each
    with its own results): the folder holds the real corpus's pages and nothing else."""
    workdir = workflow_copy(tmp_path / "workflow")
    site = tmp_path / "site"
    demo, real = corpus_copy(tmp_path / "demo"), BENCHMARK / "corpus"  # never written
    for corpus, results in ((demo, tmp_path / "demo-results"), (real, tmp_path / "results")):
        run = run_workflow(workdir, "site", corpus=corpus, results=results, site=site)
        assert run.returncode == 0, run.output
        assert files_below(site) == expected_site(corpus, results)
    demo_only = set(expected_site(demo, tmp_path / "demo-results")) - set(files_below(site))
    assert demo_only  # the demo's own pages (its versions) are gone
    assert all(os.path.basename(page).endswith(".html") for page in demo_only)
