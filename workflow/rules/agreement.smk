# Agreement between the two primary reviewers of each run (multi-reviewer.md), from
# every partition's review pairs: none with one reviewer per run (then its tables hold
# their headers only and are not published).
rule agreement:
    input:
        code=library("contracts", "formulas"),
        reviews=expand(rules.per_run.output.reviews, partition=PARTITIONS),
    output:
        agreement=f"{STAGED}/agreement.csv",
        grid=f"{STAGED}/agreement_grid.csv",
        severity=f"{STAGED}/reviewer_severity.csv",
        divergent=f"{STAGED}/divergent_runs.csv",
    log:
        f"{LOGS}/agreement.log",
    conda:
        "../envs/metrics.yaml"
    threads: 1
    resources:
        mem_mb=2048,
    params:
        seed=config["bootstrap_seed"],
        replicates=config["bootstrap_replicates"],
    script:
        "../../scripts/reviewer_agreement.py"
