"""Made-up published runs and the site pages rendered from them, for the unit tests of
the site's pages (one run's answer and scoring, its version's page and case page)."""

from ro_metrics.contracts.records import (
    PublicAnswer,
    PublicFail,
    PublicGold,
    PublicScoring,
    PublishedRun,
    ScoredRun,
)
from ro_metrics.formulas.evidence import evidence
from ro_metrics.formulas.per_run import per_run_row
from ro_metrics.rendering.translations import Language
from ro_metrics.site.site_pages import (
    VersionRun,
    case_rows,
    matrix_row,
    render_case_page,
    render_version_page,
)


def published_run(subject_version: str, text: str) -> PublishedRun:
    """A scored run of atlas (subject_version) on RO-FOUL-001 as the site's pages get it:
    every text of its answer and scoring is `text`, its one fail critical and generic,
    the reviewer quoting "<text> now" from its recommended action; scores 10 (2, 2, 2,
    0, 2, 2), confidence 80, correctness 1.0."""
    run = ScoredRun(
        "atlas",
        subject_version,
        "RO-FOUL-001",
        "run-2026-05-12-001",
        "R01",
        "2026-05-13T10:38:10Z",
        [2, 2, 2, 0, 2, 2],
        ["critical"],
        80,
        1.0,
    )
    answer = PublicAnswer(
        "2026-05-12T14:23:55Z",
        text,
        "classic",
        80,
        text,
        [text],
        [[text, text, text]],
        text,
        f"Shock it: {text} now",
        text,
    )
    scoring = PublicScoring([text] * 6, [PublicFail("generic", "critical", f"'{text} now'")])
    return PublishedRun(run, answer, scoring)


# The case of published_run: RO-FOUL-001, floor 4, ceiling 12.
SITE_GOLD = PublicGold("FOUL", "Closed", 4, 12)


def version_run(subject_version: str, text: str) -> VersionRun:
    """published_run as its version's page gets it: with its per-run row (raw and
    clipped score 10, Fail with a critical fail) and its fail's evidence."""
    published = published_run(subject_version, text)
    row = per_run_row(published.run, SITE_GOLD, "FOUL")
    found = evidence(published.scoring.fails[0].justification, published.answer)
    return VersionRun.of(published, row, [found])


def site_pages(subject_version: str, text: str, summary: list, t: Language):
    """The site's pages of version_run(subject_version, text) in language t: its
    version's page, its row of the index's matrix and its case's page."""
    entry = version_run(subject_version, text)
    page = render_version_page(
        subject_id="atlas",
        subject_version=subject_version,
        runs=[entry],
        summary=summary,
        golds={"RO-FOUL-001": SITE_GOLD},
        benchmark_version="v1.0",
        t=t,
    )
    row = matrix_row("atlas", subject_version, [entry], ["RO-FOUL-001"], t)
    (rows,) = case_rows("atlas", subject_version, [entry], editions={t.code: t})
    case = render_case_page(
        case_id="RO-FOUL-001", gold=SITE_GOLD, rows=[rows], benchmark_version="v1.0", t=t
    )
    return page, row, case
