"""Step 1a (rule load_partition): the checked responses and scorings of one partition.

Writes the partition's summary (records.PartitionSummary), its scored runs
(records.ScoredRun), the public fields of each scored run by subject version
(records.PublishedVersion, for the site), each critical fail with its response's
public fields (records.CriticalFail, for critical_fails.csv), the structure of each
scored run's response (records.AnswerShape, for the findings) and the job's own file
cache, so that the next run re-reads only the files whose size or timestamps changed
(ro_metrics.corpus.partition).
"""

from pathlib import Path

from ro_metrics.contracts.files import (
    read_json,
    step_logger,
    tell,
    without_cycle_collector,
    write_json,
)
from ro_metrics.contracts.records import (
    write_answer_shapes,
    write_critical_fails,
    write_partition_summary,
    write_published_versions,
    write_scored_runs,
)
from ro_metrics.corpus.layout import read_manifest
from ro_metrics.corpus.partition import FileChecker, check_files, fingerprint, partition_summary


def main(smk) -> None:
    without_cycle_collector()
    log = step_logger("load_partition", smk.log[0])
    partition = smk.wildcards.partition
    current = fingerprint(
        [smk.params.corpus, smk.params.benchmark_version, str(smk.params.max_file_bytes)],
        # The code stamp: the digests of this script and its modules (not the script's
        # Snakemake copy, which differs at every run).
        [smk.input.response_schema, smk.input.scoring_schema, smk.input.modules],
    )
    cache = {}
    if Path(smk.output.files).is_file():
        previous = read_json(smk.output.files)
        if previous.get("fingerprint") == current:
            cache = previous["files"]
    checker = FileChecker(
        Path(smk.params.corpus),
        smk.params.benchmark_version,
        smk.input.response_schema,
        smk.input.scoring_schema,
        smk.params.max_file_bytes,
    )
    entries = read_manifest(smk.input.manifest)
    files, read = check_files(entries, checker, cache)
    loaded = partition_summary(
        partition, files, smk.params.benchmark_version, smk.params.max_scorings_per_run
    )
    summary = loaded.summary
    write_json(smk.output.files, {"fingerprint": current, "files": files})
    write_scored_runs(smk.output.runs, loaded.scored_runs)
    write_published_versions(smk.output.published, loaded.published_versions)
    write_critical_fails(smk.output.critical_fails, loaded.critical_fails)
    write_answer_shapes(smk.output.shapes, loaded.answer_shapes)
    write_partition_summary(smk.output.summary, summary)
    message = (
        f"partition {partition}: {len(entries):,} entries checked, {read:,} read "
        f"({len(entries) - read:,} unchanged since the last run), "
        f"{len(summary.problems)} problem(s)"
    )
    log.info(message)
    if entries:
        tell(message)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake's script directive
