#!/usr/bin/env python3
"""The benchmark's public v1.0 data, laid out as ../shared/benchmark-v1.0 from a checkout
of its repository, with placeholder golds rebuilt from its published per_run.csv.

The benchmark keeps its golds private; its public repository has the responses, the
scorings, the registry and the published CSVs. The metrics read only a gold's
`rubric_floor`, `rubric_ceiling` and `family`, and per_run.csv has all three for every
scored case, so a gold carrying them (and `(private)` for every prose field) lets the
workflow run on the public corpus and reproduce the published CSVs. `case_type` is not
published: it is guessed as `Ambiguous` where the ceiling is below 12, else
`Semi-closed` (it is shown on the site, never used by a metric). This is how the golds
of ../shared/benchmark-v1.0 were made (its README); CI uses it where that folder is
missing (.github/workflows/ci.yml).

Usage::

    python scripts/tools/benchmark_data.py CHECKOUT DEST

copies the checkout's corpus folders (subjects/, responses/, scoring/, and cases/ where
it has one) to DEST/corpus/ and its published CSVs (results/per_run.csv, metrics_per_subject.csv,
metrics_per_family.csv) to DEST/published/, then writes DEST/corpus/golds/v1.0/
<case_id>_gold.md for every case of per_run.csv. It exits non-zero, naming what is
wrong, if a folder or CSV is missing or a case has two floors, ceilings or families.
tests/workflow/test_benchmark_corpus.py then runs on it with BENCHMARK_V1_DIR=DEST.
"""

from __future__ import annotations

import argparse
import csv
import json
import shutil
import sys
from pathlib import Path

BENCHMARK_VERSION = "v1.0"
PRIVATE = "(private)"
CORPUS_FOLDERS = ("subjects", "responses", "scoring")
# The public case statements (families.md): copied when the checkout has them.
OPTIONAL_FOLDERS = ("cases",)
PUBLISHED_CSVS = ("per_run.csv", "metrics_per_subject.csv", "metrics_per_family.csv")


def case_bounds(per_run: Path) -> tuple[dict[str, tuple[str, int, int]], list[str]]:
    """case_id → (family, floor, ceiling) from per_run.csv, and the rows that disagree."""
    cases: dict[str, tuple[str, int, int]] = {}
    problems = []
    with per_run.open(encoding="utf-8", newline="") as handle:
        for line, row in enumerate(csv.DictReader(handle), start=2):
            bounds = (row["family"], int(row["rubric_floor"]), int(row["rubric_ceiling"]))
            known = cases.setdefault(row["case_id"], bounds)
            if known != bounds:
                problems.append(
                    f"{per_run}: line {line}: {row['case_id']} has family, floor, ceiling "
                    f"{bounds}, an earlier row {known}"
                )
    return dict(sorted(cases.items())), problems


def gold_document(case_id: str, family: str, floor: int, ceiling: int) -> dict:
    """A gold that passes the v1.0 gold schema with only the public values filled in."""
    return {
        "case_id": case_id,
        "family": family,
        "benchmark_version": BENCHMARK_VERSION,
        "case_type": "Ambiguous" if ceiling < 12 else "Semi-closed",
        "rubric_floor": floor,
        "rubric_ceiling": ceiling,
        "accepted_main_hypotheses": [{"hypothesis": PRIVATE, "semantic_anchors": [PRIVATE]}],
        "expected_key_signals": [PRIVATE],
        "non_ignorable_signals": [],
        "accepted_requested_data": [{"datum": PRIVATE, "semantic_anchors": [PRIVATE]}],
        "accepted_recommended_actions": [{"action": PRIVATE, "rationale": PRIVATE}],
        "case_specific_automatic_fails": [],
    }


def gold_markdown(document: dict) -> str:
    return (
        "---\ngold_version: 1\nstatus: reconstructed\n---\n\n"
        f"# Gold {document['case_id']}\n\n"
        "Placeholder gold rebuilt from the published per-run table; only the\n"
        "floor and ceiling are real.\n\n"
        f"```json\n{json.dumps(document, indent=2, ensure_ascii=False)}\n```\n"
    )


def write_golds(per_run: Path, golds: Path) -> list[str]:
    """The golds of every case of per_run.csv written into `golds`; or the problems."""
    cases, problems = case_bounds(per_run)
    if problems:
        return problems
    golds.mkdir(parents=True, exist_ok=True)
    for case_id, (family, floor, ceiling) in cases.items():
        document = gold_document(case_id, family, floor, ceiling)
        (golds / f"{case_id}_gold.md").write_text(gold_markdown(document), "utf-8")
    return []


def lay_out(checkout: Path, destination: Path, results: str = "results") -> list[str]:
    """DEST/corpus and DEST/published from the checkout; or the problems."""
    sources = [checkout / folder for folder in CORPUS_FOLDERS]
    sources += [checkout / results / name for name in PUBLISHED_CSVS]
    missing = [f"{path}: missing from the checkout" for path in sources if not path.exists()]
    if missing:
        return missing
    corpus, published = destination / "corpus", destination / "published"
    for folder in CORPUS_FOLDERS:
        shutil.copytree(checkout / folder, corpus / folder)
    for folder in OPTIONAL_FOLDERS:
        if (checkout / folder).is_dir():
            shutil.copytree(checkout / folder, corpus / folder)
    published.mkdir(parents=True)
    for name in PUBLISHED_CSVS:
        shutil.copyfile(checkout / results / name, published / name)
    return write_golds(published / "per_run.csv", corpus / "golds" / BENCHMARK_VERSION)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("checkout", type=Path, help="a checkout of the benchmark's repository")
    parser.add_argument("destination", type=Path, help="a new folder: DEST/corpus, DEST/published")
    parser.add_argument(
        "--results", default="results", help="the checkout's folder of published CSVs"
    )
    args = parser.parse_args(argv)
    if args.destination.exists():
        print(f"{args.destination}: exists already; give a new folder", file=sys.stderr)
        return 1
    problems = lay_out(args.checkout, args.destination, args.results)
    if problems:
        print("\n".join(problems), file=sys.stderr)
        return 1
    print(f"{args.destination}: the benchmark's corpus, published CSVs and rebuilt golds")
    return 0


if __name__ == "__main__":
    sys.exit(main())
