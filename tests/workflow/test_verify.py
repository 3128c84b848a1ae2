"""`snakemake verify`: a recomputation from the inputs, compared byte for byte."""

import shutil

from workflow_runs import COMMITTED_RESULTS, DEMO_CORPUS, run_workflow, workflow_copy


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
