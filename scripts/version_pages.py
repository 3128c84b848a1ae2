"""Rule version_pages (one job per partition): the site's subject-version pages.

Renders the page of every subject version of the partition, in every language's
edition (English at the site root, Spanish under es/), from its scored runs' public
fields (records.PublishedVersion of the load step) and the golds' public fields, into
the site folder, writing only the pages whose content changed
(ro_metrics.site.site_files.PageWriter; its manifest is this job's output). Also
renders what the case pages and the index show of each version, in every language,
and hands it on: one small file for the partition (partition-N.parts.json, its
versions' records.VersionParts: the row of the matrix, per case the counts and the
SHA-256 of its rows) and one rows file per case the partition has runs of
(partition-N.cases/<case_id>.json, its versions' records.VersionRows of the case),
written only when its bytes change and removed when the partition has no run of the
case any more. A version whose inputs did not change (its runs' digest from the load
step, the golds, the code and the labels) is neither rendered nor re-read: its pages
stay, its parts of the last run are kept, and so are its rows in the rows files. Runs
only on a corpus the cross-check accepted (the verdict is an input).

Under double review (multi-reviewer.md) it also reads the consolidation
(records.Consolidation): a run's scorings are grouped into one article that shows each
with its role and which one counts (leaderboard/review_view.py), the case pages' rows
and the matrix show the run as counted, and the version's numbers are of the runs the
metrics count.
"""

import os
from pathlib import Path

from ro_metrics.contracts.files import (
    json_bytes,
    remove_stale_staging,
    step_logger,
    tell,
    without_cycle_collector,
)
from ro_metrics.contracts.records import (
    VersionParts,
    VersionRows,
    read_case_rows,
    read_consolidation,
    read_golds_summary,
    read_published_versions,
    read_version_parts,
    rows_digest,
    write_case_rows,
    write_version_parts,
)
from ro_metrics.contracts.tables import Rows
from ro_metrics.contracts.vocabulary import family_of
from ro_metrics.formulas.aggregates import subject_row
from ro_metrics.formulas.evidence import evidence
from ro_metrics.formulas.per_run import per_run_row
from ro_metrics.leaderboard.review_view import decisions_by_version, reviewed_runs
from ro_metrics.site.site_files import (
    PageWriter,
    case_rows_folder,
    case_rows_path,
    code_fingerprint,
    digest_of,
    edition_page,
    version_page,
)
from ro_metrics.site.site_pages import (
    EDITIONS,
    VersionRun,
    render_version_page,
    version_parts,
)


def main(smk) -> None:
    without_cycle_collector()
    log = step_logger("version_pages", smk.log[0])
    partition = smk.wildcards.partition
    alpha, version = smk.params.alpha, smk.params.benchmark_version
    code = code_fingerprint(
        [smk.input.modules, smk.input.labels, *smk.input.templates], alpha, version
    )
    writer = PageWriter(Path(smk.params.site), smk.output.manifest, code)
    # The last run's parts, if the same code wrote them (another version of this code
    # may have written them in another form).
    previous = read_version_parts(smk.output.parts) if writer.same_code else None
    kept_parts = {
        (kept.subject_id, kept.subject_version, kept.inputs_digest): kept for kept in previous or []
    }
    golds = read_golds_summary(smk.input.golds).golds
    # Every case of the benchmark is a column of the matrix, so golds are an input of
    # every page: a changed floor or ceiling re-renders the versions (their bytes
    # decide what is written).
    case_ids = sorted(golds)
    golds_digest = json_bytes(sorted(golds.items()))
    versions = read_published_versions(smk.input.published)
    # Under double review, the consolidation's decision on every run (which scoring
    # counts); its records of a version join the version's inputs digest.
    decisions = None
    if smk.params.double_review:
        consolidation = read_consolidation(smk.input.consolidation)
        decisions = decisions_by_version(consolidation.runs, consolidation.pending)
    # The rows files there are: a kept version's rows must be in them.
    rows_folder = case_rows_folder(smk.output.parts)
    rows_files = set(os.listdir(rows_folder)) if rows_folder.is_dir() else set()

    partition_parts, rendered_rows = [], {}
    for published in versions:
        subject_id, subject_version = published.subject_id, published.subject_version
        decided = None if decisions is None else decisions.get((subject_id, subject_version), {})
        inputs = digest_of(
            code.encode("ascii"),
            published.digest.encode("ascii"),
            golds_digest,
            *([] if decided is None else [json_bytes(sorted(decided.items()))]),
        )
        page = version_page(subject_id, subject_version)
        pages = {language: edition_page(page, language) for language in EDITIONS}
        kept = kept_parts.get((subject_id, subject_version, inputs))
        if (
            kept is not None
            and all(writer.is_current(p, inputs) for p in pages.values())
            and all(f"{case_id}.json" in rows_files for case_id in kept.cases)
        ):
            partition_parts.append(kept)
            continue
        rows = [
            per_run_row(p.run, golds[p.run.case_id], family_of(p.run.case_id))
            for p in published.runs
        ]
        runs = [
            VersionRun.of(
                p, row, [evidence(fail.justification, p.answer) for fail in p.scoring.fails]
            )
            for p, row in zip(published.runs, rows, strict=True)
        ]
        reviewed = None if decided is None else reviewed_runs(runs, decided, golds)
        if reviewed is not None:
            # The version's numbers are those of the runs the metrics count.
            rows = [run.row for run in reviewed if run.row is not None]
        summary = subject_row(subject_id, subject_version, Rows(rows, range(len(rows))), alpha)
        for language, t in EDITIONS.items():
            html = render_version_page(
                subject_id=subject_id,
                subject_version=subject_version,
                runs=runs,
                summary=summary,
                golds=golds,
                benchmark_version=version,
                t=t,
                reviewed=reviewed,
            )
            writer.write(pages[language], inputs, html.encode("utf-8"))
        parts, rows = version_parts(
            subject_id, subject_version, inputs, runs, case_ids, reviewed=reviewed
        )
        partition_parts.append(parts)
        rendered_rows[(subject_id, subject_version)] = rows

    # The rows files first, then the parts file that records their digests.
    rewritten = write_rows_files(smk.output.parts, previous or [], partition_parts, rendered_rows)
    log.info("rows files: %d rewritten or removed", rewritten)
    write_version_parts(smk.output.parts, partition_parts)
    writer.save(smk.output.manifest)
    for page in writer.written:
        log.info("written: %s", page)
    message = (
        f"site, partition {partition}: {len(writer.written)} of "
        f"{len(versions) * len(EDITIONS)} subject-version pages rewritten"
    )
    log.info(message)
    if versions:
        tell(message)


def write_rows_files(
    parts_path,
    previous: list[VersionParts],
    partition_parts: list[VersionParts],
    rendered_rows: dict[tuple[str, str], dict[str, dict[str, str]]],
) -> int:
    """Write the partition's rows file of each case it has runs of, from the rows just
    rendered (rendered_rows: per version rendered, per case, its rows by language) and,
    for a kept version, its rows in the file as it is. A file whose versions' digests
    are those of the last run's parts is not touched; another is written only if its
    bytes change. A case the partition has no run of any more loses its file. Returns
    the number of files written or removed."""

    def entries_by_case(parts_list):
        by_case: dict[str, list] = {}
        for parts in sorted(parts_list, key=lambda p: (p.subject_id, p.subject_version)):
            for case_id, part in parts.cases.items():
                by_case.setdefault(case_id, []).append(
                    (parts.subject_id, parts.subject_version, part.rows_sha256)
                )
        return by_case

    folder = case_rows_folder(parts_path)
    remove_stale_staging(folder)  # a killed run's, if any
    before, after = entries_by_case(previous), entries_by_case(partition_parts)
    changes = 0
    for case_id, entries in sorted(after.items()):
        path = case_rows_path(parts_path, case_id)
        if before.get(case_id) == entries and path.is_file():
            continue
        on_disk = None
        rows = []
        for subject_id, subject_version, sha in entries:
            rows_html = rendered_rows.get((subject_id, subject_version), {}).get(case_id)
            if rows_html is None:  # a kept version: its rows are in the file (checked)
                if on_disk is None:
                    on_disk = {
                        (entry.subject_id, entry.subject_version): entry.rows_html
                        for entry in read_case_rows(path) or []
                    }
                rows_html = on_disk.get((subject_id, subject_version))
                if rows_html is None or rows_digest(rows_html) != sha:
                    raise RuntimeError(
                        f"{path}: not the rows {Path(parts_path).name} recorded for "
                        f"{subject_id} {subject_version}; remove {parts_path} to render "
                        "the partition again"
                    )
            rows.append(VersionRows(subject_id, subject_version, rows_html))
        changes += write_case_rows(path, rows)
    if folder.is_dir():
        for name in sorted(os.listdir(folder)):
            if name.endswith(".json") and name.removesuffix(".json") not in after:
                (folder / name).unlink()
                changes += 1
    return changes


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake's script directive
