"""Step 1c (rule cross_check): the verdict on the whole corpus, or every problem.

Joins every partition with the golds, the registry and the operational step's summary
of the telemetry (ro_metrics.corpus.cross_check), checks the public case statements
(ro_metrics.corpus.statements), and reports the reviews' problems the
partitions' per-run steps found (and, with strict=true, the scorings of runs pending
their review) with the others. If any file of the corpus has a problem, the full list
goes to the terminal and the log, the step exits non-zero and nothing downstream runs,
so the published results stay as they were. Otherwise it writes its verdict
(records.Verdict), the digest of every input file (input_files.csv: what a later run
compares to name the causes of its changes) and coverage.csv (under double review with
each version's runs pending their review).
"""

import sys
from pathlib import Path

from ro_metrics.contracts.files import step_logger, without_cycle_collector
from ro_metrics.contracts.records import (
    read_golds_summary,
    read_operational_summary,
    read_partition_reviews,
    read_partition_summary,
    write_verdict,
)
from ro_metrics.contracts.tables import (
    COVERAGE_REVIEW_COLUMNS,
    INPUT_FILE_COLUMNS,
    coverage_columns,
    selected_columns,
    write_csv,
)
from ro_metrics.corpus.cross_check import (
    cross_check,
    report,
    telemetry_warning,
    unscored_warning,
)
from ro_metrics.corpus.layout import layout_entries, statement_entries
from ro_metrics.corpus.statements import statement_problems
from ro_metrics.formulas.consolidation import coverage_with_reviews


def main(smk) -> None:
    without_cycle_collector()
    log = step_logger("cross_check", smk.log[0])
    corpus, version = Path(smk.params.corpus), smk.params.benchmark_version
    operational = read_operational_summary(smk.input.operational)
    golds = read_golds_summary(smk.input.golds)
    result = cross_check(
        [read_partition_summary(path) for path in smk.input.partitions],
        # Each partition's scored runs by its id.
        dict(zip(smk.params.partitions, smk.input.runs, strict=True)),
        golds,
        layout_entries(corpus, version),
        smk.input.registry_schema,
        corpus,
        version,
        smk.params.strict,
        smk.params.max_file_bytes,
        operational,
    )
    reviews = [read_partition_reviews(path) for path in smk.input.reviews]
    # Every partition reads the reviewer registry: its own problems are the same in each.
    problems = [*result.problems, *sorted({p for r in reviews for p in r.problems})]
    problems += statement_problems(
        corpus, statement_entries(corpus, version), golds.golds, smk.params.max_file_bytes
    )
    pending_scorings = [scoring for r in reviews for scoring in r.pending_scorings]
    if smk.params.strict:
        problems += pending_scorings
    # Arbiter scorings a policy change made unnecessary: errors unless the configuration
    # accepts them (unneeded_arbiter: warning; then the runs count their primaries).
    unneeded = [scoring for r in reviews for scoring in r.unneeded_arbiters]
    if smk.params.unneeded_arbiter == "error":
        problems += unneeded
    elif unneeded:
        log.warning(
            "Warning: %d arbiter scoring(s) on runs the review policy finds not divergent; "
            "those runs count their primaries' agreed value (unneeded_arbiter: warning):\n%s",
            len(unneeded),
            "\n".join(f"  {path}: {message}" for path, message in unneeded),
        )
    if problems:
        print(report(problems, smk.params.corpus, log), file=sys.stderr)
        sys.exit(1)
    if pending_scorings:
        log.warning(
            "Warning: %d scoring(s) belong to runs pending arbitration or awaiting their "
            "second review, which are in no metric (see pending_runs.csv and coverage.csv)",
            len(pending_scorings),
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
    # Every row with its pending counts; the columns the review policy publishes.
    coverage = coverage_with_reviews(
        result.verdict.coverage, [run for r in reviews for run in r.pending]
    )
    columns = coverage_columns(smk.params.reviewers_per_run)
    write_csv(
        smk.output.coverage,
        columns,
        selected_columns(coverage, COVERAGE_REVIEW_COLUMNS, columns),
    )
    log.info("%d scored runs checked", result.verdict.n_scored_runs)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake's script directive
