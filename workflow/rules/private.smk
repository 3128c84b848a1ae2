# `snakemake --cores 4 private_reports`: one private packet per evaluated subject
# version (shared/spec/private-reports.md), in RESULTS/private/<subject_id>/<version>/:
# report.html (and report.es.html with config private_report_languages: [en, es]),
# report.pdf (and report.es.pdf), <version>.zip. Not part of the default target; the
# config's private_report_versions builds chosen versions only.
#
# One job per version. Its inputs are the version's own responses and scorings (the
# files of its subject folder that name it, packet_files.subject_versions) and the
# published results it reads, never the golds nor another version's files: a change to
# another version's files rebuilds its packet only if it changes the published
# aggregates. (In the run that publishes new results, Snakemake reruns every job after
# publish; a later `private_reports` compares the published files' checksums.)
# RESULTS/private/ is no file of the registry: publish, snapshots and verify never
# touch it, and .gitignore keeps it out of the repository.

from ro_metrics.contracts.published import ANNOTATIONS as ANNOTATIONS_TABLE
from ro_metrics.contracts.published import (
    CRITICAL_FAILS,
    LEADERBOARD_CSV,
    METRICS_PER_FAMILY,
    METRICS_PER_SUBJECT,
    PER_RUN,
    PER_RUN_CONSOLIDATED,
    UNCERTAINTY,
)
from ro_metrics.private.packet_files import (
    PRIVATE_FOLDER,
    REPORT_PAGES,
    REPORT_PDFS,
)

# The report's languages: English always (report.html), then those the config adds.
PRIVATE_LANGUAGES = ["en"] + [
    code for code in REPORT_PAGES if code != "en" and code in config["private_report_languages"]
]
PACKET = f"{RESULTS}/{PRIVATE_FOLDER}/{{subject_id}}/{{subject_version}}"
# The published files a packet is made from.
PRIVATE_PUBLISHED = [
    f"{RESULTS}/{entry.name}"
    for entry in (
        PER_RUN,
        METRICS_PER_SUBJECT,
        METRICS_PER_FAMILY,
        CRITICAL_FAILS,
        UNCERTAINTY,
        LEADERBOARD_CSV,
    )
]
# Under double review, the runs as the metrics count them (the calibration's).
if PER_RUN_CONSOLIDATED in PUBLISHED:
    PRIVATE_PUBLISHED.append(f"{RESULTS}/{PER_RUN_CONSOLIDATED.name}")
# With annotations: each row's, and which versions leave the active comparisons.
if ANNOTATIONS_TABLE in PUBLISHED:
    PRIVATE_PUBLISHED.append(f"{RESULTS}/{ANNOTATIONS_TABLE.name}")


rule private_report:
    input:
        unpack(packet_inputs),
        code=library(
            "contracts", "formulas", "corpus", "rendering", "leaderboard", "site", "private"
        ),
        # The gate: made from published results only (publish runs on an accepted corpus).
        published=PRIVATE_PUBLISHED,
    output:
        pages=[f"{PACKET}/{REPORT_PAGES[code]}" for code in PRIVATE_LANGUAGES],
        pdfs=[f"{PACKET}/{REPORT_PDFS[code]}" for code in PRIVATE_LANGUAGES],
        zip=f"{PACKET}/{{subject_version}}.zip",
    log:
        f"{LOGS}/private_report-{{subject_id}}-{{subject_version}}.log",
    wildcard_constraints:
        subject_id=r"[a-z0-9][a-z0-9_-]*",
        subject_version=r"[^/]+",
    conda:
        "../envs/metrics.yaml"
    threads: 1
    resources:
        mem_mb=1024,
    params:
        corpus=CORPUS,
        alpha=config["alpha"],
        benchmark_version=VERSION,
        languages=PRIVATE_LANGUAGES,
    script:
        "../../scripts/private_packet.py"
