# `snakemake verify`: recompute everything from the inputs into a temporary folder
# and compare it byte for byte with the published results. It takes results/ as it
# is (no published file is an input), so a hand-edited CSV is caught, not rebuilt.
rule verify:
    input:
        code=library("contracts", "history"),
    log:
        f"{LOGS}/verify.log",
    conda:
        "../envs/metrics.yaml"
    threads: 4
    resources:
        mem_mb=2048,
    params:
        snakefile=workflow.main_snakefile,
        config=config,
        results=RESULTS,
        history=HISTORY,
        scratch=f"{CACHE}/verify",
        # The registry's files: those this run publishes, and those it does not.
        published=[entry.name for entry in PUBLISHED],
        withdrawn=[entry.name for entry in WITHDRAWN],
        # What a failure suggests: publish again from the inputs, with this run's settings.
        repair=suggested_command(RUN_SETTINGS, "--forcerun", "publish"),
    script:
        "../../scripts/verify_results.py"
