"""No gold leak: a marker in every private field of every gold reaches no output at all.

Golds are private to the benchmark; only rubric_floor, rubric_ceiling, family and
case_type may be published (corpus-format.md). This test rewrites a copy of the demo
corpus so that every other text of every gold (each string of the JSON block, the
optional author/reviewer ids, the front matter and the prose around the block) holds
a unique marker, runs everything the workflow can produce — the published files
(critical_fails.csv included), the leaderboard page and its diagrams, the static site
in both languages, a snapshot, `verify`, Snakemake's report — and searches every file
written (also inside the report's base64-embedded files) for the marker. The scorings
are marked too: every fail's `reference` (it restates the gold's rule) and every
`justification_long` (premium) get markers of their own, which must reach no output
either. (A member the schemas do not name is refused at load: every object of the
schemas is closed, tests/workflow/test_validation_parity.py.)
"""

import base64
import binascii
import json
import re

from site_links import expected_site
from workflow_runs import ONE_PARTITION, corpus_copy, files_below, run_workflow, workflow_copy

MARKER = "LEAKPROBE-7f3c9a"
REFERENCE_MARKER = "REFPROBE-2b81d0"
PREMIUM_MARKER = "PREMIUMPROBE-c4e7a2"
PUBLIC = {"case_id", "family", "benchmark_version", "case_type"}
ENUMS = {"severity"}  # values fixed by the schema, not prose
BLOCK = re.compile(r"(```json[^\n]*\n)(.*?)(\n```)", re.S)
BASE64_RUN = re.compile(rb"[A-Za-z0-9+/]{64,}={0,2}")


def mark(value, key=None):
    """Every private string gets the marker (numbers stay: floor/ceiling are public)."""
    if isinstance(value, dict):
        return {k: mark(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [mark(item, key) for item in value]
    if isinstance(value, str) and key not in PUBLIC | ENUMS:
        return f"{MARKER} {value}"
    return value


def mark_gold(text: str) -> str:
    match = BLOCK.search(text)
    gold = json.loads(match[2])
    gold = mark(gold | {"gold_author_id": "A1", "gold_reviewer_id": "R9"})
    block = match[1] + json.dumps(gold, indent=2, ensure_ascii=False) + match[3]
    before = text[: match.start()].replace("---\n", f"---\nprobe: {MARKER}\n", 1)
    after = f"\n\n{MARKER} closing prose.\n" + text[match.end() :]
    return f"{before}\n{MARKER} opening prose.\n\n{block}{after}"


def mark_scoring(document: dict) -> dict:
    """Markers in the scoring fields no output may show (see the module docstring)."""
    for fail in document["automatic_fails_triggered"]:
        fail["reference"] = f"{REFERENCE_MARKER} {fail['reference']}"
    for criterion in document["criterion_scores"].values():
        criterion["justification_long"] = f"{PREMIUM_MARKER} " + "an extended justification " * 3
    return document


def written_files(workdir):
    return [path for path in workdir.rglob("*") if path.is_file() and "corpus" not in path.parts]


def embedded(content: bytes) -> list[bytes]:
    decoded = []
    for run in BASE64_RUN.findall(content):
        try:
            decoded.append(base64.b64decode(run + b"=" * (-len(run) % 4)))
        except (binascii.Error, ValueError):
            continue
    return decoded


def test_a_marked_gold_reaches_no_output_log_cache_snapshot_or_report(tmp_path):
    corpus = corpus_copy(tmp_path / "workflow" / "corpus")
    golds = sorted((corpus / "golds/v1.0").glob("*_gold.md"))
    assert len(golds) == 30
    for gold in golds:
        gold.write_text(mark_gold(gold.read_text("utf-8")), "utf-8")
        assert gold.read_text("utf-8").count(MARKER) > 10
    scorings = sorted((corpus / "scoring/v1.0").rglob("*.json"))
    for scoring in scorings:
        scoring.write_text(json.dumps(mark_scoring(json.loads(scoring.read_text("utf-8")))))
    # 5 scorings carry automatic fails (7 fails in all, demo/data/demo_placements.json).
    assert sum(REFERENCE_MARKER in path.read_text("utf-8") for path in scorings) == 5
    workdir = workflow_copy(tmp_path / "workflow")
    config = {"corpus": corpus, "results": workdir / "out"} | ONE_PARTITION
    for target in ("all", "site", "snapshot", "verify"):
        run = run_workflow(workdir, target, **config)
        assert run.returncode == 0, run.output
        for marker in (MARKER, REFERENCE_MARKER, PREMIUM_MARKER):
            assert marker not in run.output
    report = run_workflow(workdir, "--report", "report.html", **config)
    assert report.returncode == 0, report.output

    files = written_files(workdir)
    names = {path.name for path in files}
    assert {"leaderboard.html", "uncertainty.csv", "report.html", "metadata.json"} <= names
    assert {"critical_fails.csv", "index.html"} <= names
    # The site in both languages: every page the data give, and no other file.
    assert files_below(workdir / "site") == expected_site(corpus, workdir / "out")
    assert any("historico" in path.parts for path in files)
    assert any(path.suffix == ".svg" for path in files)
    assert any(path.suffix == ".log" for path in files)
    needles = [m.encode("ascii") for m in (MARKER, REFERENCE_MARKER, PREMIUM_MARKER)]
    report_parts = embedded((workdir / "report.html").read_bytes())
    assert any(b"leaderboard" in part for part in report_parts)  # decoding really works
    for path in files:
        content = path.read_bytes()
        for needle in needles:
            assert needle not in content, (path, needle)
    for part in report_parts:
        for needle in needles:
            assert needle not in part


def test_a_broken_gold_is_reported_without_quoting_its_content(tmp_path):
    """Problems reach the terminal and the logs: a gold's private values stay out."""
    corpus = corpus_copy(tmp_path / "workflow" / "corpus")
    gold_path = corpus / "golds/v1.0/RO-FOUL-001_gold.md"
    text = gold_path.read_text("utf-8")
    match = BLOCK.search(text)
    gold = json.loads(match[2])
    gold["expected_key_signals"] = f"{MARKER} one signal instead of a list"
    gold["accepted_main_hypotheses"][0]["semantic_anchors"] = f"{MARKER} anchor"
    gold["case_specific_automatic_fails"] = [{"description": f"{MARKER} d", "severity": MARKER}]
    gold["non_ignorable_signals"] = {MARKER: 1}
    gold[f"{MARKER}_extra"] = "x"
    block = match[1] + json.dumps(gold, indent=2) + match[3]
    gold_path.write_text(text[: match.start()] + block + text[match.end() :], "utf-8")
    workdir = workflow_copy(tmp_path / "workflow")
    run = run_workflow(workdir, corpus=corpus, results=workdir / "out", **ONE_PARTITION)
    assert run.returncode != 0
    assert "RO-FOUL-001_gold.md: expected_key_signals: breaks the schema's 'type' rule" in (
        run.output
    )
    assert "value not shown (private)" in run.output
    assert MARKER not in run.output
    for path in written_files(workdir):
        assert MARKER.encode("ascii") not in path.read_bytes(), path
