# `snakemake --cores 4 site`: the static site in SITE (config `site`), built from the
# published results, in English (the site root) and Spanish (es/). Two kinds of jobs,
# each writing many pages (in both languages) but rewriting only those whose content
# changed (ro_metrics/site/site_files.py): one job per partition for its subject
# versions' pages, one job for the case pages and the index. A job per page would be
# ~60,000 jobs at size L; this is partitions + 1.


rule version_pages:
    input:
        # Under double review: which scoring of each run counts (the consolidation's).
        **({"consolidation": rules.consolidation.output.consolidation} if DOUBLE_REVIEW else {}),
        modules=modules("version_pages.py"),
        labels=LABELS,
        templates=TEMPLATES,
        published=rules.load_partition.output.published,
        golds=rules.load_golds.output[0],
        # A gate only: pages are built from a corpus the cross-check accepted. The
        # verdict is rewritten by every run that changes anything, so its date must
        # not re-run the pages of the partitions that did not change (ancient).
        verdict=ancient(rules.cross_check.output.verdict),
    output:
        # The pages themselves are not outputs (Snakemake would delete them before
        # the job, and each job rewrites only the changed ones); the manifest says
        # what was written, update() keeps it for the next run.
        manifest=update(f"{CACHE}/site/partition-{{partition}}.pages.json"),
        # What the case pages and the index show of each version (its matrix row, per
        # case its counts and the digest of its rows; the rows are in the files of
        # partition-N.cases/, one per case, not outputs); kept too: the parts of a
        # version whose inputs did not change are reused.
        parts=update(f"{CACHE}/site/partition-{{partition}}.parts.json"),
    log:
        f"{LOGS}/version_pages-{{partition}}.log",
    conda:
        "../envs/metrics.yaml"
    threads: 1
    resources:
        mem_mb=1024,
    params:
        site=SITE,
        alpha=config["alpha"],
        benchmark_version=VERSION,
        double_review=DOUBLE_REVIEW,
    script:
        "../../scripts/version_pages.py"


rule case_pages_and_index:
    input:
        # Under double review: the index's agreement line and pending counts.
        **(
            {
                "agreement": rules.publish.output.agreement,
                "divergent": rules.publish.output.divergent,
                "pending_runs": rules.publish.output.pending_runs,
            }
            if DOUBLE_REVIEW
            else {}
        ),
        modules=modules("case_pages_and_index.py"),
        labels=LABELS,
        templates=TEMPLATES,
        # Each partition's versions' matrix rows and case counts and digests (the job
        # reads a case's rows files, partition-N.cases/<case_id>.json, only to write
        # its page).
        parts=expand(f"{CACHE}/site/partition-{{partition}}.parts.json", partition=PARTITIONS),
        pages=expand(f"{CACHE}/site/partition-{{partition}}.pages.json", partition=PARTITIONS),
        golds=rules.load_golds.output[0],
        leaderboard=rules.publish.output.leaderboard_csv,
        critical_fails=rules.publish.output.critical_fails,
        uncertainty=rules.publish.output.uncertainty,
        metadata=rules.publish.output.metadata,
        operational=rules.operational.output.per_subject,
        # The findings page's facts and charts (rule findings, published by publish).
        findings=f"{RESULTS}/findings.json",
        charts=[f"{RESULTS}/charts/{name}" for name in FINDINGS_CHARTS],
        # The findings report's Markdown, rendered as the report pages.
        findings_report=rules.findings_report.output,
    output:
        manifest=update(f"{CACHE}/site/site.pages.json"),
    log:
        f"{LOGS}/case_pages_and_index.log",
    conda:
        "../envs/metrics.yaml"
    threads: 1
    resources:
        mem_mb=1024,
    params:
        site=SITE,
        alpha=config["alpha"],
        benchmark_version=VERSION,
        double_review=DOUBLE_REVIEW,
    script:
        "../../scripts/case_pages_and_index.py"
