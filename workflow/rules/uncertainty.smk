rule uncertainty:
    input:
        modules=modules("uncertainty_estimates.py"),
        per_run=rules.per_run.output.table,
    output:
        table=f"{STAGED}/uncertainty.csv",
        # What the same replicates say of the order (records.RankingEvidence).
        rankings=f"{CACHE}/uncertainty/rankings.json",
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
        "../../scripts/uncertainty_estimates.py"
