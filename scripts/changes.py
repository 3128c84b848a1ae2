"""Rule changes: results/changes.csv, changes.md and the page's section on them.

Compares the results of this run with the newest snapshot in historico/ dated before
them (or, with config changes_since, on or before that date) and says what changed
and why (ro_metrics.publishing.changes). It runs beside build_leaderboard, not before
it: publish puts its section into the page. With no such snapshot the report says so
and changes.csv has its header only.
"""

import sys
from pathlib import Path

from ro_metrics.contracts.files import step_logger, without_cycle_collector, write_bytes_atomic
from ro_metrics.contracts.records import (
    ChangesSection,
    read_per_run_summary,
    read_verdict,
    write_changes_section,
)
from ro_metrics.contracts.tables import CHANGES_COLUMNS, write_csv
from ro_metrics.publishing.changes import (
    Comparison,
    PublishedResults,
    SnapshotFormatError,
    compare,
    comparison_snapshot,
    csv_text,
    read_snapshot,
)
from ro_metrics.publishing.changes_report import csv_rows, markdown, page_section
from ro_metrics.publishing.metadata import provenance
from ro_metrics.publishing.snapshot import snapshot_dates
from ro_metrics.publishing.translations import ENGLISH, SPANISH, language


def current_results(smk) -> PublishedResults:
    """This run's results as the comparison reads them (the staged files)."""
    verdict = read_verdict(smk.input.verdict)
    metadata = provenance(
        smk.params, smk.input.rubric, smk.input.uncertainty_methods, list(smk.input.schemas)
    )
    metadata["inputs"] = {"digest": f"sha256:{verdict.inputs_digest}", "n_files": verdict.n_files}
    return PublishedResults(
        per_run=csv_text(smk.input.per_run),
        subjects=csv_text(smk.input.metrics_per_subject),
        metadata=metadata,
        criteria=csv_text(smk.input.criteria),
        uncertainty=csv_text(smk.input.uncertainty),
        input_files=csv_text(smk.input.input_files),
    )


def main(smk) -> None:
    without_cycle_collector()
    log = step_logger("changes", smk.log[0])
    newest = read_per_run_summary(smk.input.per_run_summary).newest_scoring_utc
    current_date = smk.params.snapshot_date or newest[:10]
    since = smk.params.changes_since
    date = comparison_snapshot(snapshot_dates(smk.input.history), current_date, since)
    if date is None:
        comparison = Comparison(None, current_date, since)
    else:
        folder = Path(smk.params.history) / date
        try:
            comparison = compare(
                read_snapshot(folder), current_results(smk), date, current_date, since
            )
        except (SnapshotFormatError, ValueError) as error:
            # (pandas' ParserError is a ValueError: a snapshot file that is not a CSV.)
            log.error(
                "Cannot compare with the snapshot %s: %s\nNothing was published. Snapshots "
                "are never rewritten; to compare with another one: --config "
                "changes_since=YYYY-MM-DD",
                folder,
                error,
            )
            sys.exit(1)
    write_csv(smk.output.csv, CHANGES_COLUMNS, csv_rows(comparison))
    write_bytes_atomic(smk.output.md, markdown(comparison).encode("utf-8"))
    section = ChangesSection(
        page_section(comparison, language(ENGLISH)), page_section(comparison, language(SPANISH))
    )
    write_changes_section(smk.output.section, section)
    log.info("compared with snapshot %s: %d change(s)", date or "(none)", len(comparison.changes))


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake's script directive
