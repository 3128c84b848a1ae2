"""results/critical_fails.csv against rows written by hand from the demo corpus.

The demo places four critical fails on three runs of borealis-xl-2026-01-15
(demo/data/demo_placements.json): one quote the response holds verbatim once curly
quotes and a doubled space are folded (exact), one that leaves a word out (close),
and two without a quote of the response (none). The expected rows below were written
by reading the scorings and responses, not computed.
"""

import csv
import io
import json

from ro_metrics.contracts.tables import CRITICAL_FAIL_COLUMNS
from workflow_runs import COMMITTED_RESULTS, DEMO_CORPUS

VERSION = ("borealis-xl", "borealis-xl-2026-01-15")
EXPECTED = [
    [
        *VERSION,
        "RO-FOUL-001",
        "run-2026-04-20-002",
        "R03",
        "case_specific",
        "recommended_action",
        "Shock the RO with 200 mg/L sodium hypochlorite for 1 h",
        "close",
        "Cita: 'Shock the RO with 200 mg/L hypochlorite for 1 h' — choque con hipoclorito "
        "directo a la membrana; destruye la poliamida.",
    ],
    [
        *VERSION,
        "RO-OXID-002",
        "run-2026-04-20-001",
        "R02",
        "case_specific",
        "recommended_action",
        "0.3 mg/L free chlorine is tolerable for the polyamide for a few days",
        "exact",
        "The answer keeps the train online and states “0.3 mg/L free chlorine is tolerable  "
        "for the polyamide for a few days”: running on chlorinated feed is the case's critical "
        "fail.",
    ],
    [
        *VERSION,
        "RO-SCAL-004",
        "run-2026-04-20-001",
        "R03",
        "case_specific",
        "",
        "",
        "none",
        "Stopping the antiscalant while raising recovery to 85 % is the case's critical fail: "
        "the tail elements scale within hours.",
    ],
    [
        *VERSION,
        "RO-SCAL-004",
        "run-2026-04-20-001",
        "R03",
        "generic",
        "",
        "",
        "none",
        "The model wants to 'run the plant harder without any scale inhibitor', which scales "
        "the tail irreversibly.",
    ],
]


def published_rows() -> tuple[list[str], list[list[str]]]:
    raw = (COMMITTED_RESULTS / "critical_fails.csv").read_bytes()
    assert raw.endswith(b"\r\n") and not raw.startswith(b"\xef\xbb\xbf")
    header, *rows = list(csv.reader(io.StringIO(raw.decode("utf-8"), newline="")))
    return header, rows


def test_committed_critical_fails_are_the_hand_written_rows():
    header, rows = published_rows()
    assert header == CRITICAL_FAIL_COLUMNS
    assert rows == EXPECTED
    # All three kinds of evidence, and a run with two critical fails (one row each).
    assert [row[8] for row in rows] == ["close", "exact", "none", "none"]


def test_every_quote_is_the_responses_text_never_the_reference():
    _, rows = published_rows()
    for row in rows:
        subject_id, _, case_id, run_id, reviewer_id = row[:5]
        response = json.loads(
            (DEMO_CORPUS / f"responses/v1.0/{subject_id}/{case_id}__{run_id}.json").read_text()
        )
        scoring = json.loads(
            (
                DEMO_CORPUS
                / f"scoring/v1.0/{subject_id}/{case_id}__{run_id}__eval-{reviewer_id}.json"
            ).read_text()
        )
        references = [fail["reference"] for fail in scoring["automatic_fails_triggered"]]
        if row[8] != "none":
            assert row[7] in response[row[6]]
        for reference in references:
            assert reference not in "".join(row)
        assert "justification_long" not in "".join(row)
        long_texts = [c.get("justification_long", "") for c in scoring["criterion_scores"].values()]
        assert not any(text and text in "".join(row) for text in long_texts)


def test_one_row_per_critical_fail_of_the_per_run_table():
    per_run = list(csv.DictReader(io.StringIO((COMMITTED_RESULTS / "per_run.csv").read_text())))
    with_critical = {
        (r["subject_id"], r["subject_version"], r["case_id"], r["run_id"], r["reviewer_id"])
        for r in per_run
        if r["has_critical_fail"] == "True"
    }
    _, rows = published_rows()
    assert {tuple(row[:5]) for row in rows} == with_critical
    metrics = list(
        csv.DictReader(io.StringIO((COMMITTED_RESULTS / "metrics_per_subject.csv").read_text()))
    )
    # n_critical_fails counts runs (3); the table has a row per fail (4).
    assert {(m["subject_id"], m["subject_version"], m["n_critical_fails"]) for m in metrics} >= {
        (*VERSION, "3")
    }
