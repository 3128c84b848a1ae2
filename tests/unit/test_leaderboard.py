"""The leaderboard: ranking rules, tracks, the page's escaping, and agreement with the CSVs."""

import csv
import io
import re
from fractions import Fraction

import pytest
import yaml

from ro_metrics.contracts.tables import LEADERBOARD_COLUMNS
from ro_metrics.contracts.vocabulary import newest_timestamp
from ro_metrics.corpus.cross_check import resolve_tracks
from ro_metrics.formulas import metrics as cm
from ro_metrics.formulas.ranking import ranked, tie_groups
from ro_metrics.history.snapshot import earlier_snapshots
from ro_metrics.leaderboard.leaderboard_page import render_page
from ro_metrics.leaderboard.leaderboard_view import leaderboard_view
from ro_metrics.rendering.reliability_diagram import diagram_name
from ro_metrics.rendering.translations import ENGLISH, language
from workflow_runs import COMMITTED_RESULTS, DEMO_CORPUS


def subject(subject_id, version, q_final, status="Eligible", n_critical="0"):
    return {
        "subject_id": subject_id,
        "subject_version": version,
        "q_final": q_final,
        "leaderboard_status": status,
        "n_critical_fails": n_critical,
    }


def read_csv(path) -> list[dict]:
    return list(csv.DictReader(io.StringIO(path.read_text("utf-8"), newline="")))


def test_equal_published_q_final_share_a_rank_and_disqualified_rows_come_last():
    rows = ranked(
        [
            subject("zeta", "z1", "0.6"),
            subject("beta", "b2", "0.65"),
            subject("alpha", "a1", "0.9", "Disqualified", "2"),
            subject("beta", "b1", "0.65"),
            subject("gamma", "g1", "0.7"),
            subject("delta", "d1", "0.1", "Disqualified", "1"),
            subject("eta", "e1", "0.6"),
        ]
    )
    assert [(r["rank"], r["subject_id"], r["subject_version"]) for r in rows] == [
        ("1", "gamma", "g1"),
        ("2", "beta", "b1"),
        ("2", "beta", "b2"),
        ("4", "eta", "e1"),
        ("4", "zeta", "z1"),
        ("", "alpha", "a1"),
        ("", "delta", "d1"),
    ]


def test_ranks_compare_the_published_values_not_their_spelling():
    rows = ranked([subject("a", "1", "0.5"), subject("b", "1", "0.50"), subject("c", "1", "0.4")])
    assert [r["rank"] for r in rows] == ["1", "1", "3"]


def interval_row(rank, low, high):
    return {"rank": rank, "rank_low": low, "rank_high": high}


def test_tie_groups_chain_while_rank_intervals_overlap():
    rows = [
        interval_row("1", "1", "2"),
        interval_row("2", "1", "3"),
        interval_row("3", "3", "4"),  # overlaps the previous (1-3) though not the first
        interval_row("4", "5", "5"),
        interval_row("5", "5", "6"),
        interval_row("", "", ""),  # Disqualified: no group
    ]
    assert tie_groups(rows) == [1, 1, 1, 2, 2, None]
    assert tie_groups([interval_row("1", "1", "1"), interval_row("1", "1", "1")]) == [1, 1]


def test_newest_timestamp_is_chronological_with_fractions():
    stamps = ["2026-05-13T10:38:10Z", "2026-05-13T10:38:10.5Z", "2026-05-13T09:59:59.999Z"]
    assert newest_timestamp(stamps) == "2026-05-13T10:38:10.5Z"
    assert newest_timestamp(["2026-05-13T10:38:10.25Z", "2026-05-13T10:38:10.3Z"]) == (
        "2026-05-13T10:38:10.3Z"
    )


def test_earlier_snapshots_are_dated_folders_before_the_page_date():
    files = [
        "r/historico/2026-05-16/metadata.json",
        "r/historico/2026-04-30/metadata.json",
        "r/historico/2026-05-20/metadata.json",
        "r/historico/latest/metadata.json",
    ]
    assert earlier_snapshots(files, "2026-05-16") == ["2026-04-30"]
    assert earlier_snapshots(files, "2026-06-01") == ["2026-05-20", "2026-05-16", "2026-04-30"]


def test_diagram_names_are_readable_and_safe():
    assert diagram_name("atlas-7b", "atlas-7b-2026-03-q4") == "atlas-7b__atlas-7b-2026-03-q4.svg"
    odd = diagram_name("atlas-7b", "../../etc/passwd")
    assert odd.startswith("atlas-7b__version-") and "/" not in odd and odd.endswith(".svg")
    assert diagram_name("a", "x y") != diagram_name("a", "x z")


def test_calibration_bins_by_hand():
    confidences = [5, 9, 10, 95, 100, 30]
    correctness = [0, 1, 0.5, 1, 0.5, 1]
    assert cm.calibration_bins(confidences, correctness) == [
        (1, 2, Fraction(7, 100), Fraction(1, 2)),  # 0.05, 0.09 | 0, 1
        (2, 1, Fraction(1, 10), Fraction(1, 2)),  # 0.10 | 0.5
        (4, 1, Fraction(3, 10), Fraction(1)),  # 0.30 | 1
        (10, 2, Fraction(39, 40), Fraction(3, 4)),  # 0.95, 1.00 | 1, 0.5
    ]
    # (2·0.43 + 0.4 + 0.7 + 2·0.225) / 6 = 2.41 / 6
    assert cm.expected_calibration_error(confidences, correctness) == float(Fraction(241, 600))


def test_track_comes_from_the_registry_then_the_responses_then_classic():
    problems = []
    versions = [
        ["a", "a1", 3, 3, "responses/v1.0/a/x.json", ["classic"]],
        ["b", "b1", 2, 2, "responses/v1.0/b/x.json", ["reasoning"]],
        ["c", "c1", 2, 1, "responses/v1.0/c/x.json", ["classic", "reasoning"]],
        ["d", "d1", 2, 1, "responses/v1.0/d/x.json", ["classic", "reasoning"]],
    ]
    registry = {("a", "a1"): "reasoning", ("b", "b1"): None, ("c", "c1"): None}
    registry |= {("d", "d1"): "classic", ("e", "e1"): None}
    tracks = resolve_tracks(versions, registry, lambda path, message: problems.append(path))
    assert tracks == {
        ("a", "a1"): "reasoning",  # the registry wins over the responses
        ("b", "b1"): "reasoning",  # no policy: the responses' track
        ("c", "c1"): "classic",  # reported below
        ("d", "d1"): "classic",  # mixed responses, settled by the registry
        ("e", "e1"): "classic",  # registered, never answered
    }
    assert problems == ["responses/v1.0/c/x.json"]


def test_committed_leaderboard_agrees_with_metrics_per_subject():
    board = read_csv(COMMITTED_RESULTS / "leaderboard.csv")
    metrics = read_csv(COMMITTED_RESULTS / "metrics_per_subject.csv")
    assert list(board[0]) == LEADERBOARD_COLUMNS
    assert len(board) == len(metrics)
    by_key = {(m["subject_id"], m["subject_version"]): m for m in metrics}
    registry = yaml.safe_load((DEMO_CORPUS / "subjects/registry.yaml").read_text("utf-8"))
    providers = {s["subject_id"]: s["provider"] for s in registry["subjects"]}
    policy = {
        (s["subject_id"], v["subject_version"]): v.get("sampling_policy", {}).get("kind")
        for s in registry["subjects"]
        for v in s["versions"]
    }
    intervals = {
        (u["subject_id"], u["subject_version"]): (u["estimate"], u["ci_low"], u["ci_high"])
        for u in read_csv(COMMITTED_RESULTS / "uncertainty.csv")
        if u["metric"] == "rank"
    }
    p_rank_1 = {
        (u["subject_id"], u["subject_version"]): u["estimate"]
        for u in read_csv(COMMITTED_RESULTS / "uncertainty.csv")
        if u["metric"] == "p_rank_1"
    }
    eligible_q = [float(m["q_final"]) for m in metrics if m["leaderboard_status"] == "Eligible"]
    for row in board:
        source = by_key[(row["subject_id"], row["subject_version"])]
        for name in LEADERBOARD_COLUMNS[LEADERBOARD_COLUMNS.index("q_final") : -1]:
            assert row[name] == source[name], (row, name)
        assert row["track"] == policy[(row["subject_id"], row["subject_version"])]
        assert row["provider"] == providers[row["subject_id"]]
        assert row["benchmark_version"] == "v1.0"
        if row["leaderboard_status"] == "Eligible":
            better = sum(q > float(row["q_final"]) for q in eligible_q)
            assert row["rank"] == str(better + 1)
            interval = intervals[(row["subject_id"], row["subject_version"])]
            assert (row["rank"], row["rank_low"], row["rank_high"]) == interval
            # p_rank_1: uncertainty.csv's estimate, as published.
            assert row["p_rank_1"] == p_rank_1[(row["subject_id"], row["subject_version"])]
            assert int(row["rank_low"]) <= int(row["rank_high"])
        else:
            assert row["rank"] == row["rank_low"] == row["rank_high"] == ""
    statuses = [row["leaderboard_status"] for row in board]
    assert statuses == sorted(statuses, key=lambda status: status != "Eligible")
    ranked_q = [float(row["q_final"]) for row in board if row["rank"]]
    assert ranked_q == sorted(ranked_q, reverse=True)


def page_with(description: str, version: str) -> str:
    row = subject("atlas", version, "0.5") | {
        "pass_rate": "0.5",
        "mean_clipped_score": "6.0",
        "brier": "0.25",
        "ece": "0.1",
        "n_runs": "1",
        "n_pass": "0",
        "n_conditional": "1",
        "n_fail": "0",
    }
    family = {
        "subject_id": "atlas",
        "subject_version": version,
        "family": "FOUL",
        "n_runs": "1",
        "n_pass": "1",
        "n_conditional": "0",
        "n_fail": "0",
        "pass_rate_family": "1.0",
        "mean_clipped_score_family": "12.0",
    }
    view = leaderboard_view(
        benchmark_version="v1.0",
        alpha=0.5,
        last_update="2026-05-13T10:38:10Z",
        subjects=[row],
        uncertainty={("atlas", version, "rank"): {"ci_low": "1", "ci_high": "1"}},
        tracks={("atlas", version): "classic"},
        registry={"atlas": {"kind": "llm", "provider": "<b>P</b>", "description": description}},
        families=[family],
        critical_fails=[],
    )
    return render_page(
        view,
        language(ENGLISH),
        diagrams={("atlas", version): ("<svg></svg>", [(9, 1, Fraction(4, 5), Fraction(1))])},
        snapshots=["2026-04-30"],
    )


@pytest.mark.parametrize(
    "probe",
    ["<script>alert(1)</script>", '"><img src=x onerror=alert(1)>', "</title><script>x</script>"],
)
def test_registry_and_corpus_text_is_escaped(probe):
    page = page_with(description=probe, version=probe)
    assert probe not in page
    assert "<script>alert" not in page and "<img" not in page
    assert page.count("<script>") == 1  # the page's own sorting script
    assert (
        probe.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
        in page
    )
    assert "&lt;b&gt;P&lt;/b&gt;" in page


def test_page_states_the_version_once_and_links_earlier_snapshots():
    page = page_with(description="d", version="a1")
    assert "[v1.0]" not in page
    assert "Benchmark version <strong>v1.0</strong> (every number on this page is of v1.0)" in page
    assert 'href="historico/2026-04-30/leaderboard.html"' in page
    assert '<time datetime="2026-05-13T10:38:10Z">' in page
    assert "http://" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "https://" not in page


def test_committed_page_shows_intervals_and_tie_groups():
    page = (COMMITTED_RESULTS / "leaderboard.html").read_text("utf-8")
    uncertainty = read_csv(COMMITTED_RESULTS / "uncertainty.csv")
    board = read_csv(COMMITTED_RESULTS / "leaderboard.csv")
    for row in uncertainty:
        if row["metric"] in {"q_final", "pass_rate"}:
            assert f'95 % CI <span class="nowrap">{row["ci_low"]}–{row["ci_high"]}<' in page, row
        if row["metric"] == "critical_fail_rate":
            assert f'rate <span class="nowrap">≤ {row["ci_high"]}</span> (95 %)' in page, row
    # Groups by hand from the committed rank intervals: (1-2, 1-2) then (3-4, 3-4).
    ranked_rows = [row for row in board if row["rank"]]
    assert [(r["rank_low"], r["rank_high"]) for r in ranked_rows] == [
        ("1", "2"),
        ("1", "2"),
        ("3", "4"),
        ("3", "4"),
    ]
    labels = re.findall(
        r"95 % <span class=\"nowrap\">(\d+)–(\d+)</span></span>"
        r"<span class=\"ci\">first in \d+% of draws</span>"
        r"<span class=\"group-label\">tie group (\d+)",
        page,
    )
    assert labels == [("1", "2", "1"), ("1", "2", "1"), ("3", "4", "2"), ("3", "4", "2")]
