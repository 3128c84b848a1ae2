"""Rule version_pages (one job per partition): the site's subject-version pages of the
partition, and what the index and the case pages show of its versions.

Renders the page of every subject version of the partition with a scored run, in every
language's edition (English at the root of its folder, Spanish under es/: the site's
layout), from its scored runs' public fields (records.PublishedVersion of the load
step), the consolidation of its per-run step (which scoring of each run counts: a run
with several scorings, or pending its review, is shown with every scoring,
leaderboard/review_view.py) and the golds' public fields. Hands on each version's row
of the index's matrix (records.MatrixRow, to the front pages job) and its rows of each
case page (records.CaseRows, one file per family, to that family's case pages job).
Each version's annotations (annotations.csv) are shown under its title. Runs only on a
corpus the cross-check accepted (the verdict is an input).
"""

from pathlib import Path

from ro_metrics.contracts.files import step_logger, tell, without_cycle_collector
from ro_metrics.contracts.records import (
    Annotation,
    MatrixRow,
    read_consolidation,
    read_golds_summary,
    read_published_versions,
    write_case_rows,
    write_matrix_rows,
)
from ro_metrics.contracts.tables import Rows, read_annotations
from ro_metrics.contracts.vocabulary import FAMILIES, family_of
from ro_metrics.formulas.aggregates import subject_row
from ro_metrics.formulas.evidence import evidence
from ro_metrics.formulas.per_run import per_run_row
from ro_metrics.leaderboard.review_view import decisions_by_version, run_views
from ro_metrics.site.site_files import edition_page, version_page, write_page
from ro_metrics.site.site_pages import (
    EDITIONS,
    VersionRun,
    case_rows,
    matrix_row,
    render_version_page,
)


def main(smk) -> None:
    without_cycle_collector()
    log = step_logger("version_pages", smk.log[0])
    alpha, version = smk.params.alpha, smk.params.benchmark_version
    golds = read_golds_summary(smk.input.golds).golds
    # Every case of the benchmark is a column of the matrix.
    case_ids = sorted(golds)
    consolidation = read_consolidation(smk.input.consolidation)
    decisions = decisions_by_version(consolidation.runs, consolidation.pending)
    versions = read_published_versions(smk.input.published)
    # Each version's annotations (lifecycle.md), shown under its title.
    annotations = {}
    for row in read_annotations(smk.input.annotations):
        annotation = Annotation(**row)
        annotations.setdefault(annotation.key, []).append(annotation)
    Path(smk.output.pages).mkdir(parents=True, exist_ok=True)  # a partition may have none

    matrix, rows_by_family = [], {family: [] for family in FAMILIES}
    for published in versions:
        subject_id, subject_version = published.subject_id, published.subject_version
        scorings = [
            VersionRun.of(
                p,
                per_run_row(p.run, golds[p.run.case_id], family_of(p.run.case_id)),
                [evidence(fail.justification, p.answer) for fail in p.scoring.fails],
            )
            for p in published.runs
        ]
        runs = run_views(scorings, decisions.get((subject_id, subject_version), {}), golds)
        # The version's numbers are those of the runs the metrics count.
        counted = [run.row for run in runs if run.row is not None]
        summary = subject_row(
            subject_id, subject_version, Rows(counted, range(len(counted))), alpha
        )
        page = version_page(subject_id, subject_version)
        for code, t in EDITIONS.items():
            html = render_version_page(
                subject_id=subject_id,
                subject_version=subject_version,
                runs=runs,
                summary=summary,
                golds=golds,
                benchmark_version=version,
                t=t,
                annotations=annotations.get((subject_id, subject_version), ()),
            )
            write_page(smk.output.pages, edition_page(page, code), html)
        matrix.append(
            MatrixRow(
                subject_id,
                subject_version,
                {
                    code: matrix_row(subject_id, subject_version, runs, case_ids, t)
                    for code, t in EDITIONS.items()
                },
            )
        )
        for rows in case_rows(subject_id, subject_version, runs):
            rows_by_family[family_of(rows.case_id)].append(rows)

    write_matrix_rows(smk.output.matrix, matrix)
    for family, path in zip(FAMILIES, smk.output.case_rows, strict=True):
        if not path.endswith(f"-{family}.json"):
            raise ValueError(f"{path}: not the case rows file of {family}")
        # By case, then subject version: the order of a case page's rows.
        family_rows = sorted(rows_by_family[family], key=lambda rows: rows[:3])
        write_case_rows(path, family_rows)
    message = (
        f"site, partition {smk.wildcards.partition}: {len(versions)} subject versions, "
        f"{len(versions) * len(EDITIONS)} pages"
    )
    log.info(message)
    if versions:
        tell(message)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake's script directive
