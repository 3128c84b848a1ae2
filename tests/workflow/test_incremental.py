"""Incremental runs: the plan holds only what a change affects."""

import json
import os
import re
import shutil

import pytest

from ro_metrics.contracts.records import read_answer_shapes
from ro_metrics.corpus.layout import partition_of
from workflow_runs import (
    EIGHT_PARTITIONS,
    ONE_PARTITION,
    Plan,
    corpus_copy,
    planned_jobs,
    run_workflow,
    workflow_copy,
)

# (No consolidation: a v1.0 corpus without a reviewer registry has nothing to consolidate.)
AGGREGATES = {"cross_check", "per_run", "metrics_per_subject"}
AGGREGATES |= {"metrics_per_family", "uncertainty", "publish", "all"}
# The findings (from the metrics) and the report rendered from them.
AGGREGATES |= {"findings", "findings_report"}
UNSCORED = "RO-NOWE-006__run-2026-05-12-001"


def run_once(tmp_path, partitions: dict):
    workdir = workflow_copy(tmp_path / "workflow")
    corpus = corpus_copy(tmp_path / "corpus")
    config = {"corpus": corpus, "results": workdir / "results", **partitions}
    run = run_workflow(workdir, **config)
    assert run.returncode == 0, run.output
    return workdir, corpus, config


@pytest.fixture
def ran_once(tmp_path):
    """A run on 8 partitions, for the tests of what a change re-runs of the loads."""
    return run_once(tmp_path, EIGHT_PARTITIONS)


@pytest.fixture
def ran_once_on_one(tmp_path):
    """A run on one partition, for the tests whose plans hold no load of the corpus."""
    return run_once(tmp_path, ONE_PARTITION)


def test_second_run_does_nothing(demo_run):
    workdir, config = demo_run.workdir, demo_run.config
    with demo_run.exclusive():
        assert planned_jobs(workdir, **config) == {}
        run = run_workflow(workdir, **config)
    assert "Nothing to be done" in run.output


def test_a_changed_parameter_reruns_what_takes_it(demo_run):
    # Snakemake's params rerun trigger: a changed alpha is seen by the steps whose params
    # hold it and by what follows them.
    with demo_run.exclusive():
        planned = planned_jobs(demo_run.workdir, **demo_run.config, alpha=0.4)
    rerun = {"metrics_per_subject", "uncertainty", "findings", "publish", "findings_report"}
    assert planned == dict.fromkeys([*rerun, "all"], 1)


def test_one_added_scoring_reruns_its_partition_and_the_aggregates(ran_once):
    workdir, corpus, config = ran_once
    scoring_dir = corpus / "scoring/v1.0/atlas-7b"
    template = scoring_dir / "RO-NOWE-005__run-2026-05-12-001__eval-R03.json"
    document = json.loads(template.read_text("utf-8"))
    document["response_ref"].update(case_id="RO-NOWE-006", run_id="run-2026-05-12-001")
    document["evaluation_id"] = f"eval-atlas-7b-{UNSCORED.replace('__', '-')}-R03"
    (scoring_dir / f"{UNSCORED}__eval-R03.json").write_text(json.dumps(document), "utf-8")

    run = run_workflow(workdir, **config)
    assert run.returncode == 0, run.output
    ran = Plan(run.output)  # what the run planned and ran: its job stats, its jobs' wildcards
    assert ran.jobs() == {"load_partition": 1} | dict.fromkeys(AGGREGATES, 1)
    assert ran.wildcards("load_partition") == [f"partition={partition_of('atlas-7b', 8)}"]
    per_run = (config["results"] / "per_run.csv").read_text("utf-8")
    assert "atlas-7b,atlas-7b-2026-03-q4,RO-NOWE-006,NOWE,run-2026-05-12-001,R03," in per_run
    # The run's answer shape, from its response (read by the first run, not this one:
    # its counts come from the file cache), beside the partition's other runs.
    (load,) = (workdir / ".cache").glob("*/load")
    shapes = read_answer_shapes(load / f"partition-{partition_of('atlas-7b', 8)}.shapes.json")
    response = json.loads((corpus / "responses/v1.0/atlas-7b" / f"{UNSCORED}.json").read_text())
    expected = [len(response["alternatives"]), len(response["key_signals"])]
    found = {(shape.case_id, shape.run_id): list(shape[4:]) for shape in shapes}
    assert found["RO-NOWE-006", "run-2026-05-12-001"] == expected
    assert planned_jobs(workdir, **config) == {}


def test_changed_gold_reruns_only_what_depends_on_golds(ran_once_on_one):
    workdir, corpus, config = ran_once_on_one
    gold = corpus / "golds/v1.0/RO-SCAL-002_gold.md"
    gold.write_text(gold.read_text("utf-8").replace('"rubric_ceiling": ', '"rubric_ceiling":  '))
    expected = {"load_golds": 1} | dict.fromkeys(AGGREGATES, 1)
    assert planned_jobs(workdir, **config) == expected


def test_new_subject_folder_reruns_one_partition(ran_once):
    workdir, corpus, config = ran_once
    shutil.copytree(corpus / "responses/v1.0/fjord-13b", corpus / "responses/v1.0/zephyr-2b")
    plan = planned_jobs(workdir, **config)
    assert plan["load_partition"] == 1
    # New responses: the operational step matches the telemetry against them again.
    assert set(plan) == {"load_partition", "operational"} | AGGREGATES


def test_partition_rereads_only_changed_files_and_sees_edits_with_restored_mtime(ran_once):
    workdir, corpus, config = ran_once
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
    # Same size, modification time set back: only the change time tells.
    os.utime(scoring, ns=(before.st_atime_ns, before.st_mtime_ns))

    run = run_workflow(workdir, **config)
    assert run.returncode == 0, run.output
    partition = partition_of("atlas-7b", 8)
    assert re.search(rf"partition {partition}: [\d,]+ entries checked, 1 read ", run.output)
    row = next(
        line
        for line in (config["results"] / "per_run.csv").read_text("utf-8").splitlines()
        if line.startswith("atlas-7b,atlas-7b-2026-03-q4,RO-NOWE-005,NOWE,run-2026-05-12-001,")
    )
    raw_score = int(row.split(",")[9])
    expected = sum(c["score"] for c in document["criterion_scores"].values())
    assert raw_score == expected - old_score + new_score


def test_schema_change_discards_the_file_cache(ran_once):
    workdir, _, config = ran_once
    schema = workdir / "system/schemas/v1.0/response.schema.json"
    schema.write_text(schema.read_text("utf-8") + "\n", "utf-8")
    run = run_workflow(workdir, **config)
    assert run.returncode == 0, run.output
    counts = re.findall(r"partition \d: ([\d,]+) entries checked, ([\d,]+) read", run.output)
    assert len(counts) == 4  # the demo's subjects fill 4 of the 8 partitions
    assert all(entries == read for entries, read in counts)


def test_editing_a_shared_module_reruns_the_steps_that_import_it(ran_once_on_one):
    workdir, _, config = ran_once_on_one
    module = workdir / "scripts/ro_metrics/formulas/metrics.py"
    module.write_text(module.read_text("utf-8") + "\n# edited\n", "utf-8")
    # Steps 2-4, the findings and publish (the leaderboard) import the formulas, and the
    # report follows the findings; loading the corpus and the cross-check do not.
    expected = dict.fromkeys(AGGREGATES - {"cross_check"}, 1)
    assert planned_jobs(workdir, **config) == expected
