"""Rule version_pages (one job per partition): the site's subject-version pages.

Renders the page of every subject version of the partition, in every language's
edition (English at the site root, Spanish under es/), from its scored runs' public
fields (records.PublishedVersion of the load step) and the golds' public fields, into
the site folder, writing only the pages whose content changed
(ro_metrics.publishing.site_files.PageWriter; its manifest is this job's output). Also
renders what the case pages and the index show of each version, in every language
(records.VersionParts: its row of the matrix, its rows of each case page), and hands
them on as records.PartitionParts (the matrix rows, the case digests, where each case's
rows are) and the partition's case rows file (site_files.update_case_rows: the rows of
the versions that did not change are copied from the file it replaces). A version whose
inputs did not change (its runs' digest from the load step,
the golds, the code and the labels) is neither rendered nor re-read: its pages stay,
its parts of the last run are kept. Runs only on a corpus the cross-check accepted (the
verdict is an input).
"""

from pathlib import Path

from ro_metrics.contracts.files import json_bytes, step_logger, tell, without_cycle_collector
from ro_metrics.contracts.records import (
    PartitionParts,
    read_golds_summary,
    read_partition_parts,
    read_published_versions,
    write_partition_parts,
)
from ro_metrics.contracts.tables import Rows
from ro_metrics.contracts.vocabulary import family_of
from ro_metrics.formulas.aggregates import subject_row
from ro_metrics.formulas.evidence import evidence
from ro_metrics.formulas.per_run import per_run_row
from ro_metrics.publishing.site_files import (
    PageWriter,
    code_fingerprint,
    digest_of,
    edition_page,
    update_case_rows,
    version_entry,
    version_page,
)
from ro_metrics.publishing.site_pages import (
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
        [smk.input.modules, *smk.input.translations, *smk.input.templates], alpha, version
    )
    writer = PageWriter(Path(smk.params.site), smk.output.manifest, code)
    # The last run's parts, if the same code wrote them (another version of this code
    # may have written them in another form).
    previous = read_partition_parts(smk.output.parts) if writer.same_code else None
    kept_entries = {
        (kept.subject_id, kept.subject_version, kept.inputs_digest): kept
        for kept in (previous.versions if previous else [])
    }
    golds = read_golds_summary(smk.input.golds).golds
    # Every case of the benchmark is a column of the matrix, so golds are an input of
    # every page: a changed floor or ceiling re-renders the versions (their bytes
    # decide what is written).
    case_ids = sorted(golds)
    golds_digest = json_bytes(sorted(golds.items()))
    versions = read_published_versions(smk.input.published)

    def inputs_of(published) -> str:
        return digest_of(code.encode("ascii"), published.digest.encode("ascii"), golds_digest)

    def runs_of(published) -> tuple[list, list[VersionRun]]:
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
        return rows, runs

    rendered = {}
    entries = []
    for published in versions:
        subject_id, subject_version = published.subject_id, published.subject_version
        inputs = inputs_of(published)
        page = version_page(subject_id, subject_version)
        pages = {language: edition_page(page, language) for language in EDITIONS}
        kept = kept_entries.get((subject_id, subject_version, inputs))
        if kept is not None and all(writer.is_current(p, inputs) for p in pages.values()):
            entries.append(kept)
            continue
        rows, runs = runs_of(published)
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
            )
            writer.write(pages[language], inputs, html.encode("utf-8"))
        parts = version_parts(subject_id, subject_version, inputs, runs, case_ids)
        rendered[subject_id, subject_version] = parts
        entries.append(version_entry(parts))

    by_version = {(p.subject_id, p.subject_version): p for p in versions}

    def parts_of(subject_id: str, subject_version: str):
        """A version's parts: rendered above, or now (a kept version whose case rows
        file must be written again and does not hold its rows as they were)."""
        if (subject_id, subject_version) not in rendered:
            published = by_version[subject_id, subject_version]
            rendered[subject_id, subject_version] = version_parts(
                subject_id, subject_version, inputs_of(published), runs_of(published)[1], case_ids
            )
        return rendered[subject_id, subject_version]

    case_rows, cases_written = update_case_rows(smk.output.parts, entries, previous, parts_of)
    write_partition_parts(smk.output.parts, PartitionParts(entries, case_rows))
    writer.save(smk.output.manifest)
    for page in writer.written:
        log.info("written: %s", page)
    log.info("cases whose rows changed (%d): %s", len(cases_written), " ".join(cases_written))
    message = (
        f"site, partition {partition}: {len(writer.written)} of "
        f"{len(versions) * len(EDITIONS)} subject-version pages rewritten"
    )
    log.info(message)
    if versions:
        tell(message)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake's script directive
