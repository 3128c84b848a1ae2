rule uncertainty:
    input:
        modules=modules(
            "build_uncertainty",
            "uncertainty",
            "ranking",
            "build_metrics_per_subject",
            "compute_metrics",
            "per_run_table",
            "build_per_run",
            "step_io",
        ),
        per_run=rules.per_run.output.table,
    output:
        f"{STAGED}/uncertainty.csv",
    log:
        f"{LOGS}/uncertainty.log",
    conda:
        "../envs/metrics.yaml"
    threads: 1
    resources:
        mem_mb=2048,
    params:
        alpha=config["alpha"],
        seed=config["bootstrap_seed"],
        replicates=config["bootstrap_replicates"],
    script:
        "../../scripts/build_uncertainty.py"
