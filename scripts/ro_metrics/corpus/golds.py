"""Checking the golds and keeping only what may be published (step 1b).

A gold is private: of its JSON block only rubric_floor, rubric_ceiling, family and
case_type leave this step.
"""

import hashlib
from collections import defaultdict
from pathlib import Path

from ro_metrics.contracts.records import GoldsSummary, InputDigest, Problem, PublicGold
from ro_metrics.contracts.vocabulary import GOLD_NAME_RE, family_of
from ro_metrics.corpus.decoding import (
    SchemaCheck,
    gold_json_block,
    read_checked,
)
from ro_metrics.corpus.layout import FILE, MISSING, NOT_A_FILE

PUBLIC_FIELDS = PublicGold._fields
GOLD_SUFFIX = "_gold.md"
# A schema problem in these fields may quote their value; anywhere else in a gold it
# names only the rule broken (the value is private, and problems reach logs).
SHOWN_FIELDS = frozenset({*PUBLIC_FIELDS, "case_id", "benchmark_version"})


def load_golds(corpus: Path, version: str, entries, schema_path, max_bytes: int) -> GoldsSummary:
    """Every gold of `entries` (the corpus scan of the golds folder) checked; the public
    fields of the usable ones."""
    check = SchemaCheck(schema_path)
    problems = []
    digests = []
    ignored = []
    by_case = defaultdict(list)

    def problem(path, message):
        problems.append(Problem(path, message))

    for entry in entries:
        if entry.kind == MISSING:
            problem(entry.path, "folder is missing: a corpus needs its golds")
            continue
        if entry.kind != FILE:
            problem(entry.path, NOT_A_FILE[entry.kind])
            continue
        name = entry.path.rsplit("/", 1)[-1]
        if not name.endswith(GOLD_SUFFIX):
            # Only *_gold.md files are golds (a README.md beside them is not read).
            ignored.append(entry.path)
            continue
        match = GOLD_NAME_RE.fullmatch(name)
        if not match:
            problem(entry.path, "file name is not <case_id>_gold.md")
            continue
        checked = read_checked(
            corpus / entry.path,
            entry.size,
            max_bytes,
            gold_json_block,
            check,
            shown_fields=SHOWN_FIELDS,
        )
        if checked.digest:
            digests.append(InputDigest(entry.path, checked.digest))
        gold = checked.document
        for message in checked.problems:
            problem(entry.path, message)
        if gold is None:
            continue
        by_case[gold["case_id"]].append((entry.path, match["case_id"], gold))

    golds = {}
    for case_id, found in sorted(by_case.items()):
        if len(found) > 1:
            paths = sorted(path for path, _, _ in found)
            for path in paths:
                others = ", ".join(other for other in paths if other != path)
                problem(path, f"{len(paths)} golds for case {case_id} (also: {others})")
            continue
        path, name_case_id, gold = found[0]
        ok = True
        if case_id != name_case_id:
            problem(path, f"case_id is {case_id!r} but the file name says {name_case_id!r}")
            ok = False
        if gold["family"] != family_of(case_id):
            problem(
                path,
                f"family is {gold['family']!r} but case_id {case_id} is of family "
                f"{family_of(case_id)!r}",
            )
            ok = False
        if gold["benchmark_version"] != version:
            problem(
                path,
                f"benchmark_version is {gold['benchmark_version']!r} but this run is "
                f"configured for {version!r}",
            )
            ok = False
        # The schema's "integer" admits 3.0, as the benchmark does: published as 3.
        floor, ceiling = int(gold["rubric_floor"]), int(gold["rubric_ceiling"])
        if floor >= ceiling:
            problem(
                path,
                f"rubric_floor {floor} is not below rubric_ceiling {ceiling}: the benchmark "
                "requires rubric_floor < rubric_ceiling",
            )
            ok = False
        if ok:
            golds[case_id] = PublicGold(gold["family"], gold["case_type"], floor, ceiling)

    return GoldsSummary(
        n_files=len(digests),
        digest=hashlib.sha256(
            "".join(f"{path}\t{digest}\n" for path, digest in sorted(digests)).encode("utf-8")
        ).hexdigest(),
        problems=sorted(problems),
        golds=golds,
        ignored=ignored,
        file_digests=sorted(digests),
    )
