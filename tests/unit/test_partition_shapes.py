"""The load step's AnswerShapes (findings.md § 5): one per scored run, in the scored
runs' order, counted from the response's public arrays, and kept by the file cache.

Expected counts come from the response files themselves (json.loads and len), not from
the code under test.
"""

import json
import os
import shutil

from ro_metrics.contracts.records import AnswerShape, read_answer_shapes, write_answer_shapes
from ro_metrics.corpus.layout import read_manifest, refresh_manifests
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


def load(root, manifests, cache):
    refresh_manifests(root, VERSION, 1, manifests)
    entries = read_manifest(manifests / "partition-0.tsv")
    checker = FileChecker(
        root,
        VERSION,
        SCHEMAS / "response.schema.json",
        SCHEMAS / "evaluation.schema.json",
        1_000_000,
    )
    files, read = check_files(entries, checker, cache)
    return files, read, partition_summary("0", files, VERSION)


def test_one_shape_per_scored_run_in_the_runs_order_kept_by_the_file_cache(tmp_path):
    root, manifests = tmp_path / "corpus", tmp_path / "manifests"
    small_corpus(root)
    files, read, loaded = load(root, manifests, {})
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

    # A second alternative appended to one response (the file changes size): only that
    # file is read again, it is re-counted, and the other shapes come from the cache.
    edited = response(root, f"{SCORED[1][0]}__{SCORED[1][1]}.json")
    document = json.loads(edited.read_text("utf-8"))
    document["alternatives"].append(document["alternatives"][0])
    document["key_signals"] = document["key_signals"][:1]
    edited.write_text(json.dumps(document), "utf-8")
    untouched = response(root, f"{SCORED[0][0]}__{SCORED[0][1]}.json")
    # Were it re-read, the unchanged response would now fail its schema (no
    # "alternatives") and have no shape; with its size and times as before, the cache's
    # counts must stand.
    stat = untouched.stat()
    text = untouched.read_text("utf-8")
    untouched.write_text(text.replace('"alternatives"', '"alternative_"', 1), "utf-8")
    os.utime(untouched, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    cache = json.loads(json.dumps(files))  # as the job reads it back from its JSON file
    # The change time of the untouched file moved too: put the cached key in line with it,
    # as if its rewrite had not happened (only the cache's use is under test here).
    cache[str(untouched.relative_to(root))][2] = untouched.stat().st_ctime_ns

    _, read, reloaded = load(root, manifests, cache)
    assert read == 1
    second = expected[1]._replace(n_alternatives=expected[1].n_alternatives + 1, n_key_signals=1)
    assert reloaded.answer_shapes == [expected[0], second, expected[2]]
