# Intervals beside every published metric (uncertainty.csv) and what the same paired
# case bootstrap says of the order (rankings.json: ranks, neighbour tests, Spearman's ρ),
# over every partition's counted runs.
rule uncertainty:
    input:
        code=library("contracts", "formulas"),
        counted=expand(rules.per_run.output.counted, partition=PARTITIONS),
    output:
        table=f"{STAGED}/uncertainty.csv",
        rankings=f"{CACHE}/rankings.json",
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
