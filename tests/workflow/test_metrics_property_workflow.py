"""The workflow's numbers against an independent, naive reading of the spec, end to end.

A full ``snakemake`` run on a small valid corpus written on disk in the published
layout, compared with the naive side of tests/naive_oracle.py (written straight from
aggregated_metrics.md, importing nothing from scripts/; the rounding rule is explained
there). The same comparison in-process, with shrinking:
tests/unit/test_metrics_property.py.
"""

import json
import re
import tempfile
from pathlib import Path

import pytest
import yaml
from hypothesis import Phase, example, given, settings

from naive_oracle import (
    FAMILY_HEADER,
    PER_RUN_HEADER,
    SUBJECT_HEADER,
    alphas,
    assert_existence,
    assert_rows,
    corpora,
    edge_corpus,
    naive_tables,
    per_run_cells,
    read_csv_rows,
)
from naive_oracle import METRICS_PROFILE as PROFILE
from workflow_runs import ONE_PARTITION, SAMPLES, run_workflow, workflow_copy

WORKFLOW_EXAMPLES = 3

# --------------------------------------------------------------------------------------
# Level 2: the real workflow on a corpus written in the published layout.
# --------------------------------------------------------------------------------------

CRITERIA = (
    "main_hypothesis",
    "key_signals",
    "alternatives",
    "recommended_action",
    "requested_data",
    "decision_change_condition",
)
_GOLD_BLOCK = re.compile(r"^```json\n(.*?)^```", re.M | re.S)


def _sample(name: str):
    return json.loads((SAMPLES / name).read_text(encoding="utf-8"))


RESPONSE_TEMPLATE = _sample("response.RO-FOUL-008__run-2026-05-12-001.json")
SCORING_TEMPLATE = _sample("scoring.RO-FOUL-008__run-2026-05-12-001__eval-R01.json")
GOLD_TEXT = (SAMPLES / "gold.RO-OXID-006_gold.md").read_text(encoding="utf-8")
GOLD_MATCH = _GOLD_BLOCK.search(GOLD_TEXT)
GOLD_TEMPLATE = json.loads(GOLD_MATCH.group(1))


def _write_json(path: Path, document) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")


def write_response(root: Path, subject_id, version, case_id, run_id, confidence) -> None:
    response = {
        **{k: v for k, v in RESPONSE_TEMPLATE.items() if k != "served_model"},
        "case_id": case_id,
        "benchmark_version": "v1.0",
        "subject_id": subject_id,
        "subject_version": version,
        "run_id": run_id,
        "confidence": confidence,
    }
    _write_json(root / f"responses/v1.0/{subject_id}/{case_id}__{run_id}.json", response)


def write_corpus(root: Path, runs, registry, golds, unscored) -> None:
    subjects = [
        {
            "subject_id": subject_id,
            # Not llm: an llm's versions must hold its subject's first token, and these
            # versions are free text on purpose (a number, a missing value, a comma...).
            "kind": "expert_system",
            "provider": "Property test",
            "versions": [
                {
                    "subject_version": version,
                    "registered_at": "2026-05-12",
                    "access_type": "api",
                    "sampling_policy": {"kind": "classic"},
                }
                for version in versions
            ],
        }
        for subject_id, versions in registry.items()
    ]
    (root / "subjects").mkdir(parents=True)
    (root / "subjects/registry.yaml").write_text(
        yaml.safe_dump({"subjects": subjects}, allow_unicode=True, sort_keys=False),
        encoding="utf-8",
    )
    for case_id, (floor, ceiling) in golds.items():
        gold = {
            **GOLD_TEMPLATE,
            "case_id": case_id,
            "family": case_id[3:7],
            "rubric_floor": floor,
            "rubric_ceiling": ceiling,
        }
        block = json.dumps(gold, indent=2) + "\n"
        text = GOLD_TEXT[: GOLD_MATCH.start(1)] + block + GOLD_TEXT[GOLD_MATCH.end(1) :]
        path = root / f"golds/v1.0/{case_id}_gold.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    for entry in unscored:
        write_response(root, *entry)
    for run in runs:
        subject_id, case_id, run_id = run["subject_id"], run["case_id"], run["run_id"]
        write_response(root, subject_id, run["subject_version"], case_id, run_id, run["confidence"])
        scoring = {
            **SCORING_TEMPLATE,
            "evaluation_id": f"eval-{subject_id}-{case_id}-{run_id}-{run['reviewer_id']}",
            "reviewer_id": run["reviewer_id"],
            "scoring_timestamp_utc": run["scoring_timestamp_utc"],
            "response_ref": {
                "case_id": case_id,
                "subject_id": subject_id,
                "subject_version": run["subject_version"],
                "run_id": run_id,
            },
            "criterion_scores": {
                key: {"score": score, "justification": "Property test."}
                for key, score in zip(CRITERIA, run["criterion_scores"], strict=True)
            },
            "automatic_fails_triggered": [
                {
                    "type": "generic",
                    "reference": "Property test fail",
                    "severity": severity,
                    "justification": "Property test.",
                }
                for severity in run["fail_severities"]
            ],
            "correctness": run["correctness"],
        }
        name = f"{case_id}__{run_id}__eval-{run['reviewer_id']}.json"
        _write_json(root / f"scoring/v1.0/{subject_id}/{name}", scoring)
    # The scoring/ folder must exist even when nothing is scored yet.
    (root / "scoring/v1.0").mkdir(parents=True, exist_ok=True)


@pytest.fixture(scope="module")
def workflow_dir(tmp_path_factory):
    return workflow_copy(tmp_path_factory.mktemp("property") / "workflow")


# No shrinking here: each step of it is a full snakemake run. A failure is reported on
# the example as generated; the in-process test above shrinks the same kind of input.
@settings(
    PROFILE,
    max_examples=WORKFLOW_EXAMPLES,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
)
@given(
    corpus=corpora(
        max_subjects=2,
        min_runs_per_subject=6,
        max_runs_per_subject=16,
        with_unscored=True,
        floor_below_ceiling=True,
    ).filter(lambda corpus: corpus[0]),
    alpha=alphas,
)
@example(corpus=edge_corpus(), alpha=0.3)
def test_workflow_matches_naive_implementation(workflow_dir, corpus, alpha):
    runs, registry, golds, unscored = corpus
    per_run, subjects, families = naive_tables(runs, alpha)
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch) / "corpus"
        results = Path(scratch) / "results"
        write_corpus(root, runs, registry, golds, unscored)
        config = {"corpus": root, "results": results, "alpha": repr(alpha)} | ONE_PARTITION
        run = run_workflow(workflow_dir, **config)
        assert run.returncode == 0, run.output
        header, per_run_rows = read_csv_rows(results / "per_run.csv")
        assert header == PER_RUN_HEADER
        assert (results / "per_run.csv").read_bytes().count(b"\r\n") == len(per_run) + 1
        assert_rows(
            per_run_rows, [per_run_cells(r) for r in per_run], as_text=True, table="per_run"
        )
        header, subject_rows = read_csv_rows(results / "metrics_per_subject.csv")
        assert header == SUBJECT_HEADER
        assert_rows(subject_rows, subjects, as_text=True, table="subject")
        header, family_rows = read_csv_rows(results / "metrics_per_family.csv")
        assert header == FAMILY_HEADER
        assert_rows(family_rows, families, as_text=True, table="family")
        assert_existence(runs, subject_rows, family_rows)
