# findings.md: every fact a release report quotes (findings.json), the version × family
# heatmap and the three charts in each language.
rule findings:
    input:
        code=library("contracts", "formulas", "rendering", "report"),
        verdict=rules.cross_check.output.verdict,
        # The runs that count, summed per (subject, version, family) (§§ 1–3, 7).
        tallies=expand(rules.per_run.output.tallies, partition=PARTITIONS),
        metrics_per_subject=expand(rules.metrics_per_subject.output[0], partition=PARTITIONS),
        criterion_scores=expand(rules.per_run.output.criterion_scores, partition=PARTITIONS),
        # The critical fails of the scorings that count, with their evidence (§ 1).
        critical_fails=expand(rules.per_run.output.critical_fails, partition=PARTITIONS),
        # The lengths of every scored response's alternatives and key_signals (§ 5).
        shapes=expand(rules.load_partition.output.shapes, partition=PARTITIONS),
        # Bootstrap ranks of every version, the neighbour tests, Spearman (§§ 3-4).
        rankings=rules.uncertainty.output.rankings,
        # p_rank_1 and the pass rates' intervals (the first rank, the limitations).
        uncertainty=rules.uncertainty.output.table,
        # The runs left out of the metrics until their review is complete (§ 1).
        pending_runs=expand(rules.per_run.output.pending_runs, partition=PARTITIONS),
        # Read only when the corpus has telemetry (header only otherwise).
        operational_per_subject=rules.operational.output.per_subject,
        # Withdrawn and invalidated versions leave every comparison (lifecycle.md).
        annotations=rules.annotations.output[0],
    output:
        findings=f"{STAGED}/findings.json",
        heatmap=f"{STAGED}/family_heatmap.csv",
        charts=[staged(entry) for entry in CHARTS],
    log:
        f"{LOGS}/findings.log",
    conda:
        "../envs/metrics.yaml"
    threads: 1
    resources:
        mem_mb=1024,
    params:
        benchmark_version=VERSION,
    script:
        "../../scripts/release_findings.py"
