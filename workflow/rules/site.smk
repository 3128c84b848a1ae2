# `snakemake --cores 4 site`: the static site in SITE (config `site`), built from the
# published results, in English (the site root) and Spanish (es/). Every page is an
# output of one job, inside the folder that job owns (a directory() output, emptied by
# Snakemake before the job runs): each subject partition's version pages, each family's
# case pages, the front pages (the index, the findings page, the report's page). Rule
# site_folder then puts them together into SITE, which it owns whole (a page whose
# input disappeared disappears with it).


rule version_pages:
    input:
        code=library("contracts", "formulas", "rendering", "leaderboard", "report", "site"),
        published=rules.load_partition.output.published,
        # Which scoring of each run counts (with one reviewer per run, the one it has).
        consolidation=rules.per_run.output.consolidation,
        golds=rules.load_golds.output[0],
        # Each version's annotations, shown on its page (lifecycle.md).
        annotations=rules.annotations.output[0],
    output:
        pages=directory(f"{CACHE}/site/versions-{{partition}}"),
        # Each version's row of the index's matrix, in every language.
        matrix=f"{PARTITION}/matrix.json",
        # The partition's rows of each case page, by the case's family.
        case_rows=expand(
            f"{PARTITION}/case_rows-{{family}}.json", family=FAMILIES, allow_missing=True
        ),
    log:
        f"{LOGS}/version_pages-{{partition}}.log",
    conda:
        "../envs/metrics.yaml"
    threads: 1
    resources:
        mem_mb=1024,
    params:
        alpha=config["alpha"],
        benchmark_version=VERSION,
    script:
        "../../scripts/version_pages.py"


# A family's case pages, from the rows of its cases in every partition. Snakemake reruns
# every job that depends on one it reruns: a partition's version pages job writes its
# rows of every family, so one added scoring re-renders the case pages of every family.
rule case_pages:
    input:
        code=library(
            "contracts", "formulas", "corpus", "rendering", "leaderboard", "report", "site"
        ),
        case_rows=expand(
            f"{PARTITION}/case_rows-{{family}}.json",
            partition=PARTITIONS,
            allow_missing=True,
        ),
        golds=rules.load_golds.output[0],
        # The family's public case statements in the corpus (checked by cross_check).
        statements=statements_of,
    output:
        directory(f"{CACHE}/site/cases-{{family}}"),
    log:
        f"{LOGS}/case_pages-{{family}}.log",
    conda:
        "../envs/metrics.yaml"
    threads: 1
    resources:
        mem_mb=1024,
    params:
        benchmark_version=VERSION,
    script:
        "../../scripts/case_pages.py"


# The front pages are rendered from the published files as their steps staged them
# (rule publish copies or assembles them as they are), so they are made beside publish,
# not after it; rule site_folder waits for publish: the site shows published results.
rule front_pages:
    input:
        code=library("contracts", "formulas", "rendering", "leaderboard", "report", "site"),
        # The index's leaderboard: its view, read from the leaderboard's own inputs
        # (leaderboard_view.read_leaderboard_view).
        verdict=rules.leaderboard.input.verdict,
        metadata=rules.leaderboard.input.metadata,
        metrics_per_subject=rules.leaderboard.input.metrics_per_subject,
        metrics_per_family=rules.leaderboard.input.metrics_per_family,
        critical_fails=rules.leaderboard.input.critical_fails,
        reviews=rules.leaderboard.input.reviews,
        counted=rules.leaderboard.input.counted,
        uncertainty=rules.leaderboard.input.uncertainty,
        # The arbitration worklist (under double review): pending_runs.csv's fragments.
        pending_runs=expand(rules.per_run.output.pending_runs, partition=PARTITIONS),
        rankings=rules.leaderboard.input.rankings,
        operational=rules.leaderboard.input.operational,
        agreement=rules.leaderboard.input.agreement,
        divergent=rules.leaderboard.input.divergent,
        # As on leaderboard.html: each version's reliability diagram (from counted,
        # above) and the section on the changes since the last snapshot.
        changes=rules.leaderboard.input.changes,
        annotations=rules.leaderboard.input.annotations,
        findings=rules.findings.output.findings,
        charts=rules.findings.output.charts,
        reports=list(rules.findings_report.output),
        matrix=expand(rules.version_pages.output.matrix, partition=PARTITIONS),
        golds=rules.load_golds.output[0],
    output:
        directory(f"{CACHE}/site/front"),
    log:
        f"{LOGS}/front_pages.log",
    conda:
        "../envs/metrics.yaml"
    threads: 1
    resources:
        mem_mb=1024,
    params:
        alpha=config["alpha"],
        benchmark_version=VERSION,
        # Under double review, the arbitration worklist page too.
        reviewers_per_run=REVIEW_POLICY.reviewers_per_run,
    script:
        "../../scripts/front_pages.py"


rule site_folder:
    input:
        code=library("contracts"),
        # The gate: the site is put together from results that were published.
        published=rules.publish.output,
        versions=expand(rules.version_pages.output.pages, partition=PARTITIONS),
        cases=expand(rules.case_pages.output[0], family=FAMILIES),
        front=rules.front_pages.output[0],
    output:
        directory(SITE),
    log:
        f"{LOGS}/site_folder.log",
    conda:
        "../envs/metrics.yaml"
    threads: 1
    resources:
        mem_mb=512,
    script:
        "../../scripts/site_folder.py"
