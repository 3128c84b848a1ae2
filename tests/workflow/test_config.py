"""A bad configuration value stops the run with one line naming the key."""

import pytest

from workflow_runs import DEMO_CORPUS, run_workflow, workflow_copy


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    return workflow_copy(tmp_path_factory.mktemp("workflow"))


@pytest.mark.parametrize(
    ("setting", "message"),
    [
        ("alpha=2", "Invalid configuration: alpha: 2 is greater than the maximum of 1"),
        ("alpha=-0.1", "Invalid configuration: alpha: -0.1 is less than the minimum of 0"),
        ("alpha=half", "Invalid configuration: alpha: 'half' is not of type 'number'"),
        ("strict=maybe", "Invalid configuration: strict: 'maybe' is not of type 'boolean'"),
        ("benchmark_version=v1", "Invalid configuration: benchmark_version: 'v1' does not match"),
        ("benchmark_version=v9.9", "Invalid configuration: benchmark_version: no schemas for v9.9"),
        ("partitions=0", "Invalid configuration: partitions: 0 is less than the minimum of 1"),
        ("partitions=257", "Invalid configuration: partitions: 257 is greater than the maximum"),
        ("partitions=many", "Invalid configuration: partitions: 'many' does not match '^auto$'"),
        (
            "corpus=/no/such/corpus",
            "Invalid configuration: corpus: /no/such/corpus is not a folder",
        ),
        (
            "colour=blue",
            "Invalid configuration: unknown key colour; the valid keys are agreed_value, alpha, "
            "benchmark_version, bootstrap_replicates, bootstrap_seed, cache, changes_since, "
            "corpus, critical_fails, divergence_rules, findings_templates, local_aggregates, "
            "max_file_mib, partitions, private_report_languages, private_report_versions, "
            "raw_score_threshold, results, reviewers_per_run, site, snapshot_date, strict, "
            "unneeded_arbiter (config/README.md)",
        ),
        (
            "findings_templates={en: a.j2, es: b.j2, fr: c.j2}",
            "Invalid configuration: findings_templates: unknown key fr; the valid keys are en, es "
            "(config/README.md)",
        ),
    ],
)
def test_bad_value_is_a_one_line_error(workdir, setting, message):
    key, value = setting.split("=", 1)
    config = {"corpus": DEMO_CORPUS, "results": workdir / "results", key: value}
    run = run_workflow(workdir, "--dry-run", **config)
    assert run.returncode != 0
    # Snakemake's own notices about the config file and the default profile aside.
    notices = ("Config file", "Using workflow specific profile")
    lines = [line for line in run.output.splitlines() if not line.startswith(notices)]
    assert len(lines) == 1, run.output
    assert lines[0].startswith(message), run.output


@pytest.mark.parametrize(("value", "accepted"), [("true", True), ("False", True), ("0", False)])
def test_strict_accepts_boolean_spellings(workdir, value, accepted):
    run = run_workflow(
        workdir, "--dry-run", corpus=DEMO_CORPUS, results=workdir / "results", strict=value
    )
    assert (run.returncode == 0) == accepted, run.output
