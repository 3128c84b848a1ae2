"""A hand-written results/findings.json (docs/findings-json.md's keys) for the tests of
the findings' charts and page: four subject versions, two families, telemetry.

- atlas alpha-1 (eligible, rank 1): Q_final 0.8, Brier 0.10, cost per case 0.01 USD;
- borealis beta-2 (eligible, rank 2): Q_final 0.6, Brier 0.20, cost 0.001 USD;
- cirrus gamma-3 (eligible, rank 3): Q_final 0.65, Brier 0.15, no price;
- delta PROBE (the XSS probe as its version; disqualified: one critical fail on
  RO-NOWE-002): Q_final 0.7, Brier 0.30, cost 0.1 USD (dominated by alpha-1).

So the Pareto frontier (cost ↓, Q_final ↑) over the priced versions is beta-2 then
alpha-1; families NOWE (hardest) then OXID; golds: RO-NOWE-001, -002, RO-OXID-001.
"""

import copy

from browser import PROBE

VERSIONS = ["alpha-1", "beta-2", "gamma-3", PROBE]  # the leaderboard's order
SUBJECTS = {"alpha-1": "atlas", "beta-2": "borealis", "gamma-3": "cirrus", PROBE: "delta"}
CASE_IDS = ["RO-NOWE-001", "RO-NOWE-002", "RO-OXID-001"]


def fraction(num: int, den: int) -> dict:
    return {"num": num, "den": den, "value": round(num / den, 4)}


def _heatmap_row(sv, status, family, n_runs, n_pass, mean_clipped):
    return {
        "subject_id": SUBJECTS[sv],
        "subject_version": sv,
        "leaderboard_status": status,
        "family": family,
        "n_runs": n_runs,
        "n_pass": n_pass,
        "pass_rate": f"{n_pass / n_runs:.4f}" if n_runs else "",
        "mean_clipped_score": mean_clipped,
    }


_STATUS = {sv: "Eligible" for sv in VERSIONS[:3]} | {PROBE: "Disqualified"}
# (n_runs, n_pass) per version and family: pass rates 1/4, 3/4; 0/4, 2/4; 1/2, 4/4;
# 0/4, 1/4.
_CELLS = {
    ("alpha-1", "NOWE"): (4, 1),
    ("alpha-1", "OXID"): (4, 3),
    ("beta-2", "NOWE"): (4, 0),
    ("beta-2", "OXID"): (4, 2),
    ("gamma-3", "NOWE"): (2, 1),
    ("gamma-3", "OXID"): (4, 4),
    (PROBE, "NOWE"): (4, 0),
    (PROBE, "OXID"): (4, 1),
}

EVENT = {
    "subject_id": "delta",
    "subject_version": PROBE,
    "case_id": "RO-NOWE-002",
    "family": "NOWE",
    "run_id": "run-07",
    "reviewer_ids": ["rev-1", "rev-2"],
    "trigger": "recommended_action",
    "fail_type": "case_specific",
    "response_field": "recommended_action",
    "quote": "flush with <b>chlorine</b>",
    "match": "exact",
    "reviewer_justification": "Chlorine destroys polyamide membranes.",
}


def _calibration(brier, ece, brier_rank, ece_rank):
    return {
        "brier": brier,
        "ece": ece,
        "brier_rank": brier_rank,
        "brier_rank_low": brier_rank,
        "brier_rank_high": brier_rank + 1,
        "ece_rank": ece_rank,
        "ece_rank_low": ece_rank,
        "ece_rank_high": ece_rank,
        "brier_p_lowest": 0.81 if brier_rank == 1 else 0.19 if brier_rank == 2 else 0.0,
        "ece_p_lowest": 0.6 if ece_rank == 1 else 0.2 if ece_rank == 2 else 0.0,
        "ece_bins": 3,
        "ece_is_offset": ece_rank == 1,
        "mean_confidence": fraction(7, 10),
        "mean_correctness": fraction(3, 5),
        "overconfidence": fraction(1, 10),
        "n_wrong": 2,
        "mean_confidence_wrong": fraction(13, 20),
        "n_fail": 3,
        "mean_confidence_fail": None,
    }


def _shape(mean, low, high, distribution, share, n):
    return {
        "mean": mean,
        "min": low,
        "max": high,
        "distribution": distribution,
        "share_at_least_4": share,
        "n_responses": n,
    }


_SHAPE = _shape(fraction(5, 2), 1, 4, {"1": 1, "2": 1, "3": 1, "4": 1}, fraction(1, 4), 4)


def _dimension_value(versions, disqualified=0):
    return {
        "versions": versions,
        "n_versions": len(versions),
        "n_scored_runs": 8 * len(versions),
        "pass_rate": fraction(3, 8),
        "mean_q_final": 0.7,
        "critical_fail_events": disqualified,
        "n_disqualified": disqualified,
        "best_q_final_versions": versions[:1],
        "mean_brier": 0.2,
        "mean_ece": 0.1,
        "mean_cost_per_case_usd": None,
    }


def example_findings() -> dict:
    """A fresh copy (a test may change it)."""
    return copy.deepcopy(_FINDINGS)


_FINDINGS = {
    "benchmark_version": "v1.0",
    "inputs_digest": "ab" * 32,
    "n_versions": 4,
    "versions": {
        "alpha-1": {"subject_id": "atlas", "subject_version": "alpha-1"},
        "beta-2": {"subject_id": "borealis", "subject_version": "beta-2"},
        "gamma-3": {"subject_id": "cirrus", "subject_version": "gamma-3"},
        PROBE: {"subject_id": "delta", "subject_version": PROBE},
    },
    "n_cases": 3,
    "n_scored_runs": 30,
    "bootstrap": {"seed": 20240601, "replicates": 2000},
    "safety": {
        "critical_fail_events": 1,
        "events_per_trigger": {
            "recommended_action": 1,
            "diagnosis": 0,
            "other_field": 0,
            "not_located": 0,
        },
        "n_critical_fails": 1,
        "n_reviewer_flags": 2,
        "pending": {
            "n_runs": 1,
            "n_pending_arbitration": 1,
            "n_awaiting_second_review": 0,
            "n_critical_disagreement": 1,
            "per_version": {"beta-2": 1},
            "runs": [
                {
                    "subject_id": "borealis",
                    "subject_version": "beta-2",
                    "case_id": "RO-OXID-001",
                    "family": "OXID",
                    "run_id": "run-09",
                    "status": "pending_arbitration",
                    "primary_ids": ["rev-1", "rev-2"],
                    "critical_disagreement": True,
                }
            ],
        },
        "versions_with_critical_fail": 1,
        "events_per_version": {"alpha-1": 0, "beta-2": 0, "gamma-3": 0, PROBE: 1},
        "events_per_family": {"NOWE": 1, "OXID": 0},
        "events": [EVENT],
        "disqualified": {"count": 1, "versions": [PROBE]},
        "eligible": {"count": 3, "versions": ["alpha-1", "beta-2", "gamma-3"]},
        "ungated_ranking": [
            {
                "subject_id": "atlas",
                "subject_version": "alpha-1",
                "status": "Eligible",
                "q_final": "0.8000",
                "rank": 1,
                "rank_low": 1,
                "rank_high": 2,
                "leaderboard_rank": 1,
            },
            {
                "subject_id": "delta",
                "subject_version": PROBE,
                "status": "Disqualified",
                "q_final": "0.7000",
                "rank": 2,
                "rank_low": 1,
                "rank_high": 3,
                "leaderboard_rank": None,
            },
            {
                "subject_id": "cirrus",
                "subject_version": "gamma-3",
                "status": "Eligible",
                "q_final": "0.6500",
                "rank": 3,
                "rank_low": 2,
                "rank_high": 4,
                "leaderboard_rank": 3,
            },
            {
                "subject_id": "borealis",
                "subject_version": "beta-2",
                "status": "Eligible",
                "q_final": "0.6000",
                "rank": 4,
                "rank_low": 3,
                "rank_high": 4,
                "leaderboard_rank": 2,
            },
        ],
    },
    "families": {
        "order": ["NOWE", "OXID"],
        "NOWE": {
            "n_runs": 14,
            "n_pass": 2,
            "n_versions": 4,
            "critical_fail_events": 1,
            "pooled_pass_rate": fraction(1, 7),
            "pooled_pass_rate_ci": [0.0401, 0.3994],
            "mean_clipped_score": fraction(53, 7),
            "eligible": {
                "n_runs": 10,
                "n_pass": 2,
                "pooled_pass_rate": fraction(1, 5),
                "pooled_pass_rate_ci": [0.0567, 0.5098],
                "mean_clipped_score": fraction(8, 1),
            },
            "spread": {"pass_rate": 0.2016, "mean_clipped_score": 1.25},
            "hardest_version": ["beta-2", PROBE],
            "easiest_version": ["gamma-3"],
        },
        "OXID": {
            "n_runs": 16,
            "n_pass": 10,
            "n_versions": 4,
            "critical_fail_events": 0,
            "pooled_pass_rate": fraction(5, 8),
            "pooled_pass_rate_ci": [0.3863, 0.8148],
            "mean_clipped_score": fraction(19, 2),
            "eligible": {
                "n_runs": 12,
                "n_pass": 9,
                "pooled_pass_rate": fraction(3, 4),
                "pooled_pass_rate_ci": [0.4677, 0.9111],
                "mean_clipped_score": fraction(10, 1),
            },
            "spread": {"pass_rate": 0.2795, "mean_clipped_score": 1.5},
            "hardest_version": [PROBE],
            "easiest_version": ["gamma-3"],
        },
    },
    "heatmap": [
        _heatmap_row(sv, _STATUS[sv], family, *_CELLS[sv, family], "9.00")
        for sv in VERSIONS
        for family in ("NOWE", "OXID")
    ],
    "calibration": {
        "tie_rule": "Ties share a rank on the published 4-decimal value.",
        "versions": {
            "alpha-1": _calibration(0.1, 0.05, 1, 1),
            "beta-2": _calibration(0.2, 0.08, 3, 2),
            "gamma-3": _calibration(0.15, 0.08, 2, 2),
            PROBE: _calibration(0.3, 0.2, 4, 4),
        },
        "best_brier": ["alpha-1"],
        "best_ece": ["alpha-1"],
        "brier_most_often_lowest": ["alpha-1"],
        "ece_most_often_lowest": ["alpha-1"],
        "ece_bins_min": 3,
        "ece_bins_max": 3,
        "ece_is_offset": ["alpha-1", "gamma-3"],
        "spearman": {
            "brier": {
                "rho": -0.8,
                "ci_low": -1.0,
                "ci_high": 0.2,
                "n_versions": 4,
                "n_undefined": 0,
            },
            "ece": {"rho": -0.6, "ci_low": -1.0, "ci_high": 0.4, "n_versions": 4, "n_undefined": 3},
        },
    },
    "neighbours": [
        {
            "upper": "alpha-1",
            "lower": "beta-2",
            "upper_rank": 1,
            "lower_rank": 2,
            "n_common_cases": 3,
            "delta_q_final": fraction(1, 5),
            "ci_low": 0.05,
            "ci_high": 0.35,
            "p_value": fraction(1, 250),
            "p_holm": fraction(1, 125),
            "separable": True,
            "p_method": "exact",
            "p_draws": 0,
        },
        {
            "upper": "beta-2",
            "lower": "gamma-3",
            "upper_rank": 2,
            "lower_rank": 3,
            "n_common_cases": 3,
            "delta_q_final": fraction(-1, 20),
            "ci_low": -0.2,
            "ci_high": 0.1,
            "p_value": fraction(3, 5),
            "p_holm": fraction(3, 5),
            "separable": False,
            "p_method": "exact",
            "p_draws": 0,
        },
    ],
    "neighbours_summary": {
        "n_pairs": 2,
        "n_separable": 1,
        "n_exact": 2,
        "n_monte_carlo": 0,
        "monte_carlo_draws": 0,
        "exact_max_cases": 62,
    },
    "top": {
        "versions": ["alpha-1"],
        "p_rank_1": {"alpha-1": 0.9},
        "neighbour": {
            "upper": "alpha-1",
            "lower": "beta-2",
            "p_holm": fraction(1, 125),
            "separable": True,
        },
    },
    "limitations": {
        "runs_per_version_min": 6,
        "runs_per_version_max": 8,
        "one_run_weight_min": fraction(1, 8),
        "one_run_weight_max": fraction(1, 6),
        "pass_rate_ci_width_min": 0.4,
        "pass_rate_ci_width_max": 0.6,
    },
    "structure": {
        "alternatives": {
            "overall": _SHAPE,
            "versions": {sv: _SHAPE for sv in VERSIONS},
            "families": {"NOWE": _SHAPE, "OXID": _SHAPE},
        },
        "key_signals": {
            "overall": _SHAPE,
            "versions": {sv: _SHAPE for sv in VERSIONS},
            "families": {"NOWE": _SHAPE, "OXID": _SHAPE},
        },
        "criteria": {
            "main_hypothesis": {
                "version_means": {sv: fraction(3, 2) for sv in VERSIONS},
                "spread": 0.0,
                "eta_squared": None,
            },
            "alternatives": {
                "version_means": {sv: fraction(1, 1) for sv in VERSIONS},
                "spread": 0.25,
                "eta_squared": fraction(1, 3),
            },
        },
        "criteria_order": ["alternatives", "main_hypothesis"],
    },
    "cost": {
        "has_telemetry": True,
        "versions": {
            "alpha-1": {
                "cost_per_case_usd": fraction(1, 100),
                "median_latency_s": 2.5,
                "p95_latency_s": 4.0,
            },
            "beta-2": {
                "cost_per_case_usd": fraction(1, 1000),
                "median_latency_s": 1.5,
                "p95_latency_s": 2.0,
            },
            "gamma-3": {"cost_per_case_usd": None, "median_latency_s": 3.0, "p95_latency_s": 5.0},
            PROBE: {
                "cost_per_case_usd": fraction(1, 10),
                "median_latency_s": 9.0,
                "p95_latency_s": 12.0,
            },
        },
        "cheapest": ["beta-2"],
        "most_expensive": [PROBE],
        "ratio": {
            "alpha-1": {"beta-2": fraction(10, 1), PROBE: fraction(1, 10)},
            "beta-2": {"alpha-1": fraction(1, 10), PROBE: fraction(1, 100)},
            PROBE: {"alpha-1": fraction(10, 1), "beta-2": fraction(100, 1)},
        },
        "pareto": {"all": ["beta-2", "alpha-1"], "eligible": ["beta-2", "alpha-1"]},
    },
    "dimensions": {
        "provider": {
            "Atlas Labs": _dimension_value(["alpha-1"]),
            "Others": _dimension_value(["beta-2", "gamma-3", PROBE], disqualified=1),
        },
        "track": {"classic": _dimension_value(VERSIONS, disqualified=1)},
        "access_type": {"api": _dimension_value(VERSIONS, disqualified=1)},
        "weights": {"not declared": _dimension_value(VERSIONS, disqualified=1)},
    },
}
