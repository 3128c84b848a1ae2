# The operational tables of telemetry.md. Its inputs are the telemetry's own manifest
# and the list of response paths, never the partitions: a new scoring does not rerun
# it, and a telemetry change reruns only it, the cross-check (which reports telemetry
# problems with the others) and what publishes.
rule operational:
    input:
        modules=modules("operational_tables.py"),
        telemetry=f"{MANIFESTS}/telemetry.tsv",
        responses=f"{MANIFESTS}/responses.tsv",
    output:
        per_subject=f"{STAGED}/operational_per_subject.csv",
        per_family=f"{STAGED}/operational_per_family.csv",
        summary=f"{CACHE}/load/operational.json",
        # The job's own file cache: a rerun re-reads only the changed batch logs.
        files=update(f"{CACHE}/load/operational.files.json"),
    log:
        f"{LOGS}/operational.log",
    conda:
        "../envs/metrics.yaml"
    threads: 1
    resources:
        mem_mb=1024,
    params:
        corpus=CORPUS,
    script:
        "../../scripts/operational_tables.py"
