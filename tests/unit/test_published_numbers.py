"""contracts/tables.py's published numbers: a number read back exactly
(exact_fraction), an exact value rounded to 4 decimals (rounded_exact) and written with
N decimals (decimal_text); and the steps that read or write them doing it alike.

Every expected value is worked by hand in the comment beside it.
"""

from fractions import Fraction

import pytest

from ro_metrics.contracts.records import fraction_fact
from ro_metrics.contracts.tables import decimal_text, exact_fraction, format_metric, rounded_exact
from ro_metrics.formulas.agreement_tables import published
from ro_metrics.leaderboard.leaderboard_view import exact_decimal
from ro_metrics.rendering.translations import language
from ro_metrics.report.findings_charts import q_final_of
from ro_metrics.report.report_templates import ReportFilters
from ro_metrics.site.findings_page import Numbers


def test_decimal_text_rounds_the_exact_value_half_even():
    assert decimal_text(Fraction(-1, 100000), 2) == "0.00"  # no negative zero
    assert decimal_text(Fraction(-5, 4), 1) == "-1.2"  # −1.25, tie → even 2
    assert decimal_text(Fraction(13, 160), 4, ",") == "0,0812"  # 0.08125, tie → even 2
    assert decimal_text(Fraction(3, 20000), 4) == "0.0002"  # 0.00015, tie → even 2
    assert decimal_text(Fraction(1, 10**4), 4) == "0.0001"
    assert decimal_text(7, 0) == "7"
    with pytest.raises(ValueError, match="decimals must be an integer"):
        decimal_text(Fraction(1, 2), -1)


def test_exact_fraction_reads_every_published_form():
    assert exact_fraction({"num": 13, "den": 160, "value": 0.0812}) == Fraction(13, 160)
    assert exact_fraction("13/160") == Fraction(13, 160)  # the uncertainty step's records
    assert exact_fraction("0.8065") == Fraction(8065, 10000)  # a CSV's text
    assert exact_fraction("1e-06") == Fraction(1, 10**6)
    # A float is the text it prints as: 2.675, not its binary value 2.67499999…
    assert exact_fraction(2.675) == Fraction(107, 40)
    assert exact_fraction(3) == Fraction(3)
    assert exact_fraction(None) is None
    assert exact_fraction("") is None
    for not_a_number in (True, [1], {"value": 1}, "n/a"):
        with pytest.raises(ValueError):
            exact_fraction(not_a_number)


def test_rounded_exact_rounds_the_exact_value_not_its_float():
    # 13/160 = 0.08125 exactly, a tie → 0.0812 (even); its float is just above the tie,
    # which format_metric (a float's rounding) takes to 0.0813.
    assert rounded_exact(Fraction(13, 160)) == 0.0812
    assert format_metric(13 / 160) == "0.0813"
    assert rounded_exact(Fraction(-3, 112)) == -0.0268  # −0.026786


def test_the_report_the_findings_page_and_the_charts_read_a_fact_alike():
    # Formerly three readers (report_templates.exact, findings_charts.exact, which the
    # findings page used too): a fraction fact 13/160 (0.08125: a tie → 0.0812) and a
    # float fact 2.675 (its text: a tie → 2.68; its binary value would give 2.67).
    en = language("en")
    report, page = ReportFilters(en), Numbers(en)
    fact = fraction_fact(Fraction(13, 160))
    assert report.number(fact, 4) == page(fact, 4) == "0.0812"
    assert report.number(2.675, 2) == page(2.675, 2) == "2.68"
    ranking = [{"subject_version": "v", "q_final": 2.675}]
    assert q_final_of({"safety": {"ungated_ranking": ranking}}) == {"v": Fraction(107, 40)}


def test_findings_agreement_and_the_leaderboard_round_an_exact_value_alike():
    # 13/160 → 0.0812 as findings.json's "value", agreement.csv's estimate and the
    # leaderboard's ΔQ_final (from a record's "num/den" text).
    assert fraction_fact(Fraction(13, 160))["value"] == 0.0812
    assert published(Fraction(13, 160)) == 0.0812
    assert exact_decimal("13/160") == "0.0812"
