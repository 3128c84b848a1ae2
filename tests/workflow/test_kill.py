"""A run killed at any moment leaves each published file as it was or complete; after
`snakemake --unlock` (Snakemake's lock outlives a killed run), the next run publishes
what a clean run does."""

import os
import signal
import time

import pytest

from workflow_runs import (
    COMMITTED_RESULTS,
    ONE_PARTITION,
    PUBLISHED,
    corpus_copy,
    run_workflow,
    start_workflow,
    workflow_copy,
)


def published(results):
    return {name: (results / name).read_bytes() for name in PUBLISHED}


@pytest.fixture(scope="module")
def before_and_after(tmp_path_factory):
    """A corpus, the results published before it changed (the committed results of the
    demo corpus), and the results it leads to."""
    base = tmp_path_factory.mktemp("kill")
    corpus = corpus_copy(base / "corpus")  # 409 files: a run lasts several seconds
    old = published(COMMITTED_RESULTS)
    for path in (corpus / "golds/v1.0").glob("*_gold.md"):
        text = path.read_text("utf-8")
        path.write_text(text.replace('"rubric_floor": 0,', '"rubric_floor": 3,'), "utf-8")
    reference = workflow_copy(base / "reference")
    # One load job: more of the killed runs' few seconds go to the later steps.
    config = {"corpus": corpus, "results": "out"} | ONE_PARTITION
    assert run_workflow(reference, **config).returncode == 0
    new = published(reference / "out")
    assert old != new
    return config, old, new


@pytest.mark.parametrize("delay", [0.6, 1.2, 1.8, 2.4])
def test_sigkill_then_rerun(before_and_after, tmp_path, delay):
    config, old, new = before_and_after
    workdir = workflow_copy(tmp_path / "workflow")
    results = workdir / "out"
    results.mkdir()
    for name, content in old.items():
        (results / name).parent.mkdir(exist_ok=True)
        (results / name).write_bytes(content)
    # Old results in place, no cache: the run recomputes and republishes everything.
    run = start_workflow(workdir, **config)
    time.sleep(delay)
    if run.poll() is None:
        os.killpg(run.pid, signal.SIGKILL)
    run.wait()

    for name in PUBLISHED:
        content = (results / name).read_bytes()
        assert content in (old[name], new[name]), f"{name} is neither old nor complete"
    # Top-level names: charts/ holds published files; the reports are rendered after.
    ours = {name.split("/")[0] for name in PUBLISHED}
    leftovers = [path.name for path in results.iterdir() if path.name not in ours]
    assert leftovers == [] or all(name.startswith(".") for name in leftovers)

    # Snakemake's lock outlives the killed run: the next run is refused, changing nothing,
    # until `snakemake --unlock` (docs/validation.md, Troubleshooting).
    if any((workdir / ".snakemake/locks").glob("*.lock")):
        killed = published(results)
        refused = run_workflow(workdir, **config)
        assert refused.returncode != 0, refused.output
        assert "LockException" in refused.output and "--unlock" in refused.output, refused.output
        assert published(results) == killed
    assert run_workflow(workdir, "--unlock", **config).returncode == 0
    rerun = run_workflow(workdir, **config)
    assert rerun.returncode == 0, rerun.output
    assert published(results) == new
    assert not [path for path in results.iterdir() if path.name.startswith(".")]
