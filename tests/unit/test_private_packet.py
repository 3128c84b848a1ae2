"""The private packet's parts, by hand (private/packet_zip.py, packet_files.py,
private_view.py): a scoring's public fields, the ZIP's bytes and MANIFEST, the inputs
digest, which files belong to a version, the per-family lines against the pooled rate;
and that results/private/ is neither a published file nor committed."""

import hashlib
import io
import json
import subprocess
import zipfile

from ro_metrics.contracts.published import PUBLISHED
from ro_metrics.leaderboard.leaderboard_view import leaderboard_view
from ro_metrics.private.packet_files import (
    evaluated_versions,
    folder_name_problem,
    subject_versions,
)
from ro_metrics.private.packet_zip import (
    MANIFEST,
    inputs_digest,
    manifest_bytes,
    packet_zip,
    public_scoring,
    scoring_bytes,
    version_rows,
)
from ro_metrics.private.private_page import render_report
from ro_metrics.private.private_view import family_lines, private_report
from ro_metrics.rendering.translations import language
from workflow_runs import REPO

SCORING = {
    "evaluation_id": "eval-1",
    "benchmark_version": "v1.0",
    "scoring_timestamp_utc": "2026-05-13T10:38:10Z",
    "reviewer_id": "R01",
    "response_ref": {
        "case_id": "RO-FOUL-001",
        "subject_id": "s",
        "subject_version": "v",
        "run_id": "r",
    },
    "criterion_scores": {
        "main_hypothesis": {"score": 2, "justification": "short", "justification_long": "L" * 60},
    },
    "correctness": 1,
    "automatic_fails_triggered": [
        {
            "type": "case_specific",
            "reference": "the gold's rule",
            "severity": "critical",
            "justification": "why",
        }
    ],
    "reviewer_notes": "the gold says so",
}


def test_a_scoring_keeps_its_public_fields_only():
    assert public_scoring(SCORING) == {
        "evaluation_id": "eval-1",
        "benchmark_version": "v1.0",
        "scoring_timestamp_utc": "2026-05-13T10:38:10Z",
        "reviewer_id": "R01",
        "response_ref": SCORING["response_ref"],
        "criterion_scores": {"main_hypothesis": {"score": 2, "justification": "short"}},
        "correctness": 1,
        "automatic_fails_triggered": [
            {"type": "case_specific", "severity": "critical", "justification": "why"}
        ],
    }
    text = scoring_bytes(SCORING).decode()
    assert text.endswith("}\n") and "justification_long" not in text
    assert "reference" not in text and "reviewer_notes" not in text and "gold" not in text


def test_the_manifest_is_sha256sum_lines_sorted_by_name():
    files = {"b.csv": b"x\r\n", "a/c.json": b"{}"}
    assert (
        manifest_bytes(files)
        == (
            f"{hashlib.sha256(b'{}').hexdigest()}  a/c.json\n"
            f"{hashlib.sha256(b'x' + bytes([13, 10])).hexdigest()}  b.csv\n"
        ).encode()
    )


def test_the_zip_is_the_same_bytes_for_the_same_files_in_any_order():
    files = {"scorings/s.json": b"{}\n", "per_run.csv": b"h\r\n", "responses/r.json": b"[]"}
    first = packet_zip("v1", files)
    assert packet_zip("v1", dict(reversed(list(files.items())))) == first
    archive = zipfile.ZipFile(io.BytesIO(first))
    assert archive.namelist() == [
        "v1/MANIFEST.txt",
        "v1/per_run.csv",
        "v1/responses/r.json",
        "v1/scorings/s.json",
    ]
    for info in archive.infolist():
        assert info.date_time == (1980, 1, 1, 0, 0, 0)
        assert info.external_attr >> 16 == 0o100644 and info.create_system == 3
        assert info.compress_type == zipfile.ZIP_DEFLATED
    assert archive.read("v1/MANIFEST.txt") == manifest_bytes(files)
    assert archive.read("v1/per_run.csv") == b"h\r\n"
    assert packet_zip("v1", {**files, "per_run.csv": b"h2\r\n"}) != first
    assert MANIFEST == "MANIFEST.txt"


def test_the_inputs_digest_is_over_sorted_names_and_digests():
    digests = {"scoring/v1.0/s/b.json": "22", "per_run.csv": "11"}
    expected = hashlib.sha256(b"11  per_run.csv\n22  scoring/v1.0/s/b.json\n").hexdigest()
    assert inputs_digest(digests) == expected
    assert inputs_digest({**digests, "per_run.csv": "12"}) != expected


def test_a_versions_rows_are_its_own_in_the_files_order():
    rows = [
        {"subject_id": "a", "subject_version": "1", "n": "1"},
        {"subject_id": "a", "subject_version": "2", "n": "2"},
        {"subject_id": "b", "subject_version": "1", "n": "3"},
        {"subject_id": "a", "subject_version": "1", "n": "4"},
    ]
    assert [row["n"] for row in version_rows(rows, "a", "1")] == ["1", "4"]


def test_a_subject_folders_files_are_split_by_the_version_they_name(tmp_path):
    responses = tmp_path / "responses/v1.0/s"
    scorings = tmp_path / "scoring/v1.0/s"
    responses.mkdir(parents=True)
    scorings.mkdir(parents=True)
    (responses / "_errors").mkdir()
    (responses / "c1__r1.json").write_text(json.dumps({"subject_version": "v1"}))
    (responses / "c1__r2.json").write_text(json.dumps({"subject_version": "v2"}))
    (responses / "c2__r3.json").write_text(json.dumps({"subject_version": "v3"}))
    (responses / ".c9.json").write_text(json.dumps({"subject_version": "v1"}))
    (responses / "broken.json").write_text("{")
    ref = {"response_ref": {"subject_version": "v1"}}
    (scorings / "c1__r1__eval-R01.json").write_text(json.dumps(ref))
    ref2 = {"response_ref": {"subject_version": "v2"}}
    (scorings / "c1__r2__eval-R01.json").write_text(json.dumps(ref2))
    found = subject_versions(tmp_path, "v1.0", "s")
    assert found["v1"] == (
        ["responses/v1.0/s/c1__r1.json"],
        ["scoring/v1.0/s/c1__r1__eval-R01.json"],
    )
    assert found["v2"].scorings == ["scoring/v1.0/s/c1__r2__eval-R01.json"]
    assert found["v3"] == (["responses/v1.0/s/c2__r3.json"], [])
    # v3 has no scoring: not evaluated, no packet.
    assert evaluated_versions(tmp_path, "v1.0") == [("s", "v1"), ("s", "v2")]


def test_a_version_that_cannot_name_a_folder_is_refused():
    assert folder_name_problem("gpt-5-2025-08-07") is None
    assert folder_name_problem("a version 1.0") is None
    assert "cannot name a folder" in folder_name_problem("a/b")
    assert "cannot name a folder" in folder_name_problem("..")
    assert "control character" in folder_name_problem("a\tb")


def test_a_family_line_sets_the_versions_rate_against_every_versions_runs_pooled():
    def row(version, family, n_runs, n_pass, rate):
        return {
            "subject_id": "s",
            "subject_version": version,
            "family": family,
            "n_runs": str(n_runs),
            "n_pass": str(n_pass),
            "pass_rate_family": rate,
            "mean_clipped_score_family": "9.0",
        }

    every = [
        row("a", "FOUL", 4, 3, "0.75"),
        row("b", "FOUL", 6, 1, "0.1667"),
        row("b", "SCAL", 2, 0, "0.0"),
    ]
    (line,) = family_lines([every[0]], every)
    # 4 of 10 runs pooled; Wilson 95 % for 4/10: centre (0.4 + 1.96²/20)/(1 + 1.96²/10).
    z2 = 1.959963984540054**2
    centre = (0.4 + z2 / 20) / (1 + z2 / 10)
    half = (1.959963984540054 / (1 + z2 / 10)) * (0.4 * 0.6 / 10 + z2 / 400) ** 0.5
    assert (line.family, line.pass_rate) == ("FOUL", "0.75")
    assert (line.pooled_n_runs, line.pooled_n_versions, line.pooled_pass_rate) == (10, 2, "0.4")
    assert (line.pooled_low, line.pooled_high) == (
        repr(round(centre - half, 4)),
        repr(round(centre + half, 4)),
    )


def test_private_reports_are_never_published_snapshotted_or_committed():
    # The registry is what publish writes and snapshot and verify copy.
    assert not any(entry.name.startswith("private") for entry in PUBLISHED)
    ignored = subprocess.run(
        ["git", "check-ignore", "results/private/s/v/report.html", "results/private/s/v/v.zip"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    assert ignored.stdout.split() == [
        "results/private/s/v/report.html",
        "results/private/s/v/v.zip",
    ]


def test_a_withdrawn_version_is_neither_ranked_nor_a_top_system_of_another_report():
    """A private report's comparison shows the top versions still in the active
    comparisons: a withdrawn one keeps its own report (marked, unranked) but is nobody's
    top system, and ranks nobody down (lifecycle.md)."""

    def metrics(subject_id, q_final):
        return {
            "subject_id": subject_id,
            "subject_version": "v1",
            "n_runs": "1",
            "n_pass": "1",
            "n_conditional": "0",
            "n_fail": "0",
            "n_critical_fails": "0",
            "n_recoverable_fails": "0",
            "pass_rate": "1.0",
            "mean_clipped_score": "9.0",
            "brier": "0.0",
            "ece": "0.0",
            "alpha": "0.5",
            "q_final": q_final,
            "leaderboard_status": "Eligible",
        }

    subjects = [metrics("a", "0.9"), metrics("b", "0.8"), metrics("c", "0.7")]
    withdrawn = {"subject_id": "a", "subject_version": "v1", "label": "withdrawn"}
    view = leaderboard_view(
        benchmark_version="v1.0",
        alpha="0.5",
        last_update="",
        subjects=subjects,
        uncertainty={},
        tracks=dict.fromkeys([("a", "v1"), ("b", "v1"), ("c", "v1")], "classic"),
        registry={},
        families=[],
        critical_fails=[],
        annotations=[withdrawn | {"date": "2026-06-10", "note": "n", "link": ""}],
    )

    def report(subject_id):
        return private_report(
            view,
            subject_id,
            "v1",
            per_run=[],
            scorings=[],
            families=[],
            inputs_digest="0" * 64,
            counted=[{"reported_confidence": "90", "correctness": "1.0"}],
            top=3,
        )

    own = report("c")
    assert (own.row.rank, own.n_ranked) == ("2", 2)
    assert [row.subject_id for row in own.comparison.rows] == ["b", "c"]
    withdrawn_report = report("a")
    assert (withdrawn_report.row.rank, withdrawn_report.row.left_out) == ("", True)
    assert [row.subject_id for row in withdrawn_report.comparison.rows] == ["b", "c", "a"]

    # The overall line says why a version has no rank: its annotation, not a critical fail;
    # a ranked version says neither.
    english = language("en")

    def page(private) -> str:
        return render_report(private, english, diagram_svg="", bins=private.calibration)

    left_out_line = english("private_unranked_left_out")
    disqualified_line = english("private_unranked")
    withdrawn_page, ranked_page = page(withdrawn_report), page(own)
    assert left_out_line in withdrawn_page and disqualified_line not in withdrawn_page
    assert "Withdrawn 2026-06-10" in withdrawn_page
    assert left_out_line not in ranked_page and disqualified_line not in ranked_page
    assert "Withdrawn 2026-06-10" not in ranked_page
