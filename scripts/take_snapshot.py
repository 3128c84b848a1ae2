"""`snakemake snapshot`: freeze the published results into historico/<date>/.

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
import sys
from pathlib import Path

from leaderboard_page import SNAPSHOT_HREF_PREFIX
from step_io import read_json, step_logger, tell, write_bytes_atomic

STAGING = re.compile(r"\.[0-9]{4}-[0-9]{2}-[0-9]{2}\.[0-9]+\.tmp")


def snapshot_contents(published) -> dict[str, bytes]:
    """File name → bytes of the snapshot: the published files, the page's links fixed.

    The page links earlier snapshots as historico/<date>/ from the results folder;
    its copy inside historico/<date>/ reaches them as ../<date>/.
    """
    contents = {}
    for path in published:
        content = Path(path).read_bytes()
        if Path(path).suffix == ".html":
            content = content.replace(SNAPSHOT_HREF_PREFIX.encode("ascii"), b'href="../')
        contents[Path(path).name] = content
    return contents


def differences(folder: Path, contents: dict[str, bytes]) -> list[str]:
    """What an existing snapshot folder holds that differs from `contents`."""
    present = {path.name for path in folder.iterdir() if path.is_file()}
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
        write_bytes_atomic(staging / name, content)
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


def main(smk) -> None:
    log = step_logger("snapshot", smk.log[0])
    published = list(smk.input.published)
    metadata = next(path for path in published if Path(path).name == "metadata.json")
    date = smk.params.snapshot_date or read_json(metadata)["newest_scoring_utc"][:10]
    history = Path(smk.params.history)
    contents = snapshot_contents(published)
    target = history / date
    if target.exists():
        found = differences(target, contents)
        if found:
            message = "\n".join(
                [
                    f"Snapshot {target} already exists with other content; snapshots are "
                    "never rewritten, so nothing was changed:",
                    *(f"  {line}" for line in found),
                    "To keep these results too, snapshot them under another date: "
                    "snakemake --cores 1 snapshot --config snapshot_date=YYYY-MM-DD",
                ]
            )
            log.error(message)
            sys.exit(1)
        log.info("snapshot %s already holds these %d files", target, len(contents))
        tell(f"Snapshot {target} already holds these results; nothing to do.")
        return
    write_snapshot(history, date, contents)
    log.info("snapshot %s written (%d files)", target, len(contents))
    tell(f"Snapshot {target} written ({len(contents)} files).")


if __name__ == "__main__":
    main(smk=snakemake)  # noqa: F821 - injected by Snakemake's script directive
