"""Rule publish: the leaderboard, the changes report and the results folder, once every
step has succeeded.

Three parts, in one job (each was a job of its own, with the critical fails' evidence a
fourth, until each rerun paid four job starts, ≈ 0.3 s each, for them;
docs/performance.md):

1. The critical fails' evidence (`find_critical_fails`): critical_fails.csv, one row per
   critical fail of every scored run (the partitions' records.CriticalFail), sorted by
   (subject_id, subject_version, case_id, run_id, reviewer_id), then by the fail's
   position in the scoring. Its quote is always the model's own words, checked against
   the response: exact, close or none (ro_metrics.formulas.evidence). Then the
   leaderboard (`build_leaderboard`): leaderboard.csv, leaderboard.md, the page in
   English and in Spanish, and the diagrams. The build_leaderboard.py planned by
   aggregated_metrics.md §7: it consumes metrics_per_subject.csv and applies the
   ordering and presentation rules (ro_metrics.formulas.ranking). Every number is the
   text of the published CSVs, so the leaderboard cannot disagree with them. Eligible
   rows come first by Q_final descending, rows whose published (4-decimal) Q_final is
   equal sharing a rank (1, 2, 2, 4) and ordered by subject_id, subject_version;
   Disqualified rows follow, unranked, in the same order (§3.6: disqualification is per
   subject_version, metrics stay visible). The provider comes from the registry; the
   critical fails shown under each Disqualified row, with their evidence, from
   critical_fails.csv; the operational table of operational_per_subject.csv beside the
   ranking when the corpus has telemetry (the verdict says so).
2. The changes report (`report_changes`): compares the results of this run with the
   newest snapshot in historico/ dated before them (or, with config changes_since, on
   or before that date) and says what changed and why (ro_metrics.publishing.changes):
   changes.csv, changes.md and the pages' section on them. With no such snapshot the
   report says so and changes.csv has its header only. With two cores (the rule's
   threads) it runs in a forked process beside part 1: neither reads what the other
   writes.
3. Publishing (`publish`): writes coverage.csv and metadata.json from the cross-check's
   verdict and copies the staged CSVs of steps 2-4, criterion_scores.csv,
   input_files.csv, uncertainty.csv, critical_fails.csv, the changes report and the
   leaderboard (each page with the changes section put in). Each file is replaced
   atomically (written beside it, then renamed), so a reader or a killed run never sees
   a half-written file, and results/ changes only after the whole set was computed.
   operational_per_subject.csv and operational_per_family.csv are published only when
   the corpus has telemetry; otherwise a copy left by an earlier run is removed, so
   results/ never holds tables of telemetry the corpus no longer has.
"""

import hashlib
import os
import sys
import time
from collections import Counter
from pathlib import Path
from typing import NamedTuple

from ro_metrics.contracts.files import (
    forked,
    remove_stale_staging,
    step_logger,
    without_cycle_collector,
    write_bytes_atomic,
    write_json,
)
from ro_metrics.contracts.records import (
    ChangesSection,
    LeaderboardSummary,
    read_critical_fails,
    read_per_run_summary,
    read_verdict,
)
from ro_metrics.contracts.tables import (
    CHANGES_COLUMNS,
    COVERAGE_COLUMNS,
    CRITICAL_FAIL_COLUMNS,
    FAMILY_COLUMNS,
    LEADERBOARD_COLUMNS,
    OPERATIONAL_SUBJECT_COLUMNS,
    SUBJECT_COLUMNS,
    read_per_run,
    read_table,
    read_uncertainty,
    write_csv,
)
from ro_metrics.formulas.aggregates import calibration_of_subjects
from ro_metrics.formulas.evidence import critical_fail_rows
from ro_metrics.formulas.ranking import leaderboard_rows, ranked, tie_groups, with_rank_intervals
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
from ro_metrics.publishing.leaderboard_markdown import render_markdown
from ro_metrics.publishing.leaderboard_page import render_page, with_changes_section
from ro_metrics.publishing.metadata import metadata, provenance
from ro_metrics.publishing.reliability_diagram import (
    DiagramRequest,
    DiagramText,
    diagram_key,
    diagram_name,
    draw_missing,
    inline,
    prune_diagrams,
    reliability_svg,
)
from ro_metrics.publishing.snapshot import earlier_snapshots, snapshot_dates
from ro_metrics.publishing.translations import ENGLISH, SPANISH, language


class Staged(NamedTuple):
    """Where parts 1 and 2 write what part 3 publishes (the job's scratch files, in the
    folder of its diagrams' folder: staged/, where the steps before it write)."""

    critical_fails: Path
    leaderboard_csv: Path
    leaderboard_html: Path
    leaderboard_es_html: Path
    leaderboard_md: Path
    changes_csv: Path
    changes_md: Path


def staged_files(folder) -> Staged:
    folder = Path(folder)
    names = ["critical_fails.csv", "leaderboard.csv", "leaderboard.html", "leaderboard.es.html"]
    names += ["leaderboard.md", "changes.csv", "changes.md"]
    return Staged(*(folder / name for name in names))


class ChangesRefused(Exception):
    """The snapshot to compare with cannot be read: nothing is published."""


def diagram_text(t) -> DiagramText:
    return DiagramText(t("diagram_xlabel"), t("diagram_ylabel"), t("decimal_mark"))


def find_critical_fails(smk, staged: Staged, log) -> None:
    """Part 1, first (module docstring): critical_fails.csv in staged."""
    fails = [fail for path in smk.input.critical_fails for fail in read_critical_fails(path)]
    rows = critical_fail_rows(fails)
    write_csv(staged.critical_fails, CRITICAL_FAIL_COLUMNS, rows)
    matches = Counter(row[CRITICAL_FAIL_COLUMNS.index("match")] for row in rows)
    log.info(
        "%d critical fails written (%s)",
        len(rows),
        ", ".join(f"{kind} {matches[kind]}" for kind in ("exact", "close", "none")),
    )


def build_leaderboard(smk, staged: Staged, log) -> LeaderboardSummary:
    """Part 1 (module docstring): the leaderboard's files in staged, the diagrams."""
    subjects = read_table(smk.input.metrics_per_subject, SUBJECT_COLUMNS)
    families = read_table(smk.input.metrics_per_family, FAMILY_COLUMNS)
    per_run = read_per_run(smk.input.per_run_table)
    verdict = read_verdict(smk.input.verdict)
    tracks = {(subject_id, version): track for subject_id, version, track in verdict.tracks}

    uncertainty = read_uncertainty(smk.input.uncertainty)
    ordered = with_rank_intervals(ranked(subjects), uncertainty)
    version = smk.params.benchmark_version
    providers = {subject_id: entry["provider"] for subject_id, entry in verdict.subjects.items()}
    write_csv(
        staged.leaderboard_csv,
        LEADERBOARD_COLUMNS,
        leaderboard_rows(ordered, tracks, providers, version),
    )

    last_update = read_per_run_summary(smk.input.per_run_summary).newest_scoring_utc
    snapshot_date = smk.params.snapshot_date or last_update[:10]
    operational = None
    if verdict.has_telemetry:
        operational = read_table(smk.input.operational_per_subject, OPERATIONAL_SUBJECT_COLUMNS)
    figures = Path(smk.output.figures)
    figures.mkdir(parents=True, exist_ok=True)
    calibration = calibration_of_subjects(per_run)
    common = {
        "benchmark_version": version,
        "alpha": smk.params.alpha,
        "last_update": last_update,
        "rows": ordered,
        "tie_groups": tie_groups(ordered),
        "uncertainty": uncertainty,
        "tracks": tracks,
        "operational": operational,
        "critical_fails": read_table(staged.critical_fails, CRITICAL_FAIL_COLUMNS),
    }
    used = set()
    editions = ((ENGLISH, staged.leaderboard_html), (SPANISH, staged.leaderboard_es_html))
    requests = {
        (code, key): DiagramRequest(
            bins,
            " · ".join(key),
            hashlib.sha256("\t".join(key).encode("utf-8")).hexdigest()[:12],
            diagram_text(language(code)),
        )
        for code, _ in editions
        for key, bins in calibration.items()
    }
    drawn = draw_missing(
        list(requests.values()), smk.params.diagram_cache, min(4, os.cpu_count() or 1)
    )
    for code, output in editions:
        t = language(code)
        diagrams = {}
        for key, bins in calibration.items():
            bins, title, salt, words = requests[code, key]
            svg = reliability_svg(bins, title, salt, smk.params.diagram_cache, words)
            used.add(diagram_key(bins, title, salt, words))
            if code == ENGLISH:
                write_bytes_atomic(figures / diagram_name(*key), svg.encode("utf-8"))
            diagrams[key] = (inline(svg, f"d{salt}"), bins)
        page = render_page(
            **common,
            families=families,
            registry=verdict.subjects,
            diagrams=diagrams,
            snapshots=earlier_snapshots(smk.input.history, snapshot_date),
            t=t,
        )
        write_bytes_atomic(output, page.encode("utf-8"))
    prune_diagrams(smk.params.diagram_cache, used)
    markdown_text = render_markdown(**common, registry=verdict.subjects, t=language(ENGLISH))
    write_bytes_atomic(staged.leaderboard_md, markdown_text.encode("utf-8"))
    log.info(
        "leaderboard of %d subject versions written (%d diagrams per language, %d drawn, %s)",
        len(ordered),
        len(calibration),
        drawn,
        "with the operational table" if operational is not None else "no telemetry",
    )
    # What metadata.json records (the snapshot rule dates a snapshot by it).
    return LeaderboardSummary(last_update)


def current_results(smk) -> PublishedResults:
    """This run's results as the comparison reads them (the staged files)."""
    verdict = read_verdict(smk.input.verdict)
    document = provenance(
        smk.params, smk.input.rubric, smk.input.uncertainty_methods, list(smk.input.schemas)
    )
    document["inputs"] = {"digest": f"sha256:{verdict.inputs_digest}", "n_files": verdict.n_files}
    return PublishedResults(
        per_run=csv_text(smk.input.per_run),
        subjects=csv_text(smk.input.metrics_per_subject),
        metadata=document,
        criteria=csv_text(smk.input.criterion_scores),
        uncertainty=csv_text(smk.input.uncertainty),
        input_files=csv_text(smk.input.input_files),
    )


def report_changes(smk, staged: Staged, log) -> ChangesSection:
    """Part 2 (module docstring): changes.csv and changes.md in staged, and the pages'
    section. Logs its own wall and CPU seconds (the bench's changes_step reads them)."""
    # Run after part 1 or in a process of its own: the diagrams' cycles are not here.
    without_cycle_collector()
    started, cpu_started = time.perf_counter(), time.process_time()
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
            raise ChangesRefused(
                f"Cannot compare with the snapshot {folder}: {error}\nNothing was published. "
                "Snapshots are never rewritten; to compare with another one: --config "
                "changes_since=YYYY-MM-DD"
            ) from None
    write_csv(staged.changes_csv, CHANGES_COLUMNS, csv_rows(comparison))
    write_bytes_atomic(staged.changes_md, markdown(comparison).encode("utf-8"))
    section = ChangesSection(
        page_section(comparison, language(ENGLISH)), page_section(comparison, language(SPANISH))
    )
    log.info(
        "changes: compared with snapshot %s: %d change(s) in %.3f s (CPU %.3f s)",
        date or "(none)",
        len(comparison.changes),
        time.perf_counter() - started,
        time.process_time() - cpu_started,
    )
    return section


def publish(smk, staged: Staged, section: ChangesSection, summary: LeaderboardSummary, log):
    """Part 3 (module docstring): results/, every file replaced atomically."""
    optional = smk.params.optional
    names = [Path(f).name for f in [*smk.output, *optional.values()]]
    remove_stale_staging(Path(smk.output.metadata).parent, names)
    verdict = read_verdict(smk.input.verdict)
    copied = ["per_run", "metrics_per_subject", "metrics_per_family", "uncertainty"]
    copied += ["criterion_scores", "input_files"]
    sources = {name: smk.input[name] for name in copied}
    sources["critical_fails"] = staged.critical_fails
    sources |= {name: getattr(staged, name) for name in ["changes_csv", "changes_md"]}
    sources |= {name: getattr(staged, name) for name in ["leaderboard_csv", "leaderboard_md"]}
    for name, source in sources.items():
        write_bytes_atomic(smk.output[name], Path(source).read_bytes())
    for name, html in (
        ("leaderboard_html", section.html),
        ("leaderboard_es_html", section.html_es),
    ):
        page = getattr(staged, name).read_text("utf-8")
        write_bytes_atomic(smk.output[name], with_changes_section(page, html).encode("utf-8"))
    for name, target in optional.items():
        if verdict.has_telemetry:
            write_bytes_atomic(target, Path(smk.input[name]).read_bytes())
        elif Path(target).exists():
            Path(target).unlink()
            log.info("removed %s: the corpus has no telemetry any more", target)
    write_csv(smk.output.coverage, COVERAGE_COLUMNS, verdict.coverage)
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


def main(smk) -> None:
    # The cyclic collector stays on: the diagrams make cyclic objects by the thousand.
    log = step_logger("publish", smk.log[0])
    # The leaderboard and the changes report write for the publishing part beside the diagrams.
    staged = staged_files(Path(smk.output.figures).parent)
    changes = forked(report_changes, smk, staged, log) if smk.threads > 1 else None
    try:
        find_critical_fails(smk, staged, log)
        summary = build_leaderboard(smk, staged, log)
        section = changes() if changes else report_changes(smk, staged, log)
    except ChangesRefused as refused:
        log.error("%s", refused)
        sys.exit(1)
    publish(smk, staged, section, summary, log)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake's script directive
