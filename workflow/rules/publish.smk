rule publish:
    input:
        modules=modules("step_io"),
        verdict=rules.cross_check.output.verdict,
        per_run=rules.per_run.output.csv,
        metrics_per_subject=rules.metrics_per_subject.output[0],
        metrics_per_family=rules.metrics_per_family.output[0],
        rubric=f"{workflow.basedir}/system/rubric/{VERSION}/aggregated_metrics.md",
        schemas=expand(
            f"{SCHEMAS}/{{kind}}.schema.json",
            kind=["response", "evaluation", "gold", "registry"],
        ),
    output:
        # update(): if this job fails, Snakemake restores the previous published file.
        per_run=update(f"{RESULTS}/per_run.csv"),
        metrics_per_subject=update(f"{RESULTS}/metrics_per_subject.csv"),
        metrics_per_family=update(f"{RESULTS}/metrics_per_family.csv"),
        coverage=update(f"{RESULTS}/coverage.csv"),
        metadata=update(f"{RESULTS}/metadata.json"),
    log:
        f"{LOGS}/publish.log",
    conda:
        "../envs/metrics.yaml"
    threads: 1
    resources:
        mem_mb=512,
    params:
        alpha=config["alpha"],
        benchmark_version=VERSION,
        strict=config["strict"],
    script:
        "../../scripts/publish_results.py"
