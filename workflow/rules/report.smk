# The findings report (findings.md, findings.es.md), rendered from the committee's
# templates (config findings_templates, one per language; the defaults in system/report/)
# on findings.json, with the lint of typed numbers in its prose. A changed template
# reruns this rule only.

# Each language's template, relative paths from the repository root.
FINDINGS_TEMPLATES = {
    code: str(Path(workflow.basedir) / path) for code, path in config["findings_templates"].items()
}


rule findings_report:
    input:
        code=library("contracts", "rendering", "report"),
        facts=rules.findings.output.findings,
        templates=list(FINDINGS_TEMPLATES.values()),
    output:
        **{code: staged(entry) for code, entry in zip(LANGUAGES, FINDINGS_REPORTS)},
    log:
        f"{LOGS}/findings_report.log",
    conda:
        "../envs/metrics.yaml"
    threads: 1
    resources:
        mem_mb=512,
    params:
        templates=FINDINGS_TEMPLATES,
        strict=config["strict"],
    script:
        "../../scripts/findings_report.py"
