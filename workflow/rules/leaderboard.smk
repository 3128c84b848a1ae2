rule build_leaderboard:
    input:
        modules=modules("leaderboard.py"),
        metrics_per_subject=rules.metrics_per_subject.output[0],
        metrics_per_family=rules.metrics_per_family.output[0],
        uncertainty=rules.uncertainty.output[0],
        critical_fails=rules.critical_fails.output[0],
        per_run=rules.per_run.output.table,
        # Its newest scoring, the page's date (computed once, by step 2).
        per_run_summary=rules.per_run.output.summary,
        verdict=rules.cross_check.output.verdict,
        operational=rules.operational.output.per_subject,
        translations=TRANSLATIONS,
        # The page links the snapshots taken before its own date.
        history=snapshot_metadata_files,
    output:
        csv=f"{STAGED}/leaderboard.csv",
        html=f"{STAGED}/leaderboard.html",
        html_es=f"{STAGED}/leaderboard.es.html",
        markdown=f"{STAGED}/leaderboard.md",
        summary=f"{STAGED}/leaderboard.json",
        figures=report(
            directory(f"{STAGED}/reliability"),
            patterns=["{name}.svg"],
            caption="../report/reliability.rst",
            category="Reliability diagrams",
            labels={"subject version": "{name}"},
        ),
    log:
        f"{LOGS}/build_leaderboard.log",
    conda:
        "../envs/metrics.yaml"
    threads: 1
    resources:
        mem_mb=1024,
    params:
        alpha=config["alpha"],
        benchmark_version=VERSION,
        snapshot_date=config["snapshot_date"],
        diagram_cache=f"{CACHE}/diagrams",
    script:
        "../../scripts/leaderboard.py"
