# The findings report: results/findings.md and findings.es.md, rendered from the
# committee's templates (config findings_templates, one per language; the defaults in
# system/report/) on the published findings.json, downstream of publish like the site,
# so that the report quotes only published facts. A changed template reruns this rule
# only; a new scoring changes findings.json and re-renders it.


# Each language's template, relative paths from the repository root.
FINDINGS_TEMPLATES = {
    code: str(Path(workflow.basedir) / path) for code, path in config["findings_templates"].items()
}


rule findings_report:
    input:
        modules=modules("findings_report.py"),
        # The filters' words and number formats (report_* labels).
        labels=LABELS,
        facts=f"{RESULTS}/findings.json",
        templates=list(FINDINGS_TEMPLATES.values()),
    output:
        # update(): a failed rendering leaves the previous report in place.
        en=update(f"{RESULTS}/findings.md"),
        es=update(f"{RESULTS}/findings.es.md"),
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
