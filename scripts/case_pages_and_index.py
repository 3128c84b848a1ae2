"""Rule case_pages_and_index: the site's case pages and its index.

Assembles one page per case of the benchmark from the rows the subject-version pages
jobs rendered, and the index from the published leaderboard, critical fails and
intervals, the operational table (a corpus with telemetry) and the versions' rows of
the matrix, in every language's edition (English at the site root, Spanish under es/),
into the site folder, writing only the pages whose content changed
(ro_metrics.publishing.site_files.PageWriter). Each partition hands on its versions'
records.VersionParts (partition-N.parts.json): a case page's inputs digest is taken over
the rows it gathers from them, so it is assembled again only if they changed. Its
manifest lists every page of the site (the subject-version pages jobs' too), so a page
that is no longer rendered (a version without scored runs now) is removed.
"""

from pathlib import Path

from ro_metrics.contracts.files import (
    json_bytes,
    read_json,
    step_logger,
    tell,
    without_cycle_collector,
)
from ro_metrics.contracts.records import (
    read_golds_summary,
    read_page_manifest,
    read_version_parts,
)
from ro_metrics.contracts.tables import (
    CRITICAL_FAIL_COLUMNS,
    LEADERBOARD_COLUMNS,
    OPERATIONAL_SUBJECT_COLUMNS,
    read_table,
    read_uncertainty,
)
from ro_metrics.formulas.ranking import tie_groups
from ro_metrics.publishing.site_files import (
    INDEX,
    PageWriter,
    case_page,
    code_fingerprint,
    digest_of,
    edition_page,
)
from ro_metrics.publishing.site_pages import EDITIONS, render_case_page, render_index


def main(smk) -> None:
    without_cycle_collector()
    log = step_logger("case_pages_and_index", smk.log[0])
    alpha, version = smk.params.alpha, smk.params.benchmark_version
    code = code_fingerprint(
        [smk.input.modules, *smk.input.translations, *smk.input.templates], alpha, version
    )
    writer = PageWriter(Path(smk.params.site), smk.output.manifest, code)
    golds = read_golds_summary(smk.input.golds).golds
    # Every version of every partition, in the order of the rows on a case page.
    versions = sorted(
        (parts for path in smk.input.parts for parts in read_version_parts(path)),
        key=lambda parts: (parts.subject_id, parts.subject_version),
    )

    for case_id in sorted(golds):
        shown = [parts.cases[case_id] for parts in versions if case_id in parts.cases]
        inputs = digest_of(code.encode("ascii"), json_bytes([golds[case_id], shown]))
        for edition, t in EDITIONS.items():
            page = edition_page(case_page(case_id), edition)
            if writer.is_current(page, inputs):
                continue
            html = render_case_page(
                case_id=case_id,
                gold=golds[case_id],
                parts=shown,
                benchmark_version=version,
                t=t,
            )
            writer.write(page, inputs, html.encode("utf-8"))

    board = read_table(smk.input.leaderboard, LEADERBOARD_COLUMNS)
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
    }
    parts_of = {(parts.subject_id, parts.subject_version): parts for parts in versions}
    for language_code, t in EDITIONS.items():
        matrix_rows = [
            parts_of[(r["subject_id"], r["subject_version"])].matrix_row[language_code]
            for r in board
        ]
        index = render_index(**index_data, matrix_rows=matrix_rows, t=t)
        writer.write(edition_page(INDEX, language_code), "", index.encode("utf-8"))

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
        f"site: {len(written)} of {(len(golds) + 1) * len(EDITIONS)} case pages and "
        "indexes rewritten, "
        f"{len(removed)} page(s) removed; {len(writer.pages)} pages in {smk.params.site}"
    )
    log.info(message)
    tell(message)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake's script directive
