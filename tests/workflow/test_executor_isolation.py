"""Every job runs in isolation: submitted through a cluster executor, same bytes."""

import re

from workflow_runs import (
    COMMITTED_RESULTS,
    DEMO_CORPUS,
    EIGHT_PARTITIONS,
    PUBLISHED,
    REPO,
    SLURM_PLUGIN,
    Plan,
    run_workflow,
    workflow_copy,
)

SUBMIT = REPO / "tests/executor/local_submit.sh"


def test_every_job_submitted_on_its_own_gives_the_same_results(tmp_path):
    workdir = workflow_copy(tmp_path / "workflow")
    run = run_workflow(
        workdir,
        "--executor",
        "cluster-generic",
        "--cluster-generic-submit-cmd",
        str(SUBMIT),
        "--jobs",
        "4",
        "--seconds-between-status-checks",
        "1",
        corpus=DEMO_CORPUS,
        results=workdir / "out",
        local_aggregates="false",
    )
    assert run.returncode == 0, run.output
    submitted = re.findall(r"Submitted job \d+ with external jobid 'local-\d+'", run.output)
    # Every job of the plan (the target rule all aside) was submitted: none ran locally.
    assert len(submitted) == sum(Plan(run.output).jobs().values()), run.output
    assert "localrule" not in run.output.replace("localrule all:", "")
    for name in PUBLISHED:
        assert (workdir / "out" / name).read_bytes() == (COMMITTED_RESULTS / name).read_bytes()


def test_slurm_profile_gives_the_load_jobs_their_resources(tmp_path):
    workdir = workflow_copy(tmp_path / "workflow")
    run = run_workflow(
        workdir,
        "--profile",
        "profiles/slurm",
        "--dry-run",
        plugins=SLURM_PLUGIN,
        corpus=DEMO_CORPUS,
        results="out",
        **EIGHT_PARTITIONS,
    )
    assert run.returncode == 0, run.output
    plans = re.findall(r"^rule (\w+):\n(?:    .*\n)*?    resources: (.*)$", run.output, re.M)
    resources = {
        rule: dict(item.split("=", 1) for item in text.split(", ")) for rule, text in plans
    }
    assert resources["load_partition"]["runtime"] == "30"
    assert resources["load_partition"]["mem_mb"] == "2048"
    assert resources["cross_check"]["runtime"] == "15"
    assert len([rule for rule, _ in plans if rule == "load_partition"]) == 8
