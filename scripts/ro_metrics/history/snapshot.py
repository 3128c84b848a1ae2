"""Snapshots: the published results frozen into historico/<date>/, never rewritten.

The date is config snapshot_date, else the date of the newest scoring (recorded in
metadata.json) of the results as published when the run starts, when Snakemake plans
the snapshot: a run that publishes results of a later date takes none, and says so. A
snapshot is immutable (aggregated_metrics.md §3.6: a disqualified version "remains in
the historical record ... and is never deleted"): rule take_snapshot writes a dated
folder only when there is none, and the target `snapshot` checks an existing one
against the published results: the same content says so, different content is refused
with every differing file named, and nothing is written. A new snapshot is assembled in
a hidden folder beside its place and renamed into it, so a killed run never leaves a
partial one under its date.
"""

import os
import re
import shlex
import shutil
from pathlib import Path

import yaml

from ro_metrics.contracts.files import DIRECTORY_MARKER, write_bytes_atomic
from ro_metrics.leaderboard.leaderboard_page import SNAPSHOT_HREF_PREFIX

SNAPSHOT_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


class SnapshotDateError(ValueError):
    """No date for the snapshot: no snapshot_date configured and no scoring to date it."""


def snapshot_date(metadata: dict, configured: str = "") -> str:
    """The date of the snapshot of the results that metadata.json describes: config
    snapshot_date if given, else the date of the newest scoring."""
    date = configured or metadata.get("newest_scoring_utc", "")[:10]
    if not SNAPSHOT_DATE.fullmatch(date):
        raise SnapshotDateError(
            "the results have no scoring to date a snapshot by; give a date with snapshot_date"
        )
    return date


def moved_date(published: str, command: str, planned: str = "") -> str:
    """Why no snapshot was taken when the results this run published are of another date
    than those it started from, which dated the snapshot it planned (`planned`, if
    known), and the command that snapshots them (`suggested_command`)."""
    if planned:
        why = f"it planned the snapshot of {planned}, the date of the results it started from"
    else:
        why = (
            "a run dates its snapshot by the results published when it starts (there were "
            "none, or of another date)"
        )
    return (
        f"No snapshot taken: the results this run published are of {published}, and {why}; "
        f"run it again to snapshot these: {command}"
    )


def snapshot_dates(history_files) -> list[str]:
    """Dates of the snapshots (folders historico/<date>/ with a metadata.json), oldest first."""
    dates = {Path(path).parent.name for path in history_files}
    return sorted(date for date in dates if SNAPSHOT_DATE.fullmatch(date))


def earlier_snapshots(history_files, before: str) -> list[str]:
    """Dates of the snapshots before a date, newest first."""
    return [date for date in reversed(snapshot_dates(history_files)) if date < before]


def snapshot_contents(published: dict[str, str]) -> dict[str, bytes]:
    """The bytes of the snapshot of the published files (path below the results folder,
    charts/<name>.svg → the file), by the same paths: the files, the page's links fixed.

    The page links earlier snapshots as historico/<date>/ from the results folder;
    its copy inside historico/<date>/ reaches them as ../<date>/.
    """
    contents = {}
    for name, path in published.items():
        content = Path(path).read_bytes()
        if Path(name).suffix == ".html":
            content = content.replace(SNAPSHOT_HREF_PREFIX.encode("ascii"), b'href="../')
        contents[name] = content
    return contents


def differences(folder: Path, contents: dict[str, bytes]) -> list[str]:
    """What an existing snapshot folder holds that differs from `contents`, one line per
    file, sorted by path."""
    present = {path.relative_to(folder).as_posix() for path in folder.rglob("*") if path.is_file()}
    present.discard(DIRECTORY_MARKER)
    found = []
    for name in sorted(present | set(contents)):
        if name not in present:
            found.append(f"{name}: not in the snapshot")
        elif name not in contents:
            found.append(f"{name}: in the snapshot, not among the published files")
        elif (folder / name).read_bytes() != contents[name]:
            found.append(f"{name}: different content")
    return found


def write_snapshot(target: Path, contents: dict[str, bytes]) -> None:
    """Assemble the snapshot in a hidden folder beside `target`, its files read-only,
    then rename it into place.

    The hidden folder is the date's own (.<date>.tmp): one job at a time writes a date
    (Snakemake's lock), so one found there was left by a killed run and is removed.
    Read-only files, not Snakemake's protected(): on a directory protected() gives every
    file the folder's mode (0555: git would record the CSVs as executables), and it
    write-protects the folder itself, which root ignores and a clone does not have.
    """
    staging = target.with_name(f".{target.name}.tmp")
    if staging.exists():
        shutil.rmtree(staging)
    for name, content in contents.items():
        write_bytes_atomic(staging / name, content)  # (makes charts/ too)
        (staging / name).chmod(0o444)
    # rename() of a folder onto an existing non-empty one fails: never an overwrite.
    os.rename(staging, target)


def suggested_command(settings: dict, *targets: str, **more: str) -> str:
    """A command a message tells the user to run: `snakemake --cores 1 <targets> --config`
    with the run's own settings (its corpus, results, site and every other setting it
    changed: common.smk's RUN_SETTINGS), `more` replacing or adding some at the end, so
    that a copy of it acts on the same data, not the defaults'."""
    words = ["snakemake", "--cores", "1", *targets, "--config"]
    settings = {key: value for key, value in settings.items() if key not in more} | more
    for key, value in settings.items():
        text = value if isinstance(value, str) else _yaml_flow(value)
        words.append(shlex.quote(f"{key}={text}"))
    return " ".join(words)


def snapshot_command(settings: dict) -> str:
    """The command that snapshots these results under another date: `snakemake snapshot`
    with the run's own settings, so that a copy of it snapshots the same results."""
    return suggested_command(settings, "snapshot", snapshot_date="YYYY-MM-DD")


def _yaml_flow(value) -> str:
    """A setting as `--config` reads it (YAML): true, 0.6, {en: a.j2, es: b.j2}."""
    text = yaml.safe_dump(value, default_flow_style=True, width=10**6)
    return text.removesuffix("...\n").strip()


def refusal(folder, found: list[str], command: str) -> str:
    """The message of a refused snapshot: every differing file, and what to do."""
    return "\n".join(
        [
            f"Snapshot {folder} already exists with other content; snapshots are never "
            "rewritten, so nothing was changed:",
            *(f"  {line}" for line in found),
            "To keep these results too, snapshot them under another date:",
            f"  {command}",
        ]
    )
