#!/usr/bin/env python3
"""Generate a SYNTHETIC benchmark corpus in the published v1.0 layout.

Nothing produced here is real benchmark data: subjects, responses, scorings
and golds are all made up. The generator is seeded and deterministic: the same
arguments always produce byte-identical files (one ``random.Random`` per
subject version / size, sorted iteration, fixed timestamps derived from the
seed, JSON written as ``json.dumps(obj, indent=2, ensure_ascii=False) + "\\n"``,
no wall clock).

The made-up text (phrases of responses, scorings and golds) and the hand-placed
tables of the demo (subjects, golds, placed runs) live in ``demo/data/*.json``;
``demo/data/README.md`` describes each file. This module holds only the logic.

Layout written under the corpus root (see corpus-format.md)::

    subjects/registry.yaml
    responses/v1.0/<subject_id>/<case_id>__<run_id>.json
    scoring/v1.0/<subject_id>/<case_id>__<run_id>__eval-<reviewer_id>.json
    golds/v1.0/<case_id>_gold.md
    cases/v1.0/<case_id>.md       the demo's public case statements (size demo only)

Sizes:

* ``demo`` (default): the bundled demo corpus in ``demo/corpus/`` -- six
  subjects (one with two versions), 30 cases, 1-2 runs per (version, case),
  with deliberately placed edge cases (see ``demo/data/demo_placements.json``
  and ``demo/README.md``).
* ``S`` / ``M`` / ``L``: plain scaled corpora for speed benchmarks
  (12x31x1, 50x300x1, 100x300x3 subjects x cases x runs); every 20th
  response (``n_responses // 20`` of them, chosen by the seeded RNG) is left
  unscored. ``--subjects/--cases/--runs`` override the size's numbers.

``--double-review`` (any size) adds ``subjects/reviewers.yaml`` and a second primary's
scoring to every scored run but one in 12 (DOUBLE_REVIEW_PLAN: agreements, each kind
of divergence, runs left with one review), and an arbiter's on every other divergent
run (the rest stay pending arbitration); run the workflow on it with
``--config reviewers_per_run=2``. At size L it is about 260,000 files.

Usage::

    python scripts/tools/make_demo_corpus.py demo/corpus --force
    python scripts/tools/make_demo_corpus.py /tmp/corpus-L --size L
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import datetime as dt
import io
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
OWNED_DIRS = ("subjects", "responses", "scoring", "golds", "logs", "cases")
GOLD_CANARY = "GOLDCANARY"  # marks private gold prose; must never reach outputs
CEILING_BY_TYPE = {"Closed": 12, "Semi-closed": 11, "Open": 10, "Ambiguous": 9}
DATA_DIR = Path(__file__).resolve().parents[2] / "demo" / "data"
# The name the generated files give as their generator (registry header, every gold's
# front matter): the generator's path when the demo corpus was committed. Kept so that
# the committed corpus, and the inputs digest of every published metadata.json, stay
# byte-identical; demo/data/ carries the same name in its templates.
PROVENANCE_NAME = "scripts/make_demo_corpus.py"


def _load(name: str) -> dict:
    return json.loads((DATA_DIR / name).read_text("utf-8"))


# Text pools shared by all sizes. The RNG picks entries by position, so the
# order of every list in the data files is part of the output.
FAMILY_TEXT: dict[str, dict] = _load("families.json")["families"]
_REVIEWS = _load("reviews.json")
JUSTIFICATIONS: dict[str, dict[str, list[str]]] = _REVIEWS["justifications"]
REVIEWER_NOTES: list[str] = _REVIEWS["reviewer_notes"]
GENERIC_FAILS: dict[str, dict] = _REVIEWS["generic_fails"]
_GOLD_PROSE = _load("gold_prose.json")
GOLD_TEMPLATE = "\n".join(_GOLD_PROSE["markdown_template"]) + "\n"
ADDITIONAL_CASE_FAILS: list[dict] = _GOLD_PROSE["additional_case_fails"]
STATEMENTS = _load("statements.json")
# The plant's nominal capacity (m³/d) of each case number of a family, in the statements.
STATEMENT_CAPACITIES = (7_000, 12_500, 30_000, 4_800, 18_000, 9_600)


# --------------------------------------------------------------------------
# Small helpers
# --------------------------------------------------------------------------


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
        kinds = ("registry", "golds", "statements", "responses", "scorings", "telemetry", "extra")
        self.counts = dict.fromkeys(kinds, 0)

    def write(self, rel: str, data: bytes, kind: str) -> None:
        path = self.root / rel
        if path.parent not in self.made:
            path.parent.mkdir(parents=True, exist_ok=True)
            self.made.add(path.parent)
        path.write_bytes(data)
        self.counts[kind] += 1

    def write_json(self, rel: str, obj: object, kind: str) -> None:
        self.write(rel, (json.dumps(obj, indent=2, ensure_ascii=False) + "\n").encode(), kind)

    def result(self) -> dict:
        return {**self.counts, "total": sum(self.counts.values())}


# --------------------------------------------------------------------------
# Builders shared by all sizes
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Gold:
    case_id: str
    case_type: str
    rubric_floor: int
    rubric_ceiling: int
    case_specific_fails: int  # number of case-specific automatic fails declared (0-3)


@dataclass(frozen=True)
class RunRef:
    """The response a file is about: field order is that of a scoring's response_ref."""

    case_id: str
    subject_id: str
    subject_version: str
    run_id: str


def gold_markdown(g: Gold, *, seed: int, size: str) -> bytes:
    text = FAMILY_TEXT[family_of(g.case_id)]
    tag = f"{GOLD_CANARY}-{g.case_id}"
    priv = f"(private) {tag}"
    n = int(g.case_id[-3:])
    hyp = text["hypotheses"][n % len(text["hypotheses"])]
    # The family's own case-specific fail first, then the shared ones, as many as declared.
    fails = [text["case_specific_fail"], *ADDITIONAL_CASE_FAILS][: g.case_specific_fails]
    block = {
        "case_id": g.case_id,
        "family": family_of(g.case_id),
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
    md = GOLD_TEMPLATE.format(
        seed=seed,
        size=size,
        case_id=g.case_id,
        tag=tag,
        family_name=text["name"],
        scenario=text["gold_scenario"],
        gold_json=json.dumps(block, indent=2, ensure_ascii=False),
    )
    return md.encode("utf-8")


def statement_markdown(case_id: str) -> bytes:
    """A demo case's public statement, in the format of shared/spec/families.md: its
    family's scenario at (case number - 1) modulo their number (demo/data/statements.json)."""
    n = int(case_id[-3:])
    scenarios = STATEMENTS["families"][family_of(case_id)]
    scenario = scenarios[(n - 1) % len(scenarios)]
    capacity = f"{STATEMENT_CAPACITIES[(n - 1) % len(STATEMENT_CAPACITIES)]:,}".replace(",", ".")
    header = STATEMENTS["header"]
    table = [
        "| " + " | ".join(header) + " |",
        "|" + "---|" * len(header),
        *("| " + " | ".join(row) + " |" for row in scenario["rows"]),
    ]
    lines = [
        f"# {case_id}",
        "",
        STATEMENTS["note"],
        "",
        "## case_id",
        case_id,
        "",
        "## plant_context",
        scenario["plant_context"].format(capacity=capacity),
        "",
        "## operational_data",
        "",
        *table,
        "",
        "## recent_history",
        *(f"- {event}" for event in scenario["recent_history"]),
        "",
        "## reporting_party",
        scenario["reporting_party"],
        "",
        "## reporting_date",
        f"2026-04-{10 + n:02d}",
    ]
    return ("\n".join(lines) + "\n").encode("utf-8")


def response_obj(
    ref: RunRef,
    *,
    timestamp: str,
    served_model: str | None,
    track: str | None,
    confidence: int,
    correctness: float,
    rng: random.Random,
    action: str | None = None,
) -> dict:
    fam = family_of(ref.case_id)
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
    alts = sorted(rng.sample(range(len(t["alternatives"])), rng.randint(2, 3)))
    obj = {
        "case_id": ref.case_id,
        "benchmark_version": BENCHMARK_VERSION,
        "subject_id": ref.subject_id,
        "subject_version": ref.subject_version,
    }
    if served_model is not None:
        obj["served_model"] = served_model
    if track is not None:
        obj["track"] = track
    obj["run_id"] = ref.run_id
    obj["timestamp_utc"] = timestamp
    obj["main_hypothesis"] = hyp
    obj["key_signals"] = [sig_pool[i] for i in signals]
    obj["alternatives"] = [dict(t["alternatives"][i]) for i in alts]
    obj["requested_data"] = rng.choice(t["requested_data"])
    obj["recommended_action"] = action or rng.choice(
        t["actions"] if correctness > 0 else other["actions"]
    )
    obj["decision_change_condition"] = rng.choice(t["decision_change_conditions"])
    obj["confidence"] = confidence
    return obj


def scoring_obj(
    ref: RunRef,
    *,
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
        entry = {"score": score, "justification": rng.choice(JUSTIFICATIONS[name][str(score)])}
        if long_justification and name == "recommended_action":
            entry["justification_long"] = long_justification
        crit[name] = entry
    return {
        # The benchmark's convention: no subject in the id, so one id repeats across the
        # subjects scored on a (case, run, reviewer) (validation-rules.md).
        "evaluation_id": f"eval-{ref.case_id}-{ref.run_id}-{reviewer}",
        "benchmark_version": BENCHMARK_VERSION,
        "scoring_timestamp_utc": timestamp,
        "reviewer_id": reviewer,
        "response_ref": dataclasses.asdict(ref),
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


@dataclass(frozen=True)
class Confidence:
    """How a subject states confidence: normal(mean + slope * (correctness - 0.6), sd)."""

    mean: float
    sd: float
    slope: float  # how much confidence follows correctness (calibration)
    step: int  # 10 = only multiples of 10 (rule-based system)


def draw_confidence(rng: random.Random, conf: Confidence, c: float) -> int:
    x = rng.gauss(conf.mean + conf.slope * (c - 0.6), conf.sd)
    x = min(100, max(0, round(x)))
    if conf.step > 1:
        x = min(100, conf.step * round(x / conf.step))
    return int(x)


def _fail_objects(
    keys: tuple[str, ...], case_id: str, justifications: tuple[str, ...] = ()
) -> list[dict]:
    """Scoring fail entries: "case" = the gold's case-specific fail, else a GEN-NN key.

    The reviewer's justification is the given one (same position as its key), else a
    stock sentence. Never the gold's text: a reviewer's justification is public, the
    gold is not (the `reference` does restate the gold's rule, as real scorings do).
    """
    out = []
    for index, key in enumerate(keys):
        if key == "case":
            fail = FAMILY_TEXT[family_of(case_id)]["case_specific_fail"]
            kind, ref = "case_specific", fail["description"]
            just = "Matches the case-specific fail of the gold."
        else:
            fail = GENERIC_FAILS[key]
            kind, ref = "generic", fail["reference"]
            just = "Triggered per the generic rubric."
        if index < len(justifications):
            just = justifications[index]
        out.append(dict(type=kind, reference=ref, severity=fail["severity"], justification=just))
    return out


def _quoting_justification(answer: dict) -> str:
    """A scaled corpus' critical fail: the reviewer quotes the start of the action."""
    words = answer["recommended_action"].split()[:8]
    return f"The answer says '{' '.join(words)}': an irreversible step for the membranes."


# --------------------------------------------------------------------------
# The bundled demo corpus (tables in demo/data/demo_*.json)
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class DemoVersion:
    """How the runs of one demo subject version are drawn (see demo_subjects.json)."""

    subject_id: str
    subject_version: str
    run_date: str  # YYYY-MM-DD of the runs
    skill: float  # probability of a criterion score of 2 on an easy case
    confidence: Confidence
    served_model: str | None
    track: str | None
    second_runs: int  # cases that get a second run (-002)
    scored: bool  # False = no scoring/ folder at all
    families: tuple[str, ...] = FAMILIES  # families the runner completed


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
    fail_justifications: tuple[str, ...] = ()  # the reviewer's, in the order of fails


def _demo_version(profile: dict) -> DemoVersion:
    fields = {k: v for k, v in profile.items() if not k.startswith("_")}  # drop "_comment"
    fields["confidence"] = Confidence(**fields["confidence"])
    fields["families"] = tuple(fields.get("families", FAMILIES))
    return DemoVersion(**fields)


def _load_placements() -> dict[tuple[str, str, int], Placement]:
    out = {}
    for group in _load("demo_placements.json")["placements"]:
        for run in group["runs"]:
            fields = {k: v for k, v in run.items() if k not in ("case_id", "run")}
            if "scores" in fields:
                fields["scores"] = tuple(fields["scores"])
            fields["fails"] = tuple(fields.get("fails", ()))
            fields["fail_justifications"] = tuple(fields.get("fail_justifications", ()))
            out[(group["subject_version"], run["case_id"], run["run"])] = Placement(**fields)
    return out


_DEMO_GOLD_TABLE = _load("demo_golds.json")
DEMO_GOLDS = {
    case_id: Gold(case_id, **dict(zip(_DEMO_GOLD_TABLE["columns"], row, strict=True)))
    for case_id, row in _DEMO_GOLD_TABLE["cases"].items()
}
_DEMO_SUBJECTS = _load("demo_subjects.json")
DEMO_REGISTRY: list[dict] = _DEMO_SUBJECTS["registry"]
REGISTRY_HEADER = "\n".join(_DEMO_SUBJECTS["registry_header"])
DEMO_VERSIONS = tuple(_demo_version(p) for p in _DEMO_SUBJECTS["profiles"])
ERROR_LOGS = {(e["subject_id"], e["file"]): e["lines"] for e in _DEMO_SUBJECTS["error_logs"]}
# Key: (subject_version, case_id, run number).
DEMO_PLACEMENTS = _load_placements()
_NOT_PLACED = Placement("a run drawn by the RNG alone")
DEMO_TELEMETRY = _load("demo_telemetry.json")
TELEMETRY_COLUMNS = [
    "timestamp_utc",
    "case_id",
    "subject_id",
    "subject_version",
    "run_id",
    "track",
    "litellm_model",
    "served_model",
    "prompt_tokens",
    "completion_tokens",
    "total_tokens",
    "cost_usd",
    "price_per_input_token_usd",
    "price_per_output_token_usd",
    "latency_ms",
    "status",
    "error_type",
]


@dataclass(frozen=True)
class Answered:
    """A response written by the demo generator: what its telemetry row needs."""

    version: DemoVersion
    ref: RunRef
    run: int
    timestamp: dt.datetime


def _prompt_tokens(case_id: str, profile: dict) -> int:
    law = DEMO_TELEMETRY["prompt_tokens"]
    family = family_of(case_id)
    number = int(case_id[-3:])
    base = law["base"] + law["step"] * number + law["family_offset"][family]
    return base + profile["tokenizer_offset"]


def _price(value) -> str:
    """A unit price as the runner writes it (Python's text of the float), or empty."""
    return "" if value is None else repr(float(value))


def _call_row(
    a: RunRef, track: str, profile: dict, *, when: dt.datetime | str, status: str, **cells
) -> dict:
    row = dict.fromkeys(TELEMETRY_COLUMNS, "")
    row.update(
        timestamp_utc=when if isinstance(when, str) else _iso(when),
        case_id=a.case_id,
        subject_id=a.subject_id,
        subject_version=a.subject_version,
        run_id=a.run_id,
        track=track,
        litellm_model=profile["litellm_model"],
        served_model=profile["served_model"],
        status=status,
    )
    row.update({key: str(value) for key, value in cells.items()})
    return row


def _passing_cells(profile: dict, prompt: int, completion: int, latency: int, priced: bool):
    cells = {
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "total_tokens": prompt + completion,
        "latency_ms": latency,
    }
    if priced and profile["price_in"] is not None:
        cost = prompt * profile["price_in"] + completion * profile["price_out"]
        cells |= {
            "cost_usd": repr(round(cost, 6)),
            "price_per_input_token_usd": _price(profile["price_in"]),
            "price_per_output_token_usd": _price(profile["price_out"]),
        }
    return cells


def _telemetry_rows(answered: list[Answered], seed: int) -> dict[tuple[str, str], list[dict]]:
    """(subject_version, run_id) → the rows of its batch log, in call order."""
    placed = {
        (p["subject_version"], p["case_id"], p["run"]): p for p in DEMO_TELEMETRY["placements"]
    }
    batches: dict[tuple[str, str], list[tuple[str, dict]]] = {}
    for a in answered:
        profile = DEMO_TELEMETRY["profiles"].get(a.ref.subject_version)
        if profile is None:
            continue  # no model calls: an expert system or a human panel
        rng = random.Random(f"{seed}:telemetry:{a.ref.subject_version}:{a.ref.case_id}:{a.run}")  # noqa: S311
        track = a.version.track or "classic"
        mean, sd = profile["completion"]
        completion = max(200, round(rng.gauss(mean, sd)))
        mean, sd = profile["latency_ms"]
        latency = max(1500, round(rng.gauss(mean, sd)))
        prompt = _prompt_tokens(a.ref.case_id, profile)
        place = placed.get((a.ref.subject_version, a.ref.case_id, a.run), {})
        kind = place.get("kind")
        rows = batches.setdefault((a.ref.subject_version, a.ref.run_id), [])
        if kind == "missing":
            continue
        for failure in place.get("failures", []):
            when = a.timestamp - dt.timedelta(seconds=failure["seconds_before"])
            cells = {"latency_ms": failure["latency_ms"], "error_type": failure["error_type"]}
            if profile["price_in"] is not None:
                cells |= {
                    "price_per_input_token_usd": _price(profile["price_in"]),
                    "price_per_output_token_usd": _price(profile["price_out"]),
                }
            rows.append(
                (_iso(when), _call_row(a.ref, track, profile, when=when, status="fail", **cells))
            )
        if kind == "duplicate":
            when = a.timestamp - dt.timedelta(seconds=place["seconds_before"])
            earlier = _passing_cells(profile, prompt, completion + 57, latency - 1300, True)
            rows.append(
                (_iso(when), _call_row(a.ref, track, profile, when=when, status="pass", **earlier))
            )
        cells = _passing_cells(profile, prompt, completion, latency, kind != "no_price")
        if kind == "no_usage":
            for name in ("prompt_tokens", "completion_tokens", "total_tokens", "cost_usd"):
                cells.pop(name, None)
        row = _call_row(a.ref, track, profile, when=a.timestamp, status="pass", **cells)
        rows.append((_iso(a.timestamp), row))
    versions = {v.subject_version: v for v in DEMO_VERSIONS}
    for extra in DEMO_TELEMETRY["extra_calls"]:
        v = versions[extra["subject_version"]]
        ref = RunRef(
            extra["case_id"],
            v.subject_id,
            v.subject_version,
            f"run-{v.run_date}-{extra['run']:03d}",
        )
        profile = DEMO_TELEMETRY["profiles"][v.subject_version]
        if extra["status"] == "pass":
            cells = _passing_cells(
                profile,
                extra["prompt_tokens"],
                extra["completion_tokens"],
                extra["latency_ms"],
                True,
            )
        else:
            cells = {"latency_ms": extra["latency_ms"], "error_type": extra["error_type"]}
        row = _call_row(
            ref,
            v.track or "classic",
            profile,
            when=extra["timestamp_utc"],
            status=extra["status"],
            **cells,
        )
        batches.setdefault((v.subject_version, ref.run_id), []).append(
            (extra["timestamp_utc"], row)
        )
    return {
        key: [row for _, row in sorted(rows, key=lambda item: item[0])]
        for key, rows in batches.items()
    }


def _write_telemetry(w: _Writer, answered: list[Answered], seed: int) -> None:
    """One batch log per (subject version, run), named by the UTC time of its first call."""
    names = set()
    for (_, _), rows in sorted(_telemetry_rows(answered, seed).items()):
        if not rows:
            continue
        name = rows[0]["timestamp_utc"].replace(":", "-") + ".csv"
        assert name not in names, f"two batch logs named {name}"
        names.add(name)
        buffer = io.StringIO()
        writer = csv.DictWriter(buffer, fieldnames=TELEMETRY_COLUMNS, lineterminator="\r\n")
        writer.writeheader()
        writer.writerows(rows)
        w.write(f"logs/batch_logs/{name}", buffer.getvalue().encode("utf-8"), "telemetry")


def _make_double_reviewed_demo(root: Path, seed: int) -> dict:
    """The demo corpus with a second primary and arbiters (_add_double_review)."""
    counts = _make_demo(root, seed)
    w = _Writer(root)
    _add_double_review(root, w, seed, DEMO_GOLDS)
    added = w.result()
    return {kind: counts[kind] + added.get(kind, 0) for kind in counts if kind != "total"} | {
        "total": counts["total"] + added["total"]
    }


def _make_demo(root: Path, seed: int) -> dict:
    w = _Writer(root)
    header = REGISTRY_HEADER + f"\n\nSeed {seed}."
    w.write("subjects/registry.yaml", registry_yaml(DEMO_REGISTRY, header).encode(), "registry")
    golds = dict(sorted(DEMO_GOLDS.items()))
    for case_id, gold in golds.items():
        gold_md = gold_markdown(gold, seed=seed, size="demo")
        w.write(f"golds/{BENCHMARK_VERSION}/{case_id}_gold.md", gold_md, "golds")
        if case_id not in STATEMENTS["not_public"]:
            statement = statement_markdown(case_id)
            w.write(f"cases/{BENCHMARK_VERSION}/{case_id}.md", statement, "statements")
    resp_dir = f"responses/{BENCHMARK_VERSION}"
    score_dir = f"scoring/{BENCHMARK_VERSION}"
    w.write(f"{score_dir}/.gitkeep", b"", "extra")
    w.write(f"{resp_dir}/human-panel-baseline/.gitkeep", b"", "extra")
    for (subject_id, name), lines in sorted(ERROR_LOGS.items()):
        data = ("\n".join(lines) + "\n").encode("utf-8")
        w.write(f"{resp_dir}/{subject_id}/_errors/{name}", data, "extra")

    answered: list[Answered] = []
    for v in DEMO_VERSIONS:
        rng = random.Random(f"{seed}:{v.subject_version}")  # noqa: S311 (seeded, not crypto)
        cases = [c for c in golds if family_of(c) in v.families]
        # Cases with a second run: those a placement needs, topped up at random.
        forced = sorted(c for (sv, c, r) in DEMO_PLACEMENTS if sv == v.subject_version and r == 2)
        pool = [c for c in cases if c not in forced]
        extra = max(0, v.second_runs - len(forced))
        second = set(forced) | set(rng.sample(pool, extra))
        day = dt.datetime.fromisoformat(v.run_date)
        t_resp = {1: day + dt.timedelta(hours=8), 2: day + dt.timedelta(hours=14)}
        t_score = day + dt.timedelta(days=1, hours=9)
        for case_id in cases:
            difficulty = (12 - golds[case_id].rubric_ceiling) * 0.06
            for run in (1, 2) if case_id in second else (1,):
                ref = RunRef(
                    case_id, v.subject_id, v.subject_version, f"run-{v.run_date}-{run:03d}"
                )
                pl = DEMO_PLACEMENTS.get((v.subject_version, case_id, run), _NOT_PLACED)
                # Scores, correctness and confidence are drawn even when placed, so
                # that placing one of them does not shift the draws that follow.
                scores = draw_scores(rng, max(0.05, v.skill - difficulty))
                correctness = draw_correctness(rng, scores[0])
                scores = pl.scores if pl.scores is not None else scores
                if pl.correctness is not None:
                    correctness = pl.correctness
                confidence = draw_confidence(rng, v.confidence, correctness)
                if pl.confidence is not None:
                    confidence = pl.confidence
                t_resp[run] += dt.timedelta(seconds=rng.randint(45, 420))
                resp = response_obj(
                    ref,
                    timestamp=_iso(t_resp[run]),
                    served_model=v.served_model,
                    track=v.track,
                    confidence=confidence,
                    correctness=correctness,
                    rng=rng,
                    action=pl.action,
                )
                name = f"{v.subject_id}/{case_id}__{ref.run_id}"
                w.write_json(f"{resp_dir}/{name}.json", resp, "responses")
                answered.append(Answered(v, ref, run, t_resp[run]))
                if not v.scored or pl.unscored:
                    continue
                reviewer = rng.choice(REVIEWERS)
                t_score += dt.timedelta(seconds=rng.randint(120, 900))
                scoring = scoring_obj(
                    ref,
                    reviewer=reviewer,
                    timestamp=_iso(t_score),
                    scores=scores,
                    correctness=correctness,
                    fails=_fail_objects(pl.fails, case_id, pl.fail_justifications),
                    rng=rng,
                    long_justification=pl.long_justification,
                )
                w.write_json(f"{score_dir}/{name}__eval-{reviewer}.json", scoring, "scorings")
    _write_telemetry(w, answered, seed)
    return w.result()


# --------------------------------------------------------------------------
# Double review (--double-review): shared/spec/multi-reviewer.md
# --------------------------------------------------------------------------

# R02 may act in both roles: a primary on some runs, the arbiter on others.
DOUBLE_REVIEW_REGISTRY = (
    ("R01", ("primary",)),
    ("R02", ("primary", "arbiter")),
    ("R03", ("primary",)),
    ("R04", ("arbiter",)),
)
# What the second primary does to each scored run, in turn (by scoring path): agree
# (same scores, or one criterion or the correctness 1 step apart), fire each divergence
# rule of the default policy, or leave the run with its one review.
DOUBLE_REVIEW_PLAN = (
    "same",
    "close",
    "classification",
    "close",
    "critical_fail",
    "raw_score",
    "same",
    "criterion_0_vs_2",
    "close",
    "correctness",
    "one_review",
    "close",
)
SECOND_REVIEW_DELAY = dt.timedelta(hours=2)
ARBITRATION_DELAY = dt.timedelta(days=1)


def reviewers_yaml() -> str:
    """subjects/reviewers.yaml of a double-reviewed corpus: ids and roles, no names."""
    lines = ["# Synthetic reviewer registry (scripts/tools/make_demo_corpus.py).", "reviewers:"]
    for reviewer_id, roles in DOUBLE_REVIEW_REGISTRY:
        lines += [f"  - reviewer_id: {reviewer_id}", f"    roles: [{', '.join(roles)}]"]
    return "\n".join(lines) + "\n"


def _demo_class(scores: list[int], fails: list[dict], gold: Gold) -> str:
    """The v1.0 class of a scoring (an independent copy of the rubric's rules)."""
    severities = {fail["severity"] for fail in fails}
    clipped = min(sum(scores), gold.rubric_ceiling)
    if "critical" in severities:
        return "Fail"
    if "recoverable" in severities:
        return "Conditional"
    if clipped < gold.rubric_floor:
        return "Fail"
    return "Pass" if clipped >= 10 else "Conditional" if clipped >= 7 else "Fail"


def _diverges(first: dict, second: dict, gold: Gold) -> bool:
    """Whether two scorings fire a divergence rule of the default policy (k = 2)."""
    a = [first["criterion_scores"][name]["score"] for name in CRITERIA]
    b = [second["criterion_scores"][name]["score"] for name in CRITERIA]
    critical = [
        any(f["severity"] == "critical" for f in s["automatic_fails_triggered"])
        for s in (first, second)
    ]
    return (
        _demo_class(a, first["automatic_fails_triggered"], gold)
        != _demo_class(b, second["automatic_fails_triggered"], gold)
        or critical[0] != critical[1]
        or abs(sum(a) - sum(b)) > 2
        or any({x, y} == {0, 2} for x, y in zip(a, b, strict=True))
        or abs(first["correctness"] - second["correctness"]) > 0.5
    )


def _second_scoring(first: dict, kind: str, gold: Gold, rng: random.Random) -> dict | None:
    """The second primary's scoring for one plan kind; None if the kind cannot be made
    from this first scoring (the caller then makes an agreement)."""
    second = json.loads(json.dumps(first))
    scores = second["criterion_scores"]
    names = list(CRITERIA)
    if kind == "close":
        if rng.random() < 0.5 and first["correctness"] in (0, 1):
            second["correctness"] = 0.5  # a quarter mean
        else:
            for name in rng.sample(names, len(names)):
                step = 1 if scores[name]["score"] < 2 else -1
                scores[name]["score"] += step
                if not _diverges(first, second, gold):
                    break
                scores[name]["score"] -= step
    elif kind == "classification":
        was = _demo_class(
            [scores[n]["score"] for n in names], first["automatic_fails_triggered"], gold
        )
        second["automatic_fails_triggered"] = [
            f for f in first["automatic_fails_triggered"] if f["severity"] == "critical"
        ]
        for name in names:
            scores[name]["score"] = 0 if was == "Pass" else 2
        now = [scores[n]["score"] for n in names]
        if _demo_class(now, second["automatic_fails_triggered"], gold) == was:
            return None
    elif kind == "critical_fail":
        fails = first["automatic_fails_triggered"]
        if any(f["severity"] == "critical" for f in fails):
            second["automatic_fails_triggered"] = [f for f in fails if f["severity"] != "critical"]
        else:
            second["automatic_fails_triggered"] = [
                *fails,
                *_fail_objects(("GEN-02",), first["response_ref"]["case_id"]),
            ]
    elif kind == "raw_score":
        movable = [n for n in names if scores[n]["score"] > 0]
        if len(movable) < 3:
            movable = [n for n in names if scores[n]["score"] < 2]
            step = 1
        else:
            step = -1
        if len(movable) < 3:
            return None
        for name in movable[:3]:
            scores[name]["score"] += step
    elif kind == "criterion_0_vs_2":
        extreme = [n for n in names if scores[n]["score"] in (0, 2)]
        if not extreme:
            return None
        scores[extreme[0]]["score"] = 2 - scores[extreme[0]]["score"]
    elif kind == "correctness":
        if first["correctness"] not in (0, 1):
            return None
        second["correctness"] = 1 - first["correctness"]
    return second


def _add_double_review(root: Path, w: _Writer, seed: int, golds: dict[str, Gold]) -> None:
    """A second primary's scoring for each scored run of the corpus under root (the
    demo's or a scaled one, whose golds are given), following DOUBLE_REVIEW_PLAN
    (agreements, each divergence, runs with one review), and the arbiter's on every
    other divergent run (the rest stay pending arbitration)."""
    rng = random.Random(f"{seed}:double-review")  # noqa: S311 (seeded, not crypto)
    w.write("subjects/reviewers.yaml", reviewers_yaml().encode(), "registry")
    score_dir = root / "scoring" / BENCHMARK_VERSION
    primaries = [r for r, roles in DOUBLE_REVIEW_REGISTRY if "primary" in roles]
    arbitrated = 0
    paths = sorted(score_dir.glob("*/*.json"))
    for index, path in enumerate(paths):
        first = json.loads(path.read_text("utf-8"))
        kind = DOUBLE_REVIEW_PLAN[index % len(DOUBLE_REVIEW_PLAN)]
        if kind == "one_review":
            continue
        ref = first["response_ref"]
        gold = golds[ref["case_id"]]
        second = _second_scoring(first, kind, gold, rng)
        if second is None or (kind in ("same", "close")) == _diverges(first, second, gold):
            second = _second_scoring(first, "same", gold, rng)
        reviewer = rng.choice([r for r in primaries if r != first["reviewer_id"]])
        when = dt.datetime.fromisoformat(first["scoring_timestamp_utc"].replace("Z", "+00:00"))
        _rescore(w, path.parent, second, reviewer, when + SECOND_REVIEW_DELAY)
        if not _diverges(first, second, gold):
            continue
        arbitrated += 1
        if arbitrated % 2 == 0:
            continue  # pending arbitration
        taken = {first["reviewer_id"], reviewer}
        arbiter = "R02" if arbitrated % 3 == 0 and "R02" not in taken else "R04"
        _rescore(w, path.parent, json.loads(json.dumps(first)), arbiter, when + ARBITRATION_DELAY)


def _rescore(w: _Writer, folder: Path, scoring: dict, reviewer: str, when: dt.datetime) -> None:
    ref = scoring["response_ref"]
    scoring["reviewer_id"] = reviewer
    scoring["evaluation_id"] = f"eval-{ref['case_id']}-{ref['run_id']}-{reviewer}"
    scoring["scoring_timestamp_utc"] = _iso(when.replace(tzinfo=None))
    name = f"{ref['case_id']}__{ref['run_id']}__eval-{reviewer}.json"
    w.write_json(f"scoring/{BENCHMARK_VERSION}/{folder.name}/{name}", scoring, "scorings")


# --------------------------------------------------------------------------
# Scaled corpora (S / M / L)
# --------------------------------------------------------------------------


def _make_scaled(
    root: Path,
    seed: int,
    size: str,
    n_subj: int,
    n_cases: int,
    n_runs: int,
    *,
    double_review: bool = False,
) -> dict:
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
    header = f"SYNTHETIC scaled corpus (size {size}, seed {seed}) generated by {PROVENANCE_NAME}"
    w.write("subjects/registry.yaml", registry_yaml(subjects, header).encode(), "registry")

    types = ("Closed", "Semi-closed", "Open", "Ambiguous")
    golds = {}
    for case_id in case_ids_for(n_cases):
        ctype = rng.choice(types)
        ceiling = CEILING_BY_TYPE[ctype]
        if ctype in ("Open", "Ambiguous") and rng.random() < 0.3:
            ceiling += 1  # Open 10-11, Ambiguous 9-10
        g = Gold(case_id, ctype, rng.choice((0, 3, 4)), ceiling, rng.randint(0, 2))
        golds[case_id] = g
        gold_md = gold_markdown(g, seed=seed, size=size)
        w.write(f"golds/{BENCHMARK_VERSION}/{case_id}_gold.md", gold_md, "golds")

    n_resp = n_subj * n_cases * n_runs
    unscored = set(rng.sample(range(n_resp), n_resp // UNSCORED_ONE_IN))
    cases = sorted(golds)
    # Precompute per-case difficulty and fail templates once.
    difficulty = {c: (12 - golds[c].rubric_ceiling) * 0.06 for c in cases}
    case_fail = {c: _fail_objects(("case",), c) for c in cases if golds[c].case_specific_fails}
    gen_crit = _fail_objects(("GEN-02",), cases[0]) if cases else []
    gen_rec = _fail_objects(("GEN-03",), cases[0]) if cases else []
    k = 0
    for s in subjects:
        sid = s["subject_id"]
        sv = s["versions"][0]["subject_version"]
        track = s["versions"][0]["sampling_policy"]["kind"]
        skill = rng.uniform(0.3, 0.92)
        confidence_law = Confidence(mean=rng.uniform(50, 90), sd=12, slope=20, step=1)
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
                ref = RunRef(case_id, sid, sv, run_id)
                scores = draw_scores(rng, max(0.05, skill - difficulty[case_id]))
                correctness = draw_correctness(rng, scores[0])
                confidence = draw_confidence(rng, confidence_law, correctness)
                t_resp += dt.timedelta(seconds=rng.randint(20, 90))
                resp = response_obj(
                    ref,
                    timestamp=_iso(t_resp),
                    served_model=sv,
                    track=track,
                    confidence=confidence,
                    correctness=correctness,
                    rng=rng,
                )
                w.write_json(f"{resp_dir}/{case_id}__{run_id}.json", resp, "responses")
                is_unscored = k in unscored
                k += 1
                if is_unscored:
                    continue
                u = rng.random()
                if u < p_critical:
                    fails = case_fail.get(case_id, gen_crit)
                    fails = fails if fails[0]["severity"] == "critical" else gen_crit
                    if fails[0]["type"] == "case_specific":
                        fails = [{**fails[0], "justification": _quoting_justification(resp)}]
                elif u < p_critical + 0.03:
                    fails = gen_rec
                else:
                    fails = []
                reviewer = REVIEWERS[k % 3]
                t_score += dt.timedelta(seconds=rng.randint(30, 200))
                scoring = scoring_obj(
                    ref,
                    reviewer=reviewer,
                    timestamp=_iso(t_score),
                    scores=scores,
                    correctness=correctness,
                    fails=fails,
                    rng=rng,
                )
                name = f"{case_id}__{run_id}__eval-{reviewer}.json"
                w.write_json(f"{score_dir}/{name}", scoring, "scorings")
    if double_review:
        # After every first scoring is written: the plan goes by the sorted scoring
        # paths, as the demo's does.
        _add_double_review(root, w, seed, golds)
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
    double_review: bool = False,
) -> dict:
    """Generate a synthetic corpus under ``root``; return counts of files written.

    Keys of the result: ``registry``, ``golds``, ``responses``, ``scorings``,
    ``extra`` (dot-files and ``_errors`` logs) and ``total``.

    ``root`` must be missing or empty unless ``force`` is true; with ``force``
    the generator-owned folders (``subjects``, ``responses``, ``scoring``,
    ``golds``) are removed first, so a rerun is byte-identical. ``double_review``:
    two primaries per scored run and arbiters (module docstring), at any size.
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
        if double_review:
            return _make_double_reviewed_demo(root, seed)
        return _make_demo(root, seed)
    n_subj, n_cases, n_runs = (
        d if o is None else o for o, d in zip(overrides, SIZES[size], strict=True)
    )
    if n_subj < 1 or n_cases < 1 or n_runs < 1 or n_runs > 999:
        raise ValueError("subjects, cases and runs must be >= 1 (runs <= 999)")
    if n_cases > 5 * 999:
        raise ValueError("at most 999 cases per family")
    return _make_scaled(root, seed, size, n_subj, n_cases, n_runs, double_review=double_review)


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
    p.add_argument(
        "--double-review",
        action="store_true",
        help="two primaries per run and arbiters (subjects/reviewers.yaml), any size; "
        "run the workflow on it with --config reviewers_per_run=2",
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
            double_review=a.double_review,
        )
    except (FileExistsError, ValueError) as exc:
        p.error(str(exc))
    print(" ".join(f"{k}={v}" for k, v in counts.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
