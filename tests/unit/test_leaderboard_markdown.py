"""results/leaderboard.md: valid GitHub-flavoured Markdown, parsed by markdown-it-py with
GFM's table and strikethrough rules; every table's cells as written; the escaping of
registry and response text (a probe holding every markup character stays text)."""

import csv
import io
import re
from fractions import Fraction

from markdown_it import MarkdownIt

from ro_metrics.leaderboard.leaderboard_markdown import render_markdown
from ro_metrics.leaderboard.leaderboard_view import leaderboard_view
from ro_metrics.rendering.translations import language
from workflow_runs import COMMITTED_RESULTS

GFM = MarkdownIt("commonmark").enable(["table", "strikethrough"])
PROBE = "a|b *c* _d_ `e` <b>f</b> <script>alert(1)</script> &amp; [g](http://h.i) ~~j~~ # k \\ l"
UNESCAPED_PIPE = re.compile(r"(?<!\\)\|")


def read_csv(name) -> list[dict]:
    text = (COMMITTED_RESULTS / name).read_text("utf-8")
    return list(csv.DictReader(io.StringIO(text, newline="")))


def tables(markdown: str) -> list[list[list[tuple[str, list]]]]:
    """Every table: its rows (header first), each a list of (cell text, inline tokens)."""
    found, rows, row = [], None, None
    for token in GFM.parse(markdown):
        if token.type == "table_open":
            rows = []
        elif token.type == "tr_open":
            row = []
        elif token.type == "inline" and row is not None:
            row.append((token.content, token.children or []))
        elif token.type == "tr_close":
            rows.append(row)
            row = None
        elif token.type == "table_close":
            found.append(rows)
    return found


def rendered_text(children) -> str:
    """The text a cell shows (escapes resolved), from its inline tokens."""
    return "".join(child.content for child in children if child.type == "text")


def raw_table_lines(markdown: str) -> list[list[str]]:
    """The lines of each table as written: cells split at every unescaped |."""
    blocks, current = [], []
    for line in markdown.split("\n"):
        if line.startswith("|"):
            current.append(UNESCAPED_PIPE.split(line)[1:-1])
        elif current:
            blocks.append(current)
            current = []
    return blocks + ([current] if current else [])


COMMITTED = (COMMITTED_RESULTS / "leaderboard.md").read_text("utf-8")


def test_every_table_has_as_many_cells_in_each_row_as_in_its_header():
    parsed, raw = tables(COMMITTED), raw_table_lines(COMMITTED)
    # Ranking, the neighbour tests, the disqualified version's critical fails, operational,
    # subjects, how to read.
    assert len(parsed) == len(raw) == 6
    for rows, lines in zip(parsed, raw, strict=True):
        width = len(rows[0])
        assert all(len(row) == width for row in rows)
        # As written, too: GFM would silently drop an excess cell or pad a missing one.
        assert all(len(cells) == width for cells in lines)
        assert len(lines) == len(rows) + 1  # the delimiter row


def test_the_ranking_shows_leaderboard_csv():
    ranking = tables(COMMITTED)[0]
    header = [text for text, _ in ranking[0]]
    assert header[:5] == ["Rank", "Tie group", "Subject", "Version", "Track"]
    leaderboard = read_csv("leaderboard.csv")
    assert len(ranking) - 1 == len(leaderboard)
    for row, expected in zip(ranking[1:], leaderboard, strict=True):
        cells = [rendered_text(children) for _, children in row]
        # p_rank_1 as a whole percentage (none of the demo's is below 1 % or above 99 %).
        share = round(Fraction(expected["p_rank_1"] or 0) * 100)
        rank = (
            f"{expected['rank']} ({expected['rank_low']}–{expected['rank_high']}); "
            f"first in {share}% of draws"
        )
        assert cells[0] == (rank if expected["rank"] else "—")
        assert cells[2:5] == [
            expected["subject_id"],
            expected["subject_version"],
            expected["track"],
        ]
        assert cells[5].split(" (")[0] == expected["q_final"]
        assert cells[10:12] == [expected["n_runs"], expected["n_critical_fails"]]
        assert cells[12] == expected["leaderboard_status"]


def test_the_disqualified_version_lists_each_critical_fail_with_its_evidence():
    evidence = tables(COMMITTED)[2]
    header = [text for text, _ in evidence[0]]
    assert header == [
        "Case",
        "Run",
        "Reviewer",
        "Fail type",
        "Response field",
        "Match",
        "What the model said (or the reviewer's words)",
    ]
    marks = {"exact": "exact", "close": "≈ close", "none": "no quote"}
    expected = [
        [
            row["case_id"],
            row["run_id"],
            row["reviewer_id"],
            row["fail_type"],
            row["response_field"],
            marks[row["match"]],
            row["quote"] or f"Reviewer’s words: {row['reviewer_justification']}",
        ]
        for row in read_csv("critical_fails.csv")
    ]
    # The demo's four critical fails, one of each kind of match (two without a quote).
    assert [row[5] for row in expected] == ["≈ close", "exact", "no quote", "no quote"]
    assert [[rendered_text(c) for _, c in row] for row in evidence[1:]] == expected
    assert "### borealis-xl · borealis-xl-2026-01-15" in COMMITTED


def test_the_operational_table_joins_the_csv_by_subject_version():
    operational = tables(COMMITTED)[3]
    published = {(r["subject_id"], r["subject_version"]): r for r in read_csv(
        "operational_per_subject.csv")}  # fmt: skip
    ranked = [(r["subject_id"], r["subject_version"]) for r in read_csv("leaderboard.csv")]
    rows = [[rendered_text(c) for _, c in row] for row in operational[1:]]
    assert [tuple(row[:2]) for row in rows] == ranked
    for row in rows:
        found = published.get(tuple(row[:2]))
        if found is None:  # the expert system: no model calls
            assert row[2:] == ["—"] * 9
            continue
        assert row[2:8] == [found[name] for name in list(found)[2:8]]
    cirrus = next(row for row in rows if row[0] == "cirrus-reasoner")
    # 1.1e-06 and 4.4e-06 USD per token = 1.10 and 4.40 per million; cost per case
    # 2658.5 · 0.0000011 + 5391.8 · 0.0000044 = 0.00292435 + 0.02372392 = 0.0266.
    assert cirrus[8:] == ["1.10", "4.40", "0.0266"]
    atlas = next(row for row in rows if row[0] == "atlas-7b")
    assert atlas[8:] == ["—", "—", "—"]  # local weights: no price, no cost
    assert "fjord-13b · fjord-13b-instruct-v0.9" in COMMITTED  # in the CSV, not ranked


def probe_markdown() -> str:
    row = {
        "subject_id": "probe-model",
        "subject_version": PROBE,
        "q_final": "0.5",
        "pass_rate": "0.5",
        "mean_clipped_score": "9.0",
        "brier": "0.1",
        "ece": "0.1",
        "n_runs": "2",
        "n_pass": "1",
        "n_conditional": "0",
        "n_fail": "1",
        "n_critical_fails": "1",
        "leaderboard_status": "Disqualified",
    }
    key = ("probe-model", PROBE)
    view = leaderboard_view(
        benchmark_version="v1.0",
        alpha=0.5,
        last_update="2026-05-16T12:43:22Z",
        subjects=[row],
        uncertainty={},
        tracks={key: "classic"},
        registry={"probe-model": {"kind": "llm", "provider": PROBE, "description": PROBE + "\n"}},
        families=[],
        critical_fails=[
            {
                "subject_id": key[0],
                "subject_version": key[1],
                "case_id": "RO-FOUL-001",
                "run_id": "run-2026-05-12-001",
                "reviewer_id": "R01",
                "fail_type": "generic",
                "response_field": "recommended_action",
                "quote": PROBE,
                "match": "exact",
                "reviewer_justification": "",
            }
        ],
        operational=[
            {
                "subject_id": "probe-model",
                "subject_version": PROBE,
                "n_runs": "2",
                "mean_input_tokens": "10.0",
                "mean_output_tokens": "5.0",
                "output_to_input_ratio": "0.500",
                "median_latency_s": "1.00",
                "p95_latency_s": "1.95",
                "price_per_input_token_usd": "",
                "price_per_output_token_usd": "0.0000010000",
            }
        ],
    )
    return render_markdown(view, language("en"))


def test_the_escaping_probe_stays_text_in_every_cell_and_heading():
    markdown = probe_markdown()
    found = 0
    for rows, lines in zip(tables(markdown), raw_table_lines(markdown), strict=True):
        assert all(len(row) == len(rows[0]) for row in rows)
        assert all(len(cells) == len(rows[0]) for cells in lines)
        for row in rows:
            for _, children in row:
                if rendered_text(children) == PROBE:
                    found += 1
                    # Text only: no emphasis, code, link, strikethrough or HTML token.
                    assert {child.type for child in children} == {"text"}
                else:
                    assert "alert" not in rendered_text(children)
    # The version in the ranking, the evidence's quote, the operational row, the
    # provider and the description of the subjects table.
    assert found == 5
    html = GFM.render(markdown)
    assert "<script" not in html and "<b>" not in html and "<em>" not in html
    assert "<code>" not in html and "<s>" not in html
    # Only the document's own two links (to the pages), none from the probe.
    assert html.count("<a ") == 2 and 'href="http://h.i"' not in html
    heading = next(
        token
        for token in GFM.parse(markdown)
        if token.type == "inline" and token.content.startswith("probe-model ·")
    )
    assert rendered_text(heading.children) == f"probe-model · {PROBE}"
