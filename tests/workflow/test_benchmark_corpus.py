"""The workflow on the benchmark's own public v1.0 corpus, the data our users have.

../shared/benchmark-v1.0 (or the folder named by BENCHMARK_V1_DIR: CI on GitHub builds
it from the benchmark's repository, .github/workflows/ci.yml) holds the corpus and the
CSVs the benchmark published from it. The workflow runs on a copy of the corpus (never
writing beside the repository), and:
- reports no problem and exits 0;
- publishes per_run.csv and metrics_per_subject.csv byte-identical to the benchmark's,
  metrics_per_family.csv equal to its once our subject_version column is dropped;
- publishes one critical_fails.csv row per critical fail of the scorings (counted here
  from the scorings), each quote it finds standing in the response field it names;
- builds a site with no broken link, on which no text is cut and no key column hidden:
  every page of both editions, measured in Chromium at 1280 and 390 px
  (browser.OVERFLOW_PROBLEMS; the report is copied to /tmp/site-overflow.txt), and
  whose case pages show the case statements of the corpus;
- replayed incrementally (a third of the scorings held back, then added back in two
  batches), publishes after each batch exactly what a cold run on the same files does.
"""

import json
import os
import re
from collections import Counter
from pathlib import Path

import pytest

from browser import OVERFLOW_PROBLEMS, require_chromium, shared_browser
from site_links import link_check
from workflow_runs import REPO, read_csv, run_workflow, tree_digest, workflow_copy, writable_copy

BENCHMARK = Path(
    os.environ.get("BENCHMARK_V1_DIR") or REPO.parent / "shared" / "benchmark-v1.0"
).resolve()
pytestmark = pytest.mark.skipif(
    not (BENCHMARK / "corpus").is_dir(),
    reason=f"the benchmark's v1.0 data is not at {BENCHMARK} "
    "(../shared/benchmark-v1.0, or set BENCHMARK_V1_DIR)",
)
PUBLISHED = BENCHMARK / "published"
SCORINGS = Path("scoring/v1.0")


def assert_accepted(run, *, unscored: int = 0) -> None:
    """Exit 0, no problem, no traceback; no warning but the one for `unscored` responses
    without a scoring."""
    assert run.returncode == 0, run.output
    counts = re.findall(r"(\d+) problem\(s\)", run.output)
    assert set(counts) <= {"0"}, run.output
    assert "The corpus has" not in run.output, run.output
    warnings = [line for line in run.output.splitlines() if "warning" in line.lower()]
    if unscored:
        assert len(warnings) == 1, run.output
        assert f"Warning: {unscored} response(s) have no scoring yet" in warnings[0]
    else:
        assert warnings == [], run.output
    assert "Traceback" not in run.output, run.output


@pytest.fixture(scope="module")
def benchmark_run(tmp_path_factory):
    """One run, then `snakemake site`, on a copy of the corpus; the tests only read it."""
    root = tmp_path_factory.mktemp("benchmark")
    corpus = writable_copy(BENCHMARK / "corpus", root / "corpus")
    workdir = workflow_copy(root / "workflow")
    config = {"corpus": corpus, "results": workdir / "out"}
    run = run_workflow(workdir, **config)
    site = run_workflow(workdir, "site", **config)
    return corpus, workdir / "out", workdir / "site", run, site


def test_the_benchmark_corpus_is_accepted_with_no_problem(benchmark_run):
    _, _, _, run, site = benchmark_run
    assert_accepted(run)
    assert_accepted(site)


@pytest.mark.parametrize("name", ["per_run.csv", "metrics_per_subject.csv"])
def test_the_published_table_is_byte_identical_to_the_benchmarks(benchmark_run, name):
    _, results, *_ = benchmark_run
    assert (results / name).read_bytes() == (PUBLISHED / name).read_bytes()


def test_the_family_table_is_the_benchmarks_with_our_subject_version_column(benchmark_run):
    _, results, *_ = benchmark_run
    ours = read_csv(results / "metrics_per_family.csv")
    for row in ours:
        del row["subject_version"]
    theirs = read_csv(PUBLISHED / "metrics_per_family.csv")
    assert ours == theirs
    assert len(ours) == 60


def critical_fails_of_the_scorings(corpus: Path) -> Counter:
    """(subject_id, subject_version, case_id, run_id, reviewer_id, fail type) of every
    critical fail the scorings trigger, with how many times each stands."""
    fails = Counter()
    for path in (corpus / SCORINGS).rglob("*.json"):
        scoring = json.loads(path.read_text("utf-8"))
        ref = scoring["response_ref"]
        for fail in scoring["automatic_fails_triggered"]:
            if fail["severity"] == "critical":
                key = (ref["subject_id"], ref["subject_version"], ref["case_id"], ref["run_id"])
                fails[(*key, scoring["reviewer_id"], fail["type"])] += 1
    return fails


def response_text(response: dict, field: str) -> str:
    """The text at a field path of critical_fails.csv: `main_hypothesis`,
    `key_signals[2]`, `alternatives[0].why_plausible`."""
    value = response
    for name, index in re.findall(r"(\w+)(?:\[(\d+)\])?", field):
        value = value[name]
        if index:
            value = value[int(index)]
    return value


def one_spaced(text: str) -> str:
    return " ".join(text.split())


def test_one_critical_fail_row_per_critical_fail_each_quote_in_its_field(benchmark_run):
    corpus, results, *_ = benchmark_run
    rows = read_csv(results / "critical_fails.csv")
    keys = ["subject_id", "subject_version", "case_id", "run_id", "reviewer_id", "fail_type"]
    expected = critical_fails_of_the_scorings(corpus)
    assert Counter(tuple(row[key] for key in keys) for row in rows) == expected
    assert sum(expected.values()) > 0
    quoted = 0
    for row in rows:
        if row["match"] == "none":
            assert row["quote"] == row["response_field"] == ""
            continue
        assert row["match"] in {"exact", "close"}
        name = f"{row['case_id']}__{row['run_id']}.json"
        response_path = corpus / "responses/v1.0" / row["subject_id"] / name
        response = json.loads(response_path.read_text("utf-8"))
        field = response_text(response, row["response_field"])
        assert one_spaced(row["quote"]) in one_spaced(field), row
        quoted += 1
    assert quoted > 0


def test_the_site_has_no_broken_link(benchmark_run):
    _, _, site, _, _ = benchmark_run
    broken, checked = link_check(site)
    assert broken == []
    # The index, the findings page, the findings report's page, a page per scored version
    # (12) and per case (31), in both languages.
    assert len(list(site.rglob("*.html"))) == 2 * (3 + 12 + 31)
    assert checked > 2 * 372  # at least each run's link on its case page, in each edition


OVERFLOW_REPORT = Path("/tmp/site-overflow.txt")  # noqa: S108 - for a human to read


def test_no_text_is_cut_and_no_key_column_hidden_at_1280_or_390_px(benchmark_run):
    """Every page of the site (both editions, every kind: the index, findings, report,
    case and version pages) in a window 1280 and then 390 px wide: no element reaches
    past the page's edge, no box cuts its text, and a box that scrolls sideways is a
    table whose first column stays in view, with a scroll cue, on a phone only (the
    index's matrix at every width)."""
    require_chromium()
    _, _, site, *_ = benchmark_run
    pages = sorted(path.relative_to(site).as_posix() for path in site.rglob("*.html"))
    kinds = {re.sub(r"^es/", "", page).split("/")[0] for page in pages}
    assert kinds == {"index.html", "findings.html", "report.html", "cases", "versions"}
    browser, lines, found = shared_browser(), [], []
    for page in pages:
        for width in (1280, 390):
            problems = browser.evaluate(site / page, OVERFLOW_PROBLEMS, width)
            lines.append(f"{page} at {width} px: {'; '.join(problems) or 'nothing cut or hidden'}")
            found += [(page, width, problem) for problem in problems]
    OVERFLOW_REPORT.write_text(
        f"{len(pages)} pages x 2 widths, {len(found)} problem(s)\n" + "\n".join(lines) + "\n",
        "utf-8",
    )
    assert found == []


def test_a_case_page_shows_its_statement_in_both_editions(benchmark_run):
    """RO-NOWE-002's statement (the corpus' Markdown) on its case page, as written, in
    each edition: its plant context, its operational data table (a cell labelled with its
    column for a phone's card) and its recent history; every case of v1.0 is public."""
    corpus, _, site, *_ = benchmark_run
    if not (corpus / "cases").is_dir():  # benchmark_data.py copies it where the checkout has it
        pytest.skip("this copy of the benchmark's corpus has no cases/ folder")
    statement = (corpus / "cases/v1.0/RO-NOWE-002.md").read_text("utf-8")
    assert "Planta BWRO en cooperativa agrícola del valle del Guadalquivir" in statement
    for page, heading in (("cases", "The case as posed"), ("es/cases", "El caso planteado")):
        html = (site / page / "RO-NOWE-002.html").read_text("utf-8")
        assert f"<h2>{heading}</h2>" in html
        assert "<p>Planta BWRO en cooperativa agrícola del valle del Guadalquivir" in html
        assert '<td data-label="Valor actual (post-arranque)">850 µS/cm</td>' in html
        assert (
            "<li>Día -10: Parada del bastidor por mantenimiento eléctrico programado.</li>" in html
        )
        # The statement comes before the runs.
        assert html.index('id="statement"') < html.index('id="runs"')
    not_public = [
        path.name
        for path in (site / "cases").glob("*.html")
        if "statement of this case is not public" in path.read_text("utf-8")
    ]
    assert not_public == []


def test_an_incremental_replay_publishes_what_a_cold_run_does(tmp_path):
    """A third of the scorings held back, then added back in two batches (moved in,
    their dates kept, as a copy that keeps dates would bring them): after every run,
    the published files equal those of a cold run on the same files."""
    corpus = writable_copy(BENCHMARK / "corpus", tmp_path / "corpus")
    held = tmp_path / "held"
    scorings = sorted((corpus / SCORINGS).rglob("*.json"))
    held_back = scorings[::3]
    assert len(held_back) == 124  # of 372
    for path in held_back:
        (held / path.relative_to(corpus)).parent.mkdir(parents=True, exist_ok=True)
        path.rename(held / path.relative_to(corpus))
    batches = [[], held_back[: len(held_back) // 2], held_back[len(held_back) // 2 :]]

    workdir = workflow_copy(tmp_path / "incremental")
    for number, batch in enumerate(batches):
        for path in batch:
            (held / path.relative_to(corpus)).rename(path)
        unscored = len(held_back) - sum(len(b) for b in batches[1 : number + 1])
        run = run_workflow(workdir, corpus=corpus, results=workdir / "out")
        assert_accepted(run, unscored=unscored)
        cold = workflow_copy(tmp_path / f"cold-{number}")
        cold_run = run_workflow(cold, corpus=corpus, results=cold / "out")
        assert_accepted(cold_run, unscored=unscored)
        incremental_files = tree_digest(workdir / "out")
        assert incremental_files == tree_digest(cold / "out"), f"after batch {number}"
        assert len(read_csv(workdir / "out" / "per_run.csv")) == 372 - unscored
    assert (workdir / "out" / "per_run.csv").read_bytes() == (
        PUBLISHED / "per_run.csv"
    ).read_bytes()
