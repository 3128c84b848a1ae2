"""The workflow as users start it: `snakemake` on the command line, each rule's job a
process of its own, under two different hash seeds.

Every workflow test runs `snakemake` from the command line; here two runs on the demo
corpus, each with a cold cache, under PYTHONHASHSEED 1 and 2, publish byte-identical
results/ and site/, equal to the committed results/: a set iterated in an order that
depends on the seed cannot change an output.
"""

import pytest

from workflow_runs import COMMITTED_RESULTS, corpus_copy, run_workflow, tree_digest, workflow_copy


@pytest.fixture(scope="module")
def two_seeds(tmp_path_factory):
    root = tmp_path_factory.mktemp("command-line")
    corpus = corpus_copy(root / "corpus")
    built = []
    for seed in ("1", "2"):
        workdir = workflow_copy(root / f"seed-{seed}")
        config = {"corpus": corpus, "results": workdir / "out", "site": workdir / "site"}
        env = {"PYTHONHASHSEED": seed}
        for target in ("all", "site"):
            run = run_workflow(workdir, target, env=env, **config)
            assert run.returncode == 0, run.output
            assert "Traceback" not in run.output, run.output
        built.append(workdir)
    return built


def test_results_are_byte_identical_under_two_hash_seeds(two_seeds):
    first, second = (tree_digest(workdir / "out") for workdir in two_seeds)
    assert first == second
    committed = tree_digest(COMMITTED_RESULTS)
    del committed["README.md"]  # written by hand: who reads each file
    assert first == committed


def test_the_site_is_byte_identical_under_two_hash_seeds(two_seeds):
    first, second = (tree_digest(workdir / "site") for workdir in two_seeds)
    assert first == second
    assert (
        len([name for name in first if name.endswith(".html")]) == 76
    )  # index, findings, report, 5 versions, 30 cases; twice
