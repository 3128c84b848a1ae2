"""Rule changes: what changed since the newest snapshot dated before these results, and
why (changes.csv, changes.md and the leaderboard pages' section on them, in each
language).

Compares this run's per-run table, metrics, intervals, criterion scores, input files
and metadata with the newest snapshot in historico/ dated on or before the newest
scoring's day that does not hold these very results (or, with config changes_since,
the newest dated on or before that date) (ro_metrics.history.changes). With no such
snapshot the report says so, naming the snapshots of other results it saw, and
changes.csv has its header only. A snapshot that
cannot be read stops the run: nothing is published, and the message says how to compare
with another. Logs its own wall and CPU seconds (`changes: … in X s (CPU Y s)`), which the
bench's changes_step reads.
"""

import sys
import time
from pathlib import Path

from ro_metrics.contracts.files import (
    read_json,
    step_logger,
    tell,
    without_cycle_collector,
    write_bytes_atomic,
    write_json,
)
from ro_metrics.contracts.tables import (
    CHANGES_COLUMNS,
    CRITERION_COLUMNS,
    PER_RUN_COLUMNS,
    SUBJECT_COLUMNS,
    assembled_bytes,
    table_bytes,
)
from ro_metrics.history.changes import (
    Comparison,
    PublishedResults,
    SnapshotFormatError,
    compare,
    comparison_snapshot,
    csv_text,
    holds_these_results,
    read_snapshot,
)
from ro_metrics.history.changes_report import csv_rows, markdown, page_section
from ro_metrics.history.snapshot import snapshot_dates, suggested_command
from ro_metrics.rendering.translations import LANGUAGES, language


def current_results(smk) -> PublishedResults:
    """This run's results as the comparison reads them."""
    return PublishedResults(
        per_run=assembled_bytes(smk.input.per_run, PER_RUN_COLUMNS),
        subjects=assembled_bytes(smk.input.metrics_per_subject, SUBJECT_COLUMNS),
        metadata=read_json(smk.input.metadata),
        criteria=assembled_bytes(smk.input.criterion_scores, CRITERION_COLUMNS),
        uncertainty=csv_text(smk.input.uncertainty),
        input_files=csv_text(smk.input.input_files),
        annotations=csv_text(smk.input.annotations),
    )


def main(smk) -> None:
    without_cycle_collector()
    started, cpu_started = time.perf_counter(), time.process_time()
    log = step_logger("changes", smk.log[0])
    metadata = read_json(smk.input.metadata)
    current_date = smk.params.snapshot_date or metadata["newest_scoring_utc"][:10]
    since = smk.params.changes_since
    dates = snapshot_dates(smk.input.history)
    history = Path(smk.params.history)
    # The snapshots of these very results (the same metadata.json): never the base, nor
    # named, so that taking one changes nothing published.
    these_results = [date for date in dates if holds_these_results(history / date, metadata)]
    date = comparison_snapshot(dates, current_date, since, these_results)
    if date is None:
        seen = tuple(date for date in dates if date not in these_results)
        comparison = Comparison(None, current_date, since, seen=seen)
        if seen:
            # changes.md names the setting (no path in a published file); the terminal
            # the command with this run's settings.
            tell(
                f"changes: no snapshot of other results dated on or before {current_date}; "
                f"to compare with historico/{seen[-1]}/: "
                + suggested_command(smk.params.settings, changes_since=seen[-1])
            )
    else:
        folder = history / date
        try:
            comparison = compare(
                read_snapshot(folder), current_results(smk), date, current_date, since
            )
        except (SnapshotFormatError, ValueError) as error:
            # (pandas' ParserError is a ValueError: a snapshot file that is not a CSV.)
            log.error(
                "Cannot compare with the snapshot %s: %s\nNothing was published. Snapshots "
                "are never rewritten; to compare with another one:\n  %s",
                folder,
                error,
                suggested_command(smk.params.settings, changes_since="YYYY-MM-DD"),
            )
            sys.exit(1)
    write_bytes_atomic(smk.output.csv, table_bytes(CHANGES_COLUMNS, csv_rows(comparison)))
    write_bytes_atomic(smk.output.markdown, markdown(comparison).encode("utf-8"))
    write_json(
        smk.output.sections, {code: page_section(comparison, language(code)) for code in LANGUAGES}
    )
    log.info(
        "changes: snapshots %s, of these very results %s",
        ", ".join(dates) or "(none)",
        ", ".join(these_results) or "(none)",
    )
    log.info(
        "changes: compared with snapshot %s: %d change(s) in %.3f s (CPU %.3f s)",
        date or "(none)",
        len(comparison.changes),
        time.perf_counter() - started,
        time.process_time() - cpu_started,
    )


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake's script directive
