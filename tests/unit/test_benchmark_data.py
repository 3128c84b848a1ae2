"""scripts/tools/benchmark_data.py: the benchmark's public data laid out from a checkout of
its repository, with placeholder golds rebuilt from its published per_run.csv (what CI
on GitHub does, where there is no ../shared)."""

import json
import shutil

import jsonschema
import pytest

import benchmark_data
from workflow_runs import REPO, tree_digest

HEADER = (
    "subject_id,subject_version,case_id,family,run_id,reviewer_id,scoring_timestamp_utc,"
    "rubric_floor,rubric_ceiling,raw_score,clipped_score,has_critical_fail,"
    "has_recoverable_fail,classification,reported_confidence,confidence_unit,correctness\r\n"
)
ROW = "{s},{s}-v,{case},{family},run-2026-05-12-001,R01,2026-05-13T10:38:10Z,{floor},{ceiling},9,9,False,False,Pass,78,0.78,1.0\r\n"  # noqa: E501
SHARED = REPO.parent / "shared" / "benchmark-v1.0"


def json_block(path):
    return json.loads(path.read_text("utf-8").split("```json\n", 1)[1].split("\n```", 1)[0])


def write_per_run(path, rows):
    path.write_text(HEADER + "".join(ROW.format(**row) for row in rows), "utf-8")


def test_one_gold_per_case_with_the_published_bounds_and_nothing_private(tmp_path):
    write_per_run(
        tmp_path / "per_run.csv",
        [
            {"s": "a", "case": "RO-SCAL-002", "family": "SCAL", "floor": 4, "ceiling": 10},
            {"s": "b", "case": "RO-SCAL-002", "family": "SCAL", "floor": 4, "ceiling": 10},
            {"s": "a", "case": "RO-FOUL-001", "family": "FOUL", "floor": 0, "ceiling": 12},
        ],
    )
    assert benchmark_data.write_golds(tmp_path / "per_run.csv", tmp_path / "golds") == []
    golds = sorted(path.name for path in (tmp_path / "golds").iterdir())
    assert golds == ["RO-FOUL-001_gold.md", "RO-SCAL-002_gold.md"]
    schema = json.loads((REPO / "system/schemas/v1.0/gold.schema.json").read_text("utf-8"))
    expected = {
        "RO-FOUL-001": ("FOUL", "Semi-closed", 0, 12),
        "RO-SCAL-002": ("SCAL", "Ambiguous", 4, 10),  # a ceiling below 12
    }
    for case_id, (family, case_type, floor, ceiling) in expected.items():
        document = json_block(tmp_path / "golds" / f"{case_id}_gold.md")
        jsonschema.validate(document, schema)
        assert (document["case_id"], document["family"], document["case_type"]) == (
            case_id,
            family,
            case_type,
        )
        assert (document["rubric_floor"], document["rubric_ceiling"]) == (floor, ceiling)
        prose = [document["accepted_main_hypotheses"][0]["hypothesis"]]
        prose += document["expected_key_signals"]
        prose += list(document["accepted_recommended_actions"][0].values())
        assert set(prose) == {"(private)"}


def test_a_case_with_two_ceilings_is_refused_with_its_line(tmp_path):
    write_per_run(
        tmp_path / "per_run.csv",
        [
            {"s": "a", "case": "RO-SCAL-002", "family": "SCAL", "floor": 4, "ceiling": 10},
            {"s": "b", "case": "RO-SCAL-002", "family": "SCAL", "floor": 4, "ceiling": 11},
        ],
    )
    problems = benchmark_data.write_golds(tmp_path / "per_run.csv", tmp_path / "golds")
    assert problems == [
        f"{tmp_path / 'per_run.csv'}: line 3: RO-SCAL-002 has family, floor, ceiling "
        "('SCAL', 4, 11), an earlier row ('SCAL', 4, 10)"
    ]
    assert not (tmp_path / "golds").exists()


def test_a_checkout_without_its_folders_is_named_and_nothing_is_written(tmp_path, capsys):
    (tmp_path / "checkout" / "subjects").mkdir(parents=True)
    destination = tmp_path / "out"
    assert benchmark_data.main([str(tmp_path / "checkout"), str(destination)]) == 1
    lines = capsys.readouterr().err.splitlines()
    missing = ["responses", "scoring", "results/per_run.csv", "results/metrics_per_subject.csv"]
    missing.append("results/metrics_per_family.csv")
    checkout = tmp_path / "checkout"
    assert lines == [f"{checkout / name}: missing from the checkout" for name in missing]
    assert not destination.exists()


@pytest.mark.skipif(not SHARED.is_dir(), reason=f"{SHARED} is not here (CI rebuilds it)")
def test_a_checkout_is_laid_out_as_the_shared_benchmark_folder(tmp_path):
    """A checkout as the benchmark's repository has it (corpus folders at its root, the
    published CSVs in results/), made from ../shared, gives ../shared back."""
    checkout = tmp_path / "checkout"
    for folder in (*benchmark_data.CORPUS_FOLDERS, *benchmark_data.OPTIONAL_FOLDERS):
        shutil.copytree(SHARED / "corpus" / folder, checkout / folder)
    (checkout / "results").mkdir()
    for name in benchmark_data.PUBLISHED_CSVS:
        shutil.copyfile(SHARED / "published" / name, checkout / "results" / name)
    assert benchmark_data.main([str(checkout), str(tmp_path / "out")]) == 0
    assert tree_digest(tmp_path / "out" / "corpus") == tree_digest(SHARED / "corpus")
    for name in benchmark_data.PUBLISHED_CSVS:
        assert (tmp_path / "out/published" / name).read_bytes() == (
            SHARED / "published" / name
        ).read_bytes()
