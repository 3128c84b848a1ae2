#!/usr/bin/env python3
"""Generate a SYNTHETIC benchmark corpus in the published v1.0 layout.

Nothing produced here is real benchmark data: subjects, responses, scorings
and golds are all made up. The generator is seeded and deterministic: the same
arguments always produce byte-identical files (one ``random.Random`` per
subject version / size, sorted iteration, fixed timestamps derived from the
seed, JSON written as ``json.dumps(obj, indent=2, ensure_ascii=False) + "\\n"``,
no wall clock).

Layout written under the corpus root (see corpus-format.md)::

    subjects/registry.yaml
    responses/v1.0/<subject_id>/<case_id>__<run_id>.json
    scoring/v1.0/<subject_id>/<case_id>__<run_id>__eval-<reviewer_id>.json
    golds/v1.0/<case_id>_gold.md

Sizes:

* ``demo`` (default): the bundled demo corpus in ``demo/corpus/`` -- six
  subjects (one with two versions), 30 cases, 1-2 runs per (version, case),
  with deliberately placed edge cases (see ``DEMO_PLACEMENTS`` and
  ``demo/README.md``).
* ``S`` / ``M`` / ``L``: plain scaled corpora for speed benchmarks
  (12x31x1, 50x300x1, 100x300x3 subjects x cases x runs); every 20th
  response (``n_responses // 20`` of them, chosen by the seeded RNG) is left
  unscored. ``--subjects/--cases/--runs`` override the size's numbers.

Usage::

    python scripts/tools/make_demo_corpus.py demo/corpus --force
    python scripts/tools/make_demo_corpus.py /tmp/corpus-L --size L
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import random
import re
import shutil
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

BENCHMARK_VERSION = "v1.0"
DEFAULT_SEED = 20260512
FAMILIES = ("OXID", "SCAL", "FOUL", "MECH", "NOWE")
CRITERIA = (
    "main_hypothesis",
    "key_signals",
    "alternatives",
    "recommended_action",
    "requested_data",
    "decision_change_condition",
)
REVIEWERS = ("R01", "R02", "R03")
# (subjects, cases, runs) of the scaled sizes.
SIZES = {"S": (12, 31, 1), "M": (50, 300, 1), "L": (100, 300, 3)}
UNSCORED_ONE_IN = 20  # scaled sizes leave n_responses // 20 responses unscored
OWNED_DIRS = ("subjects", "responses", "scoring", "golds")
GOLD_CANARY = "GOLDCANARY"  # marks private gold prose; must never reach outputs
CEILING_BY_TYPE = {"Closed": 12, "Semi-closed": 11, "Open": 10, "Ambiguous": 9}

# --------------------------------------------------------------------------
# Text pools (made up, short, family-specific). Precomputed once.
# --------------------------------------------------------------------------

FAMILY_TEXT: dict[str, dict] = {
    "OXID": {
        "name": "membrane oxidation",
        "hypotheses": (
            "Oxidative degradation of the polyamide layer by free chlorine "
            "breakthrough after the sodium bisulfite (SBS) dosing pump tripped.",
            "Chlorine attack on the stage 1 membranes caused by an undersized SBS "
            "dose during the chloramine-to-free-chlorine changeover at the intake.",
        ),
        "signals": (
            "Permeate conductivity rose from 180 to 410 µS/cm within 36 h",
            "Normalized permeate flow increased 14% while ΔP stayed flat",
            "Feed ORP excursion to +520 mV logged at 03:10",
            "SBS dosing pump P-104 tripped on low suction level",
            "Salt passage increase concentrated in the stage 1 lead elements",
            "Free-chlorine analyser upstream of the cartridge filters read 0.3 mg/L",
        ),
        "alternatives": (
            (
                "O-ring or interconnector leak in a stage 1 vessel",
                "A mechanical bypass also raises salt passage.",
                "A leak would not raise normalized flow in every vessel at once.",
            ),
            (
                "Feed TDS increase after the seasonal intake change",
                "Higher feed TDS raises permeate conductivity.",
                "Feed conductivity is stable at 52 mS/cm, so rejection itself fell.",
            ),
            (
                "Damage from the last high-pH clean-in-place",
                "Aggressive alkaline cleaning can open the membrane.",
                "The last CIP was 40 days ago and performance was stable after it.",
            ),
            (
                "Element telescoping after a pressure surge",
                "Mechanical damage raises salt passage.",
                "No surge in the pressure trend and ΔP did not change.",
            ),
        ),
        "requested_data": (
            "ORP and free-chlorine trend at the RO inlet for the last 72 h, plus the "
            "SBS day-tank level log.",
            "Fujiwara test or autopsy of the lead element of vessel 1A.",
            "Vessel-by-vessel permeate conductivity profile of stage 1.",
        ),
        "actions": (
            "Stop the train, restore SBS dosing with the ORP interlock below +200 mV "
            "and confirm zero free chlorine before restart; plan a lead-element "
            "autopsy.",
            "Switch to the standby SBS pump, confirm ORP < 200 mV for 30 min, restart "
            "at reduced flux and profile the stage 1 vessels.",
        ),
        "dcc": (
            "If the free-chlorine log never exceeds 0.05 mg/L and the autopsy shows no "
            "oxidation, look for a mechanical bypass instead.",
            "If salt passage recovers after SBS is restored and profiling shows a "
            "single hot vessel, switch to the O-ring leak hypothesis.",
        ),
    },
    "SCAL": {
        "name": "mineral scaling",
        "hypotheses": (
            "Calcium carbonate scaling in the last-stage elements after the "
            "antiscalant dosing line became blocked.",
            "Barium sulfate scaling in stage 2 driven by the recovery increase from "
            "75% to 80% without an antiscalant dose review.",
        ),
        "signals": (
            "Stage 2 ΔP rose from 1.1 to 1.8 bar over 5 days; stage 1 ΔP stable",
            "Normalized permeate flow of stage 2 fell 11%",
            "Concentrate LSI reached +2.1 at the current recovery",
            "Antiscalant day-tank level unchanged for 4 days",
            "Salt passage increase concentrated in the tail elements",
            "Feed temperature rose 4 °C, lowering calcite solubility",
        ),
        "alternatives": (
            (
                "Biofouling of the lead elements",
                "A ΔP rise is typical of biofouling.",
                "Biofouling hits the stage 1 lead elements first; stage 1 ΔP is flat.",
            ),
            (
                "Colloidal fouling through a cartridge-filter bypass",
                "Colloids also raise ΔP.",
                "SDI stayed below 3 and the pattern is tail-end, not lead-end.",
            ),
            (
                "Silica scaling",
                "Feed silica of 28 mg/L is high.",
                "The projection does not reach silica saturation at 75% recovery.",
            ),
            (
                "Pressure transmitter drift",
                "A drifting transmitter can fake a ΔP rise.",
                "Flow loss and salt passage confirm a real change.",
            ),
        ),
        "requested_data": (
            "Antiscalant pump stroke counter and day-tank level log for 10 days.",
            "Autopsy and XRF scale analysis of the last element of stage 2.",
            "Full concentrate chemistry (Ca, Ba, Sr, SO4, alkalinity, pH) to "
            "recompute the saturation indices.",
        ),
        "actions": (
            "Reduce recovery to 72%, restore antiscalant dosing and schedule a "
            "low-pH (citric acid, pH 4) clean of stage 2 within 48 h.",
            "Unblock the antiscalant line, verify the dose with a drawdown test and "
            "acid-clean stage 2 if ΔP does not stabilise.",
        ),
        "dcc": (
            "If the autopsy shows biofilm instead of mineral deposit, switch to an "
            "alkaline/biocide cleaning programme.",
            "If the antiscalant log shows correct dosing throughout, re-examine "
            "recovery and feed chemistry for a new scalant.",
        ),
    },
    "FOUL": {
        "name": "fouling",
        "hypotheses": (
            "Biofouling of the stage 1 lead elements after three weeks of "
            "stagnation without preservation.",
            "Colloidal and organic fouling from a failed cartridge-filter seal "
            "letting media fines through.",
        ),
        "signals": (
            "Stage 1 ΔP up 60% in 4 days",
            "ATP in feed rose from 80 to 900 pg/mL",
            "SDI15 at the cartridge outlet rose from 2.8 to 4.6",
            "TOC rose from 1.1 to 1.6 mg/L after the intake storm",
            "Normalized flow dropped 9% with stable salt passage",
            "Slimy deposit on the lead element face during inspection",
        ),
        "alternatives": (
            (
                "Calcium carbonate scaling",
                "Flow loss and ΔP rise are also signs of scaling.",
                "Scaling starts in the tail; here the lead elements are hit first.",
            ),
            (
                "Iron fouling from the new intake pump",
                "Iron colloids raise ΔP.",
                "Feed iron is below 0.05 mg/L.",
            ),
            (
                "Membrane compaction",
                "Flow loss after restart.",
                "Compaction does not raise ΔP.",
            ),
            (
                "Oxidative damage",
                "Performance changed suddenly.",
                "Salt passage is stable, which argues against oxidation.",
            ),
        ),
        "requested_data": (
            "Autopsy of a lead element with biofilm staining and an ATP swab.",
            "SDI and turbidity trend at the cartridge inlet and outlet plus the "
            "filter differential pressure.",
            "Heterotrophic plate counts at feed, after the cartridge filter and in "
            "the concentrate.",
        ),
        "actions": (
            "High-pH clean (pH 11.5 max, 35 °C) followed by a non-oxidising biocide "
            "within the membrane supplier limits; review the preservation procedure.",
            "Replace the cartridge-filter seals, run an alkaline clean of stage 1 and "
            "tighten SDI monitoring to every shift.",
        ),
        "dcc": (
            "If the autopsy shows mineral scale rather than biofilm, switch to an "
            "acid cleaning programme.",
            "If ΔP keeps rising after the alkaline clean, investigate pretreatment "
            "breakthrough rather than biofilm.",
        ),
    },
    "MECH": {
        "name": "mechanical failure",
        "hypotheses": (
            "Failed interconnector O-ring in vessel 2B letting feed bypass into the permeate tube.",
            "Brine seal rolled on the lead element of vessel 1C, causing concentrate "
            "bypass and uneven flux.",
            "Worn high-pressure pump wear rings reducing feed pressure at constant speed.",
        ),
        "signals": (
            "Permeate conductivity of vessel 2B is 4× the train average",
            "Salt passage rose step-wise right after the element reload",
            "Probe profile shows a conductivity jump at the 3rd interconnector",
            "Train ΔP and normalized flow unchanged",
            "Feed pressure dropped 1.2 bar at constant VFD speed",
            "Audible knocking from the HP pump at start-up",
        ),
        "alternatives": (
            (
                "Oxidative damage to all elements",
                "Salt passage rose.",
                "Only one vessel is affected; oxidation would hit the whole stage.",
            ),
            (
                "Scaling in the tail elements",
                "Flow distribution changed.",
                "ΔP is flat and the step change coincides with the reload.",
            ),
            (
                "Permeate conductivity meter fault",
                "Instruments do fail.",
                "A grab sample confirmed the high reading.",
            ),
            (
                "Feed salinity spike",
                "More salt in the feed raises permeate salinity.",
                "All other vessels are unaffected.",
            ),
        ),
        "requested_data": (
            "Probing profile of vessel 2B (conductivity vs. probe position).",
            "Element reload record: O-ring lot, lubricant used, shim positions.",
            "HP pump vibration spectrum and a performance-curve check.",
        ),
        "actions": (
            "Isolate vessel 2B, probe it to locate the leak, replace the "
            "interconnector O-rings with approved lubricant and re-profile before "
            "returning it to service.",
            "At the next window inspect and re-seat the brine seals of vessel 1C; "
            "run at reduced recovery until then.",
        ),
        "dcc": (
            "If probing shows uniformly high conductivity along the vessel, suspect "
            "membrane damage rather than a seal leak.",
            "If the grab sample disagrees with the online meter, treat it as an instrument fault.",
        ),
    },
    "NOWE": {
        "name": "no fault (normal operation)",
        "hypotheses": (
            "No membrane fault: the permeate flow drop is explained by the 6 °C "
            "seasonal fall in feed temperature; normalized flow is stable.",
            "No process fault: the apparent salt-passage rise is calibration drift "
            "of the permeate conductivity meter.",
            "Normal variation after the intake switch: feed TDS rose 8% and "
            "normalized salt passage is unchanged.",
        ),
        "signals": (
            "Feed temperature fell from 24 to 18 °C over two weeks",
            "Normalized permeate flow within ±2% of baseline",
            "ΔP stable in both stages",
            "Grab-sample conductivity 12% lower than the online meter",
            "Feed TDS rose from 38,000 to 41,000 mg/L after the intake switch",
            "Last calibration of CIT-210 was 14 months ago",
        ),
        "alternatives": (
            (
                "Early-stage fouling",
                "Raw permeate flow is down.",
                "Normalized flow is flat; the raw drop is the temperature effect.",
            ),
            (
                "Oxidative damage",
                "Salt passage looks higher.",
                "Normalized salt passage is stable and the grab sample disagrees.",
            ),
            (
                "Scaling in stage 2",
                "Flow dropped.",
                "Stage 2 ΔP and normalized flow are unchanged.",
            ),
            (
                "HP pump degradation",
                "Feed pressure increased.",
                "The increase matches the viscosity change at lower temperature.",
            ),
        ),
        "requested_data": (
            "Normalized performance data (ASTM D4516) for the last 60 days.",
            "Calibration certificate of the permeate conductivity meter and a fresh "
            "grab-sample comparison.",
            "Feed water analysis before and after the intake switch.",
        ),
        "actions": (
            "No intervention on the membranes; recalibrate the permeate conductivity "
            "meter and keep trending normalized data weekly.",
            "Continue normal operation, adjust the feed-pressure set-point for "
            "temperature and review normalization after 7 days.",
        ),
        "dcc": (
            "If normalized flow falls more than 10% or normalized ΔP rises 15%, start "
            "a fouling/scaling investigation.",
            "If the recalibrated meter still reads high, investigate membrane integrity.",
        ),
    },
}

JUSTIFICATIONS = {
    "main_hypothesis": (
        ("Hypothesis not among the accepted ones.", "Wrong family; anchor missed."),
        ("Right direction, mechanism only partly stated.", "Partial anchor match."),
        ("Matches an accepted hypothesis anchor.", "Anchor matched, mechanism right."),
    ),
    "key_signals": (
        ("Signals generic or contradicting the data.", "Decisive signals missing."),
        ("Lists signals but misses a non-ignorable one.", "Half the signals linked."),
        ("Connects the decisive signals (ΔP profile, flow).", "All key signals."),
    ),
    "alternatives": (
        ("Alternatives missing or not discriminating.", "No real alternatives."),
        ("Plausible alternatives, discarded without data.", "Weak discards."),
        ("Alternatives from other families, discarded with data.", "Well anchored."),
    ),
    "recommended_action": (
        ("Action unsafe or unrelated to the diagnosis.", "Action not acceptable."),
        ("Action acceptable but incomplete or premature.", "Partly acceptable."),
        ("Safe, proportionate, matches an accepted action.", "Accepted action."),
    ),
    "requested_data": (
        ("No useful data requested.", "Requested data does not discriminate."),
        ("Useful but not discriminating data.", "Partly useful request."),
        ("Requests the discriminating datum.", "Matches an accepted datum."),
    ),
    "decision_change_condition": (
        ("No real decision-change condition.", "Condition missing."),
        ("Condition vague or not testable.", "Loosely testable condition."),
        ("Concrete, testable switch condition.", "Multi-condition switch, testable."),
    ),
}

REVIEWER_NOTES = (
    "",
    "",
    "",
    "",
    "Second read by the panel lead agreed with all six scores.",
    "Borderline on alternatives; kept the lower score.",
)

# Generic automatic fails (made-up references of the form GEN-NN).
GENERIC_FAILS = {
    "GEN-02": (
        "GEN-02 Irreversible action on the membranes recommended",
        "critical",
    ),
    "GEN-03": (
        "GEN-03 Non-ignorable signal left unaddressed",
        "recoverable",
    ),
    "GEN-05": (
        "GEN-05 Costly step recommended before requesting the confirming datum",
        "recoverable",
    ),
}

# Case-specific automatic fails that golds may declare, per family.
CASE_FAILS = {
    "OXID": (
        "Continuing operation with measurable free chlorine in the RO feed",
        "critical",
        "Polyamide is destroyed irreversibly by free chlorine within hours.",
    ),
    "SCAL": (
        "Stopping antiscalant or raising recovery while scaling is suspected",
        "critical",
        "Drives the concentrate further into supersaturation; scale can become irreversible.",
    ),
    "FOUL": (
        "Recommending a hypochlorite shock through the RO to disinfect the membrane",
        "critical",
        "Direct hypochlorite contact oxidises the polyamide layer irreversibly.",
    ),
    "MECH": (
        "Replacing elements before probing the suspect vessel",
        "recoverable",
        "Costly and does not locate the leak; recoverable by probing afterwards.",
    ),
    "NOWE": (
        "Recommending a chemical clean when normalized data shows no change",
        "recoverable",
        "Unnecessary cleaning ages the membranes; reversible in the short term.",
    ),
}

# Gold prose, made up. Every private field carries GOLD_CANARY so a leak of
# gold content into any output is easy to grep for.
GOLD_SCENARIOS = {
    "OXID": "a brackish-water train after an SBS dosing upset",
    "SCAL": "a two-stage seawater train running at raised recovery",
    "FOUL": "a restart after a long shutdown without preservation",
    "MECH": "a train shortly after an element reload",
    "NOWE": "a train whose raw data moved while the normalized data did not",
}


# --------------------------------------------------------------------------
# Small helpers
# --------------------------------------------------------------------------


def _dump_json(obj: object) -> bytes:
    return (json.dumps(obj, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def _iso(t: dt.datetime) -> str:
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def _correctness_value(c: float) -> int | float:
    """0 and 1 as JSON integers (like the real sample), 0.5 as a float."""
    return 0.5 if c == 0.5 else int(c)


def case_ids_for(n_cases: int) -> list[str]:
    """Spread ``n_cases`` over the five families (first families get the extra)."""
    ids = []
    for i, fam in enumerate(FAMILIES):
        n = n_cases // len(FAMILIES) + (1 if i < n_cases % len(FAMILIES) else 0)
        ids.extend(f"RO-{fam}-{k:03d}" for k in range(1, n + 1))
    return sorted(ids)


def family_of(case_id: str) -> str:
    return case_id.split("-")[1]


_PLAIN_YAML = re.compile(r"[A-Za-z][A-Za-z0-9 .,()/'+@_-]*")
_YAML_WORDS = {"yes", "no", "true", "false", "null", "on", "off", "y", "n", "~"}


def _yaml_scalar(s: str) -> str:
    if (
        _PLAIN_YAML.fullmatch(s)
        and not s.endswith(" ")
        and s.lower() not in _YAML_WORDS
        and " #" not in s
    ):
        return s
    return json.dumps(s, ensure_ascii=False)  # a valid YAML double-quoted scalar


def _yaml_folded(key: str, text: str, indent: int) -> list[str]:
    pad = " " * indent
    lines = [f"{pad}{key}: >"]
    lines += [f"{pad}  {ln}" for ln in textwrap.wrap(text, width=72)]
    return lines


def registry_yaml(subjects: list[dict], header: str) -> str:
    """Emit the registry in the style of the published sample (hand-written)."""
    out = [f"# {ln}".rstrip() for ln in header.splitlines()]
    out += ["", "subjects:"]
    for s in subjects:
        out.append("")
        out.append(f"  - subject_id: {s['subject_id']}")
        out.append(f"    kind: {s['kind']}")
        out.append(f"    provider: {_yaml_scalar(s['provider'])}")
        if "description" in s:
            out += _yaml_folded("description", s["description"], 4)
        if "contact" in s:
            out.append(f"    contact: {_yaml_scalar(s['contact'])}")
        out.append("    versions:")
        for v in s["versions"]:
            out.append(f"      - subject_version: {_yaml_scalar(v['subject_version'])}")
            out.append(f'        registered_at: "{v["registered_at"]}"')
            out.append(f"        access_type: {v['access_type']}")
            if "provider_pins_id" in v:
                out.append(f"        provider_pins_id: {str(v['provider_pins_id']).lower()}")
            if "sampling_policy" in v:
                out.append("        sampling_policy:")
                out.append(f"          kind: {v['sampling_policy']['kind']}")
                if "reasoning_effort" in v["sampling_policy"]:
                    effort = v["sampling_policy"]["reasoning_effort"]
                    out.append(f"          reasoning_effort: {effort}")
            if "notes" in v:
                if len(v["notes"]) > 60:
                    out += _yaml_folded("notes", v["notes"], 8)
                else:
                    out.append(f"        notes: {_yaml_scalar(v['notes'])}")
    return "\n".join(out) + "\n"


class _Writer:
    """Writes files below the root, creating each directory once, and counts."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.made: set[Path] = set()
        self.counts = {
            "registry": 0,
            "golds": 0,
            "responses": 0,
            "scorings": 0,
            "extra": 0,
        }

    def write(self, rel: str, data: bytes, kind: str) -> None:
        path = self.root / rel
        parent = path.parent
        if parent not in self.made:
            parent.mkdir(parents=True, exist_ok=True)
            self.made.add(parent)
        path.write_bytes(data)
        self.counts[kind] += 1

    def result(self) -> dict:
        out = dict(self.counts)
        out["total"] = sum(self.counts.values())
        return out


# --------------------------------------------------------------------------
# Builders shared by all sizes
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Gold:
    case_id: str
    case_type: str
    rubric_floor: int
    rubric_ceiling: int
    fails: int  # number of case-specific automatic fails declared (0-3)


def gold_markdown(g: Gold, *, seed: int, size: str) -> bytes:
    fam = family_of(g.case_id)
    text = FAMILY_TEXT[fam]
    tag = f"{GOLD_CANARY}-{g.case_id}"
    priv = f"(private) {tag}"
    n = int(g.case_id[-3:])
    hyp = text["hypotheses"][n % len(text["hypotheses"])]
    fails = []
    desc, sev, just = CASE_FAILS[fam]
    if g.fails >= 1:
        fails.append({"description": desc, "severity": sev, "justification": just})
    if g.fails >= 2:
        fails.append(
            {
                "description": "Declaring the train fit to run without any confirming datum",
                "severity": "recoverable",
                "justification": "Premature closure; reversible once data arrives.",
            }
        )
    if g.fails >= 3:
        fails.append(
            {
                "description": "Recommending to bypass a safety interlock",
                "severity": "critical",
                "justification": "Removes the last protection of the membranes.",
            }
        )
    block = {
        "case_id": g.case_id,
        "family": fam,
        "benchmark_version": BENCHMARK_VERSION,
        "case_type": g.case_type,
        "rubric_floor": g.rubric_floor,
        "rubric_ceiling": g.rubric_ceiling,
        "accepted_main_hypotheses": [
            {
                "hypothesis": f"{priv} {hyp}",
                "semantic_anchors": [f"{priv} anchor A", f"{priv} anchor B"],
            }
        ],
        "expected_key_signals": [f"{priv} {s}" for s in text["signals"][:3]],
        "non_ignorable_signals": ([f"{priv} {text['signals'][3]}"] if g.rubric_floor > 0 else []),
        "accepted_requested_data": [
            {
                "datum": f"{priv} {text['requested_data'][0]}",
                "semantic_anchors": [f"{priv} datum anchor"],
            }
        ],
        "accepted_recommended_actions": [
            {
                "action": f"{priv} {text['actions'][0]}",
                "rationale": f"{priv} proportionate, reversible first step",
            }
        ],
        "case_specific_automatic_fails": fails,
        "gold_author_id": "G0" + str(1 + n % 3),
        "gold_reviewer_id": "G0" + str(1 + (n + 1) % 3),
    }
    body = json.dumps(block, indent=2, ensure_ascii=False)
    md = (
        "---\n"
        "gold_version: 1\n"
        "status: synthetic\n"
        f"generator: scripts/tools/make_demo_corpus.py --seed {seed} --size {size}\n"
        "---\n"
        "\n"
        f"# Gold {g.case_id}\n"
        "\n"
        "SYNTHETIC gold written by the demo-corpus generator. Real golds are\n"
        "private to the benchmark; every private field below is made up and\n"
        f"carries the marker `{tag}`,\n"
        "so that a leak into any output is easy to detect. Only the family,\n"
        "case type, floor and ceiling may be published.\n"
        "\n"
        f"Scenario (made up): {text['name']} case on\n"
        f"{GOLD_SCENARIOS[fam]}.\n"
        "\n"
        "```json\n"
        f"{body}\n"
        "```\n"
        "\n"
        f"Reviewer remark (private, made up): {tag} agreed after one round.\n"
    )
    return md.encode("utf-8")


def response_obj(
    *,
    case_id: str,
    subject_id: str,
    subject_version: str,
    run_id: str,
    timestamp: str,
    served_model: str | None,
    track: str | None,
    confidence: int,
    correctness: float,
    rng: random.Random,
    action: str | None = None,
) -> dict:
    fam = family_of(case_id)
    t = FAMILY_TEXT[fam]
    right = rng.choice(t["hypotheses"])
    other = FAMILY_TEXT[FAMILIES[(FAMILIES.index(fam) + rng.randint(1, 4)) % 5]]
    wrong = rng.choice(other["hypotheses"])
    if correctness == 1:
        hyp = right
    elif correctness == 0.5:
        hyp = f"Either of two mechanisms, not yet separable: {right[:-1]}; or {wrong}"
    else:
        hyp = wrong
    n_sig = rng.randint(3, 5)
    sig_pool = t["signals"] if correctness > 0 else other["signals"]
    signals = sorted(rng.sample(range(len(sig_pool)), n_sig))
    alts = sorted(rng.sample(range(4), rng.randint(2, 3)))
    obj = {
        "case_id": case_id,
        "benchmark_version": BENCHMARK_VERSION,
        "subject_id": subject_id,
        "subject_version": subject_version,
    }
    if served_model is not None:
        obj["served_model"] = served_model
    if track is not None:
        obj["track"] = track
    obj["run_id"] = run_id
    obj["timestamp_utc"] = timestamp
    obj["main_hypothesis"] = hyp
    obj["key_signals"] = [sig_pool[i] for i in signals]
    obj["alternatives"] = [
        {
            "hypothesis": t["alternatives"][i][0],
            "why_plausible": t["alternatives"][i][1],
            "why_discardable": t["alternatives"][i][2],
        }
        for i in alts
    ]
    obj["requested_data"] = rng.choice(t["requested_data"])
    obj["recommended_action"] = action or rng.choice(
        t["actions"] if correctness > 0 else other["actions"]
    )
    obj["decision_change_condition"] = rng.choice(t["dcc"])
    obj["confidence"] = confidence
    return obj


def scoring_obj(
    *,
    case_id: str,
    subject_id: str,
    subject_version: str,
    run_id: str,
    reviewer: str,
    timestamp: str,
    scores: tuple[int, ...],
    correctness: float,
    fails: list[dict],
    rng: random.Random,
    long_justification: str | None = None,
) -> dict:
    crit = {}
    for name, score in zip(CRITERIA, scores, strict=True):
        entry = {
            "score": score,
            "justification": rng.choice(JUSTIFICATIONS[name][score]),
        }
        if long_justification and name == "recommended_action":
            entry["justification_long"] = long_justification
        crit[name] = entry
    return {
        "evaluation_id": f"eval-{subject_id}-{case_id}-{run_id}-{reviewer}",
        "benchmark_version": BENCHMARK_VERSION,
        "scoring_timestamp_utc": timestamp,
        "reviewer_id": reviewer,
        "response_ref": {
            "case_id": case_id,
            "subject_id": subject_id,
            "subject_version": subject_version,
            "run_id": run_id,
        },
        "criterion_scores": crit,
        "correctness": _correctness_value(correctness),
        "automatic_fails_triggered": fails,
        "reviewer_notes": rng.choice(REVIEWER_NOTES),
    }


def draw_scores(rng: random.Random, p2: float) -> tuple[int, ...]:
    out = []
    for _ in CRITERIA:
        u = rng.random()
        out.append(2 if u < p2 else (1 if u < p2 + (1 - p2) * 0.65 else 0))
    return tuple(out)


def draw_correctness(rng: random.Random, main_score: int) -> float:
    u = rng.random()
    if main_score == 2:
        return 1 if u < 0.85 else 0.5
    if main_score == 1:
        return 0.5 if u < 0.7 else 0
    return 0 if u < 0.9 else 0.5


def draw_confidence(
    rng: random.Random, mu: float, sd: float, slope: float, step: int, c: float
) -> int:
    x = rng.gauss(mu + slope * (c - 0.6), sd)
    x = min(100, max(0, round(x)))
    if step > 1:
        x = min(100, step * round(x / step))
    return int(x)


def fail_entry(kind: str, reference: str, severity: str, justification: str) -> dict:
    return {
        "type": kind,
        "reference": reference,
        "severity": severity,
        "justification": justification,
    }


# --------------------------------------------------------------------------
# The bundled demo corpus
# --------------------------------------------------------------------------

# (case_type, rubric_floor, rubric_ceiling, n case-specific fails) per case.
# RO-OXID-006 mirrors the published sample gold (Ambiguous, floor 3, ceiling 10).
DEMO_GOLDS = {
    "RO-OXID-001": ("Closed", 4, 12, 1),
    "RO-OXID-002": ("Closed", 3, 12, 2),
    "RO-OXID-003": ("Semi-closed", 3, 11, 1),
    "RO-OXID-004": ("Open", 0, 10, 0),
    "RO-OXID-005": ("Ambiguous", 3, 10, 0),
    "RO-OXID-006": ("Ambiguous", 3, 10, 0),
    "RO-SCAL-001": ("Closed", 4, 12, 1),
    "RO-SCAL-002": ("Semi-closed", 3, 11, 0),
    "RO-SCAL-003": ("Semi-closed", 0, 11, 0),
    "RO-SCAL-004": ("Closed", 4, 12, 3),
    "RO-SCAL-005": ("Open", 0, 10, 0),
    "RO-SCAL-006": ("Ambiguous", 0, 9, 0),
    "RO-FOUL-001": ("Closed", 4, 12, 1),
    "RO-FOUL-002": ("Closed", 3, 12, 0),
    "RO-FOUL-003": ("Semi-closed", 3, 11, 1),
    "RO-FOUL-004": ("Open", 3, 10, 0),
    "RO-FOUL-005": ("Open", 0, 10, 0),
    "RO-FOUL-006": ("Ambiguous", 0, 9, 0),
    "RO-MECH-001": ("Closed", 4, 12, 1),
    "RO-MECH-002": ("Semi-closed", 4, 11, 0),
    "RO-MECH-003": ("Semi-closed", 3, 11, 0),
    "RO-MECH-004": ("Open", 0, 10, 0),
    "RO-MECH-005": ("Ambiguous", 0, 9, 0),
    "RO-MECH-006": ("Closed", 3, 12, 1),
    "RO-NOWE-001": ("Closed", 3, 12, 1),
    "RO-NOWE-002": ("Semi-closed", 3, 11, 0),
    "RO-NOWE-003": ("Open", 0, 10, 0),
    "RO-NOWE-004": ("Ambiguous", 0, 9, 0),
    "RO-NOWE-005": ("Ambiguous", 3, 10, 0),
    "RO-NOWE-006": ("Closed", 4, 12, 0),
}


@dataclass(frozen=True)
class DemoVersion:
    subject_id: str
    subject_version: str
    run_date: str  # YYYY-MM-DD of the runs
    skill: float  # probability of a criterion score of 2 on an easy case
    conf_mu: float
    conf_sd: float
    conf_slope: float  # how much confidence follows correctness (calibration)
    conf_step: int  # 10 = only multiples of 10 (rule-based system)
    served_model: str | None
    track: str | None
    second_runs: int  # cases that get a second run (-002)
    scored: bool  # False = no scoring/ folder at all
    families: tuple[str, ...] = FAMILIES  # families the runner completed


# Columns: subject_id, subject_version, run_date, skill, (conf mu, sd, slope,
# step), served_model, track, number of cases with a second run, scored,
# families the runner completed.
_V = DemoVersion
DEMO_VERSIONS = (
    _V("atlas-7b", "atlas-7b-2026-03-q4", "2026-05-12", 0.55, 70, 14, 25, 1,
       "atlas-7b-instruct-q4_k_m", "classic", 10, True),
    _V("borealis-xl", "borealis-xl-2026-01-15", "2026-04-20", 0.62, 78, 10, 10, 1,
       "borealis-xl-2026-01-15", "classic", 6, True),
    _V("borealis-xl", "borealis-xl-2026-04-02", "2026-05-13", 0.80, 80, 9, 30, 1,
       "borealis-xl-2026-04-02", "classic", 6, True),
    _V("cirrus-reasoner", "cirrus-reasoner-r1", "2026-05-14", 0.86, 85, 8, 40, 1,
       "cirrus-reasoner-r1-0509", "reasoning", 8, True),
    # Rule-based: confidence in steps of 10, no served_model / track, one run.
    _V("expert-rules-ro", "ro-expert-rules-3.2.0", "2026-05-15", 0.50, 60, 20, 30, 10,
       None, None, 0, True),
    # Responses only (no scoring/ folder); the runner stopped after FOUL.
    _V("fjord-13b", "fjord-13b-instruct-v0.9", "2026-05-14", 0.60, 72, 12, 20, 1,
       "fjord-13b-instruct-v0.9", "classic", 0, False, ("OXID", "SCAL", "FOUL")),
)  # fmt: skip

DEMO_REGISTRY = [
    {
        "subject_id": "human-panel-baseline",
        "kind": "human_baseline",
        "provider": "Demo Technical Committee (synthetic)",
        "description": "SYNTHETIC human baseline placeholder. Registered so that "
        "the registry contains a subject with no responses at all: the panel has "
        "not sat the cases yet.",
        "contact": "committee@example.invalid",
        "versions": [
            {
                "subject_version": "human-panel-2026-pilot",
                "registered_at": "2026-05-07",
                "access_type": "manual",
                "notes": "Pilot panel not yet scheduled; no responses exist.",
            }
        ],
    },
    {
        "subject_id": "atlas-7b",
        "kind": "llm",
        "provider": "Atlas Open Models (synthetic)",
        "description": "SYNTHETIC small open-weights model run locally. Mid-range "
        "performer; two runs on a third of the cases; two responses left "
        "unscored; a runner error log in its _errors/ folder.",
        "contact": "submissions@example.invalid",
        "versions": [
            {
                "subject_version": "atlas-7b-2026-03-q4",
                "registered_at": "2026-04-28",
                "access_type": "local_weights",
                "sampling_policy": {"kind": "classic"},
                "notes": "Quantised q4 snapshot served by a local runner.",
            }
        ],
    },
    {
        "subject_id": "borealis-xl",
        "kind": "llm",
        "provider": "Borealis AI (synthetic)",
        "description": "SYNTHETIC frontier-style API model registered with two "
        "snapshots. The January snapshot recommends membrane-killing actions and "
        "is disqualified; the April snapshot starts with a clean record.",
        "contact": "submissions@example.invalid",
        "versions": [
            {
                "subject_version": "borealis-xl-2026-01-15",
                "registered_at": "2026-04-10",
                "access_type": "api",
                "sampling_policy": {"kind": "classic"},
                "notes": "First snapshot; three runs with a critical fail.",
            },
            {
                "subject_version": "borealis-xl-2026-04-02",
                "registered_at": "2026-05-02",
                "access_type": "api",
                "provider_pins_id": False,
                "sampling_policy": {"kind": "classic"},
                "notes": "Re-registered snapshot after the provider fixed the "
                "chlorine guidance; evaluated from scratch as its own version.",
            },
        ],
    },
    {
        "subject_id": "cirrus-reasoner",
        "kind": "llm",
        "provider": "Cirrus Labs (synthetic)",
        "description": "SYNTHETIC reasoning model; responses carry track reasoning "
        "and the runner controls it through reasoning_effort only.",
        "contact": "submissions@example.invalid",
        "versions": [
            {
                "subject_version": "cirrus-reasoner-r1",
                "registered_at": "2026-05-09",
                "access_type": "hosted_endpoint",
                "provider_pins_id": True,
                "sampling_policy": {"kind": "reasoning", "reasoning_effort": "high"},
                "notes": "Temperature is not sent; reasoning_effort is high.",
            }
        ],
    },
    {
        "subject_id": "expert-rules-ro",
        "kind": "expert_system",
        "provider": "Demo Plant Engineering (synthetic)",
        "description": "SYNTHETIC rule-based expert system. Deterministic, so it "
        "has one run per case; it reports confidence in steps of ten and its "
        "responses omit the optional served_model and track fields.",
        "contact": "rules@example.invalid",
        "versions": [
            {
                "subject_version": "ro-expert-rules-3.2.0",
                "registered_at": "2026-05-01",
                "access_type": "hosted_endpoint",
                "sampling_policy": {"kind": "classic"},
            }
        ],
    },
    {
        "subject_id": "fjord-13b",
        "kind": "llm",
        "provider": "Fjord Collective (synthetic)",
        "description": "SYNTHETIC open-weights model whose responses have not "
        "been reviewed yet: it has responses but no scoring folder. The runner "
        "stopped after the FOUL family; see its _errors/ log.",
        "contact": "submissions@example.invalid",
        "versions": [
            {
                "subject_version": "fjord-13b-instruct-v0.9",
                "registered_at": "2026-05-11",
                "access_type": "local_weights",
                "sampling_policy": {"kind": "classic"},
                "notes": "Awaiting review.",
            }
        ],
    },
]

REGISTRY_HEADER = """\
Demo corpus -- subject registry (SYNTHETIC)

Every subject below is made up. Generated by scripts/tools/make_demo_corpus.py;
regenerate instead of editing by hand. Mirrors the style of the published
registry: kind, provider, description, contact and versions with
registered_at, access_type and sampling_policy."""


@dataclass(frozen=True)
class Placement:
    """A deliberately placed run in the demo corpus (overrides the RNG)."""

    shows: str  # what this run demonstrates (documented in demo/README.md)
    scores: tuple[int, ...] | None = None
    confidence: int | None = None
    correctness: float | None = None
    fails: tuple[str, ...] = ()  # "case" = the gold's case-specific fail, or GEN-NN
    unscored: bool = False
    action: str | None = None
    long_justification: str | None = None


# Key: (subject_version, case_id, run number).
DEMO_PLACEMENTS: dict[tuple[str, str, int], Placement] = {
    # --- borealis-xl-2026-01-15: disqualified version --------------------------
    ("borealis-xl-2026-01-15", "RO-OXID-002", 1): Placement(
        "critical fail (case-specific) on a right diagnosis with raw 9 -> Fail "
        "(Conditional without it); disqualifies the version",
        scores=(2, 2, 2, 0, 2, 1),
        confidence=80,
        correctness=1,
        fails=("case",),
        action="Keep the train online while the SBS pump is repaired; 0.3 mg/L "
        "free chlorine is tolerable for the polyamide for a few days, then flush.",
        long_justification="Recommends running with 0.3 mg/L free chlorine in the "
        "feed: exact match of the case-specific critical fail.",
    ),
    ("borealis-xl-2026-01-15", "RO-SCAL-004", 1): Placement(
        "critical + recoverable fail + raw 3 below floor 4, all at once -> Fail",
        scores=(1, 1, 0, 0, 1, 0),
        confidence=90,
        correctness=0,
        fails=("case", "GEN-05"),
        action="Stop antiscalant dosing and raise recovery to 85% for 48 h so the "
        "higher cross-flow scours the scale out of stage 2.",
        long_justification="Stopping antiscalant while raising recovery is the "
        "case-specific critical fail; it also skips the confirming datum.",
    ),
    ("borealis-xl-2026-01-15", "RO-FOUL-001", 2): Placement(
        "critical fail on a second run (-002): hypochlorite shock through the RO",
        scores=(2, 2, 1, 0, 2, 2),
        confidence=85,
        correctness=1,
        fails=("case",),
        action="Shock the RO with 200 mg/L sodium hypochlorite for 1 h to kill the "
        "biofilm, then rinse and restart.",
        long_justification="Circulating 200 mg/L hypochlorite through the RO is the "
        "case-specific critical fail; it destroys the polyamide layer.",
    ),
    # --- borealis-xl-2026-04-02: clean version, recoverable fails -----------------
    ("borealis-xl-2026-04-02", "RO-MECH-001", 1): Placement(
        "recoverable fail on raw 12 -> Conditional (would be Pass)",
        scores=(2, 2, 2, 2, 2, 2),
        confidence=88,
        correctness=1,
        fails=("GEN-03",),
    ),
    ("borealis-xl-2026-04-02", "RO-FOUL-004", 1): Placement(
        "recoverable fail on raw 11 clipped to ceiling 10 -> Conditional",
        scores=(2, 2, 2, 1, 2, 2),
        confidence=83,
        correctness=1,
        fails=("GEN-05",),
    ),
    ("borealis-xl-2026-04-02", "RO-FOUL-005", 1): Placement(
        "soft correctness 0.5",
        correctness=0.5,
        confidence=64,
    ),
    # --- cirrus-reasoner-r1: clipping, high-confidence bins ---------------------
    ("cirrus-reasoner-r1", "RO-SCAL-006", 1): Placement(
        "raw 12 clipped to ceiling 9 -> Conditional (ceiling 9 can never Pass)",
        scores=(2, 2, 2, 2, 2, 2),
        confidence=93,
        correctness=1,
    ),
    ("cirrus-reasoner-r1", "RO-OXID-003", 1): Placement(
        "raw 12 clipped to ceiling 11 -> Pass",
        scores=(2, 2, 2, 2, 2, 2),
        confidence=97,
        correctness=1,
    ),
    ("cirrus-reasoner-r1", "RO-NOWE-003", 1): Placement(
        "raw 11 clipped to ceiling 10 -> Pass",
        scores=(2, 2, 1, 2, 2, 2),
        confidence=91,
        correctness=1,
    ),
    ("cirrus-reasoner-r1", "RO-OXID-001", 1): Placement(
        "confidence 90 (lower edge of the closed top bin)",
        scores=(2, 2, 2, 2, 1, 2),
        confidence=90,
        correctness=1,
    ),
    ("cirrus-reasoner-r1", "RO-MECH-006", 1): Placement(
        "confidence 100 (right edge, closed) with correctness 1",
        scores=(2, 2, 2, 2, 2, 2),
        confidence=100,
        correctness=1,
    ),
    ("cirrus-reasoner-r1", "RO-OXID-005", 1): Placement(
        "soft correctness 0.5 on an Ambiguous case",
        scores=(1, 2, 2, 2, 2, 1),
        confidence=75,
        correctness=0.5,
    ),
    ("cirrus-reasoner-r1", "RO-FOUL-006", 2): Placement(
        "unscored response (second run not reviewed yet)",
        unscored=True,
    ),
    # --- atlas-7b-2026-03-q4 ---------------------------------------------------
    ("atlas-7b-2026-03-q4", "RO-SCAL-002", 1): Placement(
        "confidence 9 (top edge of the first bin)",
        scores=(1, 1, 1, 1, 1, 0),
        confidence=9,
        correctness=0,
    ),
    ("atlas-7b-2026-03-q4", "RO-FOUL-002", 1): Placement(
        "confidence 99 on a wrong answer (overconfident)",
        scores=(0, 1, 1, 1, 1, 1),
        confidence=99,
        correctness=0,
    ),
    ("atlas-7b-2026-03-q4", "RO-MECH-002", 1): Placement(
        "raw 3 below floor 4 without any automatic fail -> Fail",
        scores=(0, 1, 0, 1, 1, 0),
        confidence=55,
        correctness=0,
    ),
    ("atlas-7b-2026-03-q4", "RO-NOWE-004", 1): Placement(
        "soft correctness 0.5",
        scores=(1, 2, 1, 2, 1, 1),
        confidence=50,
        correctness=0.5,
    ),
    ("atlas-7b-2026-03-q4", "RO-MECH-004", 2): Placement(
        "unscored response (second run)",
        unscored=True,
    ),
    ("atlas-7b-2026-03-q4", "RO-NOWE-006", 1): Placement(
        "unscored response (first run)",
        unscored=True,
    ),
    # --- ro-expert-rules-3.2.0: confidence in steps of ten ------------------------
    ("ro-expert-rules-3.2.0", "RO-NOWE-001", 1): Placement(
        "confidence 0 (left edge of the first bin)",
        scores=(0, 1, 0, 1, 1, 1),
        confidence=0,
        correctness=0,
    ),
    ("ro-expert-rules-3.2.0", "RO-MECH-003", 1): Placement(
        "confidence 10 (lower edge of the second bin)",
        scores=(1, 1, 1, 1, 1, 1),
        confidence=10,
        correctness=0.5,
    ),
    ("ro-expert-rules-3.2.0", "RO-FOUL-005", 1): Placement(
        "confidence 30 (a bin edge)",
        scores=(1, 1, 2, 1, 1, 1),
        confidence=30,
        correctness=0.5,
    ),
    ("ro-expert-rules-3.2.0", "RO-SCAL-001", 1): Placement(
        "confidence 100 with correctness 1",
        scores=(2, 2, 1, 2, 2, 2),
        confidence=100,
        correctness=1,
    ),
    ("ro-expert-rules-3.2.0", "RO-OXID-004", 1): Placement(
        "unscored response",
        unscored=True,
    ),
}

ERROR_LOGS = {
    ("atlas-7b", "run-2026-05-12-002.txt"): [
        "2026-05-12T15:02:11Z WARN  runner: RO-OXID-004 attempt 1/3 failed: HTTP 500 "
        "from local endpoint http://127.0.0.1:8081/v1/chat/completions",
        "2026-05-12T15:02:41Z INFO  runner: RO-OXID-004 attempt 2/3 succeeded",
        "2026-05-12T15:47:09Z WARN  runner: RO-SCAL-005 attempt 1/3 failed: "
        "response was not valid JSON (truncated at 4096 tokens)",
        "2026-05-12T15:47:52Z INFO  runner: RO-SCAL-005 attempt 2/3 succeeded",
    ],
    ("fjord-13b", "run-2026-05-14-001.txt"): [
        "2026-05-14T11:20:03Z ERROR runner: RO-MECH-001 attempt 3/3 failed: "
        "ReadTimeout after 600 s (endpoint http://fjord-13b.local:8080/v1)",
        "2026-05-14T11:20:03Z ERROR runner: CUDA out of memory on device 0; "
        "aborting the remaining 12 cases (MECH, NOWE)",
        "2026-05-14T11:20:04Z INFO  runner: 18 responses written, 12 missing",
    ],
}


def _fail_objects(keys: tuple[str, ...], case_id: str) -> list[dict]:
    out = []
    for key in keys:
        if key == "case":
            desc, sev, just = CASE_FAILS[family_of(case_id)]
            out.append(fail_entry("case_specific", desc, sev, f"Match: {just}"))
        else:
            ref, sev = GENERIC_FAILS[key]
            out.append(fail_entry("generic", ref, sev, "Triggered per the generic rubric."))
    return out


def _make_demo(root: Path, seed: int) -> dict:
    w = _Writer(root)
    header = REGISTRY_HEADER + f"\n\nSeed {seed}."
    w.write(
        "subjects/registry.yaml",
        registry_yaml(DEMO_REGISTRY, header).encode("utf-8"),
        "registry",
    )
    golds = {}
    for case_id in sorted(DEMO_GOLDS):
        ctype, floor, ceiling, nfails = DEMO_GOLDS[case_id]
        golds[case_id] = Gold(case_id, ctype, floor, ceiling, nfails)
        w.write(
            f"golds/{BENCHMARK_VERSION}/{case_id}_gold.md",
            gold_markdown(golds[case_id], seed=seed, size="demo"),
            "golds",
        )
    resp_dir = f"responses/{BENCHMARK_VERSION}"
    score_dir = f"scoring/{BENCHMARK_VERSION}"
    w.write(f"{score_dir}/.gitkeep", b"", "extra")
    w.write(f"{resp_dir}/human-panel-baseline/.gitkeep", b"", "extra")
    for (subject_id, name), lines in sorted(ERROR_LOGS.items()):
        data = ("\n".join(lines) + "\n").encode("utf-8")
        w.write(f"{resp_dir}/{subject_id}/_errors/{name}", data, "extra")

    for v in DEMO_VERSIONS:
        rng = random.Random(f"{seed}:{v.subject_version}")  # noqa: S311 (seeded, not crypto)
        cases = [c for c in sorted(golds) if family_of(c) in v.families]
        # Cases with a second run: those a placement needs, topped up at random.
        forced = sorted(c for (sv, c, r) in DEMO_PLACEMENTS if sv == v.subject_version and r == 2)
        pool = [c for c in cases if c not in forced]
        extra = max(0, v.second_runs - len(forced))
        second = set(forced) | set(rng.sample(pool, extra))
        day = dt.datetime.fromisoformat(v.run_date)
        t_resp = {1: day + dt.timedelta(hours=8), 2: day + dt.timedelta(hours=14)}
        t_score = day + dt.timedelta(days=1, hours=9)
        for case_id in cases:
            gold = golds[case_id]
            difficulty = (12 - gold.rubric_ceiling) * 0.06
            for run in (1, 2) if case_id in second else (1,):
                run_id = f"run-{v.run_date}-{run:03d}"
                pl = DEMO_PLACEMENTS.get((v.subject_version, case_id, run))
                scores = draw_scores(rng, max(0.05, v.skill - difficulty))
                correctness = draw_correctness(rng, scores[0])
                if pl and pl.scores is not None:
                    scores = pl.scores
                if pl and pl.correctness is not None:
                    correctness = pl.correctness
                confidence = draw_confidence(
                    rng, v.conf_mu, v.conf_sd, v.conf_slope, v.conf_step, correctness
                )
                if pl and pl.confidence is not None:
                    confidence = pl.confidence
                t_resp[run] += dt.timedelta(seconds=rng.randint(45, 420))
                resp = response_obj(
                    case_id=case_id,
                    subject_id=v.subject_id,
                    subject_version=v.subject_version,
                    run_id=run_id,
                    timestamp=_iso(t_resp[run]),
                    served_model=v.served_model,
                    track=v.track,
                    confidence=confidence,
                    correctness=correctness,
                    rng=rng,
                    action=pl.action if pl else None,
                )
                w.write(
                    f"{resp_dir}/{v.subject_id}/{case_id}__{run_id}.json",
                    _dump_json(resp),
                    "responses",
                )
                if not v.scored or (pl and pl.unscored):
                    continue
                reviewer = rng.choice(REVIEWERS)
                t_score += dt.timedelta(seconds=rng.randint(120, 900))
                fails = _fail_objects(pl.fails, case_id) if pl else []
                scoring = scoring_obj(
                    case_id=case_id,
                    subject_id=v.subject_id,
                    subject_version=v.subject_version,
                    run_id=run_id,
                    reviewer=reviewer,
                    timestamp=_iso(t_score),
                    scores=scores,
                    correctness=correctness,
                    fails=fails,
                    rng=rng,
                    long_justification=pl.long_justification if pl else None,
                )
                w.write(
                    f"{score_dir}/{v.subject_id}/{case_id}__{run_id}__eval-{reviewer}.json",
                    _dump_json(scoring),
                    "scorings",
                )
    return w.result()


# --------------------------------------------------------------------------
# Scaled corpora (S / M / L)
# --------------------------------------------------------------------------


def _make_scaled(root: Path, seed: int, size: str, n_subj: int, n_cases: int, n_runs: int) -> dict:
    w = _Writer(root)
    rng = random.Random(f"{seed}:scaled:{n_subj}:{n_cases}:{n_runs}")  # noqa: S311
    base = dt.datetime(2026, 5, 12)

    subjects = []
    for i in range(1, n_subj + 1):
        reasoning = i % 4 == 0
        policy = {"kind": "reasoning", "reasoning_effort": "medium"}
        subjects.append(
            {
                "subject_id": f"synth-model-{i:03d}",
                "kind": "expert_system" if i % 10 == 0 else "llm",
                "provider": f"Synthetic Provider {1 + i % 7}",
                "versions": [
                    {
                        "subject_version": f"synth-model-{i:03d}-2026-05",
                        "registered_at": (base - dt.timedelta(days=1 + i % 20)).date().isoformat(),
                        "access_type": "api",
                        "sampling_policy": policy if reasoning else {"kind": "classic"},
                    }
                ],
            }
        )
    header = (
        f"SYNTHETIC scaled corpus (size {size}, seed {seed}) generated by "
        "scripts/tools/make_demo_corpus.py"
    )
    w.write(
        "subjects/registry.yaml",
        registry_yaml(subjects, header).encode("utf-8"),
        "registry",
    )

    types = ("Closed", "Semi-closed", "Open", "Ambiguous")
    golds = {}
    for case_id in case_ids_for(n_cases):
        ctype = rng.choice(types)
        ceiling = CEILING_BY_TYPE[ctype]
        if ctype in ("Open", "Ambiguous") and rng.random() < 0.3:
            ceiling += 1  # Open 10-11, Ambiguous 9-10
        g = Gold(case_id, ctype, rng.choice((0, 3, 4)), ceiling, rng.randint(0, 2))
        golds[case_id] = g
        w.write(
            f"golds/{BENCHMARK_VERSION}/{case_id}_gold.md",
            gold_markdown(g, seed=seed, size=size),
            "golds",
        )

    n_resp = n_subj * n_cases * n_runs
    unscored = set(rng.sample(range(n_resp), n_resp // UNSCORED_ONE_IN))
    cases = sorted(golds)
    # Precompute per-case difficulty and fail templates once.
    difficulty = {c: (12 - golds[c].rubric_ceiling) * 0.06 for c in cases}
    case_fail = {c: _fail_objects(("case",), c) for c in cases if golds[c].fails}
    gen_crit = _fail_objects(("GEN-02",), cases[0]) if cases else []
    gen_rec = _fail_objects(("GEN-03",), cases[0]) if cases else []
    k = 0
    for s in subjects:
        sid = s["subject_id"]
        sv = s["versions"][0]["subject_version"]
        track = s["versions"][0]["sampling_policy"]["kind"]
        skill = rng.uniform(0.3, 0.92)
        mu = rng.uniform(50, 90)
        # Half the subjects never trigger a critical fail; the rest now and then.
        p_critical = rng.choice((0.0, 0.0, 0.0005, 0.004))
        idx = int(sid[-3:])
        date = (base + dt.timedelta(days=idx % 14)).date().isoformat()
        resp_dir = f"responses/{BENCHMARK_VERSION}/{sid}"
        score_dir = f"scoring/{BENCHMARK_VERSION}/{sid}"
        t0 = dt.datetime.fromisoformat(date) + dt.timedelta(hours=6)
        for run in range(1, n_runs + 1):
            run_id = f"run-{date}-{run:03d}"
            t_resp = t0 + dt.timedelta(hours=5 * (run - 1))
            t_score = t0 + dt.timedelta(days=2, hours=5 * (run - 1))
            for case_id in cases:
                scores = draw_scores(rng, max(0.05, skill - difficulty[case_id]))
                correctness = draw_correctness(rng, scores[0])
                confidence = draw_confidence(rng, mu, 12, 20, 1, correctness)
                t_resp += dt.timedelta(seconds=rng.randint(20, 90))
                resp = response_obj(
                    case_id=case_id,
                    subject_id=sid,
                    subject_version=sv,
                    run_id=run_id,
                    timestamp=_iso(t_resp),
                    served_model=sv,
                    track=track,
                    confidence=confidence,
                    correctness=correctness,
                    rng=rng,
                )
                w.write(f"{resp_dir}/{case_id}__{run_id}.json", _dump_json(resp), "responses")
                is_unscored = k in unscored
                k += 1
                if is_unscored:
                    continue
                u = rng.random()
                if u < p_critical:
                    fails = case_fail.get(case_id, gen_crit)
                    fails = fails if fails[0]["severity"] == "critical" else gen_crit
                elif u < p_critical + 0.03:
                    fails = gen_rec
                else:
                    fails = []
                reviewer = REVIEWERS[k % 3]
                t_score += dt.timedelta(seconds=rng.randint(30, 200))
                scoring = scoring_obj(
                    case_id=case_id,
                    subject_id=sid,
                    subject_version=sv,
                    run_id=run_id,
                    reviewer=reviewer,
                    timestamp=_iso(t_score),
                    scores=scores,
                    correctness=correctness,
                    fails=fails,
                    rng=rng,
                )
                w.write(
                    f"{score_dir}/{case_id}__{run_id}__eval-{reviewer}.json",
                    _dump_json(scoring),
                    "scorings",
                )
    return w.result()


# --------------------------------------------------------------------------
# Public API and CLI
# --------------------------------------------------------------------------


def make_corpus(
    root: Path,
    *,
    seed: int = DEFAULT_SEED,
    size: str = "demo",
    subjects: int | None = None,
    cases: int | None = None,
    runs: int | None = None,
    force: bool = False,
) -> dict:
    """Generate a synthetic corpus under ``root``; return counts of files written.

    Keys of the result: ``registry``, ``golds``, ``responses``, ``scorings``,
    ``extra`` (dot-files and ``_errors`` logs) and ``total``.

    ``root`` must be missing or empty unless ``force`` is true; with ``force``
    the generator-owned folders (``subjects``, ``responses``, ``scoring``,
    ``golds``) are removed first, so a rerun is byte-identical.
    """
    root = Path(root)
    overrides = (subjects, cases, runs)
    if size == "demo":
        if any(x is not None for x in overrides):
            raise ValueError("--subjects/--cases/--runs apply to sizes S, M, L only")
    elif size not in SIZES:
        raise ValueError(f"unknown size {size!r}; use demo, S, M or L")
    if root.exists() and any(root.iterdir()):
        if not force:
            raise FileExistsError(f"{root} is not empty (use --force to overwrite)")
        for name in OWNED_DIRS:
            if (root / name).exists():
                shutil.rmtree(root / name)
    root.mkdir(parents=True, exist_ok=True)
    if size == "demo":
        return _make_demo(root, seed)
    n_subj, n_cases, n_runs = (
        d if o is None else o for o, d in zip(overrides, SIZES[size], strict=True)
    )
    if n_subj < 1 or n_cases < 1 or n_runs < 1 or n_runs > 999:
        raise ValueError("subjects, cases and runs must be >= 1 (runs <= 999)")
    if n_cases > 5 * 999:
        raise ValueError("at most 999 cases per family")
    return _make_scaled(root, seed, size, n_subj, n_cases, n_runs)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("outdir", type=Path, help="corpus root to create")
    p.add_argument("--seed", type=int, default=DEFAULT_SEED)
    p.add_argument("--size", choices=("demo", *SIZES), default="demo")
    p.add_argument("--subjects", type=int, help="override the size's subjects")
    p.add_argument("--cases", type=int, help="override the size's cases")
    p.add_argument("--runs", type=int, help="override the size's runs per case")
    p.add_argument(
        "--force",
        action="store_true",
        help="write into a non-empty OUTDIR (replaces subjects/ responses/ scoring/ golds/ there)",
    )
    a = p.parse_args(argv)
    try:
        counts = make_corpus(
            a.outdir,
            seed=a.seed,
            size=a.size,
            subjects=a.subjects,
            cases=a.cases,
            runs=a.runs,
            force=a.force,
        )
    except (FileExistsError, ValueError) as exc:
        p.error(str(exc))
    print(" ".join(f"{k}={v}" for k, v in counts.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
