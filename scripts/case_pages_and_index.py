"""Rule case_pages_and_index: the site's case pages and its index.

Assembles one page per case of the benchmark from the rows the subject-version pages
jobs rendered, and the index from the published leaderboard, critical fails and
intervals, the operational table (a corpus with telemetry) and the versions' rows of
the matrix, in every language's edition (English at the site root, Spanish under es/),
into the site folder, writing only the pages whose content changed
(ro_metrics.site.site_files.PageWriter). Each partition hands on its versions'
records.VersionParts (partition-N.parts.json, read whole: matrix rows, and per case the
counts and the SHA-256 of the rows) and its rows of each case (partition-N.cases/
<case_id>.json): a case page's inputs digest is taken over the counts and digests it
gathers and the case's gold, so its rows files are read, and the page assembled again,
only if they changed. The findings page (findings.html in each edition) is rendered
from results/findings.json, the charts of results/charts/ and the golds' case ids, and
only when one of them (or the code) changed. Its manifest lists every page of the site
(the subject-version pages jobs' too), so a page that is no longer rendered (a version
without scored runs now) is removed. Under double review the index also shows the
leaderboard's agreement line and each version's pending counts (the published
agreement.csv, divergent_runs.csv and pending_runs.csv).
"""

import json
from pathlib import Path

from ro_metrics.contracts.files import (
    json_bytes,
    read_json,
    step_logger,
    tell,
    without_cycle_collector,
)
from ro_metrics.contracts.records import (
    VersionParts,
    read_case_rows,
    read_golds_summary,
    read_page_manifest,
    read_version_parts,
    rows_digest,
)
from ro_metrics.contracts.tables import (
    AGREEMENT_COLUMNS,
    CRITICAL_FAIL_COLUMNS,
    DIVERGENT_RUN_COLUMNS,
    LEADERBOARD_COLUMNS,
    LEADERBOARD_REVIEW_COLUMNS,
    OPERATIONAL_SUBJECT_COLUMNS,
    PENDING_COLUMNS,
    read_table,
    read_uncertainty,
)
from ro_metrics.formulas.ranking import tie_groups
from ro_metrics.leaderboard.review_view import review_summary
from ro_metrics.report.findings_charts import CHART_STEMS, chart_file
from ro_metrics.site.findings_page import render_findings_page
from ro_metrics.site.report_page import write_report_pages
from ro_metrics.site.site_files import (
    FINDINGS,
    INDEX,
    PageWriter,
    case_page,
    case_rows_path,
    code_fingerprint,
    digest_of,
    edition_page,
)
from ro_metrics.site.site_pages import EDITIONS, render_case_page, render_index


def main(smk) -> None:
    without_cycle_collector()
    log = step_logger("case_pages_and_index", smk.log[0])
    alpha, version = smk.params.alpha, smk.params.benchmark_version
    code = code_fingerprint(
        [smk.input.modules, smk.input.labels, *smk.input.templates], alpha, version
    )
    writer = PageWriter(Path(smk.params.site), smk.output.manifest, code)
    golds = read_golds_summary(smk.input.golds).golds
    # Every version of every partition (and its parts file), in the order of the rows on
    # a case page.
    versions = sorted(
        ((path, parts) for path in smk.input.parts for parts in read_version_parts(path)),
        key=lambda item: (item[1].subject_id, item[1].subject_version),
    )

    for case_id in sorted(golds):
        shown = [(path, parts) for path, parts in versions if case_id in parts.cases]
        counted = [parts.cases[case_id] for _, parts in shown]
        inputs = digest_of(code.encode("ascii"), json_bytes([golds[case_id], counted]))
        pages = {edition: edition_page(case_page(case_id), edition) for edition in EDITIONS}
        stale = [edition for edition, page in pages.items() if not writer.is_current(page, inputs)]
        if not stale:
            continue
        rows = case_rows(case_id, shown)
        for edition in stale:
            html = render_case_page(
                case_id=case_id,
                gold=golds[case_id],
                parts=counted,
                rows=rows,
                benchmark_version=version,
                t=EDITIONS[edition],
            )
            writer.write(pages[edition], inputs, html.encode("utf-8"))

    double_review = smk.params.double_review
    board = read_table(
        smk.input.leaderboard, LEADERBOARD_REVIEW_COLUMNS if double_review else LEADERBOARD_COLUMNS
    )
    index_data = {
        "benchmark_version": version,
        "alpha": alpha,
        "last_update": read_json(smk.input.metadata)["newest_scoring_utc"],
        "rows": board,
        "tie_groups": tie_groups(board),
        "uncertainty": read_uncertainty(smk.input.uncertainty),
        "tracks": {(r["subject_id"], r["subject_version"]): r["track"] for r in board},
        "providers": {r["subject_id"]: r["provider"] for r in board},
        "critical_fails": read_table(smk.input.critical_fails, CRITICAL_FAIL_COLUMNS),
        "case_ids": sorted(golds),
        # Without telemetry the operational step writes the header only: no section.
        "operational": read_table(smk.input.operational, OPERATIONAL_SUBJECT_COLUMNS) or None,
        # Under double review: the agreement line and the pending counts.
        "review": review_summary(
            read_table(smk.input.agreement, AGREEMENT_COLUMNS),
            read_table(smk.input.divergent, DIVERGENT_RUN_COLUMNS),
            read_table(smk.input.pending_runs, PENDING_COLUMNS),
        )
        if double_review
        else None,
    }
    parts_of = {(parts.subject_id, parts.subject_version): parts for _, parts in versions}
    for language_code, t in EDITIONS.items():
        matrix_rows = [
            parts_of[(r["subject_id"], r["subject_version"])].matrix_row[language_code]
            for r in board
        ]
        index = render_index(**index_data, matrix_rows=matrix_rows, t=t)
        writer.write(edition_page(INDEX, language_code), "", index.encode("utf-8"))

    findings_pages(writer, smk, code, sorted(golds))
    # The findings report's page in each edition, from the published Markdown.
    write_report_pages(writer, code, smk.input.findings_report, version)

    written = list(writer.written)
    for path in smk.input.pages:
        writer.adopt(read_page_manifest(path).pages)
    removed = writer.remove_dropped()
    writer.save(smk.output.manifest)
    for page in written:
        log.info("written: %s", page)
    for page in removed:
        log.info("removed: %s", page)
    message = (
        f"site: {len(written)} of {(len(golds) + 2) * len(EDITIONS)} case pages, "
        "findings pages, indexes and report pages rewritten, "
        f"{len(removed)} page(s) removed; {len(writer.pages)} pages in {smk.params.site}"
    )
    log.info(message)
    tell(message)


def findings_pages(writer: PageWriter, smk, code: str, case_ids: list[str]) -> None:
    """The findings page in every edition, rendered only when its inputs changed: the
    facts, the charts (each edition its own language's) and the golds' case ids."""
    facts = Path(smk.input.findings).read_bytes()
    charts = {Path(path).name: Path(path).read_bytes() for path in smk.input.charts}
    inputs = digest_of(
        code.encode("ascii"),
        facts,
        json_bytes(case_ids),
        *(part for name in sorted(charts) for part in (name.encode("utf-8"), charts[name])),
    )
    findings = None
    for language_code, t in EDITIONS.items():
        page = edition_page(FINDINGS, language_code)
        if writer.is_current(page, inputs):
            continue
        findings = findings if findings is not None else json.loads(facts)
        shown = {
            stem: charts[name].decode("utf-8")
            for stem in CHART_STEMS
            if (name := chart_file(stem, language_code)) in charts
        }
        html = render_findings_page(findings=findings, case_ids=case_ids, charts=shown, t=t)
        writer.write(page, inputs, html.encode("utf-8"))


def case_rows(case_id: str, shown: list[tuple[str, VersionParts]]) -> list[dict[str, str]]:
    """The rows (by language code) of each version shown on a case's page, in its order,
    from its partition's rows file of the case (each file read once), each checked
    against the digest its parts recorded."""
    files: dict[str, dict] = {}
    rows = []
    for parts_path, parts in shown:
        if parts_path not in files:
            path = case_rows_path(parts_path, case_id)
            files[parts_path] = {
                (entry.subject_id, entry.subject_version): entry.rows_html
                for entry in read_case_rows(path) or []
            }
        rows_html = files[parts_path].get((parts.subject_id, parts.subject_version))
        if rows_html is None or rows_digest(rows_html) != parts.cases[case_id].rows_sha256:
            raise RuntimeError(
                f"{case_rows_path(parts_path, case_id)}: missing, or not the rows "
                f"{parts_path} recorded for {parts.subject_id} {parts.subject_version}; "
                f"remove {parts_path} to render its partition again"
            )
        rows.append(rows_html)
    return rows


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake's script directive
