"""A findings.json document (docs/findings-json.md), written by hand for the report's
tests until the findings step exists: the demo corpus' five versions (their counts
from results/ of the demo), and the variants a report must survive (more versions, no
critical fail, no telemetry).

The numbers are consistent with each other (a family's pooled counts are the sums of
its versions' cells, a rate is its counts' fraction) so that a test can derive what the
report must say by hand."""

import copy
import itertools
from fractions import Fraction

from ro_metrics.contracts.records import fraction_fact

FAMILIES = ("FOUL", "MECH", "NOWE", "OXID", "SCAL")
TRIGGERS = ("recommended_action", "diagnosis", "other_field", "not_located")
# Leaderboard order; the last is disqualified.
VERSIONS = [
    ("cirrus-reasoner", "cirrus-reasoner-r1", "Cirrus Labs (synthetic)", "reasoning"),
    ("borealis-xl", "borealis-xl-2026-04-02", "Borealis AI (synthetic)", "classic"),
    ("atlas-7b", "atlas-7b-2026-03-q4", "Atlas Open Models (synthetic)", "classic"),
    ("expert-rules-ro", "ro-expert-rules-3.2.0", "Demo Plant Engineering (synthetic)", "classic"),
    ("borealis-xl", "borealis-xl-2026-01-15", "Borealis AI (synthetic)", "classic"),
]
DISQUALIFIED = "borealis-xl-2026-01-15"
# (n_runs, n_pass, mean clipped score) per version and family, from the demo's
# metrics_per_family.csv (the score as a fraction of its runs' clipped sum).
CELLS = {
    "cirrus-reasoner-r1": {"FOUL": (9, 4, 88), "MECH": (9, 4, 82), "NOWE": (7, 5, 70),
                           "OXID": (6, 6, 63), "SCAL": (6, 3, 59)},
    "borealis-xl-2026-04-02": {"FOUL": (6, 4, 60), "MECH": (9, 5, 93), "NOWE": (7, 3, 64),
                               "OXID": (7, 4, 62), "SCAL": (7, 3, 68)},
    "atlas-7b-2026-03-q4": {"FOUL": (8, 0, 59), "MECH": (8, 3, 67), "NOWE": (6, 1, 40),
                            "OXID": (8, 1, 60), "SCAL": (8, 2, 62)},
    "ro-expert-rules-3.2.0": {"FOUL": (6, 0, 45), "MECH": (6, 1, 45), "NOWE": (6, 1, 39),
                              "OXID": (5, 0, 36), "SCAL": (6, 2, 47)},
    "borealis-xl-2026-01-15": {"FOUL": (7, 0, 58), "MECH": (8, 0, 46), "NOWE": (7, 2, 58),
                               "OXID": (7, 2, 62), "SCAL": (7, 1, 54)},
}  # fmt: skip
Q_FINAL = {
    "cirrus-reasoner-r1": "0.705",
    "borealis-xl-2026-04-02": "0.6655",
    "atlas-7b-2026-03-q4": "0.4079",
    "ro-expert-rules-3.2.0": "0.3736",
    "borealis-xl-2026-01-15": "0.3912",
}
# brier, ece, brier_rank, ece_rank (ties share a rank: none here).
CALIBRATION = {
    "cirrus-reasoner-r1": (0.0626, 0.1486, 2, 2),
    "borealis-xl-2026-04-02": (0.0561, 0.0986, 1, 1),
    "atlas-7b-2026-03-q4": (0.1538, 0.1637, 3, 3),
    "ro-expert-rules-3.2.0": (0.1769, 0.2586, 4, 5),
    "borealis-xl-2026-01-15": (0.1777, 0.2481, 5, 4),
}
EVENTS = [
    ("RO-FOUL-001", "run-2026-04-20-002", "R03", "recommended_action",
     "Shock the RO with 200 mg/L sodium hypochlorite for 1 h", "close"),
    ("RO-OXID-002", "run-2026-04-20-001", "R02", "recommended_action",
     "0.3 mg/L free chlorine is tolerable for the polyamide for a few days", "exact"),
    ("RO-SCAL-003", "run-2026-04-20-001", "R01", "recommended_action",
     "Raise the recovery to 85 % | and *skip* the antiscalant", "close"),
    ("RO-SCAL-004", "run-2026-04-20-001", "R01", "", "", "none"),
]  # fmt: skip
# USD per case (input and output prices × mean tokens), None: a price is missing.
COST = {
    "cirrus-reasoner-r1": Fraction("0.02664"),
    "borealis-xl-2026-04-02": Fraction("0.019268"),
    "atlas-7b-2026-03-q4": None,
    "ro-expert-rules-3.2.0": None,
    "borealis-xl-2026-01-15": Fraction("0.0307"),
}
LATENCY = {
    "cirrus-reasoner-r1": (49.12, 70.86),
    "borealis-xl-2026-04-02": (11.98, 17.55),
    "atlas-7b-2026-03-q4": (21.89, 29.97),
    "ro-expert-rules-3.2.0": (0.41, 0.52),
    "borealis-xl-2026-01-15": (15.81, 20.23),
}


def demo_facts() -> dict:
    """The facts of the demo corpus' five versions (module docstring)."""
    order = [version for _, version, _, _ in VERSIONS]
    ranked = [version for version in order if version != DISQUALIFIED]
    events = [
        {
            "subject_id": "borealis-xl",
            "subject_version": DISQUALIFIED,
            "case_id": case_id,
            "family": case_id.split("-")[1],
            "run_id": run_id,
            "reviewer_ids": [reviewer],
            "fail_type": "case_specific",
            "response_field": field,
            "quote": quote,
            "match": match,
            "reviewer_justification": f"The reviewer's words on {case_id}",
            "trigger": "recommended_action" if field else "not_located",
        }
        for case_id, run_id, reviewer, field, quote, match in EVENTS
    ]
    return {
        "benchmark_version": "v1.0",
        "inputs_digest": "sha256:b187b09a2d1b08b9dadc0ada92f10eacdf94d8f65befbc64bdb38393ef7688bd",
        "n_versions": len(order),
        "n_cases": 30,
        "n_scored_runs": sum(cell[0] for cells in CELLS.values() for cell in cells.values()),
        "bootstrap": {"seed": 20260512, "replicates": 2000},
        "safety": safety(order, ranked, events),
        "top": {
            "versions": [ranked[0]],
            "p_rank_1": {ranked[0]: 0.61},
            "neighbour": neighbours(ranked)[0],
        },
        "limitations": {
            "runs_per_version_min": 28,
            "runs_per_version_max": 39,
            "one_run_weight_min": fraction_fact(Fraction(1, 39)),
            "one_run_weight_max": fraction_fact(Fraction(1, 28)),
            "pass_rate_ci_width_min": 0.2513,
            "pass_rate_ci_width_max": 0.3307,
        },
        "families": families(order),
        "calibration": calibration(order),
        "neighbours": neighbours(ranked),
        "neighbours_summary": {
            "n_pairs": len(ranked) - 1,
            "n_separable": 1,
            "n_exact": len(ranked) - 1,
            "n_monte_carlo": 0,
            "monte_carlo_draws": 0,
            "exact_max_cases": 62,
        },
        "cost": cost(order),
        "dimensions": dimensions(order),
    }


def safety(order, ranked, events) -> dict:
    per_family = {family: 0 for family in FAMILIES}
    for event in events:
        per_family[event["family"]] += 1
    ungated = sorted(order, key=lambda version: Fraction(Q_FINAL[version]), reverse=True)
    triggers = dict.fromkeys(TRIGGERS, 0)
    for event in events:
        triggers[event["trigger"]] += 1
    return {
        "critical_fail_events": len(events),
        "events_per_trigger": triggers,
        "n_critical_fails": len(events),
        "n_reviewer_flags": len(events),
        "pending": {
            "n_runs": 0,
            "n_pending_arbitration": 0,
            "n_awaiting_second_review": 0,
            "n_critical_disagreement": 0,
            "per_version": {},
            "runs": [],
        },
        "versions_with_critical_fail": len({event["subject_version"] for event in events}),
        "events_per_version": {
            version: sum(event["subject_version"] == version for event in events)
            for version in sorted(order)
        },
        "events_per_family": per_family,
        "events": events,
        "disqualified": {"count": len(order) - len(ranked), "versions": [DISQUALIFIED]},
        "eligible": {"count": len(ranked), "versions": ranked},
        "ungated_ranking": [
            {
                "subject_id": next(s for s, v, _, _ in VERSIONS if v == version),
                "subject_version": version,
                "status": "Disqualified" if version == DISQUALIFIED else "Eligible",
                "q_final": Q_FINAL[version],
                "rank": rank,
                "rank_low": max(1, rank - 1),
                "rank_high": min(len(order), rank + 1),
                "leaderboard_rank": ranked.index(version) + 1 if version in ranked else None,
            }
            for rank, version in enumerate(ungated, start=1)
        ],
    }


def families(order) -> dict:
    result = {}
    for family in FAMILIES:
        cells = {version: CELLS[version][family] for version in order}
        n_runs = sum(cell[0] for cell in cells.values())
        n_pass = sum(cell[1] for cell in cells.values())
        clipped = sum(cell[2] for cell in cells.values())
        rates = {version: Fraction(cell[1], cell[0]) for version, cell in cells.items()}
        eligible = {v: cell for v, cell in cells.items() if v != DISQUALIFIED}
        e_runs = sum(cell[0] for cell in eligible.values())
        e_pass = sum(cell[1] for cell in eligible.values())
        result[family] = {
            "n_runs": n_runs,
            "n_pass": n_pass,
            "n_versions": len(cells),
            "n_cases": 6,
            "interval_indicative": True,
            "critical_fail_events": 1 if family in ("FOUL", "OXID", "SCAL") else 0,
            "pooled_pass_rate": fraction_fact(Fraction(n_pass, n_runs)),
            # Not Wilson's exact bounds: plausible numbers for the report to print.
            "pooled_pass_rate_ci": [
                round(max(0.0, n_pass / n_runs - 0.14), 4),
                round(min(1.0, n_pass / n_runs + 0.15), 4),
            ],
            "mean_clipped_score": fraction_fact(Fraction(clipped, n_runs)),
            "eligible": {
                "n_runs": e_runs,
                "n_pass": e_pass,
                "pooled_pass_rate": fraction_fact(Fraction(e_pass, e_runs)),
                "pooled_pass_rate_ci": [0.1, 0.4],
                "mean_clipped_score": fraction_fact(
                    Fraction(sum(cell[2] for cell in eligible.values()), e_runs)
                ),
            },
            "spread": {"pass_rate": 0.1961, "mean_clipped_score": 1.1422},
            "hardest_version": sorted(v for v in rates if rates[v] == min(rates.values())),
            "easiest_version": sorted(v for v in rates if rates[v] == max(rates.values())),
        }
    # Hardest first: pooled pass rate, then mean clipped score, then code.
    order_of = sorted(
        FAMILIES,
        key=lambda f: (
            Fraction(result[f]["n_pass"], result[f]["n_runs"]),
            Fraction(
                result[f]["mean_clipped_score"]["num"], result[f]["mean_clipped_score"]["den"]
            ),
            f,
        ),
    )
    return {"order": order_of, **result}


def calibration(order) -> dict:
    versions = {}
    for version in sorted(order):
        brier, ece, brier_rank, ece_rank = CALIBRATION[version]
        versions[version] = {
            "brier": brier,
            "ece": ece,
            "brier_rank": brier_rank,
            "brier_rank_low": max(1, brier_rank - 1),
            "brier_rank_high": min(len(order), brier_rank + 1),
            "ece_rank": ece_rank,
            "ece_rank_low": max(1, ece_rank - 1),
            "ece_rank_high": min(len(order), ece_rank + 2),
            "brier_p_lowest": 0.7 if brier_rank == 1 else 0.3 if brier_rank == 2 else 0.0,
            "ece_p_lowest": 0.55 if ece_rank == 1 else 0.45 if ece_rank == 2 else 0.0,
            "ece_bins": 4,
            "ece_is_offset": version == "cirrus-reasoner-r1",
            "mean_confidence": fraction_fact(Fraction(71, 100)),
            "mean_correctness": fraction_fact(Fraction(3, 5)),
            "overconfidence": fraction_fact(Fraction(11, 100)),
            "n_wrong": 2,
            "mean_confidence_wrong": fraction_fact(Fraction(13, 20)),
            "n_fail": 1,
            "mean_confidence_fail": None
            if version == "cirrus-reasoner-r1"
            else fraction_fact(Fraction(3, 4)),
        }
    by_rank = {v: f for v, f in versions.items()}
    return {
        "tie_rule": "ties share a rank on the published 4-decimal value (1, 2, 2, 4)",
        "versions": versions,
        "ece_bins_min": 4,
        "ece_bins_max": 4,
        "ece_is_offset": ["cirrus-reasoner-r1"],
        "brier_most_often_lowest": sorted(v for v in by_rank if by_rank[v]["brier_rank"] == 1),
        "ece_most_often_lowest": sorted(v for v in by_rank if by_rank[v]["ece_rank"] == 1),
        "best_brier": sorted(v for v in by_rank if by_rank[v]["brier_rank"] == 1),
        "best_ece": sorted(v for v in by_rank if by_rank[v]["ece_rank"] == 1),
        "spearman": {
            "brier": {
                "rho": -0.9,
                "ci_low": -1.0,
                "ci_high": -0.3,
                "n_versions": 5,
                "n_undefined": 0,
            },
            "ece": {"rho": -0.7, "ci_low": -1.0, "ci_high": 0.1, "n_versions": 5, "n_undefined": 0},
        },
    }


def neighbours(ranked) -> list:
    tests = []
    for index, (upper, lower) in enumerate(itertools.pairwise(ranked)):
        delta = Fraction(Q_FINAL[upper]) - Fraction(Q_FINAL[lower])
        separable = index == 1
        tests.append(
            {
                "upper": upper,
                "lower": lower,
                "upper_rank": index + 1,
                "lower_rank": index + 2,
                "n_common_cases": 28,
                "delta_q_final": fraction_fact(delta),
                "ci_low": round(float(delta) - 0.08, 4),
                "ci_high": round(float(delta) + 0.08, 4),
                "p_value": fraction_fact(Fraction(1, 500) if separable else Fraction(3, 10)),
                "p_holm": fraction_fact(Fraction(3, 500) if separable else Fraction(3, 5)),
                "separable": separable,
                "p_method": "exact",
                "p_draws": 0,
            }
        )
    return tests


def cost(order) -> dict:
    priced = sorted(v for v in order if COST[v] is not None)
    cheapest = min(COST[v] for v in priced)
    dearest = max(COST[v] for v in priced)
    return {
        "has_telemetry": True,
        "reason": "",
        "versions": {
            version: {
                "cost_per_case_usd": fraction_fact(COST[version]),
                "median_latency_s": LATENCY[version][0],
                "p95_latency_s": LATENCY[version][1],
            }
            for version in sorted(order)
        },
        "cheapest": [v for v in priced if COST[v] == cheapest],
        "most_expensive": [v for v in priced if COST[v] == dearest],
        "ratio": {
            a: {b: fraction_fact(COST[a] / COST[b]) for b in priced if b != a} for a in priced
        },
        "pareto": {
            "all": ["borealis-xl-2026-04-02", "cirrus-reasoner-r1"],
            "eligible": ["borealis-xl-2026-04-02", "cirrus-reasoner-r1"],
        },
    }


def dimensions(order) -> dict:
    def group(versions):
        runs = sum(CELLS[v][f][0] for v in versions for f in FAMILIES)
        passes = sum(CELLS[v][f][1] for v in versions for f in FAMILIES)
        return {
            "versions": versions,
            "n_versions": len(versions),
            "n_scored_runs": runs,
            "pass_rate": fraction_fact(Fraction(passes, runs)),
            "mean_q_final": round(sum(float(Q_FINAL[v]) for v in versions) / len(versions), 4),
            "critical_fail_events": 3 if DISQUALIFIED in versions else 0,
            "n_disqualified": int(DISQUALIFIED in versions),
            "best_q_final_version": max(versions, key=lambda v: Fraction(Q_FINAL[v])),
            "mean_brier": 0.1254,
            "mean_ece": 0.1835,
            "mean_cost_per_case_usd": None,
        }

    by = {"provider": {}, "track": {}, "access_type": {}, "weights": {}}
    for _, version, provider, track in VERSIONS:
        by["provider"].setdefault(provider, []).append(version)
        by["track"].setdefault(track, []).append(version)
        by["access_type"].setdefault("api" if "rules" not in version else "local", []).append(
            version
        )
        by["weights"].setdefault("not declared", []).append(version)
    return {
        dimension: {value: group(versions) for value, versions in sorted(values.items())}
        for dimension, values in by.items()
    }


def with_more_versions(facts: dict, extra: int) -> dict:
    """The facts with `extra` more eligible versions at the bottom of the ranking (each a
    copy of the last eligible version's facts under a new name)."""
    facts = copy.deepcopy(facts)
    template = facts["safety"]["eligible"]["versions"][-1]
    previous = template
    for index in range(extra):
        name = f"extra-model-v{index + 1}.0"
        facts["n_versions"] += 1
        facts["safety"]["eligible"]["versions"].append(name)
        facts["safety"]["eligible"]["count"] += 1
        facts["safety"]["events_per_version"][name] = 0
        facts["calibration"]["versions"][name] = copy.deepcopy(
            facts["calibration"]["versions"][template]
        )
        facts["cost"]["versions"][name] = copy.deepcopy(facts["cost"]["versions"][template])
        rank = len(facts["safety"]["eligible"]["versions"])
        facts["neighbours"].append(
            {
                **copy.deepcopy(facts["neighbours"][-1]),
                "upper": previous,
                "lower": name,
                "upper_rank": rank - 1,
                "lower_rank": rank,
            }
        )
        facts["neighbours_summary"]["n_pairs"] += 1
        previous = name
    return facts


def without_critical_fails(facts: dict) -> dict:
    """No critical fail anywhere: nobody disqualified, every count 0, no event."""
    facts = copy.deepcopy(facts)
    gate = facts["safety"]
    everyone = gate["eligible"]["versions"] + gate["disqualified"]["versions"]
    gate.update(
        critical_fail_events=0,
        versions_with_critical_fail=0,
        events=[],
        n_critical_fails=0,
        n_reviewer_flags=0,
        events_per_trigger=dict.fromkeys(gate["events_per_trigger"], 0),
        events_per_version=dict.fromkeys(gate["events_per_version"], 0),
        events_per_family=dict.fromkeys(gate["events_per_family"], 0),
        disqualified={"count": 0, "versions": []},
        eligible={"count": len(everyone), "versions": everyone},
    )
    for row in gate["ungated_ranking"]:
        row["status"] = "Eligible"
    for family in facts["families"]["order"]:
        facts["families"][family]["critical_fail_events"] = 0
    return facts


def without_telemetry(facts: dict) -> dict:
    facts = copy.deepcopy(facts)
    facts["cost"] = {
        "has_telemetry": False,
        "reason": "the corpus has no telemetry (no logs/ folder)",
    }
    return facts
