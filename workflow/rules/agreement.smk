# Agreement between the two primary reviewers of each run (multi-reviewer.md): read
# from the consolidation step's review pairs (records.write_review_pairs). Published by
# `publish` under double review only.


rule agreement:
    input:
        modules=modules("reviewer_agreement.py"),
        review_pairs=f"{CACHE}/consolidated/review_pairs.json",
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
