"""Every sentence kind of the default findings report (system/report/), in both editions,
fed data where its claim would be false: the words must change with the data (issue 35).

Each test takes the hand-made facts (tests/findings_facts.py), changes the one fact the
sentence stands on, and checks both readings. SENTENCE_KINDS lists the kinds and the test
of each; test_every_sentence_kind_has_its_test keeps the list honest.
"""

import copy
from fractions import Fraction

import pytest
from findings_facts import demo_facts

from ro_metrics.contracts.records import fraction_fact
from ro_metrics.formulas import findings as fd
from ro_metrics.report.report_templates import render_report
from workflow_runs import REPO

DEFAULTS = {code: REPO / f"system/report/findings.{code}.md.j2" for code in ("en", "es")}

# Sentence kind → the test that feeds it data where its claim is false.
SENTENCE_KINDS = {
    "first rank, hedged by p_rank_1 and the neighbour test": "test_first_rank",
    "critical fails split by trigger (action, diagnosis, other, not located)": (
        "test_a_misdiagnosis_is_worded_as_one"
    ),
    "each critical fail once, its trigger and every reviewer who flagged it": (
        "test_a_fail_two_reviewers_flagged_is_one_row_naming_both"
    ),
    "runs not yet counted (pending, awaiting), never events": "test_pending_runs",
    "lowest Brier and ECE, with the share of draws and the rank interval": (
        "test_lowest_calibration"
    ),
    "pairs separable at the 5 % level, the others not": "test_how_sure",
    "not separable at the 5 % level (Holm-adjusted p = …)": "test_how_sure",
    "exact or Monte Carlo p-values": "test_p_value_method",
    "limitations: one run's weight, interval widths": "test_limitation_runs",
    "limitations: ECE bins, ECE equal to the confidence offset": "test_a_single_bin_ece",
    "families: intervals indicative, lowest pass rate in the family": "test_families",
}


def render(facts, code):
    return render_report(DEFAULTS[code], facts, code)


def test_every_sentence_kind_has_its_test():
    assert {name for name in SENTENCE_KINDS.values()} <= set(globals())


@pytest.mark.parametrize("code", ["en", "es"])
def test_first_rank(code):
    facts = demo_facts()
    # The demo's first pair is not separable (Holm p = 3/5): the first place is not settled.
    unsettled = render(facts, code)
    words = {
        "en": (
            "cirrus-reasoner-r1 ranks first among the\n  4 eligible versions on the published "
            "Q_final; it ranks first in\n  61% of the bootstrap draws, and it is not separable "
            "from the second, borealis-xl-2026-04-02, at the\n  5% level (Holm-adjusted p = "
            "0.60): the data do not settle the first place.",
            "separates it from the second",
        ),
        "es": (
            "es primera en el\n  61 % de las réplicas bootstrap, y no es separable de la "
            "segunda, borealis-xl-2026-04-02, al nivel del\n  5 % (p ajustado por Holm = 0,60): "
            "los datos no deciden el primer puesto.",
            "la separa de la segunda",
        ),
    }[code]
    assert words[0] in unsettled and words[1] not in unsettled
    # A separable leader: the words say so, and nothing says it is unsettled.
    settled = copy.deepcopy(facts)
    settled["top"]["neighbour"] |= {"separable": True, "p_holm": fraction_fact(Fraction(1, 500))}
    text = render(settled, code)
    assert words[1] in text and words[0] not in text
    assert ("= 0.0020" if code == "en" else "= 0,0020") in text
    # Two versions sharing the first rank: no single leader is named.
    shared = copy.deepcopy(facts)
    shared["top"]["versions"] = ["cirrus-reasoner-r1", "borealis-xl-2026-04-02"]
    text = render(shared, code)
    assert ("share the first rank" if code == "en" else "comparten el primer puesto") in text
    assert "61" not in text.split("\n## ")[1].split("Safety")[0]


@pytest.mark.parametrize("code", ["en", "es"])
def test_a_misdiagnosis_is_worded_as_one(code):
    facts = demo_facts()
    action = {"en": "recommended an action", "es": "recomendaron una acción"}[code]
    diagnosis = {
        "en": "1 diagnosed a cause the rubric treats as a critical fail",
        "es": "1 diagnosticó una causa que la rúbrica trata como fallo crítico",
    }[code]
    text = render(facts, code)
    # The demo: 3 runs by their recommended action, 1 not located; no diagnosis.
    assert f"3 {action}" in text and diagnosis not in text
    # One of the action events is a misdiagnosis (its quote in main_hypothesis).
    changed = copy.deepcopy(facts)
    event = changed["safety"]["events"][0]
    event |= {"response_field": "main_hypothesis", "trigger": "diagnosis"}
    changed["safety"]["events_per_trigger"] |= {"recommended_action": 2, "diagnosis": 1}
    text = render(changed, code)
    assert f"2 {action}" in text and diagnosis in text
    row_word = {
        "en": "| diagnosis | main\\_hypothesis |",
        "es": "| diagnóstico | main\\_hypothesis |",
    }
    assert row_word[code] in text
    split = {
        "en": "recommended action 2, diagnosis 1, other field 0, not located 1",
        "es": "acción recomendada 2, diagnóstico 1, otro campo 0, no localizado 1",
    }[code]
    assert split in text


@pytest.mark.parametrize("code", ["en", "es"])
def test_a_fail_two_reviewers_flagged_is_one_row_naming_both(code):
    # The facts as the findings step computes them: two primaries' rows of one fail.
    row = ["s", "v-1", "RO-OXID-001", "run-1", "R01", "generic", "recommended_action", "q",
           "exact", "j"]  # fmt: skip
    events = fd.critical_fail_events([row, [*row[:4], "R03", *row[5:]]])
    assert [event["reviewer_ids"] for event in events] == [["R01", "R03"]]
    facts = demo_facts()
    facts["safety"]["events"][0]["reviewer_ids"] = ["R01", "R03"]
    text = render(facts, code)
    assert text.count("| RO-FOUL-001 | run-2026-04-20-002 |") == 1
    assert "| R01, R03 |" in text


@pytest.mark.parametrize("code", ["en", "es"])
def test_pending_runs(code):
    facts = demo_facts()
    heading = {"en": "### Runs not yet counted", "es": "### Ejecuciones aún sin contar"}[code]
    assert heading not in render(facts, code)
    pending = copy.deepcopy(facts)
    pending["safety"]["pending"] = {
        "n_runs": 3,
        "n_pending_arbitration": 2,
        "n_awaiting_second_review": 1,
        "n_critical_disagreement": 1,
        "per_version": {"atlas-7b-2026-03-q4": 3},
        "runs": [
            {
                "subject_id": "atlas-7b",
                "subject_version": "atlas-7b-2026-03-q4",
                "case_id": "RO-FOUL-004",
                "family": "FOUL",
                "run_id": "run-2026-05-12-001",
                "status": "pending_arbitration",
                "primary_ids": ["R01", "R03"],
                "critical_disagreement": True,
            }
        ],
    }
    text = render(pending, code)
    assert heading in text
    assert "| atlas-7b-2026-03-q4 | RO-FOUL-004 | run-2026-05-12-001 | R01, R03 |" in text
    # Counted apart: the critical-fail counts are the events', unchanged.
    events = {"en": "Scored runs with a critical fail:\n4 (", "es": "crítico: 4 ("}[code]
    assert events in text.replace("Ejecuciones\nevaluadas con un fallo ", "")


@pytest.mark.parametrize("code", ["en", "es"])
def test_lowest_calibration(code):
    facts = demo_facts()
    # borealis-xl-2026-04-02 has rank 1 on both and is lowest most often: no other named.
    text = render(facts, code)
    more_often = {"en": "is lowest more often", "es": "es el más bajo más a menudo"}[code]
    assert more_often not in text
    assert ("lowest in 70%" if code == "en" else "el más bajo en el 70 %") in text
    # Another version is lowest on ECE in more draws: the sentence says so.
    changed = copy.deepcopy(facts)
    changed["calibration"]["ece_most_often_lowest"] = ["cirrus-reasoner-r1"]
    text = render(changed, code)
    assert f"cirrus-reasoner-r1 {more_often}" in text


@pytest.mark.parametrize("code", ["en", "es"])
def test_how_sure(code):
    facts = demo_facts()
    others = {"en": "the others are not separable", "es": "los demás no son separables"}[code]
    listed = {
        "en": "- cirrus-reasoner-r1 and borealis-xl-2026-04-02 (Holm-adjusted p = 0.60)",
        "es": "- cirrus-reasoner-r1 y borealis-xl-2026-04-02 (p ajustado por Holm = 0,60)",
    }[code]
    text = render(facts, code)
    assert others in text and listed in text
    assert "within sampling noise" not in text and "ruido de muestreo" not in text
    # Every pair separable: neither the clause nor the list.
    changed = copy.deepcopy(facts)
    for pair in changed["neighbours"]:
        pair["separable"] = True
    changed["neighbours_summary"]["n_separable"] = len(changed["neighbours"])
    text = render(changed, code)
    assert others not in text and listed not in text


@pytest.mark.parametrize("code", ["en", "es"])
def test_p_value_method(code):
    facts = demo_facts()
    exact = {"en": "The p-values are exact", "es": "Los valores p son exactos"}[code]
    assert exact in render(facts, code)
    changed = copy.deepcopy(facts)
    changed["neighbours_summary"] |= {"n_exact": 1, "n_monte_carlo": 2, "monte_carlo_draws": 2000}
    changed["neighbours"][0] |= {"p_method": "monte_carlo", "p_draws": 2000}
    text = render(changed, code)
    assert exact not in text
    assert "Monte Carlo" in text and "2000" in text
    assert "(Monte Carlo) |" in text


@pytest.mark.parametrize("code", ["en", "es"])
def test_limitation_runs(code):
    facts = demo_facts()
    text = render(facts, code)
    # 1/39 and 1/28 in percentage points: 2.6 and 3.6; interval widths 25 and 33 points.
    ranged = {
        "en": "one run moves its pass rate by 2.6 to\n  3.6 percentage points",
        "es": "de 2,6 a 3,6 puntos porcentuales",
    }[code]
    assert ranged in text
    assert ("25 to 33" if code == "en" else "de\n  25 a 33") in text
    # Every version with 31 runs: one weight, not a range; never "%" for points.
    changed = copy.deepcopy(facts)
    changed["limitations"] |= {
        "runs_per_version_min": 31,
        "runs_per_version_max": 31,
        "one_run_weight_min": fraction_fact(Fraction(1, 31)),
        "one_run_weight_max": fraction_fact(Fraction(1, 31)),
    }
    text = render(changed, code)
    single = {
        "en": "31 scored runs, so\n  one run moves its pass rate by 3.2 percentage points",
        "es": (
            "31 ejecuciones evaluadas,\n  así que una ejecución mueve su tasa de aprobado "
            "3,2 puntos"
        ),
    }[code]
    assert single in text


@pytest.mark.parametrize("code", ["en", "es"])
def test_a_single_bin_ece(code):
    # The formula: every run in one bin, ECE is the offset; two bins of opposite gaps not.
    one_bin = fd.ece_bin_facts(
        fd.group_tally(["Pass"] * 2, [10, 12], [False] * 2, [91, 95], [1.0, 0.5])
    )
    two_bins = fd.ece_bin_facts(
        fd.group_tally(["Pass"] * 2, [10, 12], [False] * 2, [60, 95], [1.0, 0.5])
    )
    assert one_bin == {"ece_bins": 1, "ece_is_offset": True}
    assert two_bins == {"ece_bins": 2, "ece_is_offset": False}
    facts = demo_facts()
    equals = {"en": "so their ECE equals the gap", "es": "así que su ECE es igual a la diferencia"}
    assert equals[code] in render(facts, code)
    changed = copy.deepcopy(facts)
    changed["calibration"]["ece_is_offset"] = []
    assert equals[code] not in render(changed, code)


@pytest.mark.parametrize("code", ["en", "es"])
def test_families(code):
    text = render(demo_facts(), code)
    indicative = {"en": "The intervals are indicative", "es": "Los intervalos son orientativos"}
    column = {
        "en": "Lowest pass rate in the family",
        "es": "Tasa de aprobado más baja de la familia",
    }
    assert indicative[code] in text and column[code] in text
    assert "Hardest for" not in text and "Más difícil para" not in text
