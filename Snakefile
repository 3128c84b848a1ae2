# Metrics workflow of the RO desalination fault-diagnosis safety benchmark.
# README.md explains how to run it; config/README.md describes every key.
from snakemake.utils import min_version

# The oldest Snakemake the tests run on: the one pinned in requirements.txt (the
# tests rely on a detail of it that tests/unit/test_snakemake_internals.py checks).
min_version("9.27.1")


configfile: "config/config.yaml"


include: "workflow/rules/common.smk"
include: "workflow/rules/operational.smk"
include: "workflow/rules/load.smk"
include: "workflow/rules/consolidation.smk"
include: "workflow/rules/agreement.smk"
include: "workflow/rules/metrics.smk"
include: "workflow/rules/uncertainty.smk"
include: "workflow/rules/findings.smk"
include: "workflow/rules/publish.smk"
include: "workflow/rules/report.smk"
include: "workflow/rules/site.smk"
include: "workflow/rules/snapshot.smk"
include: "workflow/rules/verify.smk"


# The aggregate steps take seconds; on a cluster they run on the submitting machine
# unless config local_aggregates is false (then every job is submitted).
if config["local_aggregates"]:

    localrules:
        all,
        cross_check,
        consolidation,
        agreement,
        per_run,
        metrics_per_subject,
        metrics_per_family,
        uncertainty,
        findings,
        publish,
        findings_report,
        case_pages_and_index,
        site,
        leaderboard,
        snapshot,
        verify,


rule all:
    default_target: True
    input:
        rules.publish.output,
        # The findings report (results/findings.md, findings.es.md).
        rules.findings_report.output,


# `snakemake --cores 4 leaderboard`: the published results, leaderboard included
# (what the default target `all` builds too).
rule leaderboard:
    input:
        rules.publish.output.leaderboard_csv,
        rules.publish.output.leaderboard_html,


# `snakemake --cores 4 site`: the static site (config `site`, default site/), with
# the published results it is built from.
rule site:
    input:
        rules.case_pages_and_index.output.manifest,
