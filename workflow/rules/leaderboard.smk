# The leaderboard (aggregated_metrics.md §7): one view of the ranking, rendered as
# leaderboard.csv, leaderboard.md and the page in each language, with under each
# disqualified version its critical fails' evidence, the neighbour tests between
# adjacent ranks, the changes since the last snapshot and the reliability diagrams.
rule leaderboard:
    input:
        code=library("contracts", "formulas", "rendering", "leaderboard", "history"),
        verdict=rules.cross_check.output.verdict,
        metadata=f"{STAGED}/metadata.json",
        metrics_per_subject=expand(rules.metrics_per_subject.output[0], partition=PARTITIONS),
        metrics_per_family=expand(rules.metrics_per_family.output[0], partition=PARTITIONS),
        # The calibration of each version (its reliability diagram).
        counted=expand(rules.per_run.output.counted, partition=PARTITIONS),
        critical_fails=expand(rules.per_run.output.critical_fails, partition=PARTITIONS),
        # Each version's runs pending review (none with one reviewer per run).
        reviews=expand(rules.per_run.output.reviews, partition=PARTITIONS),
        uncertainty=rules.uncertainty.output.table,
        # The neighbour tests: "separable" between adjacent ranks.
        rankings=rules.uncertainty.output.rankings,
        # Header only without telemetry (then no operational table).
        operational=rules.operational.output.per_subject,
        # The reviewers' agreement line (none with one reviewer per run).
        agreement=rules.agreement.output.agreement,
        divergent=rules.agreement.output.divergent,
        # The pages' section on what changed since the last snapshot.
        changes=rules.changes.output.sections,
        # Each row's annotations; withdrawn and invalidated rows unranked (lifecycle.md).
        annotations=rules.annotations.output[0],
        # The snapshots the page links.
        history=snapshot_metadata_files,
    output:
        csv=f"{STAGED}/leaderboard.csv",
        markdown=f"{STAGED}/leaderboard.md",
        pages=[staged(entry) for entry in (LEADERBOARD_HTML, LEADERBOARD_ES_HTML)],
        # Each version's reliability diagram, for `snakemake --report`.
        figures=report(
            directory(f"{CACHE}/reliability"),
            patterns=["{name}.svg"],
            caption="../report/reliability.rst",
            category="Reliability diagrams",
            labels={"subject version": "{name}"},
        ),
    log:
        f"{LOGS}/leaderboard.log",
    conda:
        "../envs/metrics.yaml"
    threads: 1
    resources:
        mem_mb=1024,
    params:
        alpha=config["alpha"],
        benchmark_version=VERSION,
        snapshot_date=config["snapshot_date"],
        # leaderboard.csv's columns (with the pending counts under double review).
        reviewers_per_run=REVIEW_POLICY.reviewers_per_run,
        # leaderboard.csv's annotations column (with subjects/annotations.yaml).
        annotated=ANNOTATED,
    script:
        "../../scripts/published_leaderboard.py"
