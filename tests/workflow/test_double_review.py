"""The workflow on the double-reviewed demo corpus (make_demo_corpus.py --double-review,
reviewers_per_run=2): what it publishes (the tables, the leaderboard's flag on a version
with a pending critical-fail disagreement, the site's view of a run with three
scorings), and what one added arbiter's scoring reruns."""

import json
import re
import subprocess
import sys
from collections import Counter

from ro_metrics.contracts.records import read_partition_reviews
from ro_metrics.contracts.tables import (
    CONSOLIDATED_COLUMNS,
    COVERAGE_REVIEW_COLUMNS,
    LEADERBOARD_REVIEW_COLUMNS,
    PENDING_COLUMNS,
)
from workflow_runs import ONE_PARTITION, REPO, Plan, read_csv, run_workflow, workflow_copy

# A new scoring reruns its partition's load and per-run step (which consolidates) and
# metrics, and every global step (the arbiter's id and class are in the review pairs:
# the agreement).
RERUN = {"load_partition", "per_run", "metrics_per_subject", "metrics_per_family"}
RERUN |= {"cross_check", "metadata", "uncertainty", "agreement", "findings", "changes"}
RERUN |= {"leaderboard", "findings_report", "publish", "lifecycle_check"}


def scorings_per_run(corpus) -> Counter:
    """(subject folder, case__run) → its scoring files, counted from the file names: an
    independent count of what the consolidation must make of each run."""
    return Counter(
        (path.parent.name, path.name.split("__eval-")[0])
        for path in (corpus / "scoring/v1.0").glob("*/*.json")
    )


def flagged_versions(page: str) -> set[str]:
    """The versions whose leaderboard row carries the pending critical-fail flag."""
    rows = re.findall(r'<tr class="(?:eligible|disqualified)[^"]*" data-key="\d+">(.*?)</tr>', page)
    return {
        re.search(r'<td class="name"[^>]*>.*?<span class="ci">([^<]+)</span>', row)[1]
        for row in rows
        if 'class="ci review-flag"' in row
    }


def run_article(site, row) -> str:
    """A consolidated run's article on its version's page of the site (English)."""
    page = site / "versions" / row["subject_id"] / f"{row['subject_version']}.html"
    anchor = f"{row['case_id']}__{row['run_id']}"
    found = re.search(
        rf'<article class="run reviewed" id="{anchor}">(.*?)</article>', page.read_text("utf-8")
    )
    assert found, anchor
    return found[1]


def reviewer_in(heading: str) -> str:
    """The reviewer id of a scoring's heading (role, id, class badge)."""
    return re.search(r"</span> (\S+) <span", heading)[1]


def test_double_reviewed_demo_and_an_added_arbiter(tmp_path):
    workdir = workflow_copy(tmp_path / "workflow")
    corpus = tmp_path / "corpus"
    generator = REPO / "scripts/tools/make_demo_corpus.py"
    subprocess.run([sys.executable, generator, corpus, "--double-review"], check=True)
    results = workdir / "results"
    site = workdir / "site"
    config = {"corpus": corpus, "results": results, "reviewers_per_run": 2, **ONE_PARTITION}
    config["site"] = site
    run = run_workflow(workdir, "all", "site", **config)
    assert run.returncode == 0, run.output

    per_run_files = scorings_per_run(corpus)
    by_count = Counter(per_run_files.values())
    consolidated = read_csv(results / "per_run_consolidated.csv")
    pending = read_csv(results / "pending_runs.csv")
    assert list(consolidated[0]) == CONSOLIDATED_COLUMNS
    assert list(pending[0]) == PENDING_COLUMNS
    methods = Counter(row["method"] for row in consolidated)
    statuses = Counter(row["status"] for row in pending)
    # Three files: two primaries and an arbiter; one file: awaiting its second review;
    # two: the mean of agreeing primaries, or pending arbitration.
    assert methods["arbiter"] == by_count[3] > 0
    assert statuses["awaiting_second_review"] == by_count[1] > 0
    assert methods["mean_of_primaries"] + statuses["pending_arbitration"] == by_count[2]
    assert methods["mean_of_primaries"] > 0 and statuses["pending_arbitration"] > 0
    assert set(methods) == {"arbiter", "mean_of_primaries"}
    # per_run.csv keeps a row per scoring; the metrics count one per consolidated run.
    assert len(read_csv(results / "per_run.csv")) == sum(per_run_files.values())
    subjects = read_csv(results / "metrics_per_subject.csv")
    assert sum(int(row["n_runs"]) for row in subjects) == len(consolidated)

    coverage = read_csv(results / "coverage.csv")
    assert list(coverage[0]) == COVERAGE_REVIEW_COLUMNS
    assert (
        sum(int(row["n_pending_arbitration"]) for row in coverage)
        == statuses["pending_arbitration"]
    )
    for row in coverage:
        parts = ["n_scored", "n_unscored", "n_pending_arbitration", "n_awaiting_second_review"]
        assert int(row["n_responses"]) == sum(int(row[name]) for name in parts)
    leaderboard = read_csv(results / "leaderboard.csv")
    assert list(leaderboard[0]) == LEADERBOARD_REVIEW_COLUMNS
    # Flagged: a critical-fail disagreement pending arbitration, or a critical fail
    # raised on a run awaiting its second review.
    critical_versions = {
        row["subject_version"]
        for row in pending
        if row["critical_disagreement"] == "True" or row["critical_fail_by"]
    }
    assert critical_versions
    assert {
        row["subject_version"] for row in leaderboard if row["pending_critical_fail"] == "True"
    } == critical_versions
    # The leaderboard (page and the site's index) flags exactly those versions.
    for page in (
        results / "leaderboard.html",
        results / "leaderboard.es.html",
        site / "index.html",
    ):
        assert flagged_versions(page.read_text("utf-8")) == critical_versions, page
    assert "Inter-reviewer agreement on the" in (results / "leaderboard.html").read_text("utf-8")
    # A run with three scorings: its article shows all three, the arbiter's counts.
    arbitrated = next(row for row in consolidated if row["method"] == "arbiter")
    article = run_article(site, arbitrated)
    scorings = re.findall(r'<div class="scoring ([a-z ]+)"><h4>(.*?)</h4>', article)
    primaries = arbitrated["primary_ids"].split(";")
    assert [(css, reviewer_in(head)) for css, head in scorings] == [
        ("primary", primaries[0]),
        ("primary", primaries[1]),
        ("arbiter counts", arbitrated["arbiter_id"]),
    ]
    assert f"the arbiter's scoring ({arbitrated['arbiter_id']}), whole" in article
    mean = next(row for row in consolidated if row["method"] == "mean_of_primaries")
    assert "the mean of the two primaries" in run_article(site, mean)

    pairs = [
        pair
        for path in (tmp_path / "workflow/.cache").glob("*/partitions/*/reviews.json")
        for pair in read_partition_reviews(path).pairs
    ]
    assert len(pairs) == by_count[2] + by_count[3]

    # The arbiter R04 scores the first run pending arbitration: its partition, the
    # consolidation and what follows rerun, nothing else, and the run now counts.
    target = next(row for row in pending if row["status"] == "pending_arbitration")
    folder = corpus / "scoring/v1.0" / target["subject_id"]
    first = target["primary_ids"].split(";")[0]
    name = f"{target['case_id']}__{target['run_id']}"
    document = json.loads((folder / f"{name}__eval-{first}.json").read_text("utf-8"))
    document.update(
        reviewer_id="R04",
        evaluation_id=f"eval-{target['case_id']}-{target['run_id']}-R04",
        scoring_timestamp_utc="2026-06-30T12:00:00Z",
    )
    (folder / f"{name}__eval-R04.json").write_text(json.dumps(document), "utf-8")
    run = run_workflow(workdir, **config)
    assert run.returncode == 0, run.output
    assert Plan(run.output).jobs() == dict.fromkeys(RERUN, 1)
    arbitrated = [
        row
        for row in read_csv(results / "per_run_consolidated.csv")
        if (row["subject_id"], row["case_id"], row["run_id"])
        == (target["subject_id"], target["case_id"], target["run_id"])
    ]
    assert [(row["method"], row["arbiter_id"]) for row in arbitrated] == [("arbiter", "R04")]
    assert len(read_csv(results / "pending_runs.csv")) == len(pending) - 1


def test_review_errors_are_reported_together(tmp_path):
    # Three errors in three runs, one line each with the file and the rule, one run: a
    # third primary (R05, registered as primary only, on a run of R01 and R03, both
    # primary only), an unregistered reviewer (R09), and an arbiter (R04) on a run whose
    # primaries agree (a policy change would do it: named, an error by default).
    workdir = workflow_copy(tmp_path / "workflow")
    corpus = tmp_path / "corpus"
    generator = REPO / "scripts/tools/make_demo_corpus.py"
    subprocess.run([sys.executable, generator, corpus, "--double-review"], check=True)
    with open(corpus / "subjects/reviewers.yaml", "a", encoding="utf-8") as registry:
        registry.write("  - reviewer_id: R05\n    roles: [primary]\n")
    results = workdir / "results"
    counts = scorings_per_run(corpus)
    pair_runs = sorted(run for run, n in counts.items() if n == 2)

    def reviewers_of(subject, run_name):
        folder = corpus / "scoring/v1.0" / subject
        return {path.name.rsplit("-", 1)[1][:-5] for path in folder.glob(f"{run_name}__eval-*")}

    def agree(subject, run_name):
        """Both scorings give the same values: no divergence rule can fire."""
        folder = corpus / "scoring/v1.0" / subject
        documents = [json.loads(p.read_text("utf-8")) for p in folder.glob(f"{run_name}__eval-*")]
        keys = ("criterion_scores", "automatic_fails_triggered", "correctness")
        values = [[json.dumps(d[key], sort_keys=True) for key in keys] for d in documents]
        return values[0] == values[1]

    primary_only = next(run for run in pair_runs if reviewers_of(*run) == {"R01", "R03"})
    others = [run for run in pair_runs if run != primary_only]
    agreeing = next(run for run in others[1:] if agree(*run) and "R04" not in reviewers_of(*run))
    added = []
    for (subject, run_name), reviewer in zip(
        [primary_only, others[0], agreeing], ["R05", "R09", "R04"], strict=True
    ):
        folder = corpus / "scoring/v1.0" / subject
        existing = sorted(folder.glob(f"{run_name}__eval-*.json"))
        document = json.loads(existing[0].read_text("utf-8"))
        case_id, run_id = run_name.split("__")
        document.update(
            reviewer_id=reviewer,
            evaluation_id=f"eval-{case_id}-{run_id}-{reviewer}",
            scoring_timestamp_utc="2026-06-30T12:00:00Z",
        )
        path = folder / f"{run_name}__eval-{reviewer}.json"
        path.write_text(json.dumps(document), "utf-8")
        added.append((path.relative_to(corpus).as_posix(), reviewer))
    config = {"corpus": corpus, "results": results, "reviewers_per_run": 2, **ONE_PARTITION}
    run = run_workflow(workdir, **config)
    assert run.returncode != 0
    assert "Traceback" not in run.output
    expected = {
        "R05": "three primaries: R05 is registered as primary only",
        "R09": "is not registered",
        "R04": "are not divergent under the review policy",
    }
    for path, reviewer in added:
        lines = [line for line in run.output.splitlines() if f"{corpus}/{path}: " in line]
        assert len(lines) == 1, run.output
        assert expected[reviewer] in lines[0], lines[0]
    assert not (results / "per_run.csv").exists()
