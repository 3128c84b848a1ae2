"""The lock of a killed run is removed by the next run, and nothing else ever is.

In the real workflow: tests/workflow/test_stale_lock_workflow.py.
"""

import json
import os
import subprocess
import sys
import time
from types import SimpleNamespace

import psutil

from ro_metrics.publishing import stale_lock
from ro_metrics.publishing.stale_lock import (
    RECORD_NAME,
    LockFile,
    OwnerRecord,
    lock_file_identity,
    owner_is_gone,
    process_start,
    record_lock_owner,
    recover_stale_lock,
    stale_lock_files,
)
from workflow_runs import STALE_LOCK_REMOVED as REMOVED

ME = psutil.Process()


def dead_pid() -> int:
    """The PID of a process that has exited and been reaped."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def make_locks(snakemake_dir, *names):
    """Lock files as Snakemake writes them, with their identities."""
    locks = snakemake_dir / "locks"
    locks.mkdir(parents=True, exist_ok=True)
    for name in names:
        (locks / name).write_text("/some/file\n")
    return tuple(lock_file_identity(locks / name) for name in names)


def write_record(snakemake_dir, pid, create_time, lock_files):
    record = OwnerRecord(pid, create_time, lock_files)
    (snakemake_dir / RECORD_NAME).write_bytes(record.to_json())
    return record


def lock_names(snakemake_dir):
    return sorted(path.name for path in (snakemake_dir / "locks").iterdir())


# The decision


def test_no_such_process_means_the_owner_is_gone():
    assert owner_is_gone(OwnerRecord(12345, 1000.0, ()), None)


def test_a_pid_started_at_another_time_is_reused():
    assert owner_is_gone(OwnerRecord(12345, 1000.0, ()), 1000.5)
    assert owner_is_gone(OwnerRecord(12345, 1000.0, ()), 999.0)


def test_the_same_pid_and_start_time_is_the_owner_alive():
    assert not owner_is_gone(OwnerRecord(12345, 1000.0, ()), 1000.0)
    assert not owner_is_gone(OwnerRecord(12345, 1000.0, ()), 1000.0 + 1e-6)


def test_only_unchanged_snakemake_lock_files_of_a_gone_owner_are_stale(tmp_path):
    locks = tmp_path / "locks"
    kept = LockFile(str(locks / "0.input.lock"), 1, 2, 3, 4)
    replaced = LockFile(str(locks / "0.output.lock"), 1, 5, 6, 7)
    missing = LockFile(str(locks / "1.input.lock"), 1, 8, 9, 10)
    elsewhere = LockFile(str(tmp_path / "0.input.lock"), 1, 11, 12, 13)
    not_a_lock = LockFile(str(locks / "metadata.json"), 1, 14, 15, 16)
    record = OwnerRecord(12345, 1000.0, (kept, replaced, missing, elsewhere, not_a_lock))
    on_disk = {
        kept.path: kept,
        replaced.path: LockFile(replaced.path, 1, 5, 60, 7),  # rewritten since
        missing.path: None,
        elsewhere.path: elsewhere,
        not_a_lock.path: not_a_lock,
    }
    assert stale_lock_files(record, None, on_disk, locks) == [kept]
    assert stale_lock_files(record, 1000.0, on_disk, locks) == []


def test_process_start_of_a_live_a_reaped_and_a_zombie_process():
    assert process_start(os.getpid()) == ME.create_time()
    assert process_start(dead_pid()) is None
    zombie = subprocess.Popen([sys.executable, "-c", "pass"])
    try:
        deadline = time.monotonic() + 10
        while psutil.Process(zombie.pid).status() != psutil.STATUS_ZOMBIE:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        assert process_start(zombie.pid) is None
    finally:
        zombie.wait()


def test_a_damaged_record_is_no_record():
    assert OwnerRecord.from_json(b"") is None
    assert OwnerRecord.from_json(b'{"pid": 1}') is None
    assert OwnerRecord.from_json(b'{"pid": 1, "create_time": 2, "lock_files": [3]}') is None
    assert OwnerRecord.from_json(b"[" * 100_000) is None
    record = OwnerRecord(7, 1.5, (LockFile("/x/locks/0.input.lock", 1, 2, 3, 4),))
    assert OwnerRecord.from_json(record.to_json()) == record


# Recovery on a .snakemake folder


def test_the_lock_of_a_dead_pid_is_removed(tmp_path):
    lock_files = make_locks(tmp_path, "0.input.lock", "0.output.lock")
    pid = dead_pid()
    write_record(tmp_path, pid, ME.create_time(), lock_files)
    message = recover_stale_lock(tmp_path)
    assert REMOVED.fullmatch(message) and REMOVED.match(message).group(1) == str(pid)
    assert lock_names(tmp_path) == []
    assert not (tmp_path / RECORD_NAME).exists()


def test_the_lock_of_a_reused_pid_is_removed(tmp_path):
    # Our own PID, but the recorded owner started an hour earlier: not us.
    lock_files = make_locks(tmp_path, "0.input.lock", "0.output.lock")
    write_record(tmp_path, os.getpid(), ME.create_time() - 3600, lock_files)
    assert REMOVED.fullmatch(recover_stale_lock(tmp_path))
    assert lock_names(tmp_path) == []


def test_the_lock_of_a_live_owner_is_kept(tmp_path):
    lock_files = make_locks(tmp_path, "0.input.lock", "0.output.lock")
    record = write_record(tmp_path, os.getpid(), ME.create_time(), lock_files)
    assert recover_stale_lock(tmp_path) is None
    assert lock_names(tmp_path) == ["0.input.lock", "0.output.lock"]
    assert OwnerRecord.from_json((tmp_path / RECORD_NAME).read_bytes()) == record


def test_an_owner_that_cannot_be_inspected_is_not_called_gone(tmp_path, monkeypatch):
    def access_denied(pid):
        raise psutil.AccessDenied(pid)

    monkeypatch.setattr(stale_lock, "process_start", access_denied)
    write_record(tmp_path, dead_pid(), 1000.0, make_locks(tmp_path, "0.input.lock"))
    assert recover_stale_lock(tmp_path) is None
    assert lock_names(tmp_path) == ["0.input.lock"]


def test_a_lock_without_record_is_left_to_snakemake(tmp_path):
    make_locks(tmp_path, "0.input.lock", "0.output.lock")
    assert recover_stale_lock(tmp_path) is None
    assert lock_names(tmp_path) == ["0.input.lock", "0.output.lock"]


def test_a_damaged_record_leaves_the_lock_alone(tmp_path):
    make_locks(tmp_path, "0.input.lock")
    (tmp_path / RECORD_NAME).write_bytes(b'{"pid": 1, "create_ti')
    assert recover_stale_lock(tmp_path) is None
    assert lock_names(tmp_path) == ["0.input.lock"]
    assert (tmp_path / RECORD_NAME).exists()


def test_a_record_without_locks_is_dropped_silently(tmp_path):
    lock_files = make_locks(tmp_path, "0.input.lock")
    (tmp_path / "locks/0.input.lock").unlink()
    write_record(tmp_path, dead_pid(), 1000.0, lock_files)
    assert recover_stale_lock(tmp_path) is None
    assert not (tmp_path / RECORD_NAME).exists()


def test_lock_files_written_since_by_another_run_are_kept(tmp_path):
    # The killed run's lock was removed and another run (not using this workflow's
    # record) locked again: same names, other files.
    lock_files = make_locks(tmp_path, "0.input.lock", "0.output.lock")
    write_record(tmp_path, dead_pid(), 1000.0, lock_files)
    for name in ("0.input.lock", "0.output.lock"):
        (tmp_path / "locks" / name).unlink()
    time.sleep(0.01)
    make_locks(tmp_path, "0.input.lock", "0.output.lock", "1.input.lock")
    assert recover_stale_lock(tmp_path) is None
    assert lock_names(tmp_path) == ["0.input.lock", "0.output.lock", "1.input.lock"]
    assert not (tmp_path / RECORD_NAME).exists()


def test_lock_files_the_record_does_not_cover_are_kept(tmp_path):
    lock_files = make_locks(tmp_path, "0.input.lock", "0.output.lock")
    make_locks(tmp_path, "1.input.lock", "1.output.lock")  # a live, unrelated run's
    write_record(tmp_path, dead_pid(), 1000.0, lock_files)
    assert REMOVED.fullmatch(recover_stale_lock(tmp_path))
    assert lock_names(tmp_path) == ["1.input.lock", "1.output.lock"]


def test_a_dry_run_only_says_what_the_next_run_will_do(tmp_path):
    lock_files = make_locks(tmp_path, "0.input.lock", "0.output.lock")
    write_record(tmp_path, dead_pid(), 1000.0, lock_files)
    message = recover_stale_lock(tmp_path, dry_run=True)
    assert message.startswith("The stale lock of a run that was killed (pid ")
    assert message.endswith(") will be removed by the next run.")
    assert lock_names(tmp_path) == ["0.input.lock", "0.output.lock"]
    assert (tmp_path / RECORD_NAME).exists()


def test_a_lock_that_cannot_be_removed_is_left_to_snakemake(tmp_path, monkeypatch):
    def refuse(path, missing_ok=False):
        raise PermissionError(13, "Permission denied", str(path))

    lock_files = make_locks(tmp_path, "0.input.lock")
    write_record(tmp_path, dead_pid(), 1000.0, lock_files)
    monkeypatch.setattr(stale_lock.Path, "unlink", refuse)
    assert recover_stale_lock(tmp_path) is None
    monkeypatch.undo()
    assert lock_names(tmp_path) == ["0.input.lock"]
    assert (tmp_path / RECORD_NAME).exists()


def test_nothing_to_do_in_a_fresh_folder(tmp_path):
    assert recover_stale_lock(tmp_path / ".snakemake") is None


# The record


def test_the_owner_records_its_lock_files_and_removes_the_record_at_exit(tmp_path, monkeypatch):
    at_exit = []
    monkeypatch.setattr(stale_lock.atexit, "register", lambda *call: at_exit.append(call))
    make_locks(tmp_path, "0.input.lock", "0.output.lock")
    persistence = SimpleNamespace(
        path=tmp_path,
        _lockfile={
            "input": str(tmp_path / "locks/0.input.lock"),
            "output": str(tmp_path / "locks/0.output.lock"),
        },
    )
    record_lock_owner(persistence)
    document = json.loads((tmp_path / RECORD_NAME).read_text())
    assert (document["pid"], document["create_time"]) == (os.getpid(), ME.create_time())
    assert sorted(entry["path"] for entry in document["lock_files"]) == sorted(
        persistence._lockfile.values()
    )
    assert recover_stale_lock(tmp_path) is None  # we are alive
    [(remove, *arguments)] = at_exit
    remove(*arguments)
    assert not (tmp_path / RECORD_NAME).exists()


def test_no_record_without_lock_files(tmp_path):
    # --nolock, or a persistence backend without lock files.
    record_lock_owner(SimpleNamespace(path=tmp_path, _lockfile={}))
    record_lock_owner(SimpleNamespace(path=tmp_path))
    assert not (tmp_path / RECORD_NAME).exists()


def test_a_record_that_cannot_be_written_does_not_stop_the_run(tmp_path, capsys):
    make_locks(tmp_path, "0.input.lock")
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("")
    lock = {"input": str(tmp_path / "locks/0.input.lock")}
    record_lock_owner(SimpleNamespace(path=not_a_folder, _lockfile=lock))
    assert "the next run will need `snakemake --unlock` first" in capsys.readouterr().err


def test_a_record_replaced_by_another_run_is_not_removed_at_exit(tmp_path, monkeypatch):
    at_exit = []
    monkeypatch.setattr(stale_lock.atexit, "register", lambda *call: at_exit.append(call))
    make_locks(tmp_path, "0.input.lock")
    record_lock_owner(
        SimpleNamespace(path=tmp_path, _lockfile={"input": str(tmp_path / "locks/0.input.lock")})
    )
    other = write_record(tmp_path, os.getpid() + 1, 1000.0, ())
    [(remove, *arguments)] = at_exit
    remove(*arguments)
    assert OwnerRecord.from_json((tmp_path / RECORD_NAME).read_bytes()) == other
