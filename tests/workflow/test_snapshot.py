"""History snapshots: created once per date, never rewritten, linked from the page."""

import json
import stat

import pytest

from workflow_runs import (
    ONE_PARTITION,
    PUBLISHED,
    corpus_copy,
    files_below,
    run_workflow,
    tree_digest,
    workflow_copy,
)

SCORING = "scoring/v1.0/atlas-7b/RO-FOUL-001__run-2026-05-12-001__eval-R01.json"


@pytest.fixture(scope="module")
def published(tmp_path_factory):
    root = tmp_path_factory.mktemp("snapshot")
    workdir = workflow_copy(root / "workflow")
    config = {"corpus": corpus_copy(root / "corpus"), "results": workdir / "out"}
    config |= ONE_PARTITION
    run = run_workflow(workdir, **config)
    assert run.returncode == 0, run.output
    newest = json.loads((workdir / "out/metadata.json").read_text("utf-8"))["newest_scoring_utc"]
    return workdir, config, newest[:10]


def test_snapshot_lifecycle(published):
    workdir, config, date = published
    results = workdir / "out"
    # The demo's newest scoring is 2026-05-15T14:11:13Z.
    assert date == "2026-05-15"

    first = run_workflow(workdir, "snapshot", **config)
    assert first.returncode == 0, first.output
    snapshot = results / "historico" / date
    assert f"Snapshot {snapshot} written ({len(PUBLISHED)} files)" in first.output
    assert files_below(snapshot) == sorted(PUBLISHED)
    for name in PUBLISHED:
        assert (snapshot / name).read_bytes() == (results / name).read_bytes(), name
        assert not (snapshot / name).stat().st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH)
    taken = tree_digest(results / "historico")

    again = run_workflow(workdir, "snapshot", **config)
    assert again.returncode == 0, again.output
    assert "already holds these results; nothing to do" in again.output
    assert tree_digest(results / "historico") == taken

    # A changed scoring (same date: its timestamp is kept) changes the metrics.
    scoring = config["corpus"] / SCORING
    document = json.loads(scoring.read_text("utf-8"))
    document["correctness"] = 0 if document["correctness"] else 1
    scoring.write_text(json.dumps(document, indent=2), "utf-8")
    refused = run_workflow(workdir, "snapshot", **config)
    assert refused.returncode != 0
    assert "already exists with other content; snapshots are never rewritten" in refused.output
    for name in ("per_run.csv", "metrics_per_subject.csv", "metadata.json"):
        assert f"  {name}: different content" in refused.output
    assert "Traceback" not in refused.output
    assert tree_digest(results / "historico") == taken
    assert not [p for p in (results / "historico").iterdir() if p.name != date]

    # The same results under another date: a second snapshot, which links the first.
    later = run_workflow(workdir, "snapshot", snapshot_date="2026-06-01", **config)
    assert later.returncode == 0, later.output
    page = (results / "leaderboard.html").read_text("utf-8")
    assert f'href="historico/{date}/leaderboard.html"' in page
    copy = (results / "historico/2026-06-01/leaderboard.html").read_text("utf-8")
    assert copy == page.replace('href="historico/', 'href="../')
    assert (results / "historico/2026-06-01" / f"../{date}/leaderboard.html").is_file()
    assert tree_digest(results / "historico" / date) == taken_of(taken, date)

    # A full recomputation leaves every snapshot as it was.
    history = tree_digest(results / "historico")
    full = run_workflow(workdir, "--forceall", **config)
    assert full.returncode == 0, full.output
    assert tree_digest(results / "historico") == history


def taken_of(digest: dict[str, str], date: str) -> dict[str, str]:
    prefix = f"{date}/"
    return {path[len(prefix) :]: value for path, value in digest.items() if path.startswith(prefix)}


def test_snapshot_date_must_be_a_date(published):
    workdir, config, _ = published
    run = run_workflow(workdir, "snapshot", snapshot_date="2026-13-01", **config)
    assert run.returncode != 0
    assert "Invalid configuration: snapshot_date:" in run.output
    assert "Traceback" not in run.output
