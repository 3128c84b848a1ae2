"""Step 1a (rule load_partition): the checked responses and scorings of one partition.

Lists the partition's subject folders (ro_metrics.corpus.layout.partition_entries),
reads and checks every file (ro_metrics.corpus.partition), and writes the partition's
summary (records.PartitionSummary: its problems, counts and the digest of every file
read), its scored runs (records.ScoredRun), the public fields of each scored run by
subject version (records.PublishedVersion, for the site), each critical fail with its
response's public fields (records.CriticalFail, for critical_fails.csv) and the
structure of each scored run's response (records.AnswerShape, for the findings).
"""

from pathlib import Path

from ro_metrics.contracts.files import step_logger, tell, without_cycle_collector
from ro_metrics.contracts.records import (
    write_answer_shapes,
    write_critical_fails,
    write_partition_summary,
    write_published_versions,
    write_scored_runs,
)
from ro_metrics.corpus.layout import partition_entries
from ro_metrics.corpus.partition import FileChecker, check_files, partition_summary


def main(smk) -> None:
    without_cycle_collector()
    log = step_logger("load_partition", smk.log[0])
    partition = smk.wildcards.partition
    corpus, version = Path(smk.params.corpus), smk.params.benchmark_version
    checker = FileChecker(
        corpus,
        version,
        smk.input.response_schema,
        smk.input.scoring_schema,
        smk.params.max_file_bytes,
    )
    entries = partition_entries(corpus, version, partition, smk.params.n_partitions)
    files = check_files(entries, checker)
    loaded = partition_summary(partition, files, version, smk.params.max_scorings_per_run)
    summary = loaded.summary
    write_scored_runs(smk.output.runs, loaded.scored_runs)
    write_published_versions(smk.output.published, loaded.published_versions)
    write_critical_fails(smk.output.critical_fails, loaded.critical_fails)
    write_answer_shapes(smk.output.shapes, loaded.answer_shapes)
    write_partition_summary(smk.output.summary, summary)
    message = (
        f"partition {partition}: {len(entries):,} entries checked, "
        f"{len(summary.problems)} problem(s)"
    )
    log.info(message)
    if entries:
        tell(message)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake's script directive
