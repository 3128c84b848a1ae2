"""The evidence of a fail (ro_metrics.formulas.evidence): the model's own words only.

Every expected value is written by hand: the spans a justification quotes, the field a
span is found in, the passage returned, and the similarity 2·M / (|span| + |passage|)
counted token by token.
"""

import json
from fractions import Fraction

import pytest

from ro_metrics.contracts.records import CriticalFail, PublicAnswer
from ro_metrics.corpus.partition import public_answer
from ro_metrics.formulas import evidence as ev
from ro_metrics.formulas.evidence import (
    CLOSE,
    CLOSE_THRESHOLD,
    EXACT,
    NONE,
    Evidence,
    answer_fields,
    critical_fail_rows,
    evidence,
    normalise,
    quoted_spans,
)
from workflow_runs import REPO

SAMPLES = REPO / "tests/data/samples"


def answer(**fields) -> PublicAnswer:
    base = {
        "timestamp_utc": "2026-05-12T14:23:55Z",
        "served_model": "",
        "track": "classic",
        "confidence": 80,
        "main_hypothesis": "Biofouling of the lead elements.",
        "key_signals": ["ATP rose from 60 to 980 pg/mL", "Stage 1 dP up 67%"],
        "alternatives": [["Silica scaling", "Feed silica is high.", "No ATP rise with silica."]],
        "requested_data": "An autopsy of a lead element.",
        "recommended_action": "Clean with a high-pH solution, then restart.",
        "decision_change_condition": "If the autopsy shows scale, switch to an acid clean.",
    }
    return PublicAnswer(**(base | fields))


# --- normalisation and spans --------------------------------------------------------


def test_normalise_nfc_whitespace_and_quotes():
    assert normalise("e\u0301te\u0301") == "\u00e9t\u00e9"  # decomposed → composed
    assert normalise("  a\u00a0 b\n\tc  ") == "a b c"
    assert (
        normalise("\u2018a\u2019 \u201cb\u201d \u00abc\u00bb \u201ed\u201c") == '\'a\' "b" "c" "d"'
    )


def test_spans_in_single_double_curly_and_angle_quotes():
    assert quoted_spans("Cita: 'Circulate a biocide solution' — choque.") == [
        "Circulate a biocide solution"
    ]
    assert quoted_spans("It says \u201cstop the high pressure pump\u201d.") == [
        "stop the high pressure pump"
    ]
    assert quoted_spans("Dice \u00abrinse the membranes with permeate\u00bb") == [
        "rinse the membranes with permeate"
    ]
    # In order of their start, whatever the quote mark.
    assert quoted_spans("\"raise the recovery now\" and then 'stop the antiscalant pump'") == [
        "raise the recovery now",
        "stop the antiscalant pump",
    ]


def test_an_apostrophe_inside_a_word_neither_opens_nor_closes_a_span():
    text = "The model's answer 'shock the RO with chlorine' is the reviewer's concern."
    assert quoted_spans(text) == ["shock the RO with chlorine"]
    assert quoted_spans("The operator's log and the plant's trend agree.") == []


def test_short_unclosed_and_ellipsis_spans():
    # A quoted term of fewer than three words is not a quote of the answer.
    assert quoted_spans("It matches 'desinfectar' and 'two words'.") == []
    assert quoted_spans("An opening 'quote that never closes") == []
    assert quoted_spans("Quote: '…through the RO system for 1 hour…'") == [
        "through the RO system for 1 hour"
    ]
    assert quoted_spans('Quote: "... raise recovery to 85% ..."') == ["raise recovery to 85%"]


def test_answer_fields_in_schema_order_with_zero_based_items():
    names = [name for name, _ in answer_fields(answer())]
    assert names == [
        "main_hypothesis",
        "key_signals[0]",
        "key_signals[1]",
        "alternatives[0].hypothesis",
        "alternatives[0].why_plausible",
        "alternatives[0].why_discardable",
        "requested_data",
        "recommended_action",
        "decision_change_condition",
    ]


# --- exact ------------------------------------------------------------------------------


def test_exact_after_folding_quotes_whitespace_and_nfc_returns_the_models_text():
    response = answer(
        recommended_action="Keep running;  0.3 mg/L of chlorine is tolerable for the "
        "caf\u00e9 membranes."
    )
    reviewer = (
        "It says \u201c0.3 mg/L of chlorine is\ntolerable for the cafe\u0301 membranes\u201d."
    )
    assert evidence(reviewer, response) == Evidence(
        "recommended_action",
        "0.3 mg/L of chlorine is tolerable for the caf\u00e9 membranes",
        EXACT,
        1.0,
    )
    # The returned quote keeps the response's own whitespace and quote marks.
    response = answer(recommended_action="Flush the  \u2018hot\u2019 vessel with permeate now.")
    assert evidence("Quote: \"Flush the 'hot' vessel with permeate\"", response).quote == (
        "Flush the  \u2018hot\u2019 vessel with permeate"
    )


def test_exact_only_at_word_boundaries():
    response = answer(recommended_action="Inspect the PRO systems for 1 hours.")
    # Not exact inside "PRO": the best passage is "systems for 1", 3 of the 4 tokens.
    assert evidence("Quote: 'RO systems for 1'", response) == Evidence(
        "recommended_action", "systems for 1", CLOSE, float(Fraction(6, 7))
    )
    response = answer(recommended_action="Inspect the RO systems for 1 hour.")
    assert evidence("Quote: 'RO systems for 1'", response).match == EXACT


def test_exact_is_case_sensitive_a_case_change_is_close():
    response = answer(recommended_action="Stop the high pressure pump at once.")
    found = evidence("'stop the high pressure pump'", response)
    assert found == Evidence("recommended_action", "Stop the high pressure pump", CLOSE, 1.0)


def test_the_first_field_in_schema_order_and_the_longest_exact_span_win():
    response = answer(
        key_signals=["ATP rose from 60 to 980 pg/mL", "dP up"],
        recommended_action="Note that ATP rose from 60 to 980 pg/mL; clean at high pH.",
    )
    assert evidence("'ATP rose from 60'", response).response_field == "key_signals[0]"
    found = evidence("'ATP rose from 60' and 'ATP rose from 60 to 980 pg/mL; clean'", response)
    assert found == Evidence(
        "recommended_action", "ATP rose from 60 to 980 pg/mL; clean", EXACT, 1.0
    )
    # An exact span wins over a more similar-looking close one.
    found = evidence("'clean at High pH.' or 'No ATP rise with'", response)
    assert found == Evidence("alternatives[0].why_discardable", "No ATP rise with", EXACT, 1.0)


# --- close ------------------------------------------------------------------------------


def test_the_spec_sample_is_close_with_the_responses_own_passage():
    response = json.loads((SAMPLES / "response.RO-FOUL-008__run-2026-05-12-001.json").read_text())
    scoring = json.loads(
        (SAMPLES / "scoring.RO-FOUL-008__run-2026-05-12-001__eval-R01.json").read_text()
    )
    (fail,) = scoring["automatic_fails_triggered"]
    found = evidence(fail["justification"], public_answer(response))
    # The reviewer wrote "(sodium hypochlorite 200 mg/L active chlorine) through": 21
    # tokens; the response's passage has "or equivalent approved biocide" too: 25 tokens,
    # the 21 of the quote among them: 2·21 / (21 + 25) = 21/23.
    assert found == Evidence(
        "recommended_action",
        "Circulate a biocide solution (sodium hypochlorite 200 mg/L active chlorine or "
        "equivalent approved biocide) through the RO system for 1 hour",
        CLOSE,
        float(Fraction(21, 23)),
    )
    assert found.quote in response["recommended_action"]
    assert found.quote not in fail["justification"]
    # The reference (the gold's rule in the reviewer's words) is never a source: alone,
    # it yields nothing.
    assert evidence(fail["reference"], public_answer(response)) == ev.NO_EVIDENCE


def test_close_at_the_threshold_and_none_just_below():
    response = answer(recommended_action="Then flush stage one; later resume.")
    # 5 span tokens, the passage "flush stage one" is 3 of them: 2·3 / (5 + 3) = 0.75.
    assert CLOSE_THRESHOLD == 0.75
    assert evidence("'flush stage one immediately please'", response) == Evidence(
        "recommended_action", "flush stage one", CLOSE, 0.75
    )
    # One more unmatched token: 2·3 / (6 + 3) = 0.667 < 0.75.
    assert evidence("'flush stage one immediately please now'", response) == ev.NO_EVIDENCE


def test_a_passage_spans_the_words_the_reviewer_left_out():
    response = answer(
        recommended_action="Shock the RO with 200 mg/L sodium hypochlorite for 1 h to kill "
        "the biofilm, then rinse and restart."
    )
    found = evidence("Cita: 'Shock the RO with 200 mg/L hypochlorite for 1 h' — choque", response)
    # 12 quote tokens, 13 in the passage ("sodium" added), 12 aligned: 24/25.
    assert found == Evidence(
        "recommended_action", "Shock the RO with 200 mg/L sodium hypochlorite for 1 h", CLOSE, 0.96
    )


def test_a_paraphrase_or_another_language_is_none():
    response = answer(
        recommended_action="Stop antiscalant dosing and raise recovery to 85% for 48 h so the "
        "higher cross-flow scours the scale out of stage 2."
    )
    paraphrase = "The model wants to 'run the plant harder without any scale inhibitor'."
    assert evidence(paraphrase, response) == ev.NO_EVIDENCE
    assert evidence("Dice 'detener el antiincrustante y subir la recuperación'", response) == (
        ev.NO_EVIDENCE
    )
    assert evidence("No quote at all: the action is unsafe.", response) == ev.NO_EVIDENCE


def test_very_long_spans_are_matched_exactly_but_never_aligned(monkeypatch):
    monkeypatch.setattr(ev, "MAX_ALIGNED_TOKENS", 5)
    response = answer(recommended_action="one two three four five six seven")
    assert evidence("'one two three four five six'", response).match == EXACT
    assert evidence("'one two three four five six eight'", response) == ev.NO_EVIDENCE
    assert evidence("'one two three four'", response).match == EXACT


# --- the table's rows -------------------------------------------------------------------


def test_critical_fail_rows_sorted_by_the_five_keys_then_position():
    response = answer(recommended_action="Shock the RO with chlorine now.")

    def fail(case_id, run_id, position, justification):
        return CriticalFail(
            "atlas", "a1", case_id, run_id, "R01", position, "generic", justification, response
        )

    rows = critical_fail_rows(
        [
            fail("RO-OXID-002", "run-2026-05-12-001", 1, "Second: no quote."),
            fail("RO-FOUL-001", "run-2026-05-12-002", 0, "'Shock the RO with chlorine'"),
            fail("RO-OXID-002", "run-2026-05-12-001", 0, "'shock the RO with chlorine now'"),
        ]
    )
    assert rows == [
        ["atlas", "a1", "RO-FOUL-001", "run-2026-05-12-002", "R01", "generic",
         "recommended_action", "Shock the RO with chlorine", "exact",
         "'Shock the RO with chlorine'"],
        ["atlas", "a1", "RO-OXID-002", "run-2026-05-12-001", "R01", "generic",
         "recommended_action", "Shock the RO with chlorine now", "close",
         "'shock the RO with chlorine now'"],
        ["atlas", "a1", "RO-OXID-002", "run-2026-05-12-001", "R01", "generic", "", "", "none",
         "Second: no quote."],
    ]  # fmt: skip


@pytest.mark.parametrize(
    "justification",
    ["'" + "word " * 2000 + "'", "'a b c' " * 500, "'''''''", '"' * 999, ""],
)
def test_hostile_justifications_end_quickly(justification):
    response = answer(recommended_action="word " * 5000)
    assert evidence(justification, response).match in {EXACT, CLOSE, NONE}
