# Step 1d: the runs the metrics count, one per (case, subject, run): a run's one
# scoring (v1.0), or the consolidation of two primaries and an arbiter
# (shared/spec/multi-reviewer.md). A new second review or an arbiter's scoring reruns
# its partition's load, this job and what follows.
rule consolidation:
    input:
        modules=modules("consolidated_runs.py"),
        runs=expand(f"{CACHE}/load/partition-{{partition}}.runs.json", partition=PARTITIONS),
        golds=f"{CACHE}/load/golds.json",
        policy=REVIEW_POLICY_FILE,
        reviewers_schema=f"{SCHEMAS}/reviewers.schema.json",
        # subjects/reviewers.yaml where it exists (common.smk).
        reviewers=REVIEWER_REGISTRY,
    output:
        consolidation=f"{CACHE}/consolidated/runs.json",
        pairs=f"{CACHE}/consolidated/review_pairs.json",
        check=f"{CACHE}/consolidated/review_check.json",
    log:
        f"{LOGS}/consolidation.log",
    conda:
        "../envs/metrics.yaml"
    threads: 1
    resources:
        mem_mb=1024,
    params:
        corpus=CORPUS,
        benchmark_version=VERSION,
        max_file_bytes=MAX_FILE_BYTES,
        # The policy with the configuration's overrides: a changed setting reruns it.
        policy={
            key: list(value) if isinstance(value, tuple) else value
            for key, value in REVIEW_POLICY._asdict().items()
        },
    script:
        "../../scripts/consolidated_runs.py"
