# Intervals beside every published metric (uncertainty.csv) and what the same paired
# case bootstrap says of the order (rankings.json: ranks, neighbour tests, Spearman's ρ),
# from every partition's per-case sums of its counted runs and its rows of
# metrics_per_subject.csv (the estimates' texts and the statuses).
rule uncertainty:
    input:
        code=library("contracts", "formulas"),
        case_sums=expand(rules.per_run.output.case_sums, partition=PARTITIONS),
        metrics_per_subject=expand(rules.metrics_per_subject.output[0], partition=PARTITIONS),
        # Withdrawn and invalidated versions leave every ranking (lifecycle.md).
        annotations=rules.annotations.output[0],
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
