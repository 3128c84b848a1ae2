rule load_partition:
    input:
        manifest=f"{MANIFESTS}/partition-{{partition}}.tsv",
        response_schema=f"{SCHEMAS}/response.schema.json",
        scoring_schema=f"{SCHEMAS}/evaluation.schema.json",
    output:
        f"{CACHE}/load/partition-{{partition}}.json",
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
    script:
        "../../scripts/load_partition.py"


rule load_golds:
    input:
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
    script:
        "../../scripts/load_golds.py"


rule cross_check:
    input:
        partitions=expand(f"{CACHE}/load/partition-{{partition}}.json", partition=PARTITIONS),
        golds=f"{CACHE}/load/golds.json",
        layout=f"{MANIFESTS}/layout.tsv",
        registry_schema=f"{SCHEMAS}/registry.schema.json",
    output:
        checked=f"{CACHE}/checked/corpus.json",
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
        strict=config["strict"],
    script:
        "../../scripts/cross_check.py"
