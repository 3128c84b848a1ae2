# What changed since the newest earlier snapshot, and why (changes.csv, changes.md and
# the leaderboard pages' section on it). Comparing the results with a snapshot needs
# this run's per-run table, metrics, intervals, criterion scores, inputs and metadata.
rule changes:
    input:
        code=library("contracts", "formulas", "corpus", "rendering", "leaderboard", "history"),
        per_run=expand(rules.per_run.output.per_run, partition=PARTITIONS),
        metrics_per_subject=expand(rules.metrics_per_subject.output[0], partition=PARTITIONS),
        criterion_scores=expand(rules.per_run.output.criterion_scores, partition=PARTITIONS),
        uncertainty=rules.uncertainty.output.table,
        input_files=rules.cross_check.output.input_files,
        metadata=f"{STAGED}/metadata.json",
        # The annotations: a cause of what they change (lifecycle.md).
        annotations=rules.annotations.output[0],
        # The snapshots: taking one can change which is compared with.
        history=snapshot_metadata_files,
    output:
        csv=f"{STAGED}/changes.csv",
        markdown=f"{STAGED}/changes.md",
        # The leaderboard pages' section, in each language (HTML fragments).
        sections=f"{CACHE}/changes_sections.json",
    log:
        f"{LOGS}/changes.log",
    conda:
        "../envs/metrics.yaml"
    threads: 1
    resources:
        mem_mb=2048,
    params:
        snapshot_date=config["snapshot_date"],
        changes_since=config["changes_since"],
        history=HISTORY,
        # What a snapshot it cannot read suggests: the run again, with changes_since. Not
        # the site: it is not this command's, and a parameter would rerun the step (and
        # all it feeds) whenever only the site folder moves.
        settings={key: value for key, value in RUN_SETTINGS.items() if key != "site"},
    script:
        "../../scripts/changes_since_snapshot.py"


# metadata.json: the provenance of the results (α, versions, the newest scoring, the
# digest of every input, the rubric's and schemas' digests).
rule metadata:
    input:
        code=library("contracts", "history"),
        verdict=rules.cross_check.output.verdict,
        # Each partition's newest scoring.
        reviews=expand(rules.per_run.output.reviews, partition=PARTITIONS),
        uncertainty_methods=f"{RUBRIC}/uncertainty_methods.md",
        rubric=f"{RUBRIC}/aggregated_metrics.md",
        review_policy=REVIEW_POLICY_FILE,
        schemas=expand(
            f"{SCHEMAS}/{{kind}}.schema.json",
            kind=["response", "evaluation", "gold", "registry"],
        ),
    output:
        f"{STAGED}/metadata.json",
    log:
        f"{LOGS}/metadata.log",
    conda:
        "../envs/metrics.yaml"
    threads: 1
    resources:
        mem_mb=512,
    params:
        alpha=config["alpha"],
        bootstrap_seed=config["bootstrap_seed"],
        bootstrap_replicates=config["bootstrap_replicates"],
        benchmark_version=VERSION,
        strict=config["strict"],
        # The effective review policy (the version's with the configuration's overrides).
        review_policy=POLICY | {"unneeded_arbiter": config["unneeded_arbiter"]},
    script:
        "../../scripts/results_metadata.py"
