"""The operational tables of telemetry.md: formulas, batch-log checks, call selection.

Every expected value is derived by hand in the comment beside it. The last test
compares the library with an independent implementation of the benchmark's own rules
(straight from telemetry.md: every passing row with integer tokens and latency counts)
on generated telemetry with exactly one passing call per response.
"""

import csv
import io
import random
from fractions import Fraction

import pytest

from naive_oracle import benchmark_tables, one_call_per_response
from ro_metrics.contracts.records import ResponseKey, fraction_fact
from ro_metrics.contracts.tables import (
    OPERATIONAL_FAMILY_COLUMNS,
    OPERATIONAL_SUBJECT_COLUMNS,
)
from ro_metrics.corpus.layout import BATCH_LOGS, has_telemetry, telemetry_entries
from ro_metrics.corpus.telemetry import Call, read_batch_log, response_keys, select_calls
from ro_metrics.formulas import operational as op
from ro_metrics.formulas.cost_quality import cost_facts
from ro_metrics.leaderboard.leaderboard_view import Shown, cost_shown
from workflow_runs import COMMITTED_RESULTS, DEMO_CORPUS, REPO

SAMPLE = REPO / "tests/data/samples/batch_log.synthetic-sample.csv"
LOG = "logs/batch_logs/2026-05-12T09-14-03Z.csv"


# --- formulas ---------------------------------------------------------------------------


def test_means_and_ratio():
    # (2598 + 2631) / 2 = 2614.5; (1702 + 1688) / 2 = 1695; 1695 / 2614.5 = 0.64830…
    mean_in = op.mean_tokens([2598, 2631])
    mean_out = op.mean_tokens([1702, 1688])
    assert (mean_in, mean_out) == (Fraction(5229, 2), Fraction(1695))
    assert op.fixed(op.output_to_input_ratio(mean_out, mean_in), 3) == "0.648"
    # 10 / 3 = 3.333… → "3.3"; a mean input of 0 gives the ratio 0.000 (telemetry.md).
    assert op.fixed(op.mean_tokens([3, 3, 4]), 1) == "3.3"
    assert op.fixed(op.output_to_input_ratio(Fraction(7), Fraction(0)), 3) == "0.000"


def test_median_odd_and_even():
    # Odd: the middle of 8021, 18874, 19311 is 18874 ms = 18.874 s → "18.87".
    assert op.median_latency_s([19311, 8021, 18874]) == Fraction(18874, 1000)
    assert op.fixed(op.median_latency_s([19311, 8021, 18874]), 2) == "18.87"
    # Even: (18874 + 19311) / 2 = 19092.5 ms = 19.0925 s, exactly half-way; the float
    # nearest 19.0925 is 19.09249999999999758…, so f"{x:.2f}" writes 19.09.
    assert op.median_latency_s([19311, 18874]) == Fraction(190925, 10000)
    assert op.fixed(op.median_latency_s([19311, 18874]), 2) == "19.09"


def test_p95_interpolation():
    # n = 1: the single value, 8021 ms → 8.02 s.
    assert op.p95_latency_s([8021]) == Fraction(8021, 1000)
    # n = 2: rank 0.95 · 1 = 0.95 → 18874 + (19311 − 18874) · 0.95 = 19289.15 ms → 19.29.
    assert op.p95_latency_s([19311, 18874]) == Fraction(1928915, 100000)
    assert op.fixed(op.p95_latency_s([19311, 18874]), 2) == "19.29"
    # n = 20: rank 0.95 · 19 = 18.05 → x18 + (x19 − x18) · 0.05 with x_i = 1000 · (i + 1)
    # shuffled: 19000 + 1000 · 0.05 = 19050 ms → 19.05.
    latencies = [1000 * (i + 1) for i in range(20)]
    random.Random(7).shuffle(latencies)  # noqa: S311 (reproducible test data, not crypto)
    assert op.p95_latency_s(latencies) == Fraction(1905, 100)
    assert op.fixed(op.p95_latency_s(latencies), 2) == "19.05"
    # n = 20 with a wide top gap: 19000 + (60000 − 19000) · 0.05 = 21050 ms → 21.05.
    latencies[latencies.index(20000)] = 60000
    assert op.fixed(op.p95_latency_s(latencies), 2) == "21.05"


def test_prices_empty_and_mixed():
    # No row has a price: empty. Only the non-empty prices enter the mean.
    assert op.mean_unit_price(["", ""]) is None
    assert op.fixed(op.mean_unit_price(["1e-06", "", "3e-06"]), 10) == "0.0000020000"
    assert op.mean_unit_price(["1e-06"]) == Fraction(1, 10**6)  # the decimal text, exactly


def priced_row(mean_in, price_in, mean_out, price_out) -> dict[str, str]:
    """The texts of an operational_per_subject.csv row that cost per case reads."""
    return {
        "mean_input_tokens": mean_in,
        "price_per_input_token_usd": price_in,
        "mean_output_tokens": mean_out,
        "price_per_output_token_usd": price_out,
    }


def test_cost_per_case_is_exact_on_the_published_texts():
    # telemetry.md's example row: 2612.0 · 0.0000010000 + 1724.8 · 0.0000050000 =
    # 0.002612 + 0.008624 = 0.011236 = 11236/10^6 = 2809/250000 (÷ 4) exactly, no float
    # in between.
    row = priced_row("2612.0", "0.0000010000", "1724.8", "0.0000050000")
    assert op.cost_per_case(row) == Fraction(2809, 250000)
    assert op.cost_per_case(row | {"price_per_input_token_usd": ""}) is None
    assert op.cost_per_case(row | {"price_per_output_token_usd": ""}) is None
    # A price in the exponent form of a batch log: 1e-06 is 1/10^6 exactly.
    assert op.cost_per_case(row | {"price_per_input_token_usd": "1e-06"}) == Fraction(2809, 250000)


def test_the_leaderboard_and_the_findings_show_the_same_cost_per_case():
    # One formula for both (formerly a Decimal one for the page and a Fraction one for
    # findings.json): 0.011236 USD is "0.0112" on the page (4 decimals) and 2809/250000
    # in findings.json; 0.00004 USD (40 · 1e-6) is below the page's 0.0001 and says so;
    # 0.00015 USD (150 · 1e-6), a tie at 4 decimals, is "0.0002" (half to even). (The
    # pages write "< 0.0001": test_leaderboard_view.py.)
    row = priced_row("2612.0", "0.0000010000", "1724.8", "0.0000050000")
    versions = [
        ({"subject_version": "v-a"} | row, Shown("0.0112", False), Fraction(2809, 250000)),
        (
            {"subject_version": "v-b"} | priced_row("40.0", "0.0000010000", "0.0", "0.0000010000"),
            Shown("0.0001", True),
            Fraction(1, 25000),
        ),
        (
            {"subject_version": "v-c"} | priced_row("150.0", "1e-06", "0.0", "1e-06"),
            Shown("0.0002", False),
            Fraction(3, 20000),
        ),
    ]
    for operational_row, shown, exact in versions:
        version = operational_row["subject_version"]
        subject = {"subject_version": version, "q_final": "0.5", "leaderboard_status": "Eligible"}
        facts = cost_facts(
            [operational_row | {"median_latency_s": "1.00", "p95_latency_s": "2.00"}],
            [subject],
            [version],
        )
        assert facts["versions"][version]["cost_per_case_usd"] == fraction_fact(exact)
        assert cost_shown(operational_row) == shown


# --- reading a batch log ----------------------------------------------------------------


def test_the_spec_sample_reads_without_problems():
    log = read_batch_log(SAMPLE.read_bytes(), LOG)
    assert log.problems == []
    assert log.n_failed == 1  # the Timeout of RO-FOUL-008
    assert [(c.case_id, c.prompt_tokens, c.latency_ms, c.price_in, c.line) for c in log.calls] == [
        ("RO-FOUL-008", 2598, 19311, "1e-06", 3),
        ("RO-FOUL-009", 2631, 18874, "1e-06", 4),
        ("RO-MECH-001", 2310, 8021, "", 5),
    ]


def sample_rows() -> list[list[str]]:
    return list(csv.reader(io.StringIO(SAMPLE.read_text("utf-8"), newline="")))


def as_csv(rows) -> bytes:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\r\n").writerows(rows)
    return buffer.getvalue().encode("utf-8")


def test_a_malformed_batch_log_names_every_line_and_column():
    header, fail, passing, *_ = sample_rows()
    bad_tokens = list(passing)
    bad_tokens[8] = "2598.5"  # prompt_tokens
    bad_cells = list(passing)
    bad_cells[0] = "2026-05-12 09:15:21"  # timestamp_utc
    bad_cells[15] = "ok"  # status
    bad_cells[14] = "-3"  # latency_ms
    passing_with_error = list(passing)
    passing_with_error[16] = "Timeout"
    failed_without_error = list(fail)
    failed_without_error[16] = ""
    rows = [header, bad_tokens, passing[:-1], bad_cells, passing_with_error, failed_without_error]
    log = read_batch_log(as_csv(rows), LOG)
    assert log.calls == []
    assert log.problems == [
        "line 2, column 9 (prompt_tokens): '2598.5' is not a non-negative integer (or empty)",
        "line 3: 16 fields where the header has 17",
        "line 4, column 1 (timestamp_utc): '2026-05-12 09:15:21' is not a UTC time "
        "YYYY-MM-DDTHH:MM:SSZ",
        "line 4, column 15 (latency_ms): '-3' is not a non-negative integer (or empty)",
        "line 4, column 16 (status): 'ok' is not pass or fail",
        "line 5, column 17 (error_type): 'Timeout' on a passing call (must be empty)",
        "line 6, column 17 (error_type): empty on a failed call (the error class is required)",
    ]


@pytest.mark.parametrize(
    ("raw", "problem"),
    [
        (b"", "line 1: the file is empty (a batch log has at least its header line)"),
        (
            b"\xef\xbb\xbf" + SAMPLE.read_bytes(),
            "line 1: starts with a UTF-8 byte order mark (BOM)",
        ),
        # The header is 224 characters + CRLF, so line 2 starts at offset 226; "anthr"
        # ends 108 characters into it (timestamp 21, case 12, subject 17, version 26,
        # run 19, track 8, "anthr" 5): the bad byte is column 109, offset 334.
        (
            SAMPLE.read_bytes().replace(b"anthropic", b"anthr\xffpic", 1),
            "line 2, column 109 (byte): not valid UTF-8 (byte 0xff at offset 334)",
        ),
        (
            SAMPLE.read_bytes().replace(b"subject_id,", b"subject,", 1),
            "line 1, column 3: header 'subject' where telemetry.md has 'subject_id' "
            "(the columns and their order are fixed)",
        ),
        (
            SAMPLE.read_bytes().replace(b",error_type", b"", 1),
            "line 1: the header has 16 columns, telemetry.md's 17 (the columns and their "
            "order are fixed)",
        ),
    ],
    ids=["empty", "bom", "utf8", "renamed-column", "missing-column"],
)
def test_a_batch_log_that_cannot_be_read(raw, problem):
    assert read_batch_log(raw, LOG).problems == [problem]


def test_line_numbers_count_physical_lines_of_quoted_fields():
    header, _, passing, *_ = sample_rows()
    multiline = list(passing)
    multiline[7] = "served\nover two lines"
    bad = list(passing)
    bad[5] = "fast"  # track
    log = read_batch_log(as_csv([header, multiline, bad]), LOG)
    assert log.problems == ["line 4, column 6 (track): 'fast' is not classic or reasoning"]
    assert [call.line for call in log.calls] == [2]


# --- which calls count ------------------------------------------------------------------


def call(case, run, timestamp, *, line, tokens=(2500, 1500), latency=20000, version="v1"):
    return Call(timestamp, "s", version, case, run, *tokens, latency, "1e-06", "", LOG, line)


def test_the_latest_passing_call_of_each_response_counts():
    run1, run2 = "run-2026-05-12-001", "run-2026-05-12-002"
    retried = call("RO-FOUL-001", run1, "2026-05-12T09:15:21Z", line=3)  # after a failed call
    duplicate_first = call("RO-FOUL-002", run1, "2026-05-12T09:20:00Z", line=4)
    duplicate_latest = call("RO-FOUL-002", run1, "2026-05-12T09:25:00Z", line=5)
    unmatched = call("RO-FOUL-003", run2, "2026-05-12T10:00:00Z", line=6)
    no_usage = call("RO-FOUL-004", run1, "2026-05-12T10:05:00Z", line=7, tokens=(None, None))
    responses = {
        ResponseKey("s", "RO-FOUL-001", run1),
        ResponseKey("s", "RO-FOUL-002", run1),
        ResponseKey("s", "RO-FOUL-004", run1),
        ResponseKey("s", "RO-FOUL-005", run1),  # no call at all
    }
    selected = select_calls(
        [duplicate_latest, no_usage, unmatched, retried, duplicate_first], responses
    )
    assert selected.counted == [retried, duplicate_latest]
    assert selected.n_superseded == 1
    assert selected.without_response == [unmatched]
    assert selected.without_usage == [no_usage]
    assert selected.without_call == [ResponseKey("s", "RO-FOUL-005", run1)]


def test_equal_timestamps_are_ordered_by_file_then_line():
    first = call("RO-FOUL-001", "run-2026-05-12-001", "2026-05-12T09:15:21Z", line=9)
    later_line = first._replace(line=10, latency_ms=1)
    later_file = first._replace(file="logs/batch_logs/2026-05-13T00-00-00Z.csv", line=2)
    key = {ResponseKey("s", "RO-FOUL-001", "run-2026-05-12-001")}
    assert select_calls([later_line, first], key).counted == [later_line]
    assert select_calls([later_file, later_line, first], key).counted == [later_file]


def test_response_keys_come_from_the_paths():
    paths = [
        "responses/v1.0/atlas-7b/RO-FOUL-001__run-2026-05-12-001.json",
        "responses/v1.0/atlas-7b/notes.txt",
        "responses/v1.0/loose.json",
    ]
    assert response_keys(paths) == {ResponseKey("atlas-7b", "RO-FOUL-001", "run-2026-05-12-001")}


def test_rows_of_the_spec_sample_by_hand():
    calls = read_batch_log(SAMPLE.read_bytes(), LOG).calls
    # claude-haiku-4-5: n 2; means 2614.5 and 1695.0; ratio 0.648; median 19.0925 → 19.09;
    # p95 19.28915 → 19.29; prices 1e-06 and 5e-06. mistral-small-3: n 1; 2310.0 and
    # 1041.0; 1041 / 2310 = 0.45065 → 0.451; 8.021 → 8.02 twice; no price.
    assert op.operational_rows(calls, per_family=False) == [
        ["claude-haiku-4-5", "claude-haiku-4-5-20251001", 2, "2614.5", "1695.0", "0.648",
         "19.09", "19.29", "0.0000010000", "0.0000050000"],
        ["mistral-small-3", "mistral-small-2603", 1, "2310.0", "1041.0", "0.451", "8.02",
         "8.02", "", ""],
    ]  # fmt: skip
    assert [row[:4] for row in op.operational_rows(calls, per_family=True)] == [
        ["claude-haiku-4-5", "claude-haiku-4-5-20251001", "FOUL", 2],
        ["mistral-small-3", "mistral-small-2603", "MECH", 1],
    ]


# --- the benchmark's own rules, implemented independently (naive_oracle.benchmark_tables) ----


def random_responses(rng: random.Random, n: int) -> list[tuple[str, str, str, str]]:
    """(subject_id, subject_version, case_id, run_id) of n distinct made-up responses."""
    versions = [("alpha", "alpha-1"), ("alpha", "alpha-2"), ("beta", "beta-x"), ("gamma", "g-1")]
    responses = set()
    while len(responses) < n:
        family = rng.choice(["OXID", "SCAL", "FOUL", "MECH", "NOWE"])
        case = f"RO-{family}-{rng.randint(1, 60):03d}"
        responses.add((*rng.choice(versions), case, f"run-2026-05-12-{rng.randint(1, 9):03d}"))
    return sorted(responses)


@pytest.mark.parametrize("seed", range(40))
def test_one_passing_call_per_response_gives_the_benchmarks_own_tables(seed):
    rng = random.Random(seed)  # noqa: S311 (reproducible test data, not crypto)
    answered = random_responses(rng, rng.randint(1, 120))
    texts = one_call_per_response(rng, answered)
    responses = {ResponseKey(subject, case, run) for subject, _, case, run in answered}
    calls = []
    for number, text in enumerate(texts):
        log = read_batch_log(text.encode("utf-8"), f"logs/batch_logs/{number}.csv")
        assert log.problems == []
        calls += log.calls
    selected = select_calls(calls, responses)
    assert selected.without_call == selected.without_response == []
    expected = benchmark_tables(texts)
    for name, columns in (
        ("per_subject", OPERATIONAL_SUBJECT_COLUMNS),
        ("per_family", OPERATIONAL_FAMILY_COLUMNS),
    ):
        rows = op.operational_rows(selected.counted, per_family=name == "per_family")
        assert [[str(cell) for cell in row] for row in rows] == expected[name]
        assert all(len(row) == len(columns) for row in rows)


def test_the_demo_differs_from_the_benchmarks_count_exactly_where_it_should():
    """On the demo's telemetry the benchmark's own rule (every passing row) and the
    published tables agree for every version, except the two where a passing call does
    not stand for a response of the corpus: atlas-7b (2 passing calls of discarded
    responses: 39 + 2 = 41 rows) and borealis-xl-2026-04-02 (a superseded duplicate
    call: 36 + 1 = 37)."""
    logs = sorted((DEMO_CORPUS / "logs/batch_logs").glob("*.csv"))
    expected = benchmark_tables([path.read_text("utf-8") for path in logs])["per_subject"]
    published = (COMMITTED_RESULTS / "operational_per_subject.csv").read_bytes().decode()
    rows = [line.split(",") for line in published.split("\r\n")[1:-1]]
    differing = {
        (row[0], row[1], row[2], other[2])
        for row, other in zip(rows, expected, strict=True)
        if row != other
    }
    assert differing == {
        ("atlas-7b", "atlas-7b-2026-03-q4", "39", "41"),
        ("borealis-xl", "borealis-xl-2026-04-02", "36", "37"),
    }
    coverage = (COMMITTED_RESULTS / "coverage.csv").read_bytes().decode().split("\r\n")[1:-1]
    telemetry = {tuple(line.split(",")[:2]): line.split(",")[5:] for line in coverage}
    assert telemetry == {
        ("atlas-7b", "atlas-7b-2026-03-q4"): ["39", "1", "0", "2"],
        ("borealis-xl", "borealis-xl-2026-01-15"): ["35", "0", "1", "0"],
        ("borealis-xl", "borealis-xl-2026-04-02"): ["36", "0", "0", "0"],
        ("cirrus-reasoner", "cirrus-reasoner-r1"): ["38", "0", "0", "0"],
        ("expert-rules-ro", "ro-expert-rules-3.2.0"): ["0", "30", "0", "0"],
        ("fjord-13b", "fjord-13b-instruct-v0.9"): ["18", "0", "0", "0"],
        ("human-panel-baseline", "human-panel-2026-pilot"): ["0", "0", "0", "0"],
    }


def test_the_telemetry_listing_holds_the_batch_logs_only(tmp_path):
    assert telemetry_entries(tmp_path) == []  # no logs/batch_logs: no telemetry
    assert not has_telemetry(tmp_path)
    folder = tmp_path / BATCH_LOGS
    folder.mkdir(parents=True)
    (folder / "2026-05-12T09-14-03Z.csv").write_bytes(SAMPLE.read_bytes())
    (folder / "README.md").write_text("notes", "utf-8")
    (folder / ".2026-05-12T10-00-00Z.csv.swp").write_text("", "utf-8")
    (folder / "old.csv").mkdir()
    assert has_telemetry(tmp_path)
    entries = telemetry_entries(tmp_path)
    assert [(entry.kind, entry.path) for entry in entries] == [
        ("file", f"{BATCH_LOGS}/2026-05-12T09-14-03Z.csv"),
        ("folder", f"{BATCH_LOGS}/old.csv"),  # reported as a problem by the step
    ]
    assert entries[0].size == SAMPLE.stat().st_size
