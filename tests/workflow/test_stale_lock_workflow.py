"""The lock of a killed run, in the real workflow: refused while its owner is alive,
removed by the next run once it is dead. (The decision and the record, in-process:
tests/unit/test_stale_lock.py.)
"""

import json
import os
import signal
import time

from ro_metrics.publishing.stale_lock import RECORD_NAME
from workflow_runs import ONE_PARTITION, corpus_copy, run_workflow, start_workflow, workflow_copy
from workflow_runs import STALE_LOCK_REMOVED as REMOVED


def test_a_killed_run_is_refused_while_alive_and_recovered_once_dead(tmp_path):
    # The demo corpus: the run is stopped (SIGSTOP) within 10 ms of its owner record,
    # seconds before it could end.
    corpus = corpus_copy(tmp_path / "corpus")
    workdir = workflow_copy(tmp_path / "workflow")
    record = workdir / ".snakemake" / RECORD_NAME
    first = start_workflow(workdir, corpus=corpus, results="out", **ONE_PARTITION)
    try:
        deadline = time.monotonic() + 120
        while not record.exists():
            assert first.poll() is None and time.monotonic() < deadline, "no owner record"
            time.sleep(0.01)
        # Stopped, the owner is alive: its lock must stand.
        os.killpg(first.pid, signal.SIGSTOP)
        assert json.loads(record.read_text())["pid"] == first.pid
        second = run_workflow(workdir, corpus=corpus, results="out", **ONE_PARTITION)
        assert second.returncode != 0
        assert "LockException" in second.output, second.output
        assert "stale lock" not in second.output
    finally:
        if first.poll() is None:
            os.killpg(first.pid, signal.SIGKILL)
        first.wait()
    assert any((workdir / ".snakemake/locks").glob("*.lock"))

    dry = run_workflow(workdir, "--dry-run", corpus=corpus, results="out", **ONE_PARTITION)
    assert f"The stale lock of a run that was killed (pid {first.pid}," in dry.output
    assert any((workdir / ".snakemake/locks").glob("*.lock"))

    rerun = run_workflow(workdir, corpus=corpus, results="out", **ONE_PARTITION)
    assert rerun.returncode == 0, rerun.output
    assert [int(pid) for pid in REMOVED.findall(rerun.output)] == [first.pid], rerun.output
    assert "LockException" not in rerun.output
    # A run that ends normally leaves neither lock nor record behind.
    assert not list((workdir / ".snakemake").glob("locks/*"))
    assert not record.exists()
    again = run_workflow(workdir, corpus=corpus, results="out", **ONE_PARTITION)
    assert again.returncode == 0 and "Nothing to be done" in again.output, again.output
    assert "stale lock" not in again.output
