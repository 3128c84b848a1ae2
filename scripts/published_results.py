"""Rule publish: the results folder, once every step has succeeded.

Writes coverage.csv and metadata.json from the cross-check's verdict and copies the
staged CSVs of steps 2-4, criterion_scores.csv, input_files.csv, uncertainty.csv,
critical_fails.csv, the changes report and the leaderboard (CSV, Markdown, and the page
in English and in Spanish, each with the changes section put in). Each file
is replaced atomically (written beside it, then renamed), so a reader or a killed run never sees a
half-written file, and results/ changes only after the whole set was computed.

operational_per_subject.csv and operational_per_family.csv are published only when the
corpus has telemetry (the verdict says so); otherwise a copy left by an earlier run is
removed, so results/ never holds tables of telemetry the corpus no longer has.
"""

from pathlib import Path

from ro_metrics.contracts.files import (
    remove_stale_staging,
    step_logger,
    without_cycle_collector,
    write_bytes_atomic,
    write_json,
)
from ro_metrics.contracts.records import (
    read_changes_section,
    read_leaderboard_summary,
    read_verdict,
)
from ro_metrics.contracts.tables import COVERAGE_COLUMNS, write_csv
from ro_metrics.publishing.leaderboard_page import with_changes_section
from ro_metrics.publishing.metadata import metadata


def main(smk) -> None:
    without_cycle_collector()
    log = step_logger("publish", smk.log[0])
    optional = smk.params.optional
    names = [Path(f).name for f in [*smk.output, *optional.values()]]
    remove_stale_staging(Path(smk.output.metadata).parent, names)
    verdict = read_verdict(smk.input.verdict)
    copied = ["per_run", "metrics_per_subject", "metrics_per_family", "uncertainty"]
    copied += ["criterion_scores", "input_files", "critical_fails", "changes_csv", "changes_md"]
    copied += ["leaderboard_csv", "leaderboard_md"]
    for name in copied:
        write_bytes_atomic(smk.output[name], Path(smk.input[name]).read_bytes())
    # The changes step runs beside the leaderboard's: its section joins each page here.
    section = read_changes_section(smk.input.changes_section)
    for name, html in (
        ("leaderboard_html", section.html),
        ("leaderboard_es_html", section.html_es),
    ):
        page = Path(smk.input[name]).read_text("utf-8")
        write_bytes_atomic(smk.output[name], with_changes_section(page, html).encode("utf-8"))
    for name, target in optional.items():
        if verdict.has_telemetry:
            write_bytes_atomic(target, Path(smk.input[name]).read_bytes())
        elif Path(target).exists():
            Path(target).unlink()
            log.info("removed %s: the corpus has no telemetry any more", target)
    write_csv(smk.output.coverage, COVERAGE_COLUMNS, verdict.coverage)
    summary = read_leaderboard_summary(smk.input.leaderboard_summary)
    document = metadata(
        verdict,
        summary,
        smk.params,
        smk.input.rubric,
        smk.input.uncertainty_methods,
        list(smk.input.schemas),
    )
    write_json(smk.output.metadata, document, pretty=True)
    log.info("published %s (inputs %s)", Path(smk.output.metadata).parent, document["inputs"])


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake's script directive
