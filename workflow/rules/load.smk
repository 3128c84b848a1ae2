rule load_partition:
    input:
        modules=modules("checked_partition.py"),
        manifest=f"{MANIFESTS}/partition-{{partition}}.tsv",
        response_schema=f"{SCHEMAS}/response.schema.json",
        scoring_schema=f"{SCHEMAS}/evaluation.schema.json",
    output:
        summary=f"{CACHE}/load/partition-{{partition}}.json",
        runs=f"{CACHE}/load/partition-{{partition}}.runs.json",
        # Public fields only: of every scored run (the site), of each critical fail.
        published=f"{CACHE}/load/partition-{{partition}}.published.json",
        critical_fails=f"{CACHE}/load/partition-{{partition}}.critical.json",
        # The lengths of each scored run's alternatives and key_signals (the findings).
        shapes=f"{CACHE}/load/partition-{{partition}}.shapes.json",
        # The job's own file cache: update() keeps it, so a rerun re-reads only
        # the files whose size or timestamps changed.
        files=update(f"{CACHE}/load/partition-{{partition}}.files.json"),
    log:
        f"{LOGS}/load_partition-{{partition}}.log",
    conda:
        "../envs/metrics.yaml"
    threads: 1
    resources:
        mem_mb=1024,
    params:
        corpus=CORPUS,
        benchmark_version=VERSION,
        max_file_bytes=MAX_FILE_BYTES,
        # The scorings a run may have: 1 (v1.0), 3 under double review.
        max_scorings_per_run=MAX_SCORINGS[REVIEW_POLICY.reviewers_per_run],
    script:
        "../../scripts/checked_partition.py"


rule load_golds:
    input:
        modules=modules("public_golds.py"),
        manifest=f"{MANIFESTS}/golds.tsv",
        gold_schema=f"{SCHEMAS}/gold.schema.json",
    output:
        f"{CACHE}/load/golds.json",
    log:
        f"{LOGS}/load_golds.log",
    conda:
        "../envs/metrics.yaml"
    threads: 1
    resources:
        mem_mb=512,
    params:
        corpus=CORPUS,
        benchmark_version=VERSION,
        max_file_bytes=MAX_FILE_BYTES,
    script:
        "../../scripts/public_golds.py"


rule cross_check:
    input:
        # The reviews' problems, found by the consolidation (consolidation.smk), when it
        # runs (CONSOLIDATES).
        **({"reviews": f"{CACHE}/consolidated/review_check.json"} if CONSOLIDATES else {}),
        modules=modules("verdict.py"),
        partitions=expand(f"{CACHE}/load/partition-{{partition}}.json", partition=PARTITIONS),
        runs=expand(f"{CACHE}/load/partition-{{partition}}.runs.json", partition=PARTITIONS),
        golds=f"{CACHE}/load/golds.json",
        layout=f"{MANIFESTS}/layout.tsv",
        registry_schema=f"{SCHEMAS}/registry.schema.json",
        # The telemetry's problems and the calls to check against their responses.
        operational=rules.operational.output.summary,
    output:
        verdict=f"{CACHE}/checked/verdict.json",
        input_files=f"{STAGED}/input_files.csv",
    log:
        f"{LOGS}/cross_check.log",
    conda:
        "../envs/metrics.yaml"
    threads: 1
    resources:
        mem_mb=1024,
    params:
        corpus=CORPUS,
        benchmark_version=VERSION,
        max_file_bytes=MAX_FILE_BYTES,
        strict=config["strict"],
        # The consolidation's problems are an input (reviews) when it runs.
        consolidated=CONSOLIDATES,
    script:
        "../../scripts/verdict.py"
