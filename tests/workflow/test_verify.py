"""`snakemake verify`: a recomputation from the inputs, compared byte for byte."""

import shlex
import shutil

from workflow_runs import (
    COMMITTED_RESULTS,
    DEMO_CORPUS,
    ONE_PARTITION,
    REPO,
    run_workflow,
    workflow_copy,
)


def test_verify_on_a_clean_checkout_then_after_a_hand_edit(tmp_path):
    # A clean checkout: the committed results, no cache, no earlier run.
    workdir = workflow_copy(tmp_path / "workflow")
    results = shutil.copytree(COMMITTED_RESULTS, workdir / "results")
    config = {"corpus": DEMO_CORPUS, "results": results}
    clean = run_workflow(workdir, "verify", **config)
    assert clean.returncode == 0, clean.output
    assert "are byte-identical to a recomputation from the inputs" in clean.output

    edited = results / "metrics_per_subject.csv"
    lines = edited.read_bytes().split(b"\r\n")
    # Row 4 (line 4 of the file) is borealis-xl-2026-04-02 with Q_final 0.6655.
    assert lines[3].endswith(b",0.6655,Eligible")
    lines[3] = lines[3].replace(b",0.6655,", b",0.6755,")
    edited.write_bytes(b"\r\n".join(lines))
    before = edited.read_bytes()

    caught = run_workflow(workdir, "verify", **config)
    assert caught.returncode != 0
    assert "verify: 1 published file(s) differ from a recomputation from the inputs:" in (
        caught.output
    )
    assert f"{edited}: differs, line 4: published " in caught.output
    assert ",0.6755,Eligible', recomputed " in caught.output
    assert "Traceback" not in caught.output
    # verify reports; it never repairs or rewrites the published file.
    assert edited.read_bytes() == before
    assert not any((workdir / ".cache").rglob("verify/run-*"))


def test_a_hand_edit_is_repaired_as_the_docs_say(tmp_path):
    # docs/validation.md: a plain run does not see a hand edit; verify names it and ends
    # with the command that publishes again, which repairs it.
    docs = (REPO / "docs" / "validation.md").read_text("utf-8")
    assert 'says\n  "Nothing to be done" and the edited file stays' in docs
    assert "--forcerun publish --config corpus=/path/to/corpus" in docs
    workdir = workflow_copy(tmp_path / "workflow")
    config = {"corpus": DEMO_CORPUS, "results": tmp_path / "out"} | ONE_PARTITION
    first = run_workflow(workdir, **config)
    assert first.returncode == 0, first.output
    edited = tmp_path / "out" / "leaderboard.csv"
    published = edited.read_bytes()
    edited.write_bytes(published.replace(b",Eligible,", b",Disqualified,", 1))
    plain = run_workflow(workdir, **config)
    assert plain.returncode == 0, plain.output
    assert "Nothing to be done" in plain.output
    assert edited.read_bytes() != published

    caught = run_workflow(workdir, "verify", **config)
    assert caught.returncode != 0
    repair = caught.output.split("To publish them again from the inputs", 1)[1].splitlines()[1]
    assert repair == (
        f"  snakemake --cores 1 --forcerun publish --config corpus={DEMO_CORPUS} "
        f"results={tmp_path / 'out'} site=site partitions=1"
    )
    words = shlex.split(repair)
    repaired = run_workflow(workdir, *words[3:])
    assert repaired.returncode == 0, repaired.output
    assert edited.read_bytes() == published
