# The operational tables of telemetry.md. It reads the telemetry's batch logs and which
# responses exist, never the partitions: a new scoring does not rerun it, and a
# telemetry change reruns only it, the cross-check and what they feed.
rule operational:
    input:
        code=library("contracts", "formulas", "corpus"),
    output:
        per_subject=f"{STAGED}/operational_per_subject.csv",
        per_family=f"{STAGED}/operational_per_family.csv",
        summary=f"{CACHE}/operational.json",
    log:
        f"{LOGS}/operational.log",
    conda:
        "../envs/metrics.yaml"
    threads: 1
    resources:
        mem_mb=1024,
    params:
        files=digest_of("telemetry"),
        responses=digest_of("responses"),
        corpus=CORPUS,
        benchmark_version=VERSION,
    script:
        "../../scripts/operational_tables.py"
