rule per_run:
    input:
        # The runs the metrics count (one per run), when the consolidation runs
        # (CONSOLIDATES); otherwise every scored run, one per run by the v1.0 rule.
        **({"consolidation": rules.consolidation.output.consolidation} if CONSOLIDATES else {}),
        modules=modules("per_run_table.py"),
        # Not the verdict: it changes with the telemetry, which the per-run values do not
        # depend on. The verdict gates what is published (build_leaderboard, publish).
        runs=rules.cross_check.input.runs,
        golds=rules.cross_check.input.golds,
    output:
        # Under double review only: the consolidated runs and the runs pending review.
        **(
            {
                "consolidated": f"{STAGED}/per_run_consolidated.csv",
                "pending": f"{STAGED}/pending_runs.csv",
            }
            if DOUBLE_REVIEW
            else {}
        ),
        csv=f"{STAGED}/per_run.csv",
        table=f"{STAGED}/per_run.table.json",
        criteria=f"{STAGED}/criterion_scores.csv",
        summary=f"{STAGED}/per_run.summary.json",
    log:
        f"{LOGS}/per_run.log",
    conda:
        "../envs/metrics.yaml"
    threads: 1
    resources:
        mem_mb=1024,
    params:
        double_review=DOUBLE_REVIEW,
        consolidated=CONSOLIDATES,
    script:
        "../../scripts/per_run_table.py"


rule metrics_per_subject:
    input:
        modules=modules("metrics_per_subject.py"),
        per_run=rules.per_run.output.table,
    output:
        f"{STAGED}/metrics_per_subject.csv",
    log:
        f"{LOGS}/metrics_per_subject.log",
    conda:
        "../envs/metrics.yaml"
    threads: 1
    resources:
        mem_mb=1024,
    params:
        alpha=config["alpha"],
    script:
        "../../scripts/metrics_per_subject.py"


rule metrics_per_family:
    input:
        modules=modules("metrics_per_family.py"),
        per_run=rules.per_run.output.table,
    output:
        f"{STAGED}/metrics_per_family.csv",
    log:
        f"{LOGS}/metrics_per_family.log",
    conda:
        "../envs/metrics.yaml"
    threads: 1
    resources:
        mem_mb=1024,
    script:
        "../../scripts/metrics_per_family.py"
