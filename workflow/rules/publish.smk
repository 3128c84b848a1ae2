rule coverage:
    input:
        checked=rules.cross_check.output.checked,
    output:
        f"{RESULTS}/coverage.csv",
    log:
        f"{LOGS}/coverage.log",
    conda:
        "../envs/metrics.yaml"
    threads: 1
    resources:
        mem_mb=512,
    script:
        "../../scripts/write_coverage.py"


rule metadata:
    input:
        checked=rules.cross_check.output.checked,
        rubric=f"{workflow.basedir}/system/rubric/{VERSION}/aggregated_metrics.md",
        schemas=expand(
            f"{SCHEMAS}/{{kind}}.schema.json",
            kind=["response", "evaluation", "gold", "registry"],
        ),
    output:
        f"{RESULTS}/metadata.json",
    log:
        f"{LOGS}/metadata.log",
    conda:
        "../envs/metrics.yaml"
    threads: 1
    resources:
        mem_mb=512,
    params:
        alpha=config["alpha"],
        benchmark_version=VERSION,
        strict=config["strict"],
    script:
        "../../scripts/write_metadata.py"
