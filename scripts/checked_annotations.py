"""Rule annotations: subjects/annotations.yaml checked and staged as annotations.csv
(shared/spec/lifecycle.md).

Reads the file, if the corpus has one, with the guarded read of every corpus file and
checks each annotation against the registry (ro_metrics.corpus.annotations): every
problem goes to the terminal and the log, one line each with its field, the step exits
non-zero and nothing is published. Also warns of a subject that registered more versions
in a calendar year than the quota allows. The registry is read here (as the cross-check
reads it) rather than from the verdict, so that this step, and the steps that read
annotations.csv (every partition's version pages among them), rerun only when the
registry or the annotations change, not with every scoring; a registry with a problem
is the cross-check's to report, and its versions are then not checked here.
Writes annotations.csv (header only without the file): what the ranking steps read to
leave withdrawn and invalidated versions out of every active comparison, and every view
shows on its row.
"""

import sys
from pathlib import Path

from ro_metrics.contracts.files import step_logger, without_cycle_collector
from ro_metrics.contracts.tables import ANNOTATION_COLUMNS, write_csv
from ro_metrics.corpus.annotations import quota_warnings, read_annotations
from ro_metrics.corpus.cross_check import load_registry, report
from ro_metrics.corpus.layout import layout_entries


def main(smk) -> None:
    without_cycle_collector()
    log = step_logger("annotations", smk.log[0])
    corpus = Path(smk.params.corpus)
    registry_problems = []
    registered, _, _ = load_registry(
        corpus,
        layout_entries(corpus, smk.params.benchmark_version),
        smk.input.registry_schema,
        lambda path, message: registry_problems.append(message),
        smk.params.max_file_bytes,
    )
    if registry_problems:
        registered = None
    annotations, problems = read_annotations(
        corpus, smk.input.schema, smk.params.max_file_bytes, registered
    )
    if problems:
        print(report(problems, smk.params.corpus, log), file=sys.stderr)
        sys.exit(1)
    for warning in quota_warnings(registered or {}):
        log.warning(warning)
    write_csv(smk.output[0], ANNOTATION_COLUMNS, annotations)
    log.info("%d annotation(s)", len(annotations))


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake's script directive
