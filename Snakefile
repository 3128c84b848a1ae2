# Metrics workflow of the RO desalination fault-diagnosis safety benchmark.
# README.md explains how to run it; config/README.md describes every key.
from snakemake.utils import min_version

min_version("9.27.1")


configfile: "config/config.yaml"


include: "workflow/rules/common.smk"
include: "workflow/rules/load.smk"
include: "workflow/rules/operational.smk"
include: "workflow/rules/metrics.smk"
include: "workflow/rules/annotations.smk"
include: "workflow/rules/uncertainty.smk"
include: "workflow/rules/agreement.smk"
include: "workflow/rules/findings.smk"
include: "workflow/rules/changes.smk"
include: "workflow/rules/leaderboard.smk"
include: "workflow/rules/report.smk"
include: "workflow/rules/publish.smk"
include: "workflow/rules/site.smk"
include: "workflow/rules/snapshot.smk"
include: "workflow/rules/verify.smk"
include: "workflow/rules/private.smk"


# The aggregate steps take seconds; on a cluster they run on the submitting machine
# unless config local_aggregates is false (then every job is submitted).
if config["local_aggregates"]:

    localrules:
        all,
        cross_check,
        annotations,
        lifecycle_check,
        uncertainty,
        agreement,
        findings,
        leaderboard,
        changes,
        metadata,
        findings_report,
        publish,
        front_pages,
        site_folder,
        site,
        take_snapshot,
        snapshot,
        verify,
        private_reports,


# The published results, and the cross-check's verdict on the corpus they come from.
# Snakemake trusts an existing output it has no record of (a fresh clone's results/, a
# results folder copied from elsewhere, a cleaned cache): without its verdict in the
# cache, the corpus is checked and everything computed and published anew.
rule all:
    default_target: True
    input:
        rules.publish.output,
        rules.cross_check.output.verdict,


# `snakemake --cores 4 site`: the static site (config `site`, default site/), with
# the published results it is built from.
rule site:
    input:
        rules.site_folder.output,
        rules.cross_check.output.verdict,


# `snakemake --cores 4 private_reports`: the private packet of every evaluated subject
# version (or of config private_report_versions) in <results>/private/ (private.smk);
# not part of the default target.
rule private_reports:
    input:
        private_packets,
        rules.cross_check.output.verdict,
