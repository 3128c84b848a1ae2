"""Rule case_pages (one job per family of cases): the site's case pages of the family.

One page per case of the benchmark in the family (the golds' case ids: a case without
a scored run has its page too), in every language's edition (English at the root of
its folder, Spanish under es/), assembled from the rows every partition's version pages
job rendered of its versions' runs of the family's cases (records.CaseRows), the
versions in (subject_id, subject_version) order. Above them, the case's public
statement (its file among the family's statements in the corpus: the rule's inputs), or
the line that says it is not public.
"""

from pathlib import Path

from ro_metrics.contracts.files import step_logger, tell, without_cycle_collector
from ro_metrics.contracts.records import read_case_rows, read_golds_summary
from ro_metrics.contracts.vocabulary import family_of
from ro_metrics.corpus.statements import statement_case_id, statement_of
from ro_metrics.site.site_files import case_page, edition_page, write_page
from ro_metrics.site.site_pages import EDITIONS, render_case_page


def main(smk) -> None:
    without_cycle_collector()
    log = step_logger("case_pages", smk.log[0])
    family, version = smk.wildcards.family, smk.params.benchmark_version
    golds = read_golds_summary(smk.input.golds).golds
    case_ids = sorted(case_id for case_id in golds if family_of(case_id) == family)
    rows_of = {case_id: [] for case_id in case_ids}
    for path in smk.input.case_rows:
        for rows in read_case_rows(path):
            rows_of[rows.case_id].append(rows)
    statements = {
        statement_case_id(path): statement_of(Path(path).read_bytes())
        for path in smk.input.statements
    }
    Path(smk.output[0]).mkdir(parents=True, exist_ok=True)  # a family may have no case
    for case_id in case_ids:
        # A subject version's runs are all in one partition: sorting by (subject_id,
        # subject_version) puts the partitions' rows in the page's order.
        rows = sorted(rows_of[case_id], key=lambda rows: (rows.subject_id, rows.subject_version))
        for code, t in EDITIONS.items():
            html = render_case_page(
                case_id=case_id,
                gold=golds[case_id],
                rows=rows,
                benchmark_version=version,
                t=t,
                statement=statements.get(case_id),
            )
            write_page(smk.output[0], edition_page(case_page(case_id), code), html)
    message = f"site, family {family}: {len(case_ids)} cases, {len(case_ids) * len(EDITIONS)} pages"
    log.info(message)
    tell(message)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake's script directive
