# findings.md: every fact a release report quotes (findings.json), the version × family
# heatmap and the three charts in each language. After the metrics, the uncertainty
# step's rankings and the operational tables; publish copies them into the results.
rule findings:
    input:
        modules=modules("release_findings.py"),
        # The charts' titles, axes and captions (findings_chart_* labels).
        labels=LABELS,
        verdict=rules.cross_check.output.verdict,
        per_run=rules.per_run.output.table,
        metrics_per_subject=rules.metrics_per_subject.output[0],
        criterion_scores=rules.per_run.output.criteria,
        # Read only when the verdict says the corpus has telemetry (header only otherwise).
        operational_per_subject=rules.operational.output.per_subject,
        # The critical fails, whose evidence the safety gate's events quote (as publish).
        critical_fails=expand(
            f"{CACHE}/load/partition-{{partition}}.critical.json", partition=PARTITIONS
        ),
        # The lengths of every scored response's alternatives and key_signals (§ 5).
        shapes=expand(f"{CACHE}/load/partition-{{partition}}.shapes.json", partition=PARTITIONS),
        # Bootstrap ranks of every version, the neighbour tests, Spearman (§§ 3-4).
        rankings=rules.uncertainty.output.rankings,
    output:
        findings=f"{STAGED}/findings.json",
        heatmap=f"{STAGED}/family_heatmap.csv",
        # update(): the charts are rewritten only when their bytes change (the script),
        # so Snakemake must not empty the folder before the job.
        charts=update(directory(f"{STAGED}/charts")),
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
