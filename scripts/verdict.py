"""Step 1c (rule cross_check): the verdict on the whole corpus, or every problem.

Joins every partition with the golds, the registry and the operational step's summary
of the telemetry (ro_metrics.corpus.cross_check), and reports the reviews' problems the
consolidation found (and, with strict=true, its pending runs) with the others.
If any file of the corpus has a problem, the full list goes to the terminal and the
log, the step exits non-zero and nothing downstream runs, so the published results
stay as they were. Otherwise it writes its verdict (records.Verdict) and the digest
of every input file (input_files.csv, published: what a later run compares to name
the causes of its changes).
"""

import sys
from pathlib import Path

from ro_metrics.contracts.files import step_logger, without_cycle_collector
from ro_metrics.contracts.records import (
    read_golds_summary,
    read_operational_summary,
    read_partition_summary,
    read_review_check,
    write_verdict,
)
from ro_metrics.contracts.tables import INPUT_FILE_COLUMNS, write_csv
from ro_metrics.corpus.cross_check import (
    cross_check,
    report,
    telemetry_warning,
    unscored_warning,
)
from ro_metrics.corpus.layout import read_manifest


def main(smk) -> None:
    without_cycle_collector()
    log = step_logger("cross_check", smk.log[0])
    operational = read_operational_summary(smk.input.operational)
    result = cross_check(
        [read_partition_summary(path) for path in smk.input.partitions],
        smk.input.runs,
        read_golds_summary(smk.input.golds),
        read_manifest(smk.input.layout),
        smk.input.registry_schema,
        Path(smk.params.corpus),
        smk.params.benchmark_version,
        smk.params.strict,
        smk.params.max_file_bytes,
        operational,
    )
    # The reviews' problems (the consolidation's, when it ran), with every other problem
    # of the corpus.
    reviews = read_review_check(smk.input.reviews) if smk.params.consolidated else None
    problems = [*result.problems, *(reviews.problems if reviews else [])]
    if smk.params.strict and reviews:
        problems += reviews.pending
    if problems:
        print(report(problems, smk.params.corpus, log), file=sys.stderr)
        sys.exit(1)
    if reviews and reviews.pending:
        log.warning(
            "Warning: %d scoring(s) belong to runs pending arbitration or awaiting their "
            "second review, which are in no metric (see pending_runs.csv and coverage.csv)",
            len(reviews.pending),
        )
    if result.unscored:
        log.warning(unscored_warning(result.unscored))
    gaps = telemetry_warning(result.verdict, operational)
    if gaps:
        log.warning(gaps)
    write_verdict(smk.output.verdict, result.verdict)
    write_csv(
        smk.output.input_files,
        INPUT_FILE_COLUMNS,
        ([path, f"sha256:{digest}"] for path, digest in result.input_files),
    )
    log.info("%d scored runs checked", result.verdict.n_scored_runs)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake's script directive
