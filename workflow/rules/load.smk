# Step 1: load and check the corpus. One load job per partition of the subject folders,
# one for the golds; the cross-check joins them with the registry, the telemetry's
# problems and the reviews' and gives the verdict every published file waits for.


rule load_partition:
    input:
        code=library("contracts", "corpus"),
        response_schema=f"{SCHEMAS}/response.schema.json",
        scoring_schema=f"{SCHEMAS}/evaluation.schema.json",
    output:
        # Its problems, counts and the digest of every file read (records.PartitionSummary).
        summary=f"{PARTITION}/loaded.json",
        runs=f"{PARTITION}/runs.json",
        # Public fields only: of every scored run (the site), of each critical fail.
        published=f"{PARTITION}/published.json",
        critical_fails=f"{PARTITION}/critical.json",
        # The lengths of each scored response's alternatives and key_signals (findings).
        shapes=f"{PARTITION}/shapes.json",
    log:
        f"{LOGS}/load_partition-{{partition}}.log",
    conda:
        "../envs/metrics.yaml"
    threads: 1
    resources:
        mem_mb=1024,
    params:
        files=digest_of("partition"),
        corpus=CORPUS,
        benchmark_version=VERSION,
        n_partitions=SCAN.n_partitions,
        max_file_bytes=MAX_FILE_BYTES,
        # The scorings a run may have: 1 (v1.0), 3 under double review.
        max_scorings_per_run=MAX_SCORINGS[REVIEW_POLICY.reviewers_per_run],
    script:
        "../../scripts/checked_partition.py"


rule load_golds:
    input:
        code=library("contracts", "corpus"),
        gold_schema=f"{SCHEMAS}/gold.schema.json",
    output:
        f"{CACHE}/golds.json",
    log:
        f"{LOGS}/load_golds.log",
    conda:
        "../envs/metrics.yaml"
    threads: 1
    resources:
        mem_mb=512,
    params:
        files=digest_of("golds"),
        corpus=CORPUS,
        benchmark_version=VERSION,
        max_file_bytes=MAX_FILE_BYTES,
    script:
        "../../scripts/public_golds.py"


rule cross_check:
    input:
        code=library("contracts", "formulas", "corpus"),
        partitions=expand(rules.load_partition.output.summary, partition=PARTITIONS),
        runs=expand(rules.load_partition.output.runs, partition=PARTITIONS),
        golds=rules.load_golds.output[0],
        # The reviews' problems and pending runs, found by each partition's per-run step.
        reviews=expand(f"{PARTITION}/reviews.json", partition=PARTITIONS),
        registry_schema=f"{SCHEMAS}/registry.schema.json",
        # The telemetry's problems and the calls to check against their responses.
        operational=f"{CACHE}/operational.json",
    output:
        verdict=f"{CACHE}/verdict.json",
        input_files=f"{STAGED}/input_files.csv",
        coverage=f"{STAGED}/coverage.csv",
    log:
        f"{LOGS}/cross_check.log",
    conda:
        "../envs/metrics.yaml"
    threads: 1
    resources:
        mem_mb=1024,
    params:
        files=digest_of("layout"),
        # subjects/reviewers.yaml and annotations.yaml: inputs digested where present.
        optional_inputs=digest_of("optional_inputs"),
        # The public case statements, checked here with the rest of the corpus.
        statements=digest_of("statements"),
        partitions=PARTITIONS,
        corpus=CORPUS,
        benchmark_version=VERSION,
        max_file_bytes=MAX_FILE_BYTES,
        strict=config["strict"],
        # Arbiter scorings a policy change made unnecessary: an error or a warning.
        unneeded_arbiter=config["unneeded_arbiter"],
        # coverage.csv's columns (with the pending counts under double review).
        reviewers_per_run=REVIEW_POLICY.reviewers_per_run,
    script:
        "../../scripts/verdict.py"
