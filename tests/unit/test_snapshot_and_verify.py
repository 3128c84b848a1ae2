"""The pieces of `snakemake snapshot` and `snakemake verify` that need no workflow run:
the snapshot's date, its contents and their differences, the refusal and the command it
suggests, writing a snapshot, and verify's comparison (ro_metrics.history)."""

import shlex
import stat

import pytest

from ro_metrics.contracts.files import DIRECTORY_MARKER as SNAKEMAKE_MARKER
from ro_metrics.history.snapshot import (
    SnapshotDateError,
    differences,
    moved_date,
    refusal,
    snapshot_command,
    snapshot_contents,
    snapshot_date,
    suggested_command,
    write_snapshot,
)
from ro_metrics.history.verification import compare


def test_the_date_is_the_configured_one_else_the_newest_scorings():
    metadata = {"newest_scoring_utc": "2026-05-15T14:11:13Z"}
    assert snapshot_date(metadata) == "2026-05-15"
    assert snapshot_date(metadata, "2026-06-01") == "2026-06-01"
    with pytest.raises(SnapshotDateError, match="no scoring to date a snapshot by"):
        snapshot_date({"newest_scoring_utc": ""})


def test_the_contents_keep_their_places_and_the_page_links_the_other_snapshots(tmp_path):
    (tmp_path / "charts").mkdir()
    (tmp_path / "charts/a.svg").write_bytes(b"<svg/>")
    (tmp_path / "leaderboard.html").write_bytes(b'<a href="historico/2026-05-01/x.html">')
    contents = snapshot_contents(
        {
            "charts/a.svg": tmp_path / "charts/a.svg",
            "leaderboard.html": tmp_path / "leaderboard.html",
        }
    )
    assert contents == {
        "charts/a.svg": b"<svg/>",
        "leaderboard.html": b'<a href="../2026-05-01/x.html">',
    }


def test_a_snapshot_is_written_read_only_and_never_over_another(tmp_path):
    target = tmp_path / "historico/2026-05-15"
    target.parent.mkdir()
    # A killed run's hidden folder is removed first.
    (tmp_path / "historico/.2026-05-15.tmp/charts").mkdir(parents=True)
    (tmp_path / "historico/.2026-05-15.tmp/stale.csv").write_bytes(b"x")
    write_snapshot(target, {"per_run.csv": b"a\r\n", "charts/b.svg": b"<svg/>"})
    assert sorted(p.name for p in (tmp_path / "historico").iterdir()) == ["2026-05-15"]
    assert (target / "per_run.csv").read_bytes() == b"a\r\n"
    assert stat.S_IMODE((target / "charts/b.svg").stat().st_mode) == 0o444
    with pytest.raises(OSError):
        write_snapshot(target, {"per_run.csv": b"b\r\n"})
    assert (target / "per_run.csv").read_bytes() == b"a\r\n"


def test_differences_name_every_file_and_ignore_snakemakes_marker(tmp_path):
    (tmp_path / "charts").mkdir()
    for name, content in [
        ("same.csv", b"1"),
        ("other.csv", b"1"),
        ("extra.csv", b"1"),
        ("charts/c.svg", b"1"),
        (SNAKEMAKE_MARKER, b""),
    ]:
        (tmp_path / name).write_bytes(content)
    contents = {"same.csv": b"1", "other.csv": b"2", "new.csv": b"1", "charts/c.svg": b"1"}
    assert differences(tmp_path, contents) == [
        "extra.csv: in the snapshot, not among the published files",
        "new.csv: not in the snapshot",
        "other.csv: different content",
    ]
    held = {"same.csv": b"1", "other.csv": b"1", "extra.csv": b"1", "charts/c.svg": b"1"}
    assert differences(tmp_path, held) == []


def test_the_refusal_suggests_the_same_run_under_another_date():
    settings = {
        "corpus": "/data/my corpus",
        "results": "out",
        "reviewers_per_run": 2,
        "strict": True,
        "findings_templates": {"en": "a.j2", "es": "b.j2"},
    }
    command = snapshot_command(settings)
    assert command == (
        "snakemake --cores 1 snapshot --config 'corpus=/data/my corpus' results=out "
        "reviewers_per_run=2 strict=true 'findings_templates={en: a.j2, es: b.j2}' "
        "snapshot_date=YYYY-MM-DD"
    )
    # A date the run was given is replaced, at the end.
    assert snapshot_command({"corpus": "c", "snapshot_date": "2026-05-15", "site": "s"}) == (
        "snakemake --cores 1 snapshot --config corpus=c site=s snapshot_date=YYYY-MM-DD"
    )
    assert suggested_command({"corpus": "c", "results": "r"}, "--forcerun", "publish") == (
        "snakemake --cores 1 --forcerun publish --config corpus=c results=r"
    )
    # What the shell passes to Snakemake, which reads each value as YAML.
    assert shlex.split(command)[5:8] == [
        "corpus=/data/my corpus",
        "results=out",
        "reviewers_per_run=2",
    ]
    assert refusal("out/historico/2026-05-15", ["per_run.csv: different content"], command) == (
        "Snapshot out/historico/2026-05-15 already exists with other content; snapshots are "
        "never rewritten, so nothing was changed:\n"
        "  per_run.csv: different content\n"
        "To keep these results too, snapshot them under another date:\n"
        f"  {command}"
    )


def test_verify_compares_every_published_file_and_finds_a_withdrawn_one(tmp_path):
    published, recomputed = tmp_path / "results", tmp_path / "scratch"
    for folder in (published, recomputed):
        (folder / "charts").mkdir(parents=True)
        (folder / "same.csv").write_bytes(b"h\r\n1\r\n")
        (folder / "charts/c.svg").write_bytes(b"<svg/>")
    (published / "edited.csv").write_bytes(b"h\r\n1\r\n2\r\n")
    (recomputed / "edited.csv").write_bytes(b"h\r\n1\r\n3\r\n")
    (recomputed / "missing.csv").write_bytes(b"h\r\n")
    (published / "agreement.csv").write_bytes(b"h\r\n")  # a review table left by a run
    names = ["same.csv", "charts/c.svg", "edited.csv", "missing.csv", "unmade.csv"]
    assert compare(published, recomputed, names, ["agreement.csv", "pending_runs.csv"]) == [
        f"{published / 'edited.csv'}: differs, line 3: published '2', recomputed '3'",
        f"{published / 'missing.csv'}: missing (the recomputation has it)",
        f"{published / 'unmade.csv'}: the recomputation did not publish it",
        f"{published / 'agreement.csv'}: published, but a recomputation does not publish it",
    ]
    assert compare(published, recomputed, ["same.csv", "charts/c.svg"], ["pending_runs.csv"]) == []


def test_a_snapshot_planned_for_another_date_says_to_run_again():
    command = "snakemake --cores 1 snapshot --config corpus=c results=r site=s"
    assert moved_date("2026-05-20", command, "2026-05-15") == (
        "No snapshot taken: the results this run published are of 2026-05-20, and it "
        "planned the snapshot of 2026-05-15, the date of the results it started from; run "
        f"it again to snapshot these: {command}"
    )
