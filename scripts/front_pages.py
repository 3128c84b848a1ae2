"""Rule front_pages: the site's index, findings page and findings report page, in every
language's edition (English at the root of its folder, Spanish under es/).

- index.html: the leaderboard as leaderboard.html shows it, its view read from the
  files the leaderboard's is (leaderboard_view.read_leaderboard_view: each as its step
  staged it for publish), with the changes step's section and each version's
  reliability diagram from the same files as the leaderboard page's, and
  the matrix of every subject version's runs on every case, from the rows each
  partition's version pages job rendered (records.MatrixRow), in leaderboard order;
- findings.html: the facts of findings.json with its charts;
- report.html: the findings report (findings.md, findings.es.md);
- worklist.html, under double review: the arbitration worklist, pending_runs.csv as a
  page (site/worklist_page.py).
"""

import json
from pathlib import Path

from ro_metrics.contracts.files import step_logger, tell, without_cycle_collector
from ro_metrics.contracts.published import CHART_STEMS, chart_file
from ro_metrics.contracts.records import read_findings, read_golds_summary, read_matrix_rows
from ro_metrics.contracts.tables import PENDING_COLUMNS, assembled_table, read_per_run
from ro_metrics.formulas.aggregates import calibration_of_subjects
from ro_metrics.leaderboard.leaderboard_page import reliability_diagrams
from ro_metrics.leaderboard.leaderboard_view import read_leaderboard_view
from ro_metrics.rendering.reliability_diagram import inline
from ro_metrics.site.findings_page import render_findings_page
from ro_metrics.site.report_page import REPORT_FILES, render_report_page
from ro_metrics.site.site_files import (
    FINDINGS,
    INDEX,
    REPORT,
    WORKLIST,
    edition_page,
    write_page,
)
from ro_metrics.site.site_pages import EDITIONS, render_index
from ro_metrics.site.worklist_page import render_worklist_page


def main(smk) -> None:
    without_cycle_collector()
    log = step_logger("front_pages", smk.log[0])
    folder, version = smk.output[0], smk.params.benchmark_version
    case_ids = sorted(read_golds_summary(smk.input.golds).golds)
    view = read_leaderboard_view(smk.input, benchmark_version=version, alpha=smk.params.alpha)
    matrix = {
        (row.subject_id, row.subject_version): row.html
        for path in smk.input.matrix
        for row in read_matrix_rows(path)
    }
    calibration = calibration_of_subjects(read_per_run(smk.input.counted))
    changes = json.loads(Path(smk.input.changes).read_text("utf-8"))
    charts = {Path(path).name: Path(path).read_bytes().decode("utf-8") for path in smk.input.charts}
    findings = read_findings(smk.input.findings)
    reports = {
        Path(path).name: Path(path).read_bytes().decode("utf-8") for path in smk.input.reports
    }
    double_review = smk.params.reviewers_per_run == 2
    # pending_runs.csv, its partitions' fragments assembled as publish assembles them.
    pending = assembled_table(smk.input.pending_runs, PENDING_COLUMNS) if double_review else []
    for code, t in EDITIONS.items():
        matrix_rows = [matrix[(row.subject_id, row.subject_version)][code] for row in view.rows]
        diagrams = {
            key: (inline(svg), bins)
            for key, (svg, bins) in reliability_diagrams(calibration, t).items()
        }
        index = render_index(
            view,
            t,
            case_ids=case_ids,
            matrix_rows=matrix_rows,
            diagrams=diagrams,
            changes_section=changes[code],
        )
        write_page(folder, edition_page(INDEX, code), index)
        shown = {
            stem: charts[name] for stem in CHART_STEMS if (name := chart_file(stem, code)) in charts
        }
        html = render_findings_page(findings=findings, case_ids=case_ids, charts=shown, t=t)
        write_page(folder, edition_page(FINDINGS, code), html)
        html = render_report_page(reports[REPORT_FILES[code]], version, t)
        write_page(folder, edition_page(REPORT, code), html)
        if double_review:
            html = render_worklist_page(pending, version, t)
            write_page(folder, edition_page(WORKLIST, code), html)
    n_pages = (3 + double_review) * len(EDITIONS)
    message = f"site: the index, findings and report pages, {n_pages} pages"
    log.info(message)
    tell(message)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake's script directive
