"""The leaderboard's one view (leaderboard/leaderboard_view.py): what it decides from
hand-made rows of the published tables (ranks, intervals, tie groups, fails, pending
counts, the operational table, leaderboard.csv's rows), and its three renderings, the
page, leaderboard.md and the site's index, showing the same ranking from one hand-made
view."""

import re
from fractions import Fraction

from ro_metrics.contracts.tables import LEADERBOARD_ALL_COLUMNS
from ro_metrics.leaderboard.leaderboard_markdown import render_markdown
from ro_metrics.leaderboard.leaderboard_page import render_page
from ro_metrics.leaderboard.leaderboard_view import (
    LeaderboardRow,
    LeaderboardView,
    Operational,
    OperationalLine,
    OperationalTable,
    Registered,
    Score,
    Shown,
    leaderboard_table,
    leaderboard_view,
)
from ro_metrics.leaderboard.review_view import AgreementLine, PendingCounts, ReviewSummary
from ro_metrics.rendering.translations import ENGLISH, SPANISH, language
from ro_metrics.site.site_pages import render_index

EN, ES = language(ENGLISH), language(SPANISH)
NO_SCORE = Score("0.1", "", "")


def metrics_row(subject_id, version, q_final, status="Eligible", n_critical="0"):
    """A row of metrics_per_subject.csv."""
    return {
        "subject_id": subject_id,
        "subject_version": version,
        "n_runs": "4",
        "n_pass": "2",
        "n_conditional": "1",
        "n_fail": "1",
        "n_critical_fails": n_critical,
        "n_recoverable_fails": "0",
        "pass_rate": "0.5",
        "mean_clipped_score": "9.25",
        "brier": "0.125",
        "ece": "0.0625",
        "alpha": "0.5",
        "q_final": q_final,
        "leaderboard_status": status,
    }


def interval(subject_id, version, metric, low, high):
    return {(subject_id, version, metric): {"ci_low": low, "ci_high": high}}


def fail(subject_id, version, case_id):
    return {
        "subject_id": subject_id,
        "subject_version": version,
        "case_id": case_id,
        "run_id": "run-1",
        "reviewer_id": "R01",
        "fail_type": "generic",
        "response_field": "recommended_action",
        "quote": "open the valve",
        "match": "exact",
        "reviewer_justification": "",
    }


def operational_row(subject_id, version, price_in, price_out, mean_in="10.0"):
    return {
        "subject_id": subject_id,
        "subject_version": version,
        "n_runs": "2",
        "mean_input_tokens": mean_in,
        "mean_output_tokens": "0.0",
        "output_to_input_ratio": "0.000",
        "median_latency_s": "1.00",
        "p95_latency_s": "1.95",
        "price_per_input_token_usd": price_in,
        "price_per_output_token_usd": price_out,
    }


def built_view():
    subjects = [
        metrics_row("cirrus", "c1", "0.4"),
        metrics_row("delta", "d1", "0.9", "Disqualified", "2"),
        metrics_row("atlas", "a2", "0.7"),
        metrics_row("atlas", "a1", "0.70"),
        metrics_row("borealis", "b1", "0.6"),
    ]
    uncertainty = (
        interval("atlas", "a1", "rank", "1", "2")
        | interval("atlas", "a2", "rank", "1", "3")
        | interval("borealis", "b1", "rank", "2", "3")
        | interval("cirrus", "c1", "rank", "4", "4")
        | interval("atlas", "a1", "q_final", "0.64", "0.77")
        | interval("delta", "d1", "critical_fail_rate", "0.0", "0.9")
        # uncertainty.csv's p_rank_1 (Eligible only): its estimate, no interval.
        | {("atlas", "a2", "p_rank_1"): {"estimate": "0.4215", "ci_low": "", "ci_high": ""}}
        | {("delta", "d1", "p_rank_1"): {"estimate": "0.9", "ci_low": "", "ci_high": ""}}
    )
    keys = [(row["subject_id"], row["subject_version"]) for row in subjects]
    pending = {("atlas", "a2"): PendingCounts(1, 2, True)}
    return leaderboard_view(
        benchmark_version="v1.0",
        alpha="0.5",
        last_update="2026-05-13T10:38:10Z",
        subjects=subjects,
        uncertainty=uncertainty,
        tracks=dict.fromkeys(keys, "classic"),
        registry={
            "atlas": {"kind": "llm", "provider": "Atlas Labs", "description": None},
            "delta": {"kind": "llm", "provider": "Delta", "description": "d"},
        },
        families=[],
        critical_fails=[
            fail("delta", "d1", "RO-FOUL-002"),
            fail("atlas", "a1", "RO-FOUL-009"),  # an Eligible row's: not shown as its fails
            fail("delta", "d1", "RO-FOUL-001"),
        ],
        operational=[
            # 10 · 1e-6 = 0.00001 USD: below the shown 0.0001.
            operational_row("atlas", "a1", "0.0000010000", "0.0000050000"),
            # 150 · 1e-6 = 0.00015: a tie at 4 decimals, half to even 0.0002.
            operational_row("cirrus", "c1", "1e-06", "1e-06", mean_in="150.0"),
            operational_row("delta", "d1", "", "0.0000000750"),
            operational_row("eps", "e1", "", ""),  # telemetry, no scored run
        ],
        review=ReviewSummary(AgreementLine("", "", "", "", 0, 0, 0, 1, 2), pending),
    )


def test_the_view_decides_ranks_intervals_and_groups_once():
    view = built_view()
    shown = [
        (row.subject_id, row.subject_version, row.rank, row.rank_low, row.rank_high,
         row.tie_group, row.group_start, row.eligible)
        for row in view.rows
    ]  # fmt: skip
    # 0.7 and 0.70 are one published value: a shared rank, by (subject_id, version).
    # Intervals 1–2, 1–3, 2–3 chain into group 1; 4–4 starts group 2.
    assert shown == [
        ("atlas", "a1", "1", "1", "2", 1, True, True),
        ("atlas", "a2", "1", "1", "3", 1, False, True),
        ("borealis", "b1", "3", "2", "3", 1, False, True),
        ("cirrus", "c1", "4", "4", "4", 2, True, True),
        ("delta", "d1", "", "", "", None, False, False),
    ]
    assert (view.alpha, len(view.rows), view.n_ranked) == ("0.5", 5, 4)
    assert view.rows[0].q_final == Score("0.70", "0.64", "0.77")
    assert view.rows[1].q_final == Score("0.7", "", "")
    assert [row.critical_rate_high for row in view.rows] == ["", "", "", "", "0.9"]
    # A Disqualified row's fails in the file's order; the registry's provider or "".
    assert [fail["case_id"] for fail in view.disqualified[0].fails] == [
        "RO-FOUL-002",
        "RO-FOUL-001",
    ]
    assert [row.provider for row in view.rows] == ["Atlas Labs", "Atlas Labs", "", "", "Delta"]
    assert view.subjects == [
        Registered("atlas", "llm", "Atlas Labs", None),
        Registered("borealis", None, None, None),
        Registered("cirrus", None, None, None),
        Registered("delta", "llm", "Delta", "d"),
    ]
    assert [row.pending for row in view.rows] == [None, PendingCounts(1, 2, True), None, None, None]


def test_the_operational_table_is_decided_in_the_rankings_order():
    table = built_view().operational
    values = [line.values for line in table.lines]
    assert values[0] == Operational(
        ["2", "10.0", "0.0", "0.000", "1.00", "1.95"], ["1.00", "5.00"], Shown("0.0001", True)
    )
    assert values[1] is None  # atlas a2: no telemetry
    assert values[3].cost == Shown("0.0002", False)
    # 0.0000000750 USD a token is 0.075 per million; no input price: no cost.
    assert (values[4].prices, values[4].cost) == (["", "0.075"], None)
    assert table.not_ranked == [("eps", "e1")]


def test_leaderboard_csv_rows_come_from_the_view():
    rows = leaderboard_table(built_view())
    assert len(rows[0]) == len(LEADERBOARD_ALL_COLUMNS)
    assert rows[1] == [
        "1", "1", "3", "0.4215", "atlas", "a2", "Atlas Labs", "classic",
        "0.7", "0.5", "9.25", "0.125", "0.0625", "4", "2", "1", "1", "0", "Eligible", "v1.0",
        1, 2, True, "", "", "", "",
    ]  # fmt: skip
    assert rows[4][:3] == ["", "", ""] and rows[4][-8:] == ["v1.0", 0, 0, False, "", "", "", ""]
    # p_rank_1 is the ranked rows' only: a Disqualified row has none, whatever the table.
    view = built_view()
    (a2,) = [row for row in view.rows if row.subject_version == "a2"]
    assert (a2.p_rank_1, a2.p_rank_1_percent) == ("0.4215", "42")
    assert all(row.p_rank_1 == "" for row in view.rows if not row.eligible)


# --- One hand-made view, three renderings --------------------------------------------


def hand_row(index, subject_id, rank, low, high, group, start, q_final, status="Eligible"):
    eligible = status == "Eligible"
    return LeaderboardRow(
        index=index,
        subject_id=subject_id,
        subject_version=f"{subject_id}-v",
        registered=Registered(subject_id, "llm", "P", None),
        provider="P",
        track="classic",
        status=status,
        eligible=eligible,
        rank=rank,
        rank_low=low,
        rank_high=high,
        p_rank_1="",
        tie_group=group,
        group_start=start,
        q_final=q_final,
        pass_rate=NO_SCORE,
        mean_clipped_score=NO_SCORE,
        brier=NO_SCORE,
        ece=NO_SCORE,
        n_runs="4",
        n_pass="2",  # noqa: S106 - a count of runs, not a password
        n_conditional="1",
        n_fail="1",
        n_critical_fails="0" if eligible else "1",
        critical_rate_high="",
        fails=[] if eligible else [fail(subject_id, f"{subject_id}-v", "RO-FOUL-001")],
        families=[],
        largest_family=0,
        pending=None,
        neighbour=None,
    )


HAND_ROWS = [
    hand_row(0, "atlas", "1", "1", "2", 1, True, Score("0.705", "0.64", "0.77")),
    hand_row(1, "borealis", "1", "1", "3", 1, False, Score("0.705", "0.6", "0.8")),
    hand_row(2, "cirrus", "3", "3", "3", 2, True, Score("0.4", "", "")),
    hand_row(3, "delta", "", "", "", None, False, Score("0.9", "0.85", "0.95"), "Disqualified"),
]
HAND_VIEW = LeaderboardView(
    benchmark_version="v1.0",
    alpha="0.5",
    last_update="2026-05-13T10:38:10Z",
    rows=HAND_ROWS,
    subjects=[row.registered for row in HAND_ROWS],
    neighbours=None,
    operational=OperationalTable(
        [
            OperationalLine(row, Operational(["2"] * 6, ["", ""], Shown("0.0001", True)))
            for row in HAND_ROWS
        ],
        [],
    ),
    review=None,
)
# (subject_id, version, rank, rank interval, Q_final, its interval, status) of each row.
EXPECTED = [
    ("atlas", "atlas-v", "1", "1", "2", "0.705", "0.64", "0.77", "Eligible"),
    ("borealis", "borealis-v", "1", "1", "3", "0.705", "0.6", "0.8", "Eligible"),
    ("cirrus", "cirrus-v", "3", "3", "3", "0.4", "", "", "Eligible"),
    ("delta", "delta-v", "", "", "", "0.9", "0.85", "0.95", "Disqualified"),
]


def html_ranking(html: str) -> list[tuple]:
    """The ranking table's rows as the page or the index shows them (tags stripped)."""
    table = html[html.index('id="leaderboard"') : html.index("</table>")]
    found = []
    for row in re.findall(r'<tr class="[^"]*" data-key="\d+">(.*?)</tr>', table):
        cells = re.findall(r"<td([^>]*)>(.*?)</td>", row)
        seen = [" ".join(re.sub(r"<[^>]+>", " ", text).split()) for _, text in cells]
        rank = re.fullmatch(r"(\d+|—)(?: 95 % (\d+)–(\d+))?(?: tie group \d+)?", seen[0])
        name = re.search(r'data-value="([^"]*)"', cells[1][0]).group(1)
        q_final = re.fullmatch(r"([\d.]+)(?: 95 % CI ([\d.]+)–([\d.]+))?", seen[5])
        status = re.search(r'data-value="([^"]*)"', cells[4][0]).group(1)
        subject_id, version = name.split("\t")
        found.append(
            (subject_id, version, rank[1].strip("—"), rank[2] or "", rank[3] or "",
             q_final[1], q_final[2] or "", q_final[3] or "", status)
        )  # fmt: skip
    return found


def markdown_ranking(markdown: str) -> list[tuple]:
    """The ranking table's rows as leaderboard.md shows them."""
    section = markdown.split("\n## Ranking\n", 1)[1].split("\n## ", 1)[0]
    found = []
    for line in [line for line in section.splitlines() if line.startswith("| ")][1:]:
        cells = line.strip("| ").split(" | ")
        rank = re.fullmatch(r"(\d+|—)(?: \((\d+)–(\d+)\))?", cells[0])
        q_final = re.fullmatch(r"([\d.]+)(?: \(([\d.]+)–([\d.]+)\))?", cells[5])
        status = cells[12].strip("*")
        found.append(
            (cells[2], cells[3], rank[1].strip("—"), rank[2] or "", rank[3] or "",
             q_final[1], q_final[2] or "", q_final[3] or "", status)
        )  # fmt: skip
    return found


def test_the_three_renderings_show_the_same_ranking_from_one_view():
    diagrams = {
        (row.subject_id, row.subject_version): ("<svg></svg>", [(9, 1, Fraction(4, 5), 1)])
        for row in HAND_ROWS
    }
    page = render_page(HAND_VIEW, EN, diagrams=diagrams, snapshots=[])
    index = render_index(
        HAND_VIEW,
        EN,
        case_ids=[],
        matrix_rows=[""] * len(HAND_ROWS),
        diagrams=diagrams,
        changes_section="",
    )
    markdown = render_markdown(HAND_VIEW, EN)
    assert html_ranking(page) == html_ranking(index) == markdown_ranking(markdown) == EXPECTED
    # The cost below the shown 0.0001, in each rendering (its language's decimal mark).
    assert page.count('<td class="num">&lt; 0.0001</td>') == 4
    assert index.count('<td class="num">&lt; 0.0001</td>') == 4
    assert markdown.count(" | \\< 0.0001 |") == 4
    spanish = render_page(HAND_VIEW, ES, diagrams=diagrams, snapshots=[])
    assert spanish.count('<td class="num">&lt; 0,0001</td>') == 4
    # The same tie groups: the HTML's classes and labels, the Markdown's column.
    for html in (page, index):
        classes = re.findall(r'<tr class="([^"]*)" data-key', html)
        assert classes == [
            "eligible group-odd group-start",
            "eligible group-odd",
            "eligible group-even group-start",
            "disqualified",
        ]
    groups = [line.split(" | ")[1] for line in markdown.splitlines() if line.startswith("| ")]
    assert groups[1:5] == ["1", "1", "2", " "]  # after the ranking's header
