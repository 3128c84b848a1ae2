# The results folder: every published file of the registry (contracts/published.py),
# copied from the step that staged it or assembled from the partitions' fragments, once
# every step has succeeded (a corpus with a problem stops at the cross-check, and the
# published results stay as they were). update(): a file is replaced, never removed
# first, and restored by Snakemake if the job fails.

# Each published file's sources: its staged file, or its partitions' fragments.
PUBLISHED_SOURCES = {
    entry.name: (
        expand(f"{PARTITION}/{entry.name}", partition=PARTITIONS)
        if entry.partitioned
        else [staged(entry)]
    )
    for entry in PUBLISHED
}


rule publish:
    input:
        sources=[path for paths in PUBLISHED_SOURCES.values() for path in paths],
        code=library("contracts"),
        # The gate: published only from a corpus the cross-check accepted.
        verdict=rules.cross_check.output.verdict,
        # ... and from annotations kept append-only, no value silently overwritten.
        lifecycle=rules.lifecycle_check.output[0],
    output:
        [
            (
                report(
                    update(f"{RESULTS}/{entry.name}"),
                    caption=f"../report/{entry.caption}",
                    category=entry.category,
                )
                if entry.caption
                else update(f"{RESULTS}/{entry.name}")
            )
            for entry in PUBLISHED
        ],
    log:
        f"{LOGS}/publish.log",
    conda:
        "../envs/metrics.yaml"
    threads: 1
    resources:
        mem_mb=1024,
    params:
        # Each output's registry name and sources, in the order of the outputs.
        names=[entry.name for entry in PUBLISHED],
        sources=PUBLISHED_SOURCES,
        # Files of the registry not published now (telemetry, double review): removed
        # from the results folder if an earlier run left them.
        withdrawn=[f"{RESULTS}/{entry.name}" for entry in WITHDRAWN],
    script:
        "../../scripts/published_results.py"
