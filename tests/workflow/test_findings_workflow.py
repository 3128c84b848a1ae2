"""findings.json and family_heatmap.csv as a run on the demo corpus publishes them,
against an independent implementation: the §§ 1–2 facts recomputed from the published
per_run.csv, metrics_per_subject.csv and critical_fails.csv with pandas (group-bys over
the text of the published tables), where the step itself uses plain dicts and Fractions
over the typed per-run table (formulas/findings.py).
"""

import json
import math
from fractions import Fraction
from pathlib import Path
from statistics import NormalDist

import pandas as pd


def fraction(value: Fraction) -> dict:
    """A fraction fact as findings.json writes it (docs/findings-json.md)."""
    value = Fraction(value)
    return {"num": value.numerator, "den": value.denominator, "value": float(round(value, 4))}


def wilson(successes: int, n: int) -> list[float]:
    """The textbook Wilson 95 % interval, clipped to [0, 1]."""
    z = NormalDist().inv_cdf(0.975)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return [round(low, 4), round(high, 4)]


def leaderboard_order(subjects: pd.DataFrame) -> list[str]:
    """Eligible by published Q_final descending (then subject_id, version), then the
    Disqualified by subject_id, version."""
    eligible = subjects[subjects.leaderboard_status == "Eligible"].sort_values(
        ["q_final", "subject_id", "subject_version"], ascending=[False, True, True]
    )
    others = subjects[subjects.leaderboard_status != "Eligible"].sort_values(
        ["subject_id", "subject_version"]
    )
    return [*eligible.subject_version, *others.subject_version]


def check_findings(results: Path) -> None:
    """Every § 1–2 fact of results/findings.json and results/family_heatmap.csv equals
    its pandas recomputation from the published tables."""
    findings = json.loads((results / "findings.json").read_text("utf-8"))
    runs = pd.read_csv(results / "per_run.csv", dtype={"has_critical_fail": str})
    runs["passed"] = runs.classification == "Pass"
    runs["critical"] = runs.has_critical_fail == "True"
    subjects = pd.read_csv(results / "metrics_per_subject.csv")
    fails = pd.read_csv(results / "critical_fails.csv", dtype=str, keep_default_na=False)
    order = leaderboard_order(subjects)
    status = dict(zip(subjects.subject_version, subjects.leaderboard_status, strict=True))
    eligible = [v for v in order if status[v] == "Eligible"]

    assert (findings["n_versions"], findings["n_scored_runs"]) == (len(subjects), len(runs))
    assert findings["n_cases"] == runs.case_id.nunique()

    # § 1
    safety = findings["safety"]
    critical = runs[runs.critical]
    assert safety["critical_fail_events"] == len(critical)
    assert safety["versions_with_critical_fail"] == critical.subject_version.nunique()
    per_version = runs.groupby("subject_version").critical.sum()
    assert safety["events_per_version"] == {v: int(per_version[v]) for v in order}
    per_family = runs.groupby("family").critical.sum()
    assert safety["events_per_family"] == {f: int(n) for f, n in per_family.items()}
    # One event per fail of a run, with every reviewer who flagged it (a group of the
    # file's rows, in its order), its trigger from the field its quote was found in.
    same_fail = [*fails.columns[:4], "fail_type", "response_field", "quote", "match"]
    grouped = fails.groupby(same_fail, sort=False)
    expected = grouped.first().reset_index()
    expected["reviewer_ids"] = [sorted(ids) for ids in grouped.reviewer_id.agg(list)]
    columns = [c for c in fails.columns if c != "reviewer_id"]
    assert [{k: e[k] for k in [*columns, "reviewer_ids"]} for e in safety["events"]] == [
        {k: row[k] for k in [*columns, "reviewer_ids"]} for row in expected.to_dict("records")
    ]
    assert [e["family"] for e in safety["events"]] == [c.split("-")[1] for c in expected.case_id]
    trigger = expected.response_field.map(
        {
            "recommended_action": "recommended_action",
            "main_hypothesis": "diagnosis",
            "": "not_located",
        }
    ).fillna("other_field")
    assert [e["trigger"] for e in safety["events"]] == list(trigger)
    assert sum(safety["events_per_trigger"].values()) == safety["critical_fail_events"]
    assert safety["eligible"] == {"count": len(eligible), "versions": eligible}
    disqualified = [v for v in order if status[v] != "Eligible"]
    assert safety["disqualified"] == {"count": len(disqualified), "versions": disqualified}
    ungated = {row["subject_version"]: row for row in safety["ungated_ranking"]}
    q_final = dict(zip(subjects.subject_version, subjects.q_final, strict=True))
    for version, row in ungated.items():
        # Competition ranking on the published value, every version (ungated).
        assert row["rank"] == 1 + sum(q > q_final[version] for q in q_final.values())
        assert row["q_final"] == q_final[version]

    # § 2
    families = findings["families"]
    for subset, key in ((runs, None), (runs[runs.subject_version.isin(eligible)], "eligible")):
        pooled = subset.groupby("family").agg(
            n_runs=("passed", "size"), n_pass=("passed", "sum"), clipped=("clipped_score", "sum")
        )
        for family, row in pooled.iterrows():
            facts = families[family] if key is None else families[family][key]
            n_runs, n_pass = int(row.n_runs), int(row.n_pass)
            assert facts["n_runs"] == n_runs
            assert facts["n_pass"] == n_pass
            assert facts["pooled_pass_rate"] == fraction(Fraction(n_pass, n_runs))
            assert facts["pooled_pass_rate_ci"] == wilson(n_pass, n_runs)
            assert facts["mean_clipped_score"] == fraction(Fraction(int(row.clipped), n_runs))
    cells = runs.groupby(["subject_version", "family"]).agg(
        n_runs=("passed", "size"), n_pass=("passed", "sum"), clipped=("clipped_score", "mean")
    )
    cells["rate"] = cells.n_pass / cells.n_runs
    # Population standard deviation (ddof=0) over the versions with runs of the family.
    spread = cells.groupby("family")[["rate", "clipped"]].std(ddof=0)
    n_versions = cells.groupby("family").size()
    for family in spread.index:
        assert families[family]["spread"] == {
            "pass_rate": round(float(spread.loc[family, "rate"]), 4),
            "mean_clipped_score": round(float(spread.loc[family, "clipped"]), 4),
        }
        assert families[family]["n_versions"] == n_versions[family]
    totals = runs.groupby("family").agg(rate=("passed", "mean"), clipped=("clipped_score", "mean"))
    hardest_first = totals.reset_index().sort_values(["rate", "clipped", "family"]).family
    assert families["order"] == list(hardest_first)

    # The heatmap: leaderboard order, families hardest first, as metrics_per_family writes.
    heatmap = pd.read_csv(results / "family_heatmap.csv", dtype=str, keep_default_na=False)
    expected = [
        (version, family)
        for version in order
        for family in families["order"]
        if (version, family) in cells.index
    ]
    assert list(zip(heatmap.subject_version, heatmap.family, strict=True)) == expected
    published = pd.read_csv(results / "metrics_per_family.csv", dtype=str)
    published = published.set_index(["subject_version", "family"])
    for row in heatmap.itertuples():
        cell = published.loc[(row.subject_version, row.family)]
        assert (row.n_runs, row.n_pass) == (cell.n_runs, cell.n_pass)
        assert (row.pass_rate, row.mean_clipped_score) == (
            cell.pass_rate_family,
            cell.mean_clipped_score_family,
        )
        assert row.leaderboard_status == status[row.subject_version]
    assert [(r["subject_version"], r["family"]) for r in findings["heatmap"]] == expected


def test_findings_equal_an_independent_recomputation_from_the_published_tables(demo_run):
    check_findings(demo_run.results)


def test_the_demo_registry_declares_no_weights_so_none_is_inferred(demo_run):
    findings = json.loads((demo_run.results / "findings.json").read_text("utf-8"))
    weights = findings["dimensions"]["weights"]
    assert list(weights) == ["not declared"]
    assert weights["not declared"]["n_versions"] == findings["n_versions"]
