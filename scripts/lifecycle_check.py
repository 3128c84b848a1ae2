"""Rule lifecycle_check: this run's annotations and published values against the newest
snapshot in <results>/historico/ (shared/spec/lifecycle.md; ro_metrics.history.lifecycle).

An annotation of the snapshot removed or edited is an error naming it. A published value
of metrics_per_subject.csv of a version in the snapshot that changed without a
`corrected` annotation dated after the snapshot is a warning naming the version and each
value (old → new), an error with config strict=true. On an error the step exits non-zero
and publish, which waits for it, publishes nothing. Writes what it found (a JSON record
in the cache, the warnings).
"""

import sys
from pathlib import Path

from ro_metrics.contracts.files import step_logger, without_cycle_collector, write_json
from ro_metrics.contracts.published import ANNOTATIONS, METRICS_PER_SUBJECT
from ro_metrics.contracts.records import Annotation
from ro_metrics.contracts.tables import (
    SUBJECT_COLUMNS,
    assembled_table,
    read_annotations,
    read_table,
)
from ro_metrics.corpus.cross_check import report
from ro_metrics.history.lifecycle import append_only_problems, overwritten_values
from ro_metrics.history.snapshot import snapshot_dates


def published_annotations(folder: Path) -> list[Annotation]:
    """The annotations a snapshot published (none before annotations.csv existed)."""
    path = folder / ANNOTATIONS.name
    return [Annotation(**row) for row in read_annotations(path)] if path.is_file() else []


def snapshot_subjects(folder: Path) -> list[dict[str, str]]:
    """metrics_per_subject.csv of a snapshot, on its own header (older tables had
    other columns: the values of the columns both have are compared)."""
    path = folder / METRICS_PER_SUBJECT.name
    with open(path, encoding="utf-8") as handle:
        header = handle.readline().rstrip("\r\n").split(",")
    return read_table(path, header)


def main(smk) -> None:
    without_cycle_collector()
    log = step_logger("lifecycle_check", smk.log[0])
    dates = snapshot_dates(smk.input.history)
    found = {"snapshot": dates[-1] if dates else "", "overwritten": []}
    if dates:
        snapshot = dates[-1]
        folder = Path(smk.params.history) / snapshot
        current = [Annotation(**row) for row in read_annotations(smk.input.annotations)]
        problems = append_only_problems(published_annotations(folder), current, snapshot)
        if problems:
            print(report(problems, smk.params.corpus, log), file=sys.stderr)
            sys.exit(1)
        subjects = assembled_table(smk.input.metrics_per_subject, SUBJECT_COLUMNS)
        overwritten = overwritten_values(snapshot_subjects(folder), subjects, current, snapshot)
        found["overwritten"] = overwritten
        if overwritten and smk.params.strict:
            log.error(
                "Nothing was published: published values changed without a 'corrected' "
                "annotation (strict=true):\n%s",
                "\n".join(f"  {line}" for line in overwritten),
            )
            sys.exit(1)
        for line in overwritten:
            log.warning("Warning: %s", line)
    write_json(smk.output[0], found)
    log.info("checked against the snapshot %s", found["snapshot"] or "(none)")


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake's script directive
