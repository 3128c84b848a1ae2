"""Private reports on a copy of the demo corpus (`snakemake private_reports`,
shared/spec/private-reports.md): each packet holds its own version's data and nothing
else, the same inputs give the same ZIP and HTML bytes, a packet rebuilds only when its
inputs change, and results/private/ never reaches a snapshot.

The canaries: every text of every gold (its prose and its JSON block's strings), every
scoring's `justification_long`, its fails' `reference` and its `reviewer_notes` carry
markers no packet may hold; every version's responses (main hypothesis) and scorings
(criterion and fail justifications) carry a marker of that version, which only its own
packet may hold (and does: the positive control that the search sees the text). Each
packet's files are searched as bytes, inside its ZIP member by member, and its PDFs as
text (pdftotext).
"""

import hashlib
import io
import json
import re
import shutil
import subprocess
import zipfile

import pytest

from browser import require_chromium
from workflow_runs import (
    ONE_PARTITION,
    corpus_copy,
    planned_wildcards,
    run_workflow,
    workflow_copy,
)

GOLD_MARKER = "GOLDPROBE-5d1e"
PRIVATE_MARKERS = {
    "justification_long": "PREMIUMPROBE-a9c2",
    "reference": "REFPROBE-77b0",
    "reviewer_notes": "NOTESPROBE-3f18",
}
BLOCK = re.compile(r"(```json[^\n]*\n)(.*?)(\n```)", re.S)
PUBLIC_GOLD_FIELDS = {"case_id", "family", "benchmark_version", "case_type", "severity"}


def version_marker(index: int) -> str:
    return f"VERSIONPROBE-{index:02d}Q"


def mark_gold(text: str) -> str:
    match = BLOCK.search(text)

    def mark(value, key=None):
        if isinstance(value, dict):
            return {k: mark(v, k) for k, v in value.items()}
        if isinstance(value, list):
            return [mark(item, key) for item in value]
        if isinstance(value, str) and key not in PUBLIC_GOLD_FIELDS:
            return f"{GOLD_MARKER} {value}"
        return value

    block = match[1] + json.dumps(mark(json.loads(match[2])), indent=2) + match[3]
    prose = f"\n{GOLD_MARKER} prose before the block.\n\n"
    return text[: match.start()] + prose + block + f"\n\n{GOLD_MARKER} prose after.\n"


def plant_canaries(corpus) -> dict[str, str]:
    """The markers (module docstring); subject_version → its marker."""
    for gold in (corpus / "golds/v1.0").glob("*_gold.md"):
        gold.write_text(mark_gold(gold.read_text("utf-8")), "utf-8")
    versions = {}
    for path in sorted((corpus / "responses/v1.0").rglob("*.json")):
        response = json.loads(path.read_text("utf-8"))
        version = response["subject_version"]
        marker = versions.setdefault(version, version_marker(len(versions)))
        response["main_hypothesis"] = f"{marker} {response['main_hypothesis']}"
        path.write_text(json.dumps(response, ensure_ascii=False), "utf-8")
    for path in sorted((corpus / "scoring/v1.0").rglob("*.json")):
        scoring = json.loads(path.read_text("utf-8"))
        marker = versions[scoring["response_ref"]["subject_version"]]
        for criterion in scoring["criterion_scores"].values():
            criterion["justification"] = f"{marker} {criterion['justification']}"
            criterion["justification_long"] = (
                f"{PRIVATE_MARKERS['justification_long']} " + "a long justification " * 3
            )
        for fail in scoring["automatic_fails_triggered"]:
            fail["reference"] = f"{PRIVATE_MARKERS['reference']} {fail['reference']}"
            fail["justification"] = f"{marker} {fail['justification']}"
        scoring["reviewer_notes"] = f"{PRIVATE_MARKERS['reviewer_notes']} note"
        path.write_text(json.dumps(scoring, ensure_ascii=False), "utf-8")
    return versions


def packet_texts(folder) -> dict[str, bytes]:
    """Every file of a packet as bytes: its ZIP's members one by one, its PDFs as text."""
    texts = {}
    for path in sorted(folder.iterdir()):
        content = path.read_bytes()
        texts[path.name] = content
        if path.suffix == ".zip":
            archive = zipfile.ZipFile(io.BytesIO(content))
            texts |= {name: archive.read(name) for name in archive.namelist()}
        if path.suffix == ".pdf":
            shown = subprocess.run(
                ["pdftotext", str(path), "-"], capture_output=True, check=True, timeout=60
            )
            texts[f"{path.name} (text)"] = shown.stdout
    return texts


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    require_chromium(module_level=True)
    if shutil.which("pdftotext") is None:
        pytest.fail("pdftotext is missing: apt install poppler-utils (.ci/run does)")
    root = tmp_path_factory.mktemp("private")
    corpus = corpus_copy(root / "corpus")
    versions = plant_canaries(corpus)
    workdir = workflow_copy(root / "workflow")
    config = {"corpus": corpus, "results": workdir / "out"} | ONE_PARTITION
    config |= {"private_report_languages": "[en,es]", "snapshot_date": "2026-06-01"}
    run = run_workflow(workdir, "private_reports", **config)
    assert run.returncode == 0, run.output
    return workdir, corpus, config, versions


def packets(workdir):
    return sorted(path for path in (workdir / "out/private").glob("*/*") if path.is_dir())


def test_each_packet_holds_its_own_versions_data_and_nothing_of_the_others(built):
    workdir, _, _, versions = built
    folders = packets(workdir)
    # Every version with a scoring of the demo corpus (fjord-13b has none).
    assert [folder.name for folder in folders] == sorted(
        version for version in versions if version != "fjord-13b-instruct-v0.9"
    )
    never = [GOLD_MARKER, *PRIVATE_MARKERS.values()]
    for folder in folders:
        version = folder.name
        assert sorted(path.name for path in folder.iterdir()) == sorted(
            ["report.html", "report.es.html", "report.pdf", "report.es.pdf", f"{version}.zip"]
        )
        texts = packet_texts(folder)
        own = versions[version].encode()
        others = [marker.encode() for v, marker in versions.items() if v != version]
        for name, content in texts.items():
            for marker in [*(m.encode() for m in never), *others]:
                assert marker not in content, (version, name, marker)
        # The positive control: its own texts are there, in every form.
        for name in ("report.html", "report.es.html", "report.pdf (text)"):
            assert own in texts[name], (version, name)
        assert any(own in content for name, content in texts.items() if "/responses/" in name)
        assert any(own in content for name, content in texts.items() if "/scorings/" in name)


def test_the_zip_holds_exactly_its_versions_files_with_their_sums(built):
    workdir, corpus, _, _ = built
    for folder in packets(workdir):
        subject_id, version = folder.parent.name, folder.name
        archive = zipfile.ZipFile(folder / f"{version}.zip")
        names = archive.namelist()
        assert names == sorted(names)
        responses = sorted(
            path.name
            for path in (corpus / "responses/v1.0" / subject_id).glob("*.json")
            if json.loads(path.read_text("utf-8"))["subject_version"] == version
        )
        scorings = sorted(
            path.name
            for path in (corpus / "scoring/v1.0" / subject_id).glob("*.json")
            if json.loads(path.read_text("utf-8"))["response_ref"]["subject_version"] == version
        )
        assert [n for n in names if "/responses/" in n] == [
            f"{version}/responses/{name}" for name in responses
        ]
        assert [n for n in names if "/scorings/" in n] == [
            f"{version}/scorings/{name}" for name in scorings
        ]
        tables = ("critical_fails.csv", "metrics_per_family.csv", "metrics_per_subject.csv")
        assert {f"{version}/{name}" for name in (*tables, "per_run.csv", "MANIFEST.txt")} <= set(
            names
        )
        for table in (*tables, "per_run.csv"):
            rows = archive.read(f"{version}/{table}").decode().splitlines()[1:]
            assert all(row.split(",")[:2] == [subject_id, version] for row in rows), table
        published = (workdir / "out/per_run.csv").read_text("utf-8").splitlines()
        own_rows = [row for row in published if row.startswith(f"{subject_id},{version},")]
        assert archive.read(f"{version}/per_run.csv").decode().splitlines()[1:] == own_rows
        manifest = archive.read(f"{version}/MANIFEST.txt").decode().splitlines()
        assert [line.split("  ", 1)[1] for line in manifest] == sorted(
            name.split("/", 1)[1] for name in names if not name.endswith("MANIFEST.txt")
        )
        for line in manifest:
            digest, name = line.split("  ", 1)
            content = archive.read(f"{version}/{name}")
            assert hashlib.sha256(content).hexdigest() == digest


def test_a_rebuild_gives_the_same_zip_and_html_bytes(built):
    workdir, _, config, _ = built
    before = {
        path: path.read_bytes()
        for folder in packets(workdir)
        for path in folder.iterdir()
        if path.suffix in {".zip", ".html"}
    }
    run = run_workflow(workdir, "private_reports", "--forcerun", "private_report", **config)
    assert run.returncode == 0, run.output
    assert run.output.count("private report of ") == len(packets(workdir))
    after = {path: path.read_bytes() for path in before}
    assert after == before


def test_only_the_packet_whose_inputs_changed_is_rebuilt(built):
    workdir, corpus, config, _ = built
    assert planned_wildcards(workdir, "private_report", "private_reports", **config) == []
    # A criterion's justification of one version changes; no published file shows it.
    scoring = corpus / "scoring/v1.0/atlas-7b/RO-FOUL-001__run-2026-05-12-001__eval-R01.json"
    document = json.loads(scoring.read_text("utf-8"))
    document["criterion_scores"]["main_hypothesis"]["justification"] += " (reworded)"
    scoring.write_text(json.dumps(document, ensure_ascii=False), "utf-8")
    assert run_workflow(workdir, **config).returncode == 0  # publishes
    assert planned_wildcards(workdir, "private_report", "private_reports", **config) == [
        "subject_id=atlas-7b, subject_version=atlas-7b-2026-03-q4"
    ]


def test_chosen_versions_and_an_unknown_one(built):
    workdir, _, config, _ = built
    chosen = config | {"private_report_versions": "cirrus-reasoner-r1"}
    run = run_workflow(
        workdir, "--dry-run", "--forcerun", "private_report", "private_reports", **chosen
    )
    assert run.returncode == 0, run.output
    assert re.findall(r"wildcards: (.*)", run.output) == [
        "subject_id=cirrus-reasoner, subject_version=cirrus-reasoner-r1"
    ]
    unknown = config | {"private_report_versions": "[cirrus-reasoner-r1,no-such-version]"}
    run = run_workflow(workdir, "private_reports", **unknown)
    assert run.returncode == 1
    assert (
        "Invalid configuration: private_report_versions: no scoring in the corpus names "
        "'no-such-version'"
    ) in run.output
    assert "Traceback" not in run.output


def test_a_snapshot_holds_no_private_report(built):
    workdir, _, config, _ = built
    run = run_workflow(workdir, "snapshot", **config)
    assert run.returncode == 0, run.output
    snapshot = workdir / "out/historico/2026-06-01"
    assert (snapshot / "per_run.csv").is_file()
    assert not any("private" in path.parts for path in snapshot.rglob("*"))
    assert not any(path.suffix in {".zip", ".pdf"} for path in snapshot.rglob("*"))
