"""Step 1b: load and check the golds; keep only what may be published.

A gold is private: of its JSON block only rubric_floor, rubric_ceiling, family and
case_type leave this step.
"""

import hashlib
from collections import defaultdict
from pathlib import Path

from compute_metrics import family_of
from corpus_files import (
    CorpusFileError,
    SchemaCheck,
    gold_json_block,
    size_problem,
    strict_integer_problems,
)
from corpus_layout import FILE, GOLD_NAME_RE, MISSING, NOT_A_FILE, read_manifest
from step_io import step_logger, write_json

PUBLIC_FIELDS = ("family", "case_type", "rubric_floor", "rubric_ceiling")
# A schema problem in these fields may quote their value; anywhere else in a gold it
# names only the rule broken (the value is private, and problems reach logs).
SHOWN_FIELDS = frozenset({*PUBLIC_FIELDS, "case_id", "benchmark_version"})


def load_golds(corpus: Path, version: str, entries, schema_path, max_bytes: int) -> dict:
    check = SchemaCheck(schema_path)
    problems = []
    digests = []
    by_case = defaultdict(list)

    def problem(path, message):
        problems.append([path, message])

    for entry in entries:
        if entry.kind == MISSING:
            problem(entry.path, "folder is missing: a corpus needs its golds")
            continue
        if entry.kind != FILE:
            problem(entry.path, NOT_A_FILE[entry.kind])
            continue
        match = GOLD_NAME_RE.fullmatch(entry.path.rsplit("/", 1)[-1])
        if not match:
            problem(entry.path, "file name is not <case_id>_gold.md")
            continue
        if too_large := size_problem(entry.size, max_bytes):
            problem(entry.path, too_large)
            continue
        try:
            raw = (corpus / entry.path).read_bytes()
        except OSError as error:
            problem(entry.path, f"cannot be read: {error.strerror}")
            continue
        digests.append(f"{entry.path}\t{hashlib.sha256(raw).hexdigest()}\n")
        try:
            gold = gold_json_block(raw)
        except CorpusFileError as error:
            problem(entry.path, str(error))
            continue
        schema_problems = check.problems(gold, shown_fields=SHOWN_FIELDS)
        schema_problems += strict_integer_problems(gold, [("rubric_floor",), ("rubric_ceiling",)])
        if schema_problems:
            for message in schema_problems:
                problem(entry.path, message)
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
        if gold["rubric_floor"] > gold["rubric_ceiling"]:
            problem(
                path,
                f"rubric_floor {gold['rubric_floor']} is above rubric_ceiling "
                f"{gold['rubric_ceiling']}: no run of this case could avoid Fail",
            )
            ok = False
        if ok:
            golds[case_id] = {field: gold[field] for field in PUBLIC_FIELDS}

    return {
        "n_files": len(digests),
        "digest": hashlib.sha256("".join(sorted(digests)).encode("utf-8")).hexdigest(),
        "problems": sorted(problems),
        "golds": golds,
    }


def main(smk) -> None:
    log = step_logger("load_golds", smk.log[0])
    result = load_golds(
        Path(smk.params.corpus),
        smk.params.benchmark_version,
        read_manifest(smk.input.manifest),
        smk.input.gold_schema,
        smk.params.max_file_bytes,
    )
    write_json(smk.output[0], result)
    log.info(
        "%d gold files, %d usable, %d problems",
        result["n_files"],
        len(result["golds"]),
        len(result["problems"]),
    )


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake's script directive
