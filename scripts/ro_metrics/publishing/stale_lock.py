"""Recovering from the lock a killed run leaves behind, without `snakemake --unlock`.

Snakemake 9.27 locks a working folder by writing `.snakemake/locks/N.input.lock` and
`N.output.lock` (the lists of the run's files) after parsing the Snakefile and
building the DAG, and removes them in a `finally:` when the run ends. A run killed
with SIGKILL never reaches that `finally:`, and every later run touching the same
files is refused until someone runs `--unlock`. The lock files do not say who wrote
them, so this module keeps that record next to them:

- `onstart`, which Snakemake calls once the lock is taken, writes
  `.snakemake/locks-owner.json`: the main process' PID and start time, and the
  identity (device, inode, mtime, size) of the lock files this run wrote;
- the next run, while its Snakefile is parsed (before it tries to lock), removes
  those lock files if, and only if, the recorded process is gone (no such PID, a
  zombie, or a PID now used by a process started at another time) and each file is
  still the very file the record describes.

Everything else is left to Snakemake's own lock message: a live owner, a process
that cannot be inspected, no record (a lock taken with `--no-hooks`, by another
Snakefile, or by a run killed in the milliseconds between taking the lock and
`onstart`), an unreadable record, or a lock file replaced since. Being wrong in that
direction costs one `--unlock`; being wrong in the other would let two runs write
the same files.
"""

import atexit
import json
import os
import re
import sys
from dataclasses import asdict, dataclass
from datetime import datetime
from pathlib import Path

import psutil

from ro_metrics.contracts.files import write_bytes_atomic

RECORD_NAME = "locks-owner.json"

# Snakemake's lock file names (persistence/file.py); nothing else in locks/ is ours
# to remove, whatever a damaged or hand-edited record says.
_LOCK_NAME = re.compile(r"[0-9]+\.(input|output)\.lock")

# The owner and a later reader compute create_time() the same way (boot time plus
# the start tick, 0.01 s on Linux), so the margin only absorbs float noise; a PID
# reused within it would need the whole PID space to wrap around in 50 ms.
SAME_START_TOLERANCE = 0.05


@dataclass(frozen=True)
class LockFile:
    """One lock file as it was on disk: a file recreated at the same path differs."""

    path: str
    device: int
    inode: int
    mtime_ns: int
    size: int


@dataclass(frozen=True)
class OwnerRecord:
    """The run that holds the lock: its main process and the lock files it wrote."""

    pid: int
    create_time: float
    lock_files: tuple[LockFile, ...]

    @property
    def started(self) -> str:
        return datetime.fromtimestamp(self.create_time).astimezone().isoformat("T", "seconds")

    def to_json(self) -> bytes:
        document = asdict(self)
        document["started"] = self.started  # for a person reading the file
        return json.dumps(document, indent=1, sort_keys=True).encode("utf-8") + b"\n"

    @classmethod
    def from_json(cls, raw: bytes) -> "OwnerRecord | None":
        """The record, or None: a record that cannot be read proves nothing."""
        try:
            document = json.loads(raw)
            return cls(
                pid=int(document["pid"]),
                create_time=float(document["create_time"]),
                lock_files=tuple(LockFile(**entry) for entry in document["lock_files"]),
            )
        except (ValueError, TypeError, KeyError, AttributeError, RecursionError):
            return None


def lock_file_identity(path) -> LockFile | None:
    try:
        stat = os.lstat(path)
    except OSError:
        return None
    return LockFile(str(path), stat.st_dev, stat.st_ino, stat.st_mtime_ns, stat.st_size)


def owner_is_gone(record: OwnerRecord, current_start: float | None) -> bool:
    """current_start: the start time of the process now holding record.pid, None if
    there is none. A PID started at another time is a reused PID: the owner is gone."""
    if current_start is None:
        return True
    return abs(record.create_time - current_start) > SAME_START_TOLERANCE


def stale_lock_files(
    record: OwnerRecord,
    current_start: float | None,
    on_disk: dict[str, LockFile | None],
    locks_dir: Path,
) -> list[LockFile]:
    """The lock files that may be removed: if the owner is gone, those of the record
    that are Snakemake lock files in locks_dir and still identical on disk (on_disk:
    recorded path → identity now, None if missing)."""
    if not owner_is_gone(record, current_start):
        return []
    return [
        entry
        for entry in record.lock_files
        if Path(entry.path).parent == locks_dir
        and _LOCK_NAME.fullmatch(Path(entry.path).name)
        and on_disk.get(entry.path) == entry
    ]


def process_start(pid: int) -> float | None:
    """The start time of the live process with this PID, None if there is none.

    A zombie has exited (only its exit status waits for the parent to read it). Other
    psutil errors (AccessDenied) propagate: the caller must not call such an owner gone.
    """
    try:
        process = psutil.Process(pid)
        if process.status() == psutil.STATUS_ZOMBIE:
            return None
        return process.create_time()
    except psutil.NoSuchProcess:
        return None


def recover_stale_lock(snakemake_dir, *, dry_run: bool = False) -> str | None:
    """Remove the lock of a killed run recorded in snakemake_dir; the line to print.

    A dry run does not lock, so it changes nothing and only says what a real run
    will do. Returns None when there is nothing to say.
    """
    snakemake_dir = Path(snakemake_dir).absolute()
    record_path = snakemake_dir / RECORD_NAME
    try:
        raw = record_path.read_bytes()
    except OSError:
        return None
    record = OwnerRecord.from_json(raw)
    if record is None:
        return None
    try:
        current_start = process_start(record.pid)
    except psutil.Error:
        return None
    if not owner_is_gone(record, current_start):
        return None
    on_disk = {entry.path: lock_file_identity(entry.path) for entry in record.lock_files}
    stale = stale_lock_files(record, current_start, on_disk, snakemake_dir / "locks")
    who = f"a run that was killed (pid {record.pid}, started {record.started})"
    if dry_run:
        return f"The stale lock of {who} will be removed by the next run." if stale else None
    try:
        for entry in stale:
            Path(entry.path).unlink(missing_ok=True)
    except OSError:
        return None  # a lock we cannot remove: Snakemake's message says what to do
    # Its owner is gone: the record is garbage now, whether or not files were removed.
    _remove_if_unchanged(record_path, raw)
    return f"Removed the stale lock of {who}; continuing." if stale else None


def record_lock_owner(persistence) -> None:
    """Record this process as the owner of the lock Snakemake just took (at onstart).

    `_lockfile` (FilePersistence, Snakemake 9.27) names exactly the files this run
    wrote; without it (the database backend, --nolock) nothing is recorded and a
    stale lock stays Snakemake's to report. The record is removed at exit, after
    Snakemake removed the lock; a record outliving its lock (a kill in between)
    matches no lock file and is dropped by the next run.
    """
    # Private, but the only place Snakemake says which lock files are this run's (the
    # locks/ folder also holds other runs' locks, which must never be removed).
    # tests/unit/test_snakemake_internals.py checks it on the installed Snakemake: the
    # lock files a FilePersistence writes, by type, emptied when it unlocks.
    paths = getattr(persistence, "_lockfile", None) or {}
    lock_files = tuple(identity for identity in map(lock_file_identity, paths.values()) if identity)
    if not lock_files:
        return
    record = OwnerRecord(os.getpid(), psutil.Process().create_time(), lock_files)
    record_path = Path(persistence.path).absolute() / RECORD_NAME
    content = record.to_json()
    try:
        write_bytes_atomic(record_path, content)
    except OSError as error:
        # Not worth stopping the run for: only a later recovery depends on it.
        print(
            f"Could not record this run as the owner of its lock ({error}); if it is "
            "killed, the next run will need `snakemake --unlock` first.",
            file=sys.stderr,
        )
        return
    atexit.register(_remove_if_unchanged, record_path, content)


def _remove_if_unchanged(path: Path, content: bytes) -> None:
    """Remove path unless another run has replaced it meanwhile (its record, not ours)."""
    try:
        if path.read_bytes() == content:
            path.unlink()
    except OSError:
        pass
