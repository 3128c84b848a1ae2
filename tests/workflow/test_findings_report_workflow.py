"""The findings report on the demo: the same bytes on every run, and a new scoring
changes its numbers and nothing else (issue 29), but for a claim the data turn (issue
35)."""

import json
import re

from workflow_runs import ONE_PARTITION, Plan, corpus_copy, run_workflow, workflow_copy

REPORTS = ("findings.md", "findings.es.md")
# A number as the report writes it: signed, with decimals (dot or comma), an ordinal's
# suffix (2nd → 4th moves with its number); the inputs digest is a number too.
NUMBER = re.compile(r"sha256:[0-9a-f]{64}|-?\d+(?:[.,]\d+)*(?:st|nd|rd|th)?")


# The limitation naming the versions whose ECE is their confidence offset is there only
# when some version's is (test_report_sentences.py feeds it both ways): a new run can make
# it appear, so it is left out of the comparison of the words.
ECE_OFFSET = re.compile(r"\n  (?:For|En) \S+ (?:of|de) \S+ (?:versions|versiones) .*?\.\n", re.S)


def numbers_masked(text: str) -> str:
    return NUMBER.sub("#", ECE_OFFSET.sub("\n", text))


def add_second_run_of_a_case(corpus) -> None:
    """cirrus-reasoner's unscored response RO-FOUL-006 run-2026-05-14-002 scored as the
    reviewer scored that case's first run: cirrus gains a FOUL run."""
    folder = corpus / "scoring/v1.0/cirrus-reasoner"
    template = json.loads((folder / "RO-FOUL-006__run-2026-05-14-001__eval-R01.json").read_text())
    template["response_ref"]["run_id"] = "run-2026-05-14-002"
    template["evaluation_id"] = "eval-RO-FOUL-006-run-2026-05-14-002-R01"
    (folder / "RO-FOUL-006__run-2026-05-14-002__eval-R01.json").write_text(json.dumps(template))


def test_a_new_scoring_changes_the_reports_numbers_and_nothing_else(tmp_path, demo_run):
    workdir = workflow_copy(tmp_path / "workflow")
    corpus = corpus_copy(tmp_path / "corpus")
    config = {"corpus": corpus, "results": workdir / "results", **ONE_PARTITION}
    assert (run := run_workflow(workdir, **config)).returncode == 0, run.output
    before = {name: (config["results"] / name).read_bytes() for name in REPORTS}
    # Byte-identical across runs: the shared demo run (another copy, another folder).
    for name in REPORTS:
        assert before[name] == (demo_run.config["results"] / name).read_bytes(), name
    # ... and when the rendering alone runs again (and publishes what it rendered).
    rerun = run_workflow(workdir, "--forcerun", "findings_report", **config)
    assert rerun.returncode == 0, rerun.output
    assert Plan(rerun.output).jobs() == {"findings_report": 1, "publish": 1}
    assert {name: (config["results"] / name).read_bytes() for name in REPORTS} == before

    add_second_run_of_a_case(corpus)
    run = run_workflow(workdir, **config)
    assert run.returncode == 0, run.output
    assert Plan(run.output).jobs()["findings_report"] == 1
    for name in REPORTS:
        old, new = before[name].decode(), (config["results"] / name).read_text("utf-8")
        assert new != old, name
        assert numbers_masked(new) == numbers_masked(old), name
    # The scope line counts the new run: 177 scored runs instead of 176.
    english = (config["results"] / "findings.md").read_text("utf-8")
    assert "for 177 scored runs." in english
    assert "for 176 scored runs." in before["findings.md"].decode()
