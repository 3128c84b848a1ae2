"""History snapshots: created once per date, never rewritten, linked from the page."""

import json
import shlex
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
# The empty file by which Snakemake dates a directory output.
MARKER = ".snakemake_timestamp"


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
    assert files_below(snapshot) == sorted([*PUBLISHED, MARKER])
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
    # The way out repeats the run's own settings: a copy of it snapshots these results.
    assert (
        "To keep these results too, snapshot them under another date:\n"
        f"  snakemake --cores 1 snapshot --config corpus={config['corpus']} "
        f"results={results} site=site partitions=1 snapshot_date=YYYY-MM-DD\n"
    ) in refused.output
    assert "Traceback" not in refused.output
    assert tree_digest(results / "historico") == taken
    assert not [p for p in (results / "historico").iterdir() if p.name != date]

    # The same results under another date: a second snapshot, which links the first,
    # taken by the suggested command as copied (its own --cores aside).
    suggested = refused.output.split("snapshot them under another date:\n  ", 1)[1]
    words = shlex.split(suggested.splitlines()[0].replace("YYYY-MM-DD", "2026-06-01"))
    assert words[:3] == ["snakemake", "--cores", "1"]
    later = run_workflow(workdir, *words[3:])
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


@pytest.mark.parametrize("date", ["2026-13-01", "2026-02-30", "15/05/2026"])
def test_snapshot_date_must_be_a_date(published, date):
    workdir, config, _ = published
    run = run_workflow(workdir, "snapshot", snapshot_date=date, **config)
    assert run.returncode != 0
    errors = [line for line in run.output.splitlines() if "Invalid configuration" in line]
    assert len(errors) == 1 and errors[0].startswith("Invalid configuration: snapshot_date: ")
    assert "Traceback" not in run.output


def test_snakemake_never_deletes_or_rewrites_a_snapshot(tmp_path):
    # As root (CI) a write-protected file is writable and a clone has no write bits:
    # take_snapshot itself refuses to be planned over an existing snapshot.
    workdir = workflow_copy(tmp_path / "workflow")
    config = {"corpus": corpus_copy(tmp_path / "corpus"), "results": workdir / "out"}
    config |= ONE_PARTITION
    for target in ("all", "snapshot"):
        taken = run_workflow(workdir, target, **config)
        assert taken.returncode == 0, taken.output
    folder = workdir / "out/historico/2026-05-15"
    frozen = tree_digest(folder)
    inode = folder.stat().st_ino
    # The rerun triggers of take_snapshot: its code, its parameters, the set of its
    # inputs (a published file more) would each have it rerun over the folder.
    script = workdir / "scripts/snapshot_folder.py"
    script.write_text(script.read_text("utf-8") + "\n# edited\n", "utf-8")
    rules = workdir / "workflow/rules/snapshot.smk"
    text = rules.read_text("utf-8")
    parameter = "        names=[entry.name for entry in PUBLISHED],\n"
    assert text.count(parameter) == 2
    rules.write_text(text.replace(parameter, f"{parameter}        edited=1,\n", 1), "utf-8")
    # (Editing the library changes the set of take_snapshot's inputs: a module more.)
    (workdir / "scripts/ro_metrics/history/notes.py").write_text('"""More."""\n', "utf-8")
    for args in [
        ("snapshot",),
        ("--forceall", "snapshot"),
        ("--forcerun", "take_snapshot", "snapshot"),
    ]:
        run = run_workflow(workdir, *args, **config)
        assert run.returncode == 0, (args, run.output)
        assert "already holds these results; nothing to do" in run.output, args
        assert "rule take_snapshot" not in run.output, args
    refusal = (
        f"Snapshot {folder} exists; snapshots are never rewritten, so nothing was run "
        f"(`snakemake --cores 1 snapshot --config corpus={config['corpus']} "
        f"results={config['results']} site=site partitions=1` checks it against the results)."
    )
    for args in [(str(folder),), ("--force", str(folder)), ("--delete-all-output", str(folder))]:
        run = run_workflow(workdir, *args, **config)
        assert run.returncode != 0, (args, run.output)
        assert refusal in run.output.splitlines(), (args, run.output)
        assert "Traceback" not in run.output, args
    assert tree_digest(folder) == frozen
    assert folder.stat().st_ino == inode


def test_results_of_a_later_date_are_snapshotted_by_a_second_run(tmp_path):
    # The date is planned from the results as published when the run starts: a run that
    # publishes results of another date takes no snapshot, and says so.
    workdir = workflow_copy(tmp_path / "workflow")
    config = {"corpus": corpus_copy(tmp_path / "corpus"), "results": workdir / "out"}
    config |= ONE_PARTITION
    history = workdir / "out/historico"
    scoring = config["corpus"] / SCORING

    def rescored_at(timestamp):
        document = json.loads(scoring.read_text("utf-8"))
        document["scoring_timestamp_utc"] = timestamp
        scoring.write_text(json.dumps(document, indent=2), "utf-8")

    def not_taken(published, planned=None):
        run = run_workflow(workdir, "snapshot", **config)
        assert run.returncode != 0
        why = (
            f"it planned the snapshot of {planned}, the date of the results it started from"
            if planned
            else "a run dates its snapshot by the results published when it starts (there "
            "were none, or of another date)"
        )
        assert (
            f"No snapshot taken: the results this run published are of {published}, and "
            f"{why}; run it again to snapshot these: snakemake --cores 1 snapshot --config "
            f"corpus={config['corpus']} results={config['results']} site=site partitions=1"
        ) in run.output.splitlines()
        assert "Traceback" not in run.output

    not_taken("2026-05-15")  # nothing was published when it started
    assert not history.exists()
    rescored_at("2026-05-20T08:00:00Z")
    not_taken("2026-05-20", planned="2026-05-15")  # take_snapshot was planned for 05-15
    assert not history.exists()
    assert run_workflow(workdir, "snapshot", **config).returncode == 0
    rescored_at("2026-05-22T08:00:00Z")
    not_taken("2026-05-22")  # the snapshot of 05-20 exists: nothing was planned
    assert run_workflow(workdir, "snapshot", **config).returncode == 0
    assert files_below(history) == sorted(
        f"{date}/{name}" for date in ("2026-05-20", "2026-05-22") for name in [*PUBLISHED, MARKER]
    )
