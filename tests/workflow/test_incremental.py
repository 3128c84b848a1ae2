"""Incremental runs: a change reruns what it affects, through the DAG.

The corpus's subject folders are partitions (a wildcard): a job of a partition reruns
when the digest of its files (path, size, modification and change time) changes,
Snakemake's params trigger; a step reruns when a file of the library packages it uses,
a schema or a parameter changes. One copy of the demo corpus on 8 partitions (its
subjects fill 4 of them) goes through a series of changes; after each, the plan (a dry
run) or the run itself holds exactly the jobs it should.
"""

import json
import os
import shutil

from ro_metrics.corpus.layout import partition_of
from workflow_runs import EIGHT_PARTITIONS, Plan, corpus_copy, plan, run_workflow, workflow_copy

# Every global step: each reads every partition's fragments, so any change of a
# partition's data reruns each once.
GLOBAL = {"cross_check", "metadata", "uncertainty", "agreement", "findings", "changes"}
GLOBAL |= {"leaderboard", "findings_report", "publish"}
# ... and the check of the published values against the newest snapshot (lifecycle.md);
# not the annotations, which read the registry and subjects/annotations.yaml only.
GLOBAL |= {"lifecycle_check"}
# A partition's own steps after its load.
PARTITION_STEPS = ("per_run", "metrics_per_subject", "metrics_per_family")
UNSCORED = "RO-NOWE-006__run-2026-05-12-001"


def test_second_run_does_nothing(demo_run):
    with demo_run.exclusive():
        assert plan(demo_run.workdir, **demo_run.config).jobs() == {}
        run = run_workflow(demo_run.workdir, **demo_run.config)
    assert "Nothing to be done" in run.output


def add_scoring(corpus):
    """A scoring of atlas-7b's unscored response RO-NOWE-006, run 1 (a copy of another)."""
    scoring_dir = corpus / "scoring/v1.0/atlas-7b"
    template = scoring_dir / "RO-NOWE-005__run-2026-05-12-001__eval-R03.json"
    document = json.loads(template.read_text("utf-8"))
    document["response_ref"].update(case_id="RO-NOWE-006", run_id="run-2026-05-12-001")
    document["evaluation_id"] = f"eval-atlas-7b-{UNSCORED.replace('__', '-')}-R03"
    (scoring_dir / f"{UNSCORED}__eval-R03.json").write_text(json.dumps(document), "utf-8")


def per_run_line(results, prefix: str) -> str:
    lines = (results / "per_run.csv").read_text("utf-8").splitlines()
    return next(line for line in lines if line.startswith(prefix))


def test_what_each_change_reruns(tmp_path):
    workdir = workflow_copy(tmp_path / "workflow")
    corpus = corpus_copy(tmp_path / "corpus")
    config = {"corpus": corpus, "results": workdir / "results", **EIGHT_PARTITIONS}
    run = run_workflow(workdir, **config)
    assert run.returncode == 0, run.output
    atlas = f"partition={partition_of('atlas-7b', 8)}"

    # A parameter: α is a parameter of each partition's per-subject metrics, of the
    # uncertainty step, the leaderboard and metadata.json; what reads them follows.
    assert plan(workdir, **config, alpha=0.4).jobs() == {
        "metrics_per_subject": 8,
        "uncertainty": 1,
        "metadata": 1,
        "changes": 1,
        "findings": 1,
        "leaderboard": 1,
        "findings_report": 1,
        "lifecycle_check": 1,
        "publish": 1,
    }

    # A module of the library: the steps that use its package rerun (the formulas: not
    # the loads, which read the corpus with contracts and corpus only). Put back, its
    # content is the one recorded: nothing to do (Snakemake's checksum of a small input).
    module = workdir / "scripts/ro_metrics/formulas/metrics.py"
    source = module.read_bytes()
    module.write_bytes(source + b"\n# edited\n")
    planned = plan(workdir, **config).jobs()
    assert set(planned) == {"operational", *PARTITION_STEPS, *GLOBAL}
    assert planned["per_run"] == 8
    module.write_bytes(source)
    assert plan(workdir, **config).jobs() == {}

    # A schema of the load: every partition is read again (the empty ones too).
    schema = workdir / "system/schemas/v1.0/response.schema.json"
    text = schema.read_bytes()
    schema.write_bytes(text + b"\n")
    planned = plan(workdir, **config).jobs()
    assert planned["load_partition"] == 8 and "load_golds" not in planned
    schema.write_bytes(text)
    assert plan(workdir, **config).jobs() == {}

    # One added scoring: its partition's load and steps, and every global step.
    add_scoring(corpus)
    run = run_workflow(workdir, **config)
    assert run.returncode == 0, run.output
    ran = Plan(run.output)  # what the run planned and ran: its job stats, its jobs' wildcards
    assert ran.jobs() == {"load_partition": 1, **dict.fromkeys(PARTITION_STEPS, 1)} | dict.fromkeys(
        GLOBAL, 1
    )
    for rule in ("load_partition", *PARTITION_STEPS):
        assert ran.wildcards(rule) == [atlas]
    prefix = "atlas-7b,atlas-7b-2026-03-q4,RO-NOWE-006,NOWE,run-2026-05-12-001,R03,"
    assert per_run_line(config["results"], prefix)
    assert plan(workdir, **config).jobs() == {}

    # A scoring rewritten with its size and modification time as they were: only its
    # change time tells, and its partition is read again.
    scoring = corpus / "scoring/v1.0/atlas-7b/RO-NOWE-005__run-2026-05-12-001__eval-R03.json"
    before = scoring.stat()
    text = scoring.read_text("utf-8")
    document = json.loads(text)
    old_score = document["criterion_scores"]["key_signals"]["score"]
    new_score = 1 if old_score != 1 else 2
    edited = text.replace(
        f'"key_signals": {{\n      "score": {old_score}',
        f'"key_signals": {{\n      "score": {new_score}',
    )
    assert edited != text and len(edited) == len(text)
    scoring.write_text(edited, "utf-8")
    os.utime(scoring, ns=(before.st_atime_ns, before.st_mtime_ns))
    run = run_workflow(workdir, **config)
    assert run.returncode == 0, run.output
    assert Plan(run.output).wildcards("load_partition") == [atlas]
    row = per_run_line(config["results"], "atlas-7b,atlas-7b-2026-03-q4,RO-NOWE-005,NOWE,")
    expected = sum(c["score"] for c in document["criterion_scores"].values())
    assert int(row.split(",")[9]) == expected - old_score + new_score

    # A new subject folder: its partition's load; the operational step matches the
    # telemetry against the new responses.
    shutil.copytree(corpus / "responses/v1.0/fjord-13b", corpus / "responses/v1.0/zephyr-2b")
    planned = plan(workdir, **config)
    assert planned.wildcards("load_partition") == [f"partition={partition_of('zephyr-2b', 8)}"]
    assert set(planned.jobs()) == {"load_partition", "operational", *PARTITION_STEPS, *GLOBAL}
    shutil.rmtree(corpus / "responses/v1.0/zephyr-2b")

    # A gold: the golds' load, and every partition's per-run table (its floor and
    # ceiling are in each run's row) with what follows; no partition is read again.
    gold = corpus / "golds/v1.0/RO-SCAL-002_gold.md"
    gold.write_text(gold.read_text("utf-8").replace('"rubric_ceiling": ', '"rubric_ceiling":  '))
    planned = plan(workdir, **config).jobs()
    assert planned == {"load_golds": 1, **dict.fromkeys(PARTITION_STEPS, 8)} | dict.fromkeys(
        GLOBAL, 1
    )
