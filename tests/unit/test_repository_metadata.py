"""The repository's licence and its entry for the Snakemake workflow catalog."""

import yaml

from workflow_runs import REPO


def test_the_licence_is_mit():
    text = (REPO / "LICENSE").read_text("utf-8")
    assert text.startswith("MIT License\n")
    assert "Permission is hereby granted, free of charge" in text


def test_the_catalog_metadata_names_the_flags_a_deployment_and_the_report():
    """The catalog's keys: usage.mandatory-flags (desc, flags), at least one
    software-stack-deployment method, and report (tests/workflow/test_report.py runs
    `snakemake --report`)."""
    usage = yaml.safe_load((REPO / ".snakemake-workflow-catalog.yml").read_text("utf-8"))["usage"]
    assert set(usage) == {"mandatory-flags", "software-stack-deployment", "report"}
    assert (
        usage["mandatory-flags"]["flags"] == "--config corpus=/path/to/corpus results=/path/to/out"
    )
    assert usage["mandatory-flags"]["desc"]
    assert usage["software-stack-deployment"] == {
        "conda": True,
        "singularity": False,
        "singularity+conda": False,
    }
    assert usage["report"] is True
    # conda: every rule names its environment file.
    assert (REPO / "workflow/envs/metrics.yaml").is_file()
