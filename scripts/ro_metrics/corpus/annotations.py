"""subjects/annotations.yaml: the committee's annotations of published rows, and the
registration quota (shared/spec/lifecycle.md).

A row changes state only through an annotation: ``corrected`` (re-run after a material
error or an upheld appeal), ``withdrawn`` (by its submitter) or ``invalidated`` (by the
committee, final), each with a date, a note and optionally a link. The file is optional
(absent: no annotation) and read like every corpus file (decoding.read_checked: size →
read → digest → strict decode → schema); this module adds what the schema cannot say:
the version is one the registry lists, the date is a calendar date, an annotation is
not given twice. Every problem is reported, one line each, naming the field.
"""

import datetime
from collections import defaultdict
from pathlib import Path

from ro_metrics.contracts.records import Annotation
from ro_metrics.corpus.decoding import SchemaCheck, decode_yaml, read_checked
from ro_metrics.corpus.layout import ANNOTATIONS

# Versions a subject_id may register in one calendar year in the foundational phase.
VERSIONS_PER_YEAR = 4


def read_annotations(
    corpus: Path, schema_path, max_bytes: int, registered: dict[str, dict] | None
) -> tuple[list[Annotation], list[tuple[str, str]]]:
    """(the annotations in the file's order, the problems as (path, message)).

    registered: the registry (cross_check.load_registry: subject_id → fields, with
    "versions": version → fields), None when it could not be read (the versions are then
    not checked). No file: no annotation, no problem."""
    path = Path(corpus) / ANNOTATIONS
    if not path.is_file():
        return [], []
    checked = read_checked(
        path, path.stat().st_size, max_bytes, decode_yaml, SchemaCheck(Path(schema_path))
    )
    if checked.problems:
        problems = [(ANNOTATIONS, message) for message in checked.problems]
        return [], problems + _entries_beside_the_schema(path, checked.problems, registered)
    annotations, problems, seen = [], [], set()
    for index, entry in enumerate(checked.document["annotations"]):
        where = f"annotations.{index}"
        annotation = Annotation(
            entry["subject_id"],
            entry["subject_version"],
            entry["label"],
            entry["date"],
            entry["note"],
            entry.get("link", ""),
        )
        problems += [
            (ANNOTATIONS, f"{where}.{message}")
            for message in entry_problems(annotation, registered)
        ]
        if annotation in seen:
            problems.append(
                (ANNOTATIONS, f"{where}: the annotation {annotation.describe()} is listed twice")
            )
        seen.add(annotation)
        annotations.append(annotation)
    return annotations, problems


def _entries_beside_the_schema(path: Path, schema_problems, registered) -> list:
    """The entry problems of a file the schema refused (every problem in one run): those
    of each entry the schema found nothing wrong with. None when it does not decode."""
    if any(not message.startswith("annotations.") for message in schema_problems):
        return []
    document = decode_yaml(path.read_bytes())
    faulty = {message.split(".", 2)[1] for message in schema_problems}
    problems = []
    for index, entry in enumerate(document["annotations"]):
        if str(index) in faulty:
            continue
        annotation = Annotation(**{"link": "", **entry})
        problems += [
            (ANNOTATIONS, f"annotations.{index}.{message}")
            for message in entry_problems(annotation, registered)
        ]
    return problems


def entry_problems(annotation: Annotation, registered: dict[str, dict] | None) -> list[str]:
    """What is wrong with one annotation beyond the schema, each "<field>: <why>"."""
    problems = []
    try:
        datetime.date.fromisoformat(annotation.date)
    except ValueError:
        problems.append(f"date: {annotation.date!r} is not a date (YYYY-MM-DD)")
    if registered is None:
        return problems
    subject = registered.get(annotation.subject_id)
    if subject is None:
        problems.append(f"subject_id: {annotation.subject_id!r} is not in the registry")
    elif annotation.subject_version not in subject.get("versions", {}):
        problems.append(
            f"subject_version: {annotation.subject_version!r} is not a version of "
            f"{annotation.subject_id!r} in the registry"
        )
    return problems


def quota_warnings(registered: dict[str, dict]) -> list[str]:
    """Each subject_id with more than VERSIONS_PER_YEAR versions registered in one calendar
    year (the version's registered_at): "subject, year, versions" (lifecycle.md)."""
    warnings = []
    for subject_id, subject in sorted(registered.items()):
        by_year = defaultdict(list)
        for version, fields in subject.get("versions", {}).items():
            if fields.get("registered_at"):
                by_year[fields["registered_at"][:4]].append(version)
        for year, versions in sorted(by_year.items()):
            if len(versions) > VERSIONS_PER_YEAR:
                warnings.append(
                    f"Warning: subject {subject_id} registered {len(versions)} versions in "
                    f"{year}, above the {VERSIONS_PER_YEAR} a calendar year allows: "
                    f"{', '.join(sorted(versions))}"
                )
    return warnings
