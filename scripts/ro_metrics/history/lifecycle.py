"""A published row's life, checked against the newest snapshot (shared/spec/lifecycle.md).

- Append-only: an annotation present in the newest snapshot's annotations.csv and
  missing or edited in subjects/annotations.yaml now is an error naming it (nothing is
  published).
- No silent overwrite: a published value of metrics_per_subject.csv of a version in the
  newest snapshot that differs now, with no ``corrected`` annotation of that version
  dated after the snapshot, is reported naming the version and each value (old → new):
  a warning, an error with config strict=true. New runs of a published version count:
  the committee snapshots only complete evaluations.

Pure functions on the rows as text; the rule script reads the files.
"""

from ro_metrics.contracts.records import Annotation
from ro_metrics.contracts.vocabulary import CORRECTED
from ro_metrics.corpus.layout import ANNOTATIONS

KEY = ("subject_id", "subject_version")


def append_only_problems(
    published: list[Annotation], current: list[Annotation], snapshot: str
) -> list[tuple[str, str]]:
    """(path, message) for each annotation of the snapshot (``published``) that is not,
    field for field, among the ``current`` ones: edited when one of the same version,
    label and date is there, else removed."""
    present = set(current)
    problems = []
    for annotation in published:
        if annotation in present:
            continue
        same = [
            other
            for other in current
            if (other.key, other.label, other.date)
            == (annotation.key, annotation.label, annotation.date)
            and other not in published
        ]
        if same:
            edits = ", ".join(
                f"{name} {getattr(annotation, name)!r} → {getattr(same[0], name)!r}"
                for name in ("note", "link")
                if getattr(annotation, name) != getattr(same[0], name)
            )
            what = f"was edited ({edits})"
        else:
            what = "was removed"
        problems.append(
            (
                ANNOTATIONS,
                f"the annotation {annotation.describe()} published in the snapshot {snapshot} "
                f"{what}; annotations are append-only: restore it and add a new one on top",
            )
        )
    return problems


def overwritten_values(
    old_rows: list[dict[str, str]],
    new_rows: list[dict[str, str]],
    annotations: list[Annotation],
    snapshot: str,
) -> list[str]:
    """One line per version of the snapshot whose published values changed without a
    ``corrected`` annotation dated after the snapshot: the version and each value
    (old → new) of the columns both tables have; a version no longer published says so."""
    corrected = {a.key for a in annotations if a.label == CORRECTED and a.date > snapshot}
    new_by_key = {(row["subject_id"], row["subject_version"]): row for row in new_rows}
    lines = []
    for old in old_rows:
        key = (old["subject_id"], old["subject_version"])
        if key in corrected:
            continue
        new = new_by_key.get(key)
        if new is None:
            moves = "its row is no longer published"
        else:
            moves = ", ".join(
                f"{name} {old[name]} → {new[name]}"
                for name in old
                if name not in KEY and name in new and old[name] != new[name]
            )
        if moves:
            lines.append(
                f"{key[0]} · {key[1]} changed since the snapshot {snapshot} without a "
                f"'{CORRECTED}' annotation dated after it: {moves}"
            )
    return lines
