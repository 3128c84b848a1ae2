"""Step 1d (rule consolidation): the runs the metrics count, one per (case, subject,
run) (shared/spec/multi-reviewer.md, Consolidation).

With one reviewer per run (v1.0) each run is its one scoring (method "single"). With
two, a run's scorings are its primaries and arbiter (ro_metrics.corpus.reviewers says
how the roles are assigned and checked against subjects/reviewers.yaml), and the run is
the mean of two agreeing primaries, the arbiter's scoring of a divergent one, or
pending (arbitration, or its second review) and left out of R
(ro_metrics.formulas.consolidation).

Writes the consolidated and pending runs (records.Consolidation, for the per-run
step), every run with two primaries (records.ReviewPair, for the agreement step) and
the reviews' problems (records.ReviewCheck): the cross-check reports them with every
other problem of the corpus, so this step never stops the run itself.
"""

from pathlib import Path

from ro_metrics.contracts.files import step_logger, without_cycle_collector
from ro_metrics.contracts.records import (
    ReviewCheck,
    read_golds_summary,
    read_scored_runs,
    write_consolidation,
    write_review_check,
    write_review_pairs,
)
from ro_metrics.corpus.reviewers import REVIEWERS, consolidate, read_reviewers
from ro_metrics.formulas.consolidation import ReviewPolicy


def main(smk) -> None:
    without_cycle_collector()
    log = step_logger("consolidation", smk.log[0])
    policy = ReviewPolicy(**smk.params.policy)
    policy = policy._replace(divergence_rules=tuple(policy.divergence_rules))
    golds = read_golds_summary(smk.input.golds).golds
    runs = [run for path in smk.input.runs for run in read_scored_runs(path)]
    problems = []
    corpus = Path(smk.params.corpus)
    reviewers = read_reviewers(
        corpus,
        smk.input.reviewers_schema,
        smk.params.max_file_bytes,
        lambda path, message: problems.append((path, message)),
    )
    result = consolidate(
        runs,
        golds,
        reviewers,
        policy,
        smk.params.benchmark_version,
        registry_missing=not (corpus / REVIEWERS).is_file(),
    )
    write_consolidation(smk.output.consolidation, result.consolidation)
    write_review_pairs(smk.output.pairs, result.pairs)
    write_review_check(
        smk.output.check,
        ReviewCheck(
            policy.reviewers_per_run, sorted([*problems, *result.problems]), result.pending
        ),
    )
    log.info(
        "%d runs consolidated, %d pending, %d review pairs, %d problem(s) (reviewers per run: %d)",
        len(result.consolidation.runs),
        len(result.consolidation.pending),
        len(result.pairs),
        len(problems) + len(result.problems),
        policy.reviewers_per_run,
    )


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake's script directive
