# What changed since the last snapshot, and why. Beside build_leaderboard, not before
# it (pandas is imported here and nowhere else): publish puts its section into the page.
rule changes:
    input:
        modules=modules("changes.py"),
        per_run=rules.per_run.output.csv,
        criteria=rules.per_run.output.criteria,
        per_run_summary=rules.per_run.output.summary,
        metrics_per_subject=rules.metrics_per_subject.output[0],
        uncertainty=rules.uncertainty.output[0],
        verdict=rules.cross_check.output.verdict,
        input_files=rules.cross_check.output.input_files,
        # What metadata.json records of the rubric, methods and schemas (provenance).
        rubric=f"{workflow.basedir}/system/rubric/{VERSION}/aggregated_metrics.md",
        uncertainty_methods=f"{workflow.basedir}/system/rubric/{VERSION}/uncertainty_methods.md",
        schemas=expand(
            f"{SCHEMAS}/{{kind}}.schema.json",
            kind=["response", "evaluation", "gold", "registry"],
        ),
        # The labels of changes.md and of the pages' changes section (data files).
        translations=TRANSLATIONS,
        # The snapshots: taking one can change which is compared with.
        history=snapshot_metadata_files,
    output:
        csv=f"{STAGED}/changes.csv",
        md=f"{STAGED}/changes.md",
        section=f"{STAGED}/changes.section.json",
    log:
        f"{LOGS}/changes.log",
    conda:
        "../envs/metrics.yaml"
    threads: 1
    resources:
        mem_mb=1024,
    params:
        alpha=config["alpha"],
        bootstrap_seed=config["bootstrap_seed"],
        bootstrap_replicates=config["bootstrap_replicates"],
        benchmark_version=VERSION,
        strict=config["strict"],
        snapshot_date=config["snapshot_date"],
        changes_since=config["changes_since"],
        history=HISTORY,
    script:
        "../../scripts/changes.py"
