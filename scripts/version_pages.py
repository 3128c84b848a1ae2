"""Rule version_pages (one job per partition): the site's subject-version pages.

Renders the page of every subject version of the partition, in every language's
edition (English at the site root, Spanish under es/), from its scored runs' public
fields (records.PublishedVersion of the load step) and the golds' public fields, into
the site folder, writing only the pages whose content changed
(ro_metrics.publishing.site_files.PageWriter; its manifest is this job's output). Also
renders what the case pages and the index show of each version, in every language
(records.VersionParts: its row of the matrix, its rows of each case page), and hands
them on in one file for the partition (partition-N.parts.json). A version whose inputs
did not change (its runs' digest from the load step, the golds, the code and the
labels) is neither rendered nor re-read: its pages stay, its parts of the last run are
kept. Runs only on a corpus the cross-check accepted (the verdict is an input).
"""

from pathlib import Path

from ro_metrics.contracts.files import json_bytes, step_logger, tell, without_cycle_collector
from ro_metrics.contracts.records import (
    read_golds_summary,
    read_published_versions,
    read_version_parts,
    write_version_parts,
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

    partition_parts = []
    for published in versions:
        subject_id, subject_version = published.subject_id, published.subject_version
        inputs = digest_of(code.encode("ascii"), published.digest.encode("ascii"), golds_digest)
        page = version_page(subject_id, subject_version)
        pages = {language: edition_page(page, language) for language in EDITIONS}
        kept = kept_parts.get((subject_id, subject_version, inputs))
        if kept is not None and all(writer.is_current(p, inputs) for p in pages.values()):
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
        partition_parts.append(version_parts(subject_id, subject_version, inputs, runs, case_ids))

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


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake's script directive
