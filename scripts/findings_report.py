"""Rule findings_report: the findings report, findings.md and findings.es.md.

Renders each language's template (config findings_templates) on findings.json, the
facts published with it (ro_metrics.report.report_templates), and checks its prose for
typed numbers (ro_metrics.report.claims_lint): warnings, or errors with config
strict=true. Every problem of both editions is reported, one line each, before
anything is written.
"""

import sys
from pathlib import Path

from ro_metrics.contracts.files import step_logger, without_cycle_collector, write_bytes_atomic
from ro_metrics.contracts.records import read_findings
from ro_metrics.report.claims_lint import lint_template
from ro_metrics.report.report_templates import ReportError, render_report, version_names


def main(smk) -> None:
    without_cycle_collector()
    log = step_logger("findings_report", smk.log[0])
    facts = read_findings(smk.input.facts)
    names = version_names(facts)
    editions, errors = {}, []
    for code, template in smk.params.templates.items():
        claims = lint_template(template, names) if Path(template).is_file() else []
        for claim in claims:
            (errors.append if smk.params.strict else log.warning)(str(claim))
        try:
            editions[code] = render_report(Path(template), facts, code).encode("utf-8")
        except ReportError as error:
            errors.append(str(error))
    if errors:
        log.error(
            "findings report not written (%d problem(s)):\n%s", len(errors), "\n".join(errors)
        )
        sys.exit(1)
    for code, content in editions.items():
        write_bytes_atomic(getattr(smk.output, code), content)
    log.info("findings report written: %s", ", ".join(smk.output))


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake's script directive
