# `snakemake snapshot`: copy the published set into HISTORY/<date>/. A target that
# always runs: the files it writes are deliberately not Snakemake outputs, so
# Snakemake never deletes or rewrites a snapshot; the script refuses to change one.
rule snapshot:
    input:
        modules=modules("snapshot_folder.py"),
        published=PUBLISHED_FILES,
    log:
        f"{LOGS}/snapshot.log",
    conda:
        "../envs/metrics.yaml"
    threads: 1
    resources:
        mem_mb=512,
    params:
        history=HISTORY,
        snapshot_date=config["snapshot_date"],
        # Published only with telemetry: in the snapshot when present.
        optional=list(OPTIONAL_PUBLISHED.values()),
    script:
        "../../scripts/snapshot_folder.py"
