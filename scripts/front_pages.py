"""Rule front_pages: the site's index, findings page and findings report page, in every
language's edition (English at the root of its folder, Spanish under es/).

- index.html: the leaderboard (leaderboard.csv, critical_fails.csv, uncertainty.csv,
  metadata.json's newest scoring, each as its step staged it for publish, the critical
  fails assembled from the partitions' as publish does), the operational table when the
  corpus has telemetry (the operational step's table, header only without), the
  reviewers' agreement line and each version's pending counts when a run has two
  primaries or is pending (the agreement step's tables and the partitions' pending
  runs: review_view.review_summary, none otherwise), and the matrix of every subject
  version's runs on every case, from the rows each partition's version pages job
  rendered (records.MatrixRow), in leaderboard order;
- findings.html: the facts of findings.json with its charts;
- report.html: the findings report (findings.md, findings.es.md).
"""

from pathlib import Path

from ro_metrics.contracts.files import read_json, step_logger, tell, without_cycle_collector
from ro_metrics.contracts.published import CHART_STEMS, chart_file
from ro_metrics.contracts.records import (
    read_findings,
    read_golds_summary,
    read_matrix_rows,
    read_partition_reviews,
)
from ro_metrics.contracts.tables import (
    AGREEMENT_COLUMNS,
    CRITICAL_FAIL_COLUMNS,
    DIVERGENT_RUN_COLUMNS,
    OPERATIONAL_SUBJECT_COLUMNS,
    assembled_table,
    read_leaderboard,
    read_table,
    read_uncertainty,
)
from ro_metrics.formulas.ranking import tie_groups
from ro_metrics.leaderboard.review_view import review_summary
from ro_metrics.site.findings_page import render_findings_page
from ro_metrics.site.report_page import REPORT_FILES, render_report_page
from ro_metrics.site.site_files import FINDINGS, INDEX, REPORT, edition_page, write_page
from ro_metrics.site.site_pages import EDITIONS, render_index


def main(smk) -> None:
    without_cycle_collector()
    log = step_logger("front_pages", smk.log[0])
    folder, version = smk.output[0], smk.params.benchmark_version
    case_ids = sorted(read_golds_summary(smk.input.golds).golds)
    board = read_leaderboard(smk.input.leaderboard)
    pending = [run for path in smk.input.reviews for run in read_partition_reviews(path).pending]
    index_data = {
        "benchmark_version": version,
        "alpha": smk.params.alpha,
        "last_update": read_json(smk.input.metadata)["newest_scoring_utc"],
        "rows": board,
        "tie_groups": tie_groups(board),
        "uncertainty": read_uncertainty(smk.input.uncertainty),
        "tracks": {(r["subject_id"], r["subject_version"]): r["track"] for r in board},
        "providers": {r["subject_id"]: r["provider"] for r in board},
        "critical_fails": assembled_table(smk.input.critical_fails, CRITICAL_FAIL_COLUMNS),
        "case_ids": case_ids,
        # Without telemetry the operational step writes the header only: no section.
        "operational": read_table(smk.input.operational, OPERATIONAL_SUBJECT_COLUMNS) or None,
        # None when no run has two primaries and none is pending.
        "review": review_summary(
            read_table(smk.input.agreement, AGREEMENT_COLUMNS),
            read_table(smk.input.divergent, DIVERGENT_RUN_COLUMNS),
            pending,
        ),
    }
    matrix = {
        (row.subject_id, row.subject_version): row.html
        for path in smk.input.matrix
        for row in read_matrix_rows(path)
    }
    charts = {Path(path).name: Path(path).read_bytes().decode("utf-8") for path in smk.input.charts}
    findings = read_findings(smk.input.findings)
    reports = {
        Path(path).name: Path(path).read_bytes().decode("utf-8") for path in smk.input.reports
    }
    for code, t in EDITIONS.items():
        matrix_rows = [matrix[(r["subject_id"], r["subject_version"])][code] for r in board]
        index = render_index(**index_data, matrix_rows=matrix_rows, t=t)
        write_page(folder, edition_page(INDEX, code), index)
        shown = {
            stem: charts[name] for stem in CHART_STEMS if (name := chart_file(stem, code)) in charts
        }
        html = render_findings_page(findings=findings, case_ids=case_ids, charts=shown, t=t)
        write_page(folder, edition_page(FINDINGS, code), html)
        html = render_report_page(reports[REPORT_FILES[code]], version, t)
        write_page(folder, edition_page(REPORT, code), html)
    message = f"site: the index, findings and report pages, {3 * len(EDITIONS)} pages"
    log.info(message)
    tell(message)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake's script directive
