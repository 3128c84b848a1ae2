"""The synthetic corpus generator (scripts/tools/make_demo_corpus.py) and the bundled demo.

* regenerating the demo gives exactly the committed ``demo/corpus/`` (file list and bytes);
* every generated file obeys every rule of corpus-format.md and the v1.0 JSON Schemas;
* the demo contains the variety promised in ``demo/README.md``;
* the scaled sizes have the documented counts.
"""

from __future__ import annotations

import functools
import json
import re
from collections import Counter
from pathlib import Path

import jsonschema
import pytest
import yaml

import make_demo_corpus as gen
from workflow_runs import REPO

DEMO = REPO / "demo" / "corpus"
SCHEMA_DIR = REPO / "system" / "schemas" / "v1.0"
V = "v1.0"

CASE_RE = re.compile(r"RO-(OXID|SCAL|FOUL|MECH|NOWE)-\d{3}")
RUN_RE = re.compile(r"run-\d{4}-\d{2}-\d{2}-\d{3}")
SLUG_RE = re.compile(r"[a-z0-9][a-z0-9_-]{1,63}")
TS_RE = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z")
RESPONSE_NAME = re.compile(rf"(?P<case>{CASE_RE.pattern})__(?P<run>{RUN_RE.pattern})\.json")
SCORING_NAME = re.compile(
    rf"(?P<case>{CASE_RE.pattern})__(?P<run>{RUN_RE.pattern})__eval-(?P<rev>[^/]+)\.json"
)
GOLD_NAME = re.compile(rf"(?P<case>{CASE_RE.pattern})_gold\.md")

# Counts documented in demo/README.md and in the generator's docstring.
DEMO_COUNTS = {
    "registry": 1,
    "golds": 30,
    # The public case statements: every case but the three demo/data/statements.json
    # leaves not public (RO-MECH-006, RO-NOWE-006, RO-OXID-006).
    "statements": 27,
    "responses": 198,
    "scorings": 176,
    "telemetry": 9,
    "extra": 4,
    "total": 445,
}
S_COUNTS = {
    "registry": 1,
    "golds": 31,
    "statements": 0,
    "responses": 12 * 31 * 1,
    "scorings": 12 * 31 - (12 * 31) // 20,  # 354: 18 responses left unscored
    "telemetry": 0,
    "extra": 0,
    "total": 1 + 31 + 372 + 354,
}


# --------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------


def tree(root: Path) -> dict[str, bytes]:
    """Every file below root (dot-files included), relative path -> bytes."""
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def gold_block(markdown: str) -> dict:
    """The single ```json fenced block of a gold file (fails on 0 or 2+ blocks)."""
    blocks, current = [], None
    for line in markdown.splitlines():
        if current is None:
            if line.startswith("```json"):
                current = []
            else:
                assert not line.startswith("```"), "fence outside the json block"
        elif line.startswith("```"):
            blocks.append("\n".join(current))
            current = None
        else:
            current.append(line)
    assert current is None and len(blocks) == 1
    return json.loads(blocks[0])


def classify(raw: int, floor: int, ceiling: int, fails: list[dict]) -> str:
    """generic_rubric classification, as aggregated_metrics.md states it."""
    clipped = min(raw, ceiling)
    severities = {f["severity"] for f in fails}
    if "critical" in severities or ("recoverable" not in severities and clipped < floor):
        return "Fail"
    if "recoverable" in severities:
        return "Conditional"
    return "Pass" if clipped >= 10 else "Conditional" if clipped >= 7 else "Fail"


def load(root: Path) -> dict:
    """Parse a corpus and check every rule of corpus-format.md on the way."""
    registry = yaml.safe_load((root / "subjects" / "registry.yaml").read_text("utf-8"))
    versions: dict[str, set[str]] = {}
    for s in registry["subjects"]:
        assert SLUG_RE.fullmatch(s["subject_id"]) and s["subject_id"] not in versions
        svs = [v["subject_version"] for v in s["versions"]]
        assert svs and len(set(svs)) == len(svs)
        for v in s["versions"]:
            assert isinstance(v["registered_at"], str)
            assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", v["registered_at"])
        versions[s["subject_id"]] = set(svs)

    golds = {}
    for p in sorted((root / "golds" / V).iterdir()):
        if p.name.startswith("."):
            continue
        m = GOLD_NAME.fullmatch(p.name)
        assert m, p
        g = gold_block(p.read_text("utf-8"))
        assert g["case_id"] == m["case"] and g["family"] == m["case"].split("-")[1]
        assert 0 <= g["rubric_floor"] <= 11 and 1 <= g["rubric_ceiling"] <= 12
        assert g["rubric_floor"] <= g["rubric_ceiling"]
        assert 0 <= len(g["case_specific_automatic_fails"]) <= 3
        golds[m["case"]] = g

    responses = {}
    for p in sorted((root / "responses" / V).rglob("*")):
        rel = p.relative_to(root / "responses" / V).parts
        if p.is_dir() or p.name.startswith(".") or "_errors" in rel:
            continue
        assert len(rel) == 2, p
        m = RESPONSE_NAME.fullmatch(rel[1])
        assert m, p
        text = p.read_text("utf-8")
        r = json.loads(text)
        assert text == json.dumps(r, indent=2, ensure_ascii=False) + "\n"
        assert (r["subject_id"], r["case_id"], r["run_id"]) == (rel[0], m["case"], m["run"])
        assert r["subject_version"] in versions[r["subject_id"]]
        assert r["benchmark_version"] == V and TS_RE.fullmatch(r["timestamp_utc"])
        assert type(r["confidence"]) is int and 0 <= r["confidence"] <= 100
        assert r.get("track", "classic") in ("classic", "reasoning")
        key = (r["subject_id"], r["case_id"], r["run_id"])
        assert key not in responses
        responses[key] = r

    scorings = {}
    for p in sorted((root / "scoring" / V).rglob("*")):
        rel = p.relative_to(root / "scoring" / V).parts
        if p.is_dir() or p.name.startswith("."):
            continue
        assert len(rel) == 2, p
        m = SCORING_NAME.fullmatch(rel[1])
        assert m, p
        text = p.read_text("utf-8")
        s = json.loads(text)
        assert text == json.dumps(s, indent=2, ensure_ascii=False) + "\n"
        ref = s["response_ref"]
        key = (ref["subject_id"], ref["case_id"], ref["run_id"])
        assert key == (rel[0], m["case"], m["run"]) and s["reviewer_id"] == m["rev"]
        assert key not in scorings, "more than one scoring for a (case, subject, run)"
        assert key in responses and ref["case_id"] in golds
        assert ref["subject_version"] == responses[key]["subject_version"]
        assert set(s["criterion_scores"]) == set(gen.CRITERIA)
        assert all(c["score"] in (0, 1, 2) for c in s["criterion_scores"].values())
        c = s["correctness"]
        assert (type(c) is int and c in (0, 1)) or (type(c) is float and c == 0.5)
        fails = s["automatic_fails_triggered"]
        assert all(f["severity"] in ("critical", "recoverable") for f in fails)
        assert TS_RE.fullmatch(s["scoring_timestamp_utc"])
        scorings[key] = s

    rows = []
    for key, s in sorted(scorings.items()):
        g = golds[key[1]]
        raw = sum(c["score"] for c in s["criterion_scores"].values())
        fails = s["automatic_fails_triggered"]
        rows.append(
            {
                "subject_id": key[0],
                "subject_version": s["response_ref"]["subject_version"],
                "case_id": key[1],
                "run_id": key[2],
                "floor": g["rubric_floor"],
                "ceiling": g["rubric_ceiling"],
                "raw": raw,
                "critical": any(f["severity"] == "critical" for f in fails),
                "recoverable": any(f["severity"] == "recoverable" for f in fails),
                "classification": classify(raw, g["rubric_floor"], g["rubric_ceiling"], fails),
                "confidence": responses[key]["confidence"],
                "correctness": s["correctness"],
            }
        )
    return {
        "registry": registry,
        "versions": versions,
        "golds": golds,
        "responses": responses,
        "scorings": scorings,
        "rows": rows,
    }


@functools.cache
def demo() -> dict:
    return load(DEMO)


@pytest.fixture(scope="module")
def size_s(tmp_path_factory) -> tuple[Path, dict]:
    root = tmp_path_factory.mktemp("size-s")
    return root, gen.make_corpus(root, size="S")


def row(corpus: dict, version: str, case_id: str, run: int = 1) -> dict:
    (hit,) = [
        r
        for r in corpus["rows"]
        if r["subject_version"] == version
        and r["case_id"] == case_id
        and r["run_id"].endswith(f"-{run:03d}")
    ]
    return hit


# --------------------------------------------------------------------------
# Determinism and the committed demo
# --------------------------------------------------------------------------


def test_regenerated_demo_is_byte_identical_to_committed(tmp_path):
    counts = gen.make_corpus(tmp_path / "c")
    assert counts == DEMO_COUNTS
    fresh, committed = tree(tmp_path / "c"), tree(DEMO)
    assert sorted(fresh) == sorted(committed)
    assert [k for k in sorted(fresh) if fresh[k] != committed[k]] == []
    assert len(committed) == DEMO_COUNTS["total"]


def test_cli_refuses_non_empty_outdir_then_force_rewrites_identically(tmp_path, capsys):
    out = tmp_path / "c"
    assert gen.main([str(out)]) == 0
    first = tree(out)
    (out / "responses" / V / "atlas-7b" / "stale.json").write_text("{}")
    with pytest.raises(SystemExit) as exc:
        gen.main([str(out)])
    assert exc.value.code == 2
    assert "not empty" in capsys.readouterr().err
    with pytest.raises(FileExistsError):
        gen.make_corpus(out)
    assert gen.main([str(out), "--force"]) == 0
    assert tree(out) == first  # the stale file is gone, everything else identical


def test_overrides_are_rejected_for_demo_size(tmp_path):
    with pytest.raises(ValueError, match="sizes S, M, L"):
        gen.make_corpus(tmp_path, subjects=3)


def test_another_seed_changes_content_but_keeps_the_placed_variety(tmp_path):
    gen.make_corpus(tmp_path, seed=7)
    assert tree(tmp_path) != tree(DEMO)
    check_variety(load(tmp_path))


# --------------------------------------------------------------------------
# Corpus rules and JSON Schemas
# --------------------------------------------------------------------------


def test_demo_obeys_every_corpus_format_rule():
    c = demo()
    assert len(c["responses"]) == DEMO_COUNTS["responses"]
    assert len(c["scorings"]) == DEMO_COUNTS["scorings"]
    assert len(c["golds"]) == 30
    assert Counter(k.split("-")[1] for k in c["golds"]) == dict.fromkeys(gen.FAMILIES, 6)


@functools.cache
def validator(kind: str) -> jsonschema.protocols.Validator:
    schema = json.loads((SCHEMA_DIR / f"{kind}.schema.json").read_text("utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


def schema_errors(root: Path) -> list[str]:
    errors = []

    def check(kind: str, doc: object, path: Path) -> None:
        for e in validator(kind).iter_errors(doc):
            errors.append(f"{path.relative_to(root)}: {e.message}")

    check("registry", yaml.safe_load((root / "subjects/registry.yaml").read_text("utf-8")), root)
    for p in sorted((root / "golds" / V).glob("*_gold.md")):
        check("gold", gold_block(p.read_text("utf-8")), p)
    for p in sorted((root / "responses" / V).glob("*/*.json")):
        check("response", json.loads(p.read_text("utf-8")), p)
    for p in sorted((root / "scoring" / V).glob("*/*.json")):
        check("evaluation", json.loads(p.read_text("utf-8")), p)
    return errors


def test_demo_validates_against_the_v1_schemas():
    assert schema_errors(DEMO) == []


def test_size_s_obeys_the_rules_and_validates_against_the_schemas(size_s):
    root, _ = size_s
    load(root)
    assert schema_errors(root) == []


# --------------------------------------------------------------------------
# Scaled sizes
# --------------------------------------------------------------------------


def test_size_s_has_the_documented_counts(size_s):
    root, counts = size_s
    assert counts == S_COUNTS
    c = load(root)
    assert len(c["responses"]) == 12 * 31 * 1 and len(c["scorings"]) == 354
    assert len(c["golds"]) == 31 and len(c["versions"]) == 12
    per_subject = Counter(k[0] for k in c["responses"])
    assert sorted(per_subject.values()) == [31] * 12
    assert Counter(k.split("-")[1] for k in c["golds"]) == {
        "OXID": 7,
        "SCAL": 6,
        "FOUL": 6,
        "MECH": 6,
        "NOWE": 6,
    }
    assert len(tree(root)) == S_COUNTS["total"]


def test_scaled_overrides_and_case_numbering(tmp_path):
    counts = gen.make_corpus(tmp_path, size="S", subjects=2, cases=65, runs=2)
    assert counts["responses"] == 2 * 65 * 2 and counts["scorings"] == 260 - 260 // 20
    c = load(tmp_path)
    assert {k[2][-3:] for k in c["responses"]} == {"001", "002"}
    assert "RO-FOUL-013" in c["golds"] and "RO-FOUL-014" not in c["golds"]
    assert gen.case_ids_for(300)[:2] == ["RO-FOUL-001", "RO-FOUL-002"]
    assert sum(1 for x in gen.case_ids_for(300) if x.startswith("RO-FOUL-")) == 60


def test_scaled_generation_is_deterministic(tmp_path, size_s):
    root, _ = size_s
    gen.make_corpus(tmp_path, size="S")
    assert tree(tmp_path) == tree(root)


# --------------------------------------------------------------------------
# The variety promised in demo/README.md
# --------------------------------------------------------------------------


def check_variety(c: dict) -> None:
    rows = c["rows"]
    # Confidence bin edges among scored runs.
    assert {0, 9, 10, 30, 90, 99, 100} <= {r["confidence"] for r in rows}
    # Exactly one disqualified version: borealis-xl-2026-01-15, with 3 critical runs.
    critical = Counter(r["subject_version"] for r in rows if r["critical"])
    assert critical == {"borealis-xl-2026-01-15": 3}
    # Critical + recoverable + below floor in one run.
    r = row(c, "borealis-xl-2026-01-15", "RO-SCAL-004")
    assert (r["critical"], r["recoverable"], r["raw"], r["floor"]) == (True, True, 3, 4)
    # A critical fail on an otherwise passing raw score.
    r = row(c, "borealis-xl-2026-01-15", "RO-OXID-002")
    assert (r["raw"], r["critical"], r["classification"]) == (9, True, "Fail")
    # Recoverable fail on raw 12 -> Conditional.
    r = row(c, "borealis-xl-2026-04-02", "RO-MECH-001")
    assert (r["raw"], r["recoverable"], r["classification"]) == (12, True, "Conditional")
    # Clipping: raw above the ceiling, and a raw 12 capped at 9 can never Pass.
    r = row(c, "cirrus-reasoner-r1", "RO-SCAL-006")
    assert (r["raw"], r["ceiling"], r["classification"]) == (12, 9, "Conditional")
    assert row(c, "cirrus-reasoner-r1", "RO-OXID-003")["ceiling"] == 11
    assert row(c, "cirrus-reasoner-r1", "RO-NOWE-003")["ceiling"] == 10
    assert sum(r["raw"] > r["ceiling"] for r in rows) >= 4
    # Below the floor without any automatic fail.
    r = row(c, "atlas-7b-2026-03-q4", "RO-MECH-002")
    assert (r["raw"], r["floor"], r["critical"], r["recoverable"]) == (3, 4, False, False)
    # Golds: ceilings 9-12 and floors 0, 3, 4.
    assert {g["rubric_ceiling"] for g in c["golds"].values()} == {9, 10, 11, 12}
    assert {g["rubric_floor"] for g in c["golds"].values()} == {0, 3, 4}
    assert {g["case_type"] for g in c["golds"].values()} == {
        "Closed",
        "Semi-closed",
        "Open",
        "Ambiguous",
    }
    # Soft correctness on several runs.
    assert sum(r["correctness"] == 0.5 for r in rows) >= 5
    # All three classifications occur.
    assert {r["classification"] for r in rows} == {"Pass", "Conditional", "Fail"}
    # Unscored responses of scored subjects: exactly the four placed ones.
    scored_subjects = {k[0] for k in c["scorings"]}
    unscored = sorted(
        k for k in c["responses"] if k[0] in scored_subjects and k not in c["scorings"]
    )
    assert unscored == [
        ("atlas-7b", "RO-MECH-004", "run-2026-05-12-002"),
        ("atlas-7b", "RO-NOWE-006", "run-2026-05-12-001"),
        ("cirrus-reasoner", "RO-FOUL-006", "run-2026-05-14-002"),
        ("expert-rules-ro", "RO-OXID-004", "run-2026-05-14-001"),
    ]
    # 1-2 runs per (subject version, case).
    runs = Counter((r["subject_version"], r["case_id"]) for r in c["responses"].values())
    assert set(runs.values()) == {1, 2}
    # borealis-xl: two registered versions, each with its own responses and scorings.
    assert c["versions"]["borealis-xl"] == {"borealis-xl-2026-01-15", "borealis-xl-2026-04-02"}
    scored_versions = {r["subject_version"] for r in rows if r["subject_id"] == "borealis-xl"}
    assert scored_versions == c["versions"]["borealis-xl"]
    # Reasoning track; optional fields omitted by the expert system.
    tracks = {r.get("track") for k, r in c["responses"].items() if k[0] == "cirrus-reasoner"}
    assert tracks == {"reasoning"}
    expert = [r for k, r in c["responses"].items() if k[0] == "expert-rules-ro"]
    assert all("track" not in r and "served_model" not in r for r in expert)
    assert all(r["confidence"] % 10 == 0 for r in expert)


def test_demo_contains_the_promised_variety():
    check_variety(demo())


def test_demo_folders_subjects_and_extra_files():
    c = demo()
    reg = {s["subject_id"]: s for s in c["registry"]["subjects"]}
    resp_root, score_root = DEMO / "responses" / V, DEMO / "scoring" / V
    # Responses but no scoring folder at all.
    assert any(k[0] == "fjord-13b" for k in c["responses"])
    assert "fjord-13b" in reg and not (score_root / "fjord-13b").exists()
    # Registered, no responses at all (its folder holds only a .gitkeep).
    assert "human-panel-baseline" in reg
    assert not any(k[0] == "human-panel-baseline" for k in c["responses"])
    assert [p.name for p in (resp_root / "human-panel-baseline").iterdir()] == [".gitkeep"]
    # Dot-files and runner error logs.
    assert (score_root / ".gitkeep").read_bytes() == b""
    logs = sorted(p.relative_to(resp_root).as_posix() for p in resp_root.glob("*/_errors/*.txt"))
    assert logs == [
        "atlas-7b/_errors/run-2026-05-12-002.txt",
        "fjord-13b/_errors/run-2026-05-14-001.txt",
    ]
    # Registry style: quoted dates, one reasoning subject.
    text = (DEMO / "subjects" / "registry.yaml").read_text("utf-8")
    assert 'registered_at: "2026-04-10"' in text
    policies = {
        s["subject_id"]: v.get("sampling_policy", {}).get("kind")
        for s in c["registry"]["subjects"]
        for v in s["versions"]
    }
    assert policies["cirrus-reasoner"] == "reasoning"
    assert policies["human-panel-baseline"] is None
    assert [k for k, v in policies.items() if v == "reasoning"] == ["cirrus-reasoner"]


def test_demo_correctness_encoding_and_gold_privacy_markers():
    c = demo()
    raw = [
        json.loads(p.read_text("utf-8"))["correctness"]
        for p in (DEMO / "scoring" / V).glob("*/*.json")
    ]
    assert {(type(x).__name__, x) for x in raw} == {("int", 0), ("float", 0.5), ("int", 1)}
    for case_id, g in c["golds"].items():
        assert g["accepted_main_hypotheses"][0]["hypothesis"].startswith(
            f"(private) {gen.GOLD_CANARY}-{case_id}"
        )
    # No response or scoring carries gold-private text.
    for p in (DEMO / "responses").rglob("*.json"):
        assert gen.GOLD_CANARY not in p.read_text("utf-8")
    for p in (DEMO / "scoring").rglob("*.json"):
        assert gen.GOLD_CANARY not in p.read_text("utf-8")


def test_readme_documents_the_command_counts_and_per_version_table():
    text = (REPO / "demo" / "README.md").read_text("utf-8")
    assert ".venv/bin/python scripts/tools/make_demo_corpus.py demo/corpus --force" in text
    assert f"total {DEMO_COUNTS['total']} files" in text
    c = demo()
    for version in sorted({r["subject_version"] for r in c["rows"]}):
        rr = [r for r in c["rows"] if r["subject_version"] == version]
        cl = Counter(r["classification"] for r in rr)
        cells = [
            f"`{version}`",
            len(rr),
            cl["Pass"],
            cl["Conditional"],
            cl["Fail"],
            sum(r["critical"] for r in rr),
            sum(r["recoverable"] for r in rr),
            sum(r["correctness"] == 0.5 for r in rr),
            sum(r["raw"] > r["ceiling"] for r in rr),
        ]
        assert "| " + " | ".join(map(str, cells)) + " |" in text


def test_demo_evaluation_ids_follow_the_benchmarks_convention_and_repeat_across_subjects():
    """eval-<case_id>-<run_id>-<reviewer_id>, no subject: as in the real v1.0 corpus, one
    id stands in several subjects' folders (here cirrus-reasoner and expert-rules-ro,
    whose runs share the date 2026-05-14), and is unique within each folder."""
    folders_of = {}
    for path in sorted((DEMO / "scoring" / V).rglob("*.json")):
        match = SCORING_NAME.fullmatch(path.name)
        evaluation_id = json.loads(path.read_text("utf-8"))["evaluation_id"]
        assert evaluation_id == f"eval-{match['case']}-{match['run']}-{match['rev']}"
        folders_of.setdefault(evaluation_id, []).append(path.parent.name)
    for folders in folders_of.values():
        assert len(folders) == len(set(folders))
    shared = {key: folders for key, folders in folders_of.items() if len(folders) > 1}
    assert {tuple(folders) for folders in shared.values()} == {
        ("cirrus-reasoner", "expert-rules-ro")
    }
    assert len(shared) == 16
