"""Rule case_pages_and_index: the site's case pages and its index.

Assembles one page per case of the benchmark from the rows the subject-version pages
jobs rendered, and the index from the published leaderboard, critical fails and
intervals, the operational table (a corpus with telemetry) and the versions' rows of
the matrix, in every language's edition (English at the site root, Spanish under es/),
into the site folder, writing only the pages whose content changed
(ro_metrics.publishing.site_files.PageWriter). Each partition hands on its
records.PartitionParts (the versions' matrix rows, and each case's region of its case
rows file, with its SHA-256) and that file: a case page is assembled again only if one
of its regions changed, and only then are they read, each on its own, their bytes
joined into the page as they are. Its manifest lists every page of
the site (the subject-version pages jobs' too), so a page that is no longer rendered (a
version without scored runs now) is removed.
"""

import os
import sys
from pathlib import Path
from typing import NamedTuple

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
    read_partition_parts,
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
    block_rows,
    case_page,
    case_rows_file,
    code_fingerprint,
    digest_of,
    edition_page,
    read_region,
)
from ro_metrics.publishing.site_pages import EDITIONS, case_page_around, render_index


def main(smk) -> None:
    without_cycle_collector()
    log = step_logger("case_pages_and_index", smk.log[0])
    alpha, version = smk.params.alpha, smk.params.benchmark_version
    code = code_fingerprint(
        [smk.input.modules, *smk.input.translations, *smk.input.templates], alpha, version
    )
    writer = PageWriter(Path(smk.params.site), smk.output.manifest, code)
    golds = read_golds_summary(smk.input.golds).golds
    partitions = [(path, read_partition_parts(path)) for path in smk.input.parts]
    rows_files = CaseRowsFiles([case_rows_file(path) for path, _ in partitions], log)

    for case_id in sorted(golds):
        regions = [
            (index, parts.case_rows[case_id])
            for index, (_, parts) in enumerate(partitions)
            if case_id in parts.case_rows
        ]
        shown = [[region.sha256, region.blocks] for _, region in regions]
        inputs = digest_of(code.encode("ascii"), json_bytes([golds[case_id], shown]))
        pages = {edition: edition_page(case_page(case_id), edition) for edition in EDITIONS}
        stale = [edition for edition, page in pages.items() if not writer.is_current(page, inputs)]
        if not stale:
            continue
        versions = sorted(
            (
                VersionRows(block.subject_id, block.subject_version, block.counts, by_edition)
                for index, region in regions
                for block, by_edition in zip(
                    region.blocks,
                    block_rows(rows_files.read(index, region), region.blocks),
                    strict=True,
                )
            ),
            key=lambda entry: (entry.subject_id, entry.subject_version),
        )
        for edition in stale:
            before, after = case_page_around(
                case_id=case_id,
                gold=golds[case_id],
                counts=[entry.counts for entry in versions],
                benchmark_version=version,
                t=EDITIONS[edition],
            )
            rows = b"".join(entry.rows[edition] for entry in versions)
            html = before.encode("utf-8") + rows + after.encode("utf-8")
            writer.write(pages[edition], inputs, html)

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
    parts_of = {
        (entry.subject_id, entry.subject_version): entry
        for _, parts in partitions
        for entry in parts.versions
    }
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


class VersionRows(NamedTuple):
    """One subject version's rows of a case page, as its partition's job wrote them."""

    subject_id: str
    subject_version: str
    counts: list[int]  # CasePart.counts
    rows: dict[str, bytes]  # language code → its rows in that edition (UTF-8)


class CaseRowsFiles:
    """The partitions' case rows files, each opened on its first read; a region is read
    on its own (os.pread) and only as its partition's job wrote it (else stop)."""

    def __init__(self, paths: list[Path], log):
        self.paths, self.log = paths, log
        self.handles: dict[int, int] = {}

    def read(self, index: int, region) -> bytes:
        path = self.paths[index]
        rows = None
        try:
            if index not in self.handles:
                self.handles[index] = os.open(path, os.O_RDONLY)
            rows = read_region(self.handles[index], region)
        except FileNotFoundError:
            pass
        if rows is None:
            self.log.error(
                f"{path} is missing or is not what its subject-version pages job wrote. "
                f"Remove {path.with_suffix('.parts.json')} and run again: that job then "
                "writes its case rows again."
            )
            sys.exit(1)
        return rows


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake's script directive
