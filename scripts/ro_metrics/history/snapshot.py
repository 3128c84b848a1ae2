"""Snapshots: the published results frozen into historico/<date>/, never rewritten.

The date is config snapshot_date, else the date of the newest scoring (recorded in
metadata.json). A snapshot is immutable (aggregated_metrics.md §3.6: a disqualified
version "remains in the historical record ... and is never deleted"): taking it
again with identical content does nothing; different content for an existing date
is refused with the differing files named, and nothing is written. A new snapshot
is assembled in a hidden folder and renamed into place, so a killed run never
leaves a partial one under its date.
"""

import os
import re
from pathlib import Path

from ro_metrics.contracts.files import write_bytes_atomic
from ro_metrics.leaderboard.leaderboard_page import SNAPSHOT_HREF_PREFIX

SNAPSHOT_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
STAGING = re.compile(r"\.[0-9]{4}-[0-9]{2}-[0-9]{2}\.[0-9]+\.tmp")


def snapshot_dates(history_files) -> list[str]:
    """Dates of the snapshots (folders historico/<date>/ with a metadata.json), oldest first."""
    dates = {Path(path).parent.name for path in history_files}
    return sorted(date for date in dates if SNAPSHOT_DATE.fullmatch(date))


def earlier_snapshots(history_files, before: str) -> list[str]:
    """Dates of the snapshots before a date, newest first."""
    return [date for date in reversed(snapshot_dates(history_files)) if date < before]


def snapshot_contents(published, results: Path) -> dict[str, bytes]:
    """Path relative to the results folder (charts/<name>.svg) → bytes of the snapshot:
    the published files, the page's links fixed.

    The page links earlier snapshots as historico/<date>/ from the results folder;
    its copy inside historico/<date>/ reaches them as ../<date>/.
    """
    contents = {}
    for path in published:
        content = Path(path).read_bytes()
        if Path(path).suffix == ".html":
            content = content.replace(SNAPSHOT_HREF_PREFIX.encode("ascii"), b'href="../')
        contents[Path(path).relative_to(results).as_posix()] = content
    return contents


def differences(folder: Path, contents: dict[str, bytes]) -> list[str]:
    """What an existing snapshot folder holds that differs from `contents`."""
    present = {path.relative_to(folder).as_posix() for path in folder.rglob("*") if path.is_file()}
    found = []
    for name in sorted(present | set(contents)):
        if name not in present:
            found.append(f"{name}: not in the snapshot")
        elif name not in contents:
            found.append(f"{name}: in the snapshot, not among the published files")
        elif (folder / name).read_bytes() != contents[name]:
            found.append(f"{name}: different content")
    return found


def write_snapshot(history: Path, date: str, contents: dict[str, bytes]) -> Path:
    """Assemble the snapshot beside its final place, read-only, then rename it in."""
    history.mkdir(parents=True, exist_ok=True)
    for stale in history.iterdir():
        # A hidden staging folder whose process is gone (a killed run) never became
        # a snapshot; only our own staging names are touched.
        if STAGING.fullmatch(stale.name) and not _alive(int(stale.name.split(".")[2])):
            for path in stale.iterdir():
                path.unlink()
            stale.rmdir()
    staging = history / f".{date}.{os.getpid()}.tmp"
    staging.mkdir()
    for name, content in contents.items():
        write_bytes_atomic(staging / name, content)  # (makes charts/ too)
        (staging / name).chmod(0o444)
    target = history / date
    # rename() of a folder onto an existing non-empty one fails: never an overwrite.
    os.rename(staging, target)
    return target


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
