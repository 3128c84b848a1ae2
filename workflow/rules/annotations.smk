# A published row's life (shared/spec/lifecycle.md): the committee's annotations
# (subjects/annotations.yaml, optional) checked against the registry and staged as
# annotations.csv, which the ranking steps read (withdrawn and invalidated versions leave
# every active comparison) and every view shows; then the append-only rule and the
# published values checked against the newest snapshot, a gate of publish.


rule annotations:
    input:
        code=library("contracts", "corpus"),
        schema=f"{SCHEMAS}/annotations.schema.json",
        # The registry: which versions exist, when each was registered (the quota).
        registry_schema=f"{SCHEMAS}/registry.schema.json",
    output:
        f"{STAGED}/annotations.csv",
    log:
        f"{LOGS}/annotations.log",
    conda:
        "../envs/metrics.yaml"
    threads: 1
    resources:
        mem_mb=512,
    params:
        # subjects/annotations.yaml (its path, size and times; none when absent) and the
        # registry (read here, not from the verdict: a new scoring does not rerun this).
        annotations=digest_of("annotations"),
        registry=digest_of("layout"),
        corpus=CORPUS,
        benchmark_version=VERSION,
        max_file_bytes=MAX_FILE_BYTES,
    script:
        "../../scripts/checked_annotations.py"


rule lifecycle_check:
    input:
        code=library("contracts", "formulas", "corpus", "rendering", "leaderboard", "history"),
        annotations=rules.annotations.output[0],
        metrics_per_subject=expand(rules.metrics_per_subject.output[0], partition=PARTITIONS),
        # The snapshots: the newest is the one checked against.
        history=snapshot_metadata_files,
    output:
        f"{CACHE}/lifecycle.json",
    log:
        f"{LOGS}/lifecycle_check.log",
    conda:
        "../envs/metrics.yaml"
    threads: 1
    resources:
        mem_mb=512,
    params:
        corpus=CORPUS,
        history=HISTORY,
        strict=config["strict"],
    script:
        "../../scripts/lifecycle_check.py"
