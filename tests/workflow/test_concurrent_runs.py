"""A second run started while one is running is refused by Snakemake's lock."""

import os
import signal

from workflow_runs import ONE_PARTITION, corpus_copy, run_workflow, start_workflow, workflow_copy


def test_second_run_is_refused_while_the_first_holds_the_lock(tmp_path):
    workdir = workflow_copy(tmp_path / "workflow")
    corpus = corpus_copy(tmp_path / "corpus")
    first = start_workflow(
        workdir, capture=True, corpus=corpus, results=workdir / "out", **ONE_PARTITION
    )
    printed = b""
    try:
        # Snakemake prints its job stats once it holds the lock (both lock files written).
        # Read from the pipe itself, so that communicate() below gets all that follows.
        while b"Job stats:" not in printed:
            chunk = os.read(first.stdout.fileno(), 4096)
            assert chunk, printed.decode(errors="replace")
            printed += chunk
        assert any((workdir / ".snakemake/locks").glob("*.lock"))
        # Paused while it holds its lock, so the second run surely starts while the
        # first is running, however short the first run is; it goes on afterwards.
        os.killpg(first.pid, signal.SIGSTOP)
        try:
            second = run_workflow(workdir, corpus=corpus, results=workdir / "out", **ONE_PARTITION)
        finally:
            os.killpg(first.pid, signal.SIGCONT)
    finally:
        rest, _ = first.communicate(timeout=300)
        output = printed.decode(errors="replace") + rest
    assert second.returncode != 0
    assert "LockException" in second.output and "--unlock" in second.output, second.output
    assert first.returncode == 0, output
    # The lock is gone with the first run: the next one proceeds (nothing left to do).
    again = run_workflow(workdir, corpus=corpus, results=workdir / "out", **ONE_PARTITION)
    assert again.returncode == 0 and "Nothing to be done" in again.output, again.output
