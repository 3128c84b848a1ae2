"""Rule agreement: how far the two primary reviewers of each run agree
(../shared/spec/multi-reviewer.md, Agreement): agreement.csv, agreement_grid.csv,
reviewer_severity.csv and divergent_runs.csv, from the review pairs of every partition's
per-run step (ro_metrics.formulas.agreement_tables). With one reviewer per run there is
no pair: the tables hold their headers only (and are not published).
"""

import sys

from ro_metrics.contracts.files import step_logger, without_cycle_collector
from ro_metrics.contracts.records import read_partition_reviews
from ro_metrics.contracts.tables import (
    AGREEMENT_COLUMNS,
    AGREEMENT_GRID_COLUMNS,
    DIVERGENT_RUN_COLUMNS,
    REVIEWER_SEVERITY_COLUMNS,
    write_csv,
)
from ro_metrics.formulas.agreement_tables import (
    agreement_rows,
    agreement_scopes,
    arbiter_classes_of,
    divergent_run_rows,
    grid_rows,
    review_pair_problems,
    reviewer_severity_rows,
)


def main(smk) -> None:
    without_cycle_collector()
    log = step_logger("agreement", smk.log[0])
    source = ", ".join(smk.input.reviews)
    # In the corpus's order of runs, (subject_id, case_id, run_id), whatever the partitions.
    pairs = sorted(
        (pair for path in smk.input.reviews for pair in read_partition_reviews(path).pairs),
        key=lambda pair: (pair.subject_id, pair.case_id, pair.run_id),
    )
    problems = review_pair_problems(pairs)
    if problems:
        # A per-run step wrote a record its contract forbids: every problem,
        # one line each, and no table, so publish keeps the results as they were.
        for problem in problems:
            log.error("%s: %s", source, problem)
        sys.exit(1)
    scopes = agreement_scopes(pairs, smk.params.replicates, smk.params.seed)
    arbiter_classes = arbiter_classes_of(pairs)
    try:
        severity = reviewer_severity_rows(pairs, arbiter_classes)
        divergent = divergent_run_rows(pairs, arbiter_classes)
    except ValueError as error:
        log.error("%s: %s", source, error)
        sys.exit(1)
    write_csv(smk.output.agreement, AGREEMENT_COLUMNS, agreement_rows(scopes))
    write_csv(smk.output.grid, AGREEMENT_GRID_COLUMNS, grid_rows(scopes))
    write_csv(smk.output.severity, REVIEWER_SEVERITY_COLUMNS, severity)
    write_csv(smk.output.divergent, DIVERGENT_RUN_COLUMNS, divergent)
    log.info(
        "%d review pairs in %d scopes, %d divergent (%d bootstrap replicates, seed %d)",
        len(pairs),
        len(scopes),
        len(divergent),
        smk.params.replicates,
        smk.params.seed,
    )


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake's script directive
