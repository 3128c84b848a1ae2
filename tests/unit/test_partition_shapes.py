"""The load step's AnswerShapes (findings.md § 5): one per scored run, in the scored
runs' order, counted from the response's public arrays.

Expected counts come from the response files themselves (json.loads and len), not from
the code under test.
"""

import json
import shutil

from ro_metrics.contracts.records import AnswerShape, read_answer_shapes, write_answer_shapes
from ro_metrics.corpus.layout import partition_entries
from ro_metrics.corpus.partition import FileChecker, check_files, partition_summary
from workflow_runs import DEMO_CORPUS, REPO

VERSION = "v1.0"
SCHEMAS = REPO / "system/schemas" / VERSION
RUN_1, RUN_2 = "run-2026-05-12-001", "run-2026-05-12-002"
# Two scored runs and, for RO-FOUL-003, a response whose scoring is left out.
SCORED = [("RO-FOUL-001", RUN_1), ("RO-FOUL-002", RUN_1), ("RO-FOUL-002", RUN_2)]
UNSCORED = ("RO-FOUL-003", RUN_1)


def small_corpus(root):
    for kind in ("responses", "scoring"):
        (root / kind / VERSION / "atlas-7b").mkdir(parents=True)
    for case_id, run_id in [*SCORED, UNSCORED]:
        name = f"{case_id}__{run_id}.json"
        shutil.copy(DEMO_CORPUS / "responses" / VERSION / "atlas-7b" / name, response(root, name))
        if (case_id, run_id) != UNSCORED:
            scoring = f"{case_id}__{run_id}__eval-R01.json"
            source = DEMO_CORPUS / "scoring" / VERSION / "atlas-7b" / scoring
            shutil.copy(source, root / "scoring" / VERSION / "atlas-7b" / scoring)


def response(root, name):
    return root / "responses" / VERSION / "atlas-7b" / name


def expected_shape(root, case_id, run_id) -> AnswerShape:
    document = json.loads(response(root, f"{case_id}__{run_id}.json").read_text("utf-8"))
    return AnswerShape(
        "atlas-7b",
        document["subject_version"],
        case_id,
        run_id,
        len(document["alternatives"]),
        len(document["key_signals"]),
    )


def load(root):
    entries = partition_entries(root, VERSION, "0", 1)
    checker = FileChecker(
        root,
        VERSION,
        SCHEMAS / "response.schema.json",
        SCHEMAS / "evaluation.schema.json",
        1_000_000,
    )
    files = check_files(entries, checker)
    return len(files), partition_summary("0", files, VERSION)


def test_one_shape_per_scored_run_in_the_runs_order(tmp_path):
    root = tmp_path / "corpus"
    small_corpus(root)
    read, loaded = load(root)
    assert read == 7 and loaded.summary.problems == []
    expected = [expected_shape(root, case_id, run_id) for case_id, run_id in SCORED]
    assert loaded.answer_shapes == expected
    runs = [
        (run.subject_id, run.subject_version, run.case_id, run.run_id) for run in loaded.scored_runs
    ]
    assert [tuple(shape[:4]) for shape in loaded.answer_shapes] == runs
    # The file written holds the ids and the two counts only, and reads back the same.
    path = tmp_path / "partition-0.shapes.json"
    write_answer_shapes(path, loaded.answer_shapes)
    assert read_answer_shapes(path) == expected
    assert json.loads(path.read_bytes()) == {"answer_shapes": [list(s) for s in expected]}

    # A second alternative appended to one response, a key signal dropped: counted anew.
    edited = response(root, f"{SCORED[1][0]}__{SCORED[1][1]}.json")
    document = json.loads(edited.read_text("utf-8"))
    document["alternatives"].append(document["alternatives"][0])
    document["key_signals"] = document["key_signals"][:1]
    edited.write_text(json.dumps(document), "utf-8")
    _, reloaded = load(root)
    second = expected[1]._replace(n_alternatives=expected[1].n_alternatives + 1, n_key_signals=1)
    assert reloaded.answer_shapes == [expected[0], second, expected[2]]
