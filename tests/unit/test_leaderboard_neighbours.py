"""The leaderboard's "separable" lines between adjacent ranked rows (rankings.json's
neighbour tests): their texts, the page, leaderboard.md and the committed results."""

import itertools
import re
from fractions import Fraction

from ro_metrics.contracts.records import NeighbourTest
from ro_metrics.leaderboard.leaderboard_markdown import render_markdown
from ro_metrics.leaderboard.leaderboard_page import render_page
from ro_metrics.leaderboard.leaderboard_view import (
    Neighbour,
    Shown,
    exact_decimal,
    leaderboard_view,
    p_value_shown,
)
from ro_metrics.rendering.translations import ENGLISH, SPANISH, language
from workflow_runs import COMMITTED_RESULTS, read_csv

EN, ES = language(ENGLISH), language(SPANISH)


def row(subject_id, rank, q_final):
    """A row of metrics_per_subject.csv: ranked (rank) Eligible, else Disqualified."""
    return {
        "subject_id": subject_id,
        "subject_version": "v1",
        "q_final": q_final,
        "pass_rate": "0.5",
        "mean_clipped_score": "6.0",
        "brier": "0.25",
        "ece": "0.1",
        "n_runs": "1",
        "n_pass": "0",
        "n_conditional": "1",
        "n_fail": "0",
        "n_critical_fails": "0" if rank else "1",
        "leaderboard_status": "Eligible" if rank else "Disqualified",
    }


ROWS = [row("alpha", "1", "0.9"), row("beta", "2", "0.5"), row("gamma", "3", "0.4")]
ROWS.append(row("delta", "", "0.95"))
# Rank intervals 1–2, 1–2, 3–3: tie groups 1, 1, 2 (delta is unranked).
RANK_INTERVALS = {
    (subject_id, "v1", "rank"): {"ci_low": low, "ci_high": high}
    for subject_id, low, high in [("alpha", "1", "2"), ("beta", "1", "2"), ("gamma", "3", "3")]
}
TESTS = [
    # 13/160 = 0.08125 → half-even 0.0812; p_holm 926/2001 = 0.46277 → 0.46.
    NeighbourTest("alpha", "v1", "beta", "v1", 30, "13/160", -0.05, 0.2083, "463/2001",
                  "926/2001", False),
    # 55/232 = 0.237069 → 0.2371; p_holm 3/667 = 0.0044978 → 0.0045.
    NeighbourTest("beta", "v1", "gamma", "v1", 29, "55/232", 0.107, 0.3642, "1/667",
                  "3/667", True),
]  # fmt: skip


def test_exact_values_are_rounded_half_even_to_four_decimals():
    assert exact_decimal("13/160") == "0.0812"  # 0.08125: the even neighbour
    assert exact_decimal("55/232") == "0.2371"
    assert exact_decimal("-3/112") == "-0.0268"  # −0.026786
    assert exact_decimal("1/1") == "1.0"


def test_p_values_have_two_significant_digits_never_a_bound():
    # tables.p_value_text: two significant digits, half-even, however small (an exact
    # p-value is shown as computed, not as "< 0.0001").
    assert p_value_shown("1/2001") == Shown("0.00050", False)  # 0.00049975
    assert p_value_shown("3/20000") == Shown("0.00015", False)
    assert p_value_shown("1/20001") == Shown("0.000050", False)  # 0.0000499975
    assert p_value_shown("1/1000001") == Shown("0.0000010", False)
    assert p_value_shown("3/667") == Shown("0.0045", False)
    assert p_value_shown("999/10000") == Shown("0.10", False)  # 0.0999: one place less
    assert p_value_shown("1/1") == Shown("1.0", False)
    # As the renderings write them, with each language's decimal mark.
    small = [TESTS[0]._replace(p_value="1/1000001", p_holm="1/1000001"), TESTS[1]]
    assert "Holm-adjusted p = 0.0000010</span>" in page(small)
    assert "0,0000010</span>" in page(small, ES)
    assert "| 0.0000010 | 0.0000010 | no |" in markdown(small)


def test_lines_join_each_test_to_its_upper_row():
    rows = view(TESTS).rows
    assert [row.index for row in rows if row.neighbour] == [0, 1]
    assert rows[0].neighbour == Neighbour(
        ("alpha", "v1"), ("beta", "v1"), 30, False, "0.0812", "-0.05", "0.2083",
        Shown("0.23", False), Shown("0.46", False),
    )  # fmt: skip
    assert rows[1].neighbour == Neighbour(
        ("beta", "v1"), ("gamma", "v1"), 29, True, "0.2371", "0.107", "0.3642",
        Shown("0.0015", False), Shown("0.0045", False),
    )  # fmt: skip
    # A test whose versions have no rows is no row's line (it stays in the view's list).
    gone = NeighbourTest("omega", "v1", "alpha", "v1", 3, "1/2", 0.1, 0.2, "1/2", "1/2", False)
    with_gone = view([*TESTS, gone])
    assert [row.index for row in with_gone.rows if row.neighbour] == [0, 1]
    assert with_gone.neighbours[2].upper == ("omega", "v1")
    spanish = page(TESTS, ES)
    assert "ΔQ<sub>final</sub> = 0,2371 (IC 95 % " in spanish
    assert '<span class="nowrap">0,107–0,3642</span>' in spanish
    assert "Holm = 0,0045</span>" in spanish


def view(neighbours):
    keys = [(r["subject_id"], r["subject_version"]) for r in ROWS]
    family = {
        "family": "FOUL",
        "n_runs": "1",
        "n_pass": "1",
        "n_conditional": "0",
        "n_fail": "0",
        "pass_rate_family": "1.0",
        "mean_clipped_score_family": "12.0",
    }
    return leaderboard_view(
        benchmark_version="v1.0",
        alpha=0.5,
        last_update="2026-05-13T10:38:10Z",
        subjects=ROWS,
        uncertainty=RANK_INTERVALS,
        tracks=dict.fromkeys(keys, "classic"),
        registry={},
        families=[{**family, "subject_id": k[0], "subject_version": k[1]} for k in keys],
        critical_fails=[],
        neighbours=neighbours,
    )


def page(neighbours, t=EN):
    keys = [(r["subject_id"], r["subject_version"]) for r in ROWS]
    return render_page(
        view(neighbours),
        t,
        diagrams={k: ("<svg></svg>", [(9, 1, Fraction(4, 5), Fraction(1))]) for k in keys},
        snapshots=[],
    )


def markdown(neighbours):
    return render_markdown(view(neighbours), EN)


def test_the_page_puts_a_line_between_adjacent_ranked_rows():
    html = page(TESTS)
    found = re.findall(r'<tr class="detail neighbour ([a-z-]+)" data-follows="(\d)">', html)
    assert found == [("not-separable", "0"), ("separable", "1")]
    assert (
        '<span class="neighbour-text">↓ separable from gamma · v1: '
        "ΔQ<sub>final</sub> = 0.2371 (95 % CI "
        '<span class="nowrap">0.107–0.3642</span>) over 29 common cases; '
        "Holm-adjusted p = 0.0045</span></td>"
    ) in html
    # The line follows its upper row, before the next row.
    assert html.index('data-key="1"') < html.index('data-follows="1"') < html.index('data-key="2"')
    assert "<em>neighbour test</em>" in html and "Tie groups are another reading" in html
    spanish = page(TESTS, ES)
    assert "↓ no separable de beta · v1: ΔQ<sub>final</sub> = 0,0812" in spanish


def test_without_tests_the_page_has_neither_lines_nor_note():
    html = page(None)
    assert "detail neighbour" not in html and "Tie groups are another reading" not in html


def test_markdown_table_of_adjacent_ranks():
    text = markdown(TESTS)
    assert "## Adjacent ranks: separable?" in text
    assert "| alpha · v1 | beta · v1 | 30 | 0.0812 (-0.05–0.2083) | 0.23 | 0.46 | no |" in text
    assert (
        "| beta · v1 | gamma · v1 | 29 | 0.2371 (0.107–0.3642) | 0.0015 | 0.0045 | **yes** |"
        in text
    )
    assert "| Separable |" in text  # how to read


def test_committed_page_has_one_line_per_adjacent_ranked_pair():
    html = (COMMITTED_RESULTS / "leaderboard.html").read_text("utf-8")
    ranked = [r for r in read_csv(COMMITTED_RESULTS / "leaderboard.csv") if r["rank"]]
    named = re.findall(r"↓ (?:not )?separable from ([^:]+):", html)
    assert named == [f"{r['subject_id']} · {r['subject_version']}" for r in ranked[1:]]
    markdown = (COMMITTED_RESULTS / "leaderboard.md").read_text("utf-8")
    for upper, lower in itertools.pairwise(ranked):
        names = [f"{r['subject_id']} · {r['subject_version']}" for r in (upper, lower)]
        assert f"| {names[0]} | {names[1]} | " in markdown
