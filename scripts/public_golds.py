"""Step 1b (rule load_golds): the public part of every gold (records.GoldsSummary).

A gold is private: of its JSON block only rubric_floor, rubric_ceiling, family and
case_type leave this step (ro_metrics.corpus.golds).
"""

from pathlib import Path

from ro_metrics.contracts.files import step_logger, without_cycle_collector
from ro_metrics.contracts.records import write_golds_summary
from ro_metrics.corpus.golds import load_golds
from ro_metrics.corpus.layout import gold_entries


def main(smk) -> None:
    without_cycle_collector()
    log = step_logger("load_golds", smk.log[0])
    corpus, version = Path(smk.params.corpus), smk.params.benchmark_version
    result = load_golds(
        corpus,
        version,
        gold_entries(corpus, version),
        smk.input.gold_schema,
        smk.params.max_file_bytes,
    )
    write_golds_summary(smk.output[0], result)
    for path in result.ignored:
        log.debug("%s: not a gold (only *_gold.md files are), not read", path)
    log.info(
        "%d gold files, %d usable, %d problems",
        result.n_files,
        len(result.golds),
        len(result.problems),
    )


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake's script directive
