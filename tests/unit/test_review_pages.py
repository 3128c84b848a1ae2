"""The pages under double review (multi-reviewer.md, Published): the leaderboard's
agreement line, pending counts and critical-fail flag from hand-made rows of the
published tables, and the site's run view (a run's scorings grouped, each with its
role, and which one counts) for each method, in both languages."""

import re

import pytest

from ro_metrics.contracts.records import ConsolidatedRun, PendingRun
from ro_metrics.formulas import agreement_tables
from ro_metrics.formulas.consolidation import pending_counts
from ro_metrics.formulas.evidence import evidence
from ro_metrics.formulas.per_run import per_run_row
from ro_metrics.leaderboard.leaderboard_markdown import render_markdown
from ro_metrics.leaderboard.leaderboard_view import leaderboard_view
from ro_metrics.leaderboard.review_view import (
    ARBITER_ROLE,
    ARBITRATED,
    PRIMARY_ROLE,
    PendingCounts,
    ProvisionalRange,
    provisional_ranges,
    review_summary,
    run_views,
)
from ro_metrics.rendering.markdown import markdown_label
from ro_metrics.rendering.page_templates import Labels
from ro_metrics.rendering.translations import ENGLISH, SPANISH, language
from ro_metrics.site.site_pages import (
    COMPONENTS,
    VersionRun,
    case_rows,
    counting_text,
    decision_text,
    matrix_row,
    render_version_page,
)
from site_records import SITE_GOLD, published_run

EN, ES = language(ENGLISH), language(SPANISH)


def agreement_row(scope, variable, statistic, estimate, low="", high="", n_runs="4"):
    return {
        "scope": scope,
        "variable": variable,
        "statistic": statistic,
        "estimate": estimate,
        "ci_low": low,
        "ci_high": high,
        "n_runs": n_runs,
        "n_cases": "3",
        "n_undefined_replicates": "0",
        "note": "",
    }


# agreement.csv's rows as read_table gives them: a family's κ first, which the line
# must not take for the overall one.
AGREEMENT = [
    agreement_row("FOUL", "classification", "kappa", "0.2", "0.1", "0.3", n_runs="2"),
    agreement_row("overall", "classification", "kappa", "0.601", "0.5101", "0.6911"),
    agreement_row("overall", "classification", "linear_kappa", "0.7"),
    agreement_row("overall", "raw_score", "quadratic_kappa", "0.6462", "0.4", "0.8"),
]
# divergent_runs.csv: three divergent runs, one arbitrated (only the columns read).
DIVERGENT = [{"arbiter_status": status} for status in ("pending", ARBITRATED, "pending")]


def pending_row(version, status, critical):
    """A run pending its review (records.PendingRun, as the partitions' reviews.json
    hand them on)."""
    divergent = ["critical_fail"] if critical else []
    outcomes = [["R01", "Fail" if critical else "Pass", 10, critical], ["R02", "Pass", 10, False]]
    return PendingRun(
        "atlas", version, "RO-FOUL-001", "run-1", status, ["R01", "R02"], divergent, critical,
        outcomes, "2026-05-13T10:00:00Z", ["R04"],
    )  # fmt: skip


# The runs pending review: version va has two runs pending arbitration, one a
# critical-fail disagreement; version vb one run awaiting its second review.
PENDING = [
    pending_row("va", "pending_arbitration", True),
    pending_row("va", "pending_arbitration", False),
    pending_row("vb", "awaiting_second_review", False),
]
REVIEW = review_summary(AGREEMENT, DIVERGENT, PENDING)


def visible(html: str) -> str:
    return re.sub(r"<[^>]+>", "", str(html))


def test_the_arbitrated_status_is_the_agreement_steps():
    assert ARBITRATED == agreement_tables.ARBITRATED


def test_the_summary_counts_by_hand():
    # n_pairs: the overall κ row's n_runs (4); divergent: 3 rows, 1 arbitrated;
    # pending_runs.csv: 2 pending arbitration, 1 awaiting.
    line = REVIEW.line
    assert line == ("0.601", "0.5101", "0.6911", "0.6462", 4, 3, 1, 2, 1, 0)
    assert REVIEW.pending == {
        ("atlas", "va"): PendingCounts(2, 0, True),
        ("atlas", "vb"): PendingCounts(0, 1, False),
    }
    # No run with two primaries and none pending: one reviewer per run, no summary.
    assert review_summary([], [], []) is None
    # Runs pending, none with two primaries yet: every agreement value unknown.
    assert review_summary([], [], PENDING[2:]).line == ("", "", "", "", 0, 0, 0, 0, 1, 0)


ENGLISH_LINE = (
    "Inter-reviewer agreement on the 4 runs scored by two primary reviewers: Cohen's κ on"
    " the classification 0.601 (95 % CI 0.5101–0.6911), quadratically weighted κ on the"
    " raw score 0.6462. 3 runs diverged: 1 arbitrated, 2 pending arbitration; 1 runs await"
    " their second review. A run pending its review is not counted in the metrics."
)
SPANISH_LINE = (
    "Acuerdo entre revisores en las 4 ejecuciones evaluadas por dos revisores primarios:"
    " κ de Cohen sobre la clasificación 0,601 (IC 95 % 0,5101–0,6911), κ ponderada"
    " cuadrática sobre la puntuación bruta 0,6462. 3 ejecuciones divergieron: 1"
    " arbitradas, 2 pendientes de arbitraje; 1 ejecuciones esperan su segunda revisión."
    " Una ejecución pendiente de revisión no cuenta en las métricas."
)


@pytest.mark.parametrize(
    ("t", "line", "files"),
    [
        (
            EN,
            ENGLISH_LINE,
            "Every statistic with its interval: {a}; every divergent run: {d}.",
        ),
        (
            ES,
            SPANISH_LINE,
            "Cada estadístico con su intervalo: {a}; cada ejecución divergente: {d}.",
        ),
    ],
)
def test_the_agreement_line_in_both_languages(t, line, files):
    markdown = render_markdown(board(REVIEW), t)
    linked = files.format(
        a="[agreement.csv](agreement.csv)", d="[divergent_runs.csv](divergent_runs.csv)"
    )
    # Runs are pending: the worklist is linked, and the provisional marks explained.
    worklist = t("review_worklist_link", worklist="{w}")
    note = t("review_provisional_note")
    # A paragraph of its own.
    assert (
        f"\n\n{line} {linked} {worklist.format(w='[pending_runs.csv](pending_runs.csv)')} "
        f"{markdown_label(note)}\n\n" in markdown
    )
    html = str(COMPONENTS.agreement_line(REVIEW.line, Labels(t)))
    assert html.startswith('<p class="note review-agreement">')
    assert '<a href="agreement.csv">agreement.csv</a>' in html
    assert '<a href="divergent_runs.csv">divergent_runs.csv</a>' in html
    assert '<a href="pending_runs.csv">pending_runs.csv</a>' in html
    assert visible(html) == (
        f"{line} {files.format(a='agreement.csv', d='divergent_runs.csv')} "
        f"{worklist.format(w='pending_runs.csv')} {note}"
    )
    # On the site the files are elsewhere: named, not linked; the worklist is its page.
    site = str(
        COMPONENTS.agreement_line(REVIEW.line, Labels(t), linked=False, worklist_href="w.html")
    )
    assert "<code>agreement.csv</code>" in site
    assert f'<a href="w.html">{t("worklist_link_text")}</a>' in site
    # Union settled runs: counted apart, so that the counts add up.
    union = str(COMPONENTS.agreement_line(REVIEW.line._replace(n_settled_by_union=5), Labels(t)))
    assert t("review_agreement_union", n_settled=5) in visible(union)


def test_an_undefined_statistic_shows_as_unknown():
    markdown = render_markdown(board(review_summary([], [], PENDING[2:])), EN)
    assert "classification — (95 % CI —–—)" in markdown


def board_row(version, status="Eligible"):
    """A row of metrics_per_subject.csv."""
    return {
        "subject_id": "atlas",
        "subject_version": version,
        "q_final": "0.5",
        "pass_rate": "0.5",
        "mean_clipped_score": "9.0",
        "brier": "0.1",
        "ece": "0.1",
        "n_runs": "6",
        "n_pass": "3",
        "n_conditional": "3",
        "n_fail": "0",
        "n_critical_fails": "0",
        "leaderboard_status": status,
    }


ROWS = [board_row("va"), board_row("vb"), board_row("vc")]


def board(review):
    """The leaderboard's view of ROWS (all three ranked 1, no rank interval)."""
    return leaderboard_view(
        benchmark_version="v1.0",
        alpha=0.5,
        last_update="2026-05-13T10:38:10Z",
        subjects=ROWS,
        uncertainty={},
        tracks={("atlas", v): "classic" for v in ("va", "vb", "vc")},
        registry={},
        families=[],
        critical_fails=[],
        review=review,
    )


def ranking_html(t, review):
    return str(
        COMPONENTS.ranking_table(
            board(review), lambda row: f"#subject-{row.index}", lambda _fail: None, Labels(t)
        )
    )


def ranking_section(review) -> str:
    """leaderboard.md's ranking section: from its heading to the next one."""
    markdown = render_markdown(board(review), EN)
    return markdown.split("\n## Ranking\n", 1)[1].split("\n## ", 1)[0]


def cells_of(html: str, version: str) -> list[str]:
    pattern = (
        r'<tr class="eligible[^"]*" data-key="\d">(?:(?!</tr>).)*'
        rf'<span class="ci">{version}</span>(?:(?!</tr>).)*</tr>'
    )
    row = re.search(pattern, html).group(0)
    return [visible(cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row)]


@pytest.mark.parametrize(
    ("t", "flag", "pending_a", "pending_b"),
    [
        (
            EN,
            "⚠ a critical fail awaits arbitration: the gate may change",
            "+2 pending arbitration, +0 awaiting second review",
            "+0 pending arbitration, +1 awaiting second review",
        ),
        (
            ES,
            "⚠ un fallo crítico espera arbitraje: la admisión puede cambiar",
            "+2 pendientes de arbitraje, +0 a la espera de segunda revisión",
            "+0 pendientes de arbitraje, +1 a la espera de segunda revisión",
        ),
    ],
)
def test_the_ranking_rows_pending_counts_and_flag(t, flag, pending_a, pending_b):
    html = ranking_html(t, REVIEW)
    status = t("status_eligible")
    # Columns: rank, name, provider, track, status, 5 scores, runs, ...
    a, b, c = (cells_of(html, version) for version in ("va", "vb", "vc"))
    assert (a[4], a[10]) == (f"{status}{flag}", f"6{pending_a}")
    assert (b[4], b[10]) == (status, f"6{pending_b}")
    assert (c[4], c[10]) == (status, "6")  # nothing pending: nothing added
    # One reviewer per run: the rows as they always were.
    assert "review-" not in ranking_html(t, None)


def test_the_markdown_ranking_has_the_pending_columns_and_the_flag():
    section = ranking_section(REVIEW)
    lines = [line for line in section.splitlines() if line.startswith("| ")]
    assert lines[0].endswith(
        "| Status | Pending arbitration | Awaiting second review | Q_final once reviewed |"
    )
    assert lines[1].endswith(
        "| Eligible ⚠ **a critical fail awaits arbitration: the gate may change** | 2 | 0 |   |"
    )
    assert lines[2].endswith("| Eligible | 0 | 1 |   |")
    assert lines[3].endswith("| Eligible | 0 | 0 |   |")
    single = ranking_section(None)
    assert "Pending" not in single and "⚠" not in single


# --- The run view ---------------------------------------------------------------------

TIME = "2026-05-13T10:38:10Z"


def scoring(run_id: str, reviewer: str, scores: list[int], critical: bool = False) -> VersionRun:
    """A scoring of atlas v on RO-FOUL-001 (floor 4, ceiling 12) by `reviewer`: the
    run of site_records.published_run with these criterion scores and, when critical,
    its one critical fail (else none)."""
    published = published_run("v", "text")
    run = published.run._replace(
        run_id=run_id,
        reviewer_id=reviewer,
        criterion_scores=scores,
        fail_severities=["critical"] if critical else [],
    )
    scoring_ = published.scoring._replace(fails=published.scoring.fails if critical else [])
    published = published._replace(run=run, scoring=scoring_)
    row = per_run_row(run, SITE_GOLD, "FOUL")
    found = [evidence(fail.justification, published.answer) for fail in scoring_.fails]
    return VersionRun.of(published, row, found)


def consolidated(run_id, method, primaries, arbiter, scores, severities=(), divergent=()):
    return ConsolidatedRun(
        "atlas", "v", "RO-FOUL-001", run_id, method, arbiter or "+".join(primaries),
        primaries, arbiter, TIME, scores, list(severities), 80, 1.0, list(divergent),
    )  # fmt: skip


def pending(run_id, status, primaries, divergent):
    return PendingRun(
        "atlas", "v", "RO-FOUL-001", run_id, status, primaries, divergent, False, [], "", []
    )  # fmt: skip


# Four runs, one per outcome. run-1: R02 (10) and R01 (9) agree, their mean is
# (2, 2, 1.5, 0, 2, 2) = 9.5, clipped 9.5 ≥ floor 4, no fail, 7 ≤ 9.5 < 10:
# Conditional. run-2: R01 raised a critical fail, R03 did not, the arbiter R04 (9, no
# fail: Conditional) counts. run-3: R01 and R02 diverge on the class, no arbiter.
# run-4: R02 alone.
SCORINGS = [
    scoring("run-1", "R01", [2, 2, 1, 0, 2, 2]),
    scoring("run-1", "R02", [2, 2, 2, 0, 2, 2]),
    scoring("run-2", "R01", [2, 2, 2, 0, 2, 2], critical=True),
    scoring("run-2", "R03", [2, 2, 2, 0, 2, 2]),
    scoring("run-2", "R04", [2, 2, 1, 0, 2, 2]),
    scoring("run-3", "R01", [0, 0, 0, 0, 0, 0]),
    scoring("run-3", "R02", [2, 2, 2, 2, 2, 2]),
    scoring("run-4", "R02", [2, 2, 2, 0, 2, 2]),
]
DECISIONS = {
    ("RO-FOUL-001", "run-1"): consolidated(
        "run-1", "mean_of_primaries", ["R01", "R02"], "", [2, 2, 1.5, 0, 2, 2]
    ),
    ("RO-FOUL-001", "run-2"): consolidated(
        "run-2",
        "arbiter",
        ["R01", "R03"],
        "R04",
        [2, 2, 1, 0, 2, 2],
        divergent=["classification", "critical_fail"],
    ),
    ("RO-FOUL-001", "run-3"): pending(
        "run-3", "pending_arbitration", ["R01", "R02"], ["classification", "raw_score"]
    ),
    ("RO-FOUL-001", "run-4"): pending("run-4", "awaiting_second_review", ["R02"], []),
}
GOLDS = {"RO-FOUL-001": SITE_GOLD}


def reviewers(run):
    return [entry.published.run.reviewer_id for entry in run.scorings]


def test_the_scorings_are_grouped_by_run_with_their_roles():
    # The arbiter's scoring listed first: it still comes after the primaries.
    shuffled = [SCORINGS[4], *SCORINGS[:4], *SCORINGS[5:]]
    runs = run_views(shuffled, DECISIONS, GOLDS)
    assert [run.scorings[0].published.run.run_id for run in runs] == [
        "run-2", "run-1", "run-3", "run-4"
    ]  # fmt: skip
    arbitrated, mean, diverged, alone = runs
    assert (reviewers(mean), mean.roles) == (["R01", "R02"], [PRIMARY_ROLE] * 2)
    assert (reviewers(arbitrated), arbitrated.roles) == (
        ["R01", "R03", "R04"],
        [PRIMARY_ROLE, PRIMARY_ROLE, ARBITER_ROLE],
    )
    assert [run.method for run in runs] == [
        "arbiter", "mean_of_primaries", "pending_arbitration", "awaiting_second_review"
    ]  # fmt: skip
    # Which scorings count: both primaries of a mean, the arbiter alone, none pending.
    assert [mean.counts(i) for i in range(2)] == [True, True]
    assert [arbitrated.counts(i) for i in range(3)] == [False, False, True]
    assert not diverged.counts(0) and not diverged.counts(1) and not alone.counts(0)
    # The counted runs' rows: the mean 9.5 (a half), clipped 9.5, Conditional; the
    # arbiter's 9, Conditional.
    assert [mean.row[9], mean.row[10], mean.row[13]] == [9.5, 9.5, "Conditional"]
    assert [arbitrated.row[9], arbitrated.row[13]] == [9, "Conditional"]
    assert diverged.row is None and alone.row is None
    assert diverged.divergent == ["classification", "raw_score"]


def test_a_scoring_the_consolidation_does_not_name_is_an_error():
    stray = scoring("run-1", "R09", [2, 2, 2, 0, 2, 2])
    with pytest.raises(ValueError, match="run-1: scorings by R09 are not in the consolidation"):
        run_views([*SCORINGS[:2], stray], DECISIONS, GOLDS)
    with pytest.raises(ValueError, match="run-9: scored, but not in the consolidation"):
        run_views([scoring("run-9", "R01", [0] * 6)], DECISIONS, GOLDS)


def test_a_run_whose_one_scoring_counts_is_shown_as_it_is():
    """One reviewer per run: the consolidation is the identity (method "single"), each
    run its one scoring, shown as it is; beside runs under review, the same (the view
    follows each run's data, not a review mode)."""
    alone = scoring("run-5", "R01", [2, 2, 2, 0, 2, 2])
    single = consolidated("run-5", "single", ["R01"], "", [2, 2, 2, 0, 2, 2])
    decisions = {("RO-FOUL-001", "run-5"): single}
    assert run_views([alone], decisions, GOLDS) == [alone]
    page = render_version_page(
        subject_id="atlas",
        subject_version="v",
        runs=[alone],
        summary=SUMMARY,
        golds=GOLDS,
        benchmark_version="v1.0",
        t=EN,
    )
    assert '<article class="run" id="RO-FOUL-001__run-5">' in page
    assert ".scorings {" not in page and EN("review_version_note") not in page
    mixed = run_views([*SCORINGS[:2], alone], DECISIONS | decisions, GOLDS)
    assert [type(view).__name__ for view in mixed] == ["ReviewedRun", "VersionRun"]
    page = render_version_page(
        subject_id="atlas",
        subject_version="v",
        runs=mixed,
        summary=SUMMARY,
        golds=GOLDS,
        benchmark_version="v1.0",
        t=EN,
    )
    assert list(articles(page)) == ["run-1"]
    assert '<article class="run" id="RO-FOUL-001__run-5">' in page
    assert ".scorings {" in page
    assert "review_provisional" not in page and t_provisional_absent(page)
    (rows,) = case_rows("atlas", "v", mixed, editions={"en": EN})
    # Both counted: the mean (Conditional, 9.5) and the single scoring (Pass, 10).
    assert rows.counts == [2, 1, 1, 0, 0]
    assert rows.html["en"].count("<tr>") == 2


@pytest.mark.parametrize(
    ("t", "expected"),
    [
        (
            EN,
            [
                "Counts in the metrics: the arbiter's scoring (R04), whole; the primaries"
                " (R01, R03) diverged (classification differs, critical fail on one side"
                " only).",
                "Counts in the metrics: the mean of the two primaries (R01, R02).",
                "Pending arbitration: the primaries (R01, R02) diverged (classification"
                " differs, raw scores too far apart). Not counted in the metrics until an"
                " arbiter scores the run.",
                "Awaiting second review: one primary scoring so far (R02). Not counted in the"
                " metrics.",
            ],
        ),
        (
            ES,
            [
                "Cuenta en las métricas: la puntuación del árbitro (R04), entera; los"
                " primarios (R01, R03) divergieron (la clasificación difiere, fallo crítico"
                " en un solo lado).",
                "Cuenta en las métricas: la media de los dos primarios (R01, R02).",
                "Pendiente de arbitraje: los primarios (R01, R02) divergieron (la"
                " clasificación difiere, puntuaciones brutas demasiado distintas). No cuenta"
                " en las métricas hasta que un árbitro puntúe la ejecución.",
                "A la espera de segunda revisión: por ahora una sola puntuación primaria"
                " (R02). No cuenta en las métricas.",
            ],
        ),
    ],
)
def test_which_scoring_counts_for_each_method(t, expected):
    runs = run_views(SCORINGS, DECISIONS, GOLDS)
    by_run = {run.scorings[0].published.run.run_id: run for run in runs}
    order = ["run-2", "run-1", "run-3", "run-4"]
    assert [decision_text(by_run[run_id], t) for run_id in order] == expected


def test_each_scorings_tag():
    arbitrated, mean, diverged, alone = (
        run_views([SCORINGS[i] for i in order], DECISIONS, GOLDS)[0]
        for order in ([2, 3, 4], [0, 1], [5, 6], [7])
    )
    assert [counting_text(arbitrated, i, EN) for i in range(3)] == [
        "not counted: the arbiter decided",
        "not counted: the arbiter decided",
        "counts: the arbiter's scoring",
    ]
    assert counting_text(mean, 0, EN) == "counts: averaged with the other primary"
    assert counting_text(diverged, 1, ES) == "no cuenta: pendiente de arbitraje"
    assert counting_text(alone, 0, EN) == "not counted: awaiting a second review"


def articles(page: str) -> dict[str, str]:
    pattern = r'<article class="run reviewed" id="RO-FOUL-001__(run-\d)">(.*?)</article>'
    return dict(re.findall(pattern, page))


SUMMARY = ["atlas", "v", 2, 2, 0, 0, 0, 0, "1.0", "9.25", "0.04", "0.2", "0.5", "0.4",
           "Eligible"]  # fmt: skip


@pytest.mark.parametrize("t", [EN, ES])
def test_the_version_page_shows_every_scoring_and_which_counts(t):
    runs = run_views(SCORINGS, DECISIONS, GOLDS)
    page = render_version_page(
        subject_id="atlas",
        subject_version="v",
        runs=runs,
        summary=SUMMARY,
        golds=GOLDS,
        benchmark_version="v1.0",
        t=t,
    )
    found = articles(page)
    assert list(found) == ["run-1", "run-2", "run-3", "run-4"]  # one article per run
    # run-3 pending arbitration, run-4 awaiting: the version is provisional, with 2.
    assert f'<p class="note review-flag">{t("review_provisional_version", n=2)}</p>' in page
    # Below a phone's width the scoring that counts (the arbiter's) comes first.
    assert ".scorings .scoring.counts { order: -1; }" in page
    arbitrated = found["run-2"]
    heads = re.findall(r'<div class="scoring ([a-z ]+)"><h4>(.*?)</h4>', arbitrated)
    role_of = {PRIMARY_ROLE: t("review_role_primary"), ARBITER_ROLE: t("review_role_arbiter")}
    # R01's scoring: a critical fail, so Fail (critical); R03's: 10, no fail, Pass;
    # R04's: 9, no fail, Conditional.
    critical = t("classification_critical", classification=t("classification_Fail"))
    primary, arbiter = role_of[PRIMARY_ROLE], role_of[ARBITER_ROLE]
    assert [(css, visible(head)) for css, head in heads] == [
        ("primary", f"{primary} R01 {critical}"),
        ("primary", f"{primary} R03 {t('classification_Pass')}"),
        ("arbiter counts", f"{arbiter} R04 {t('classification_Conditional')}"),
    ]
    assert decision_text(runs[1], t) in arbitrated
    # The mean's consolidated values with the edition's decimal mark: 9.5 and 1.5.
    mean = found["run-1"]
    half = t.number("9.5")
    assert f"<strong>{half}</strong> · " in mean  # raw and clipped
    assert visible(mean).count(half) == 2
    assert mean.count('class="scoring primary counts"') == 2
    # Pending: its status for a class, no consolidated scores, no scoring counts.
    assert t("review_status_pending_arbitration") in found["run-3"]
    assert 'class="scores"' not in found["run-3"] and " counts" not in found["run-3"]
    assert 'class="decision pending"' in found["run-4"]
    # The run view's style and note: the page has runs under review.
    assert "review.css" not in page and ".scorings {" in page
    assert t("review_version_note") in page


@pytest.mark.parametrize("t", [EN, ES])
def test_the_case_rows_and_matrix_show_the_run_as_counted(t):
    runs = run_views(SCORINGS, DECISIONS, GOLDS)
    (rows,) = case_rows("atlas", "v", runs, editions={t.code: t})
    html = rows.html[t.code]
    cells = [
        [visible(cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row)]
        for row in re.findall(r"<tr>(.*?)</tr>", html)
    ]
    assert len(cells) == 4  # one row per run, not per scoring
    # Run, class, raw, clipped, the six criteria (the mean's third is 1.5).
    mean = t("review_method_mean", reviewers="R01, R02")
    assert cells[0][1:10] == [
        f"run-1{mean}", t("classification_Conditional"), t.number("9.5"), t.number("9.5"),
        "2", "2", t.number("1.5"), "0", "2",
    ]  # fmt: skip
    assert cells[1][1:4] == [
        f"run-2{t('review_method_arbiter', arbiter='R04')}",
        t("classification_Conditional"),
        "9",
    ]
    unknown = t("unknown")
    assert cells[2][2:5] == [t("review_status_pending_arbitration"), unknown, unknown]
    assert cells[3][2] == t("review_status_awaiting_second_review")
    # The counts are of the counted runs: 2 runs, 2 Conditional.
    assert rows.counts == [2, 0, 2, 0, 0]
    # The matrix: one letter per run in run order, "?" for the two pending.
    row = matrix_row("atlas", "v", runs, ["RO-FOUL-001"], t)
    letters = re.findall(r"<i class=(\w+)>(.*?)</i>", row)
    pending = t("review_letter_pending")
    assert letters == [("conditional", t("letter_Conditional"))] * 2 + [("pending", pending)] * 2


# --- Provisional versions --------------------------------------------------------------


def counted_row(version, classification, clipped):
    return {
        "subject_id": "atlas",
        "subject_version": version,
        "classification": classification,
        "clipped_score": clipped,
    }


def outcome_run(version, run_id, status, outcomes):
    return PendingRun(
        "atlas", version, "RO-FOUL-001", run_id, status, [o[0] for o in outcomes], [],
        False, outcomes, "", [],
    )  # fmt: skip


# Version va: 4 counted runs, Pass 10, Pass 11, Conditional 8, Fail 4 (n_pass 2,
# Σ clipped 33); run-1 pending between R01 (Fail 10, critical) and R02 (Pass 10), run-2
# between R01 (Pass 12) and R02 (Conditional 8). α = 0.5, N + m = 6, and a run adds
# pass/2 + c/24: base 2/2 + 33/24 = 57/24; run-1 adds 10/24 or 22/24, run-2 8/24 or 24/24.
# Low (57 + 10 + 8)/24/6 = 75/144 = 0.52083 → 0.5208; high (57 + 22 + 24)/144 = 103/144 =
# 0.71527 → 0.7153. A primary raised a critical fail: Eligible or Disqualified.
PROVISIONAL_COUNTED = [
    counted_row("va", "Pass", 10),
    counted_row("va", "Pass", 11),
    counted_row("va", "Conditional", 8),
    counted_row("va", "Fail", 4),
    counted_row("vb", "Conditional", 9.5),
]
RUN_1 = [["R01", "Fail", 10, True], ["R02", "Pass", 10, False]]
RUN_2 = [["R01", "Pass", 12, False], ["R02", "Conditional", 8, False]]
PROVISIONAL_PENDING = [
    outcome_run("va", "run-1", "pending_arbitration", RUN_1),
    outcome_run("va", "run-2", "pending_arbitration", RUN_2),
    # vb: 1 counted run (Conditional 9.5), awaiting R01 (Pass 12): Q is exactly
    # (1/2 + (9.5 + 12)/24) / 2 = (12 + 21.5)/48 = 0.69791 → 0.6979 at both ends.
    outcome_run("vb", "run-3", "awaiting_second_review", [["R01", "Pass", 12, False]]),
    # vc has no row on the leaderboard (no counted run): no range.
    outcome_run("vc", "run-4", "awaiting_second_review", [["R01", "Pass", 12, True]]),
]  # fmt: skip


def test_the_provisional_ranges_by_hand():
    ranges = provisional_ranges(
        PROVISIONAL_COUNTED,
        PROVISIONAL_PENDING,
        0.5,
        {("atlas", "va"): "Eligible", ("atlas", "vb"): "Disqualified"},
    )
    assert ranges == {
        ("atlas", "va"): ProvisionalRange(2, "0.5208", "0.7153", ("Eligible", "Disqualified")),
        ("atlas", "vb"): ProvisionalRange(1, "0.6979", "0.6979", ("Disqualified",)),
    }
    # Both primaries of a pending run raised a critical fail: Disqualified whatever.
    both = [PROVISIONAL_PENDING[0]._replace(outcomes=[["R01", "Fail", 4, True]] * 2)]
    assert provisional_ranges(PROVISIONAL_COUNTED, both, 0.5, {("atlas", "va"): "Eligible"})[
        ("atlas", "va")
    ].statuses == ("Disqualified",)
    # A critical fail on a run awaiting its second review flags the version too.
    awaiting = [PROVISIONAL_PENDING[3]._replace(subject_version="va")]
    assert pending_counts(awaiting) == {("atlas", "va"): [0, 1, True]}


@pytest.mark.parametrize(
    ("t", "mark", "gate", "once"),
    [
        (
            EN,
            "provisional (2 under review)",
            "Disqualified once reviewed",
            "once reviewed: 0.5208–0.7153",
        ),
        (
            ES,
            "provisional (2 en revisión)",
            "descalificada tras la revisión",
            "tras la revisión: 0,5208–0,7153",
        ),
    ],
)
def test_a_provisional_row_on_the_page_and_in_markdown(t, mark, gate, once):
    # va: a critical fail awaits arbitration (its flag says the gate may change); with
    # both of its outcomes Disqualified, the certain change is added.
    may = ProvisionalRange(2, "0.5208", "0.7153", ("Eligible", "Disqualified"))
    certain = may._replace(statuses=("Disqualified",))
    for provisional, added in ((may, ""), (certain, gate)):
        view = board(REVIEW)
        view = view._replace(rows=[view.rows[0]._replace(provisional=provisional), *view.rows[1:]])
        html = str(COMPONENTS.ranking_table(view, lambda row: "#", lambda _fail: None, Labels(t)))
        a = cells_of(html, "va")
        flag = t("review_critical_pending")
        assert a[4] == f"{t('status_eligible')}⚠ {flag}{mark}{added}"
        assert a[5] == f"{t.number('0.5')}{once}"
        markdown = render_markdown(view, t)
        assert f"· {mark}{f' · **{gate}**' if added else ''} |" in markdown
        assert f"| {t.number('0.5208')}–{t.number('0.7153')} |" in markdown


def t_provisional_absent(page: str) -> bool:
    """No run of the page is pending: no provisional note."""
    return 'class="note review-flag"' not in page
