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
   English and in Spanish, and the diagrams; between adjacent ranked rows, whether the
   neighbour test of rankings.json (the uncertainty step's) separates them. The
   build_leaderboard.py planned by aggregated_metrics.md §7: it consumes
   metrics_per_subject.csv and applies the ordering and presentation rules
   (ro_metrics.formulas.ranking). Every number is the text of the published CSVs, so
   the leaderboard cannot disagree with them. Eligible
   rows come first by Q_final descending, rows whose published (4-decimal) Q_final is
   equal sharing a rank (1, 2, 2, 4) and ordered by subject_id, subject_version;
   Disqualified rows follow, unranked, in the same order (§3.6: disqualification is per
   subject_version, metrics stay visible). The provider comes from the registry; the
   critical fails shown under each Disqualified row, with their evidence, from
   critical_fails.csv; the operational table of operational_per_subject.csv beside the
   ranking when the corpus has telemetry (the verdict says so); under double review, the
   agreement line (agreement.csv, divergent_runs.csv) and each version's pending counts
   and pending critical-fail flag (pending_runs.csv).
2. The changes report (`report_changes`): compares the results of this run with the
   newest snapshot in historico/ dated before them (or, with config changes_since, on
   or before that date) and says what changed and why (ro_metrics.history.changes):
   changes.csv, changes.md and the pages' section on them. With no such snapshot the
   report says so and changes.csv has its header only. With two cores (the rule's
   threads) it runs in a forked process beside part 1 (neither needs what the other
   makes) and hands its files back in memory.
3. Publishing (`publish`): writes coverage.csv and metadata.json from the cross-check's
   verdict, copies the staged CSVs of steps 2-4, criterion_scores.csv, input_files.csv,
   uncertainty.csv and the findings step's findings.json, family_heatmap.csv and charts
   (charts/*.svg), and writes what parts 1 and 2 made (critical_fails.csv, the
   changes report, the leaderboard; each page with the changes section put in). Each
   file is replaced
   atomically (written beside it, then renamed), so a reader or a killed run never sees
   a half-written file, and results/ changes only after the whole set was computed.
   operational_per_subject.csv and operational_per_family.csv are published only when
   the corpus has telemetry; otherwise a copy left by an earlier run is removed, so
   results/ never holds tables of telemetry the corpus no longer has.
"""

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
    Verdict,
    read_critical_fails,
    read_per_run_summary,
    read_ranking_evidence,
    read_verdict,
)
from ro_metrics.contracts.tables import (
    AGREEMENT_COLUMNS,
    CHANGES_COLUMNS,
    CONSOLIDATED_COLUMNS,
    COVERAGE_COLUMNS,
    COVERAGE_REVIEW_COLUMNS,
    CRITICAL_FAIL_COLUMNS,
    DIVERGENT_RUN_COLUMNS,
    FAMILY_COLUMNS,
    LEADERBOARD_COLUMNS,
    LEADERBOARD_REVIEW_COLUMNS,
    OPERATIONAL_SUBJECT_COLUMNS,
    PENDING_COLUMNS,
    SUBJECT_COLUMNS,
    read_per_run,
    read_table,
    read_uncertainty,
    table_bytes,
    write_csv,
)
from ro_metrics.formulas.aggregates import calibration_of_subjects
from ro_metrics.formulas.consolidation import (
    counted_scorings,
    coverage_with_reviews,
    with_pending_counts,
)
from ro_metrics.formulas.evidence import critical_fail_rows
from ro_metrics.formulas.ranking import leaderboard_rows, ranked, tie_groups, with_rank_intervals
from ro_metrics.history.changes import (
    Comparison,
    PublishedResults,
    SnapshotFormatError,
    compare,
    comparison_snapshot,
    csv_text,
    read_snapshot,
)
from ro_metrics.history.changes_report import csv_rows, markdown, page_section
from ro_metrics.history.metadata import metadata, provenance
from ro_metrics.history.snapshot import earlier_snapshots, snapshot_dates
from ro_metrics.leaderboard.leaderboard_markdown import render_markdown
from ro_metrics.leaderboard.leaderboard_page import render_page, with_changes_section
from ro_metrics.leaderboard.review_view import ReviewSummary, review_summary
from ro_metrics.rendering.reliability_diagram import (
    DiagramRequest,
    DiagramText,
    diagram_key,
    diagram_name,
    draw_missing,
    inline,
    prune_diagrams,
    reliability_svg,
)
from ro_metrics.rendering.translations import ENGLISH, SPANISH, language


class LeaderboardFiles(NamedTuple):
    """What part 1 makes for part 3 to publish (bytes of each file)."""

    critical_fails_csv: bytes
    leaderboard_csv: bytes
    leaderboard_html: bytes  # without the changes section (its placeholder)
    leaderboard_es_html: bytes
    leaderboard_md: bytes


class ChangesSection(NamedTuple):
    """The leaderboard pages' section on what changed since a snapshot (HTML), in each
    language of the pages."""

    html: str  # English (leaderboard.html)
    html_es: str  # Spanish (leaderboard.es.html)


class ChangesReport(NamedTuple):
    """What part 2 makes for part 3 (pickled back when it ran in its own process)."""

    changes_csv: bytes
    changes_md: bytes
    section: ChangesSection


class ChangesRefused(Exception):
    """The snapshot to compare with cannot be read: nothing is published."""


def diagram_text(t) -> DiagramText:
    return DiagramText(t("diagram_xlabel"), t("diagram_ylabel"), t("decimal_mark"))


def find_critical_fails(smk, log) -> list[list[str]]:
    """Part 1, first (module docstring): the rows of critical_fails.csv."""
    fails = [fail for path in smk.input.critical_fails for fail in read_critical_fails(path)]
    if smk.params.double_review:
        # Only the fails of the scorings that count (not a pending run's, not a primary's
        # that the arbiter overruled).
        counted = counted_scorings(read_table(smk.input.per_run_consolidated, CONSOLIDATED_COLUMNS))
        fails = [
            fail
            for fail in fails
            if (fail.subject_id, fail.case_id, fail.run_id, fail.reviewer_id) in counted
        ]
    rows = critical_fail_rows(fails)
    matches = Counter(row[CRITICAL_FAIL_COLUMNS.index("match")] for row in rows)
    log.info(
        "%d critical fails written (%s)",
        len(rows),
        ", ".join(f"{kind} {matches[kind]}" for kind in ("exact", "close", "none")),
    )
    return rows


def build_leaderboard(smk, verdict: Verdict, last_update: str, log) -> LeaderboardFiles:
    """Part 1 (module docstring): the critical fails and the leaderboard's files, and the
    diagrams (written into the job's figures folder and the diagram cache)."""
    critical_rows = find_critical_fails(smk, log)
    subjects = read_table(smk.input.metrics_per_subject, SUBJECT_COLUMNS)
    families = read_table(smk.input.metrics_per_family, FAMILY_COLUMNS)
    per_run = read_per_run(smk.input.per_run_table)
    tracks = {(subject_id, version): track for subject_id, version, track in verdict.tracks}

    uncertainty = read_uncertainty(smk.input.uncertainty)
    ordered = with_rank_intervals(ranked(subjects), uncertainty)
    version = smk.params.benchmark_version
    providers = {subject_id: entry["provider"] for subject_id, entry in verdict.subjects.items()}
    leaderboard_csv = leaderboard_table(
        smk, leaderboard_rows(ordered, tracks, providers, version), ordered
    )

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
        # The uncertainty step's neighbour tests: "separable" between adjacent ranks.
        "neighbours": read_ranking_evidence(smk.input.rankings).neighbours,
        # As read_table reads critical_fails.csv back: every cell is text.
        "critical_fails": [
            dict(zip(CRITICAL_FAIL_COLUMNS, row, strict=True)) for row in critical_rows
        ],
        "review": review_of(smk),
    }
    used = set()
    editions = (ENGLISH, SPANISH)
    pages = {}
    requests = {
        (code, key): DiagramRequest(bins, " · ".join(key), diagram_text(language(code)))
        for code in editions
        for key, bins in calibration.items()
    }
    drawn = draw_missing(list(requests.values()), smk.params.diagram_cache)
    for code in editions:
        t = language(code)
        diagrams = {}
        for key, bins in calibration.items():
            bins, title, words = requests[code, key]
            svg = reliability_svg(bins, title, smk.params.diagram_cache, words)
            used.add(diagram_key(bins, title, words))
            if code == ENGLISH:
                write_bytes_atomic(figures / diagram_name(*key), svg.encode("utf-8"))
            diagrams[key] = (inline(svg), bins)
        page = render_page(
            **common,
            families=families,
            registry=verdict.subjects,
            diagrams=diagrams,
            snapshots=earlier_snapshots(smk.input.history, snapshot_date),
            t=t,
        )
        pages[code] = page.encode("utf-8")
    prune_diagrams(smk.params.diagram_cache, used)
    markdown_text = render_markdown(**common, registry=verdict.subjects, t=language(ENGLISH))
    log.info(
        "leaderboard of %d subject versions written (%d diagrams per language, %d drawn, %s)",
        len(ordered),
        len(calibration),
        drawn,
        "with the operational table" if operational is not None else "no telemetry",
    )
    return LeaderboardFiles(
        table_bytes(CRITICAL_FAIL_COLUMNS, critical_rows),
        leaderboard_csv,
        pages[ENGLISH],
        pages[SPANISH],
        markdown_text.encode("utf-8"),
    )


def review_of(smk) -> ReviewSummary | None:
    """Under double review, the leaderboard's agreement line and pending counts, from
    the staged agreement tables and pending_runs.csv (review_view.review_summary)."""
    if not smk.params.double_review:
        return None
    return review_summary(
        read_table(smk.input.agreement, AGREEMENT_COLUMNS),
        read_table(smk.input.divergent, DIVERGENT_RUN_COLUMNS),
        read_table(smk.input.pending_runs, PENDING_COLUMNS),
    )


def leaderboard_table(smk, rows: list[list], ordered) -> bytes:
    """leaderboard.csv; under double review with each version's pending counts and
    whether a critical-fail disagreement of it awaits the arbiter (multi-reviewer.md)."""
    if not smk.params.double_review:
        return table_bytes(LEADERBOARD_COLUMNS, rows)
    pending = read_table(smk.input.pending_runs, PENDING_COLUMNS)
    keys = [(row["subject_id"], row["subject_version"]) for row in ordered]
    return table_bytes(LEADERBOARD_REVIEW_COLUMNS, with_pending_counts(rows, keys, pending))


def current_results(smk, verdict: Verdict) -> PublishedResults:
    """This run's results as the comparison reads them (the staged files)."""
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


def report_changes(smk, verdict: Verdict, newest: str, log) -> ChangesReport:
    """Part 2 (module docstring): changes.csv, changes.md and the pages' section (newest:
    the newest scoring's timestamp). Logs its own wall and CPU seconds (the bench's
    changes_step reads them). Runs without the cyclic collector, as main() turned it off
    (a forked process keeps that)."""
    started, cpu_started = time.perf_counter(), time.process_time()
    current_date = smk.params.snapshot_date or newest[:10]
    since = smk.params.changes_since
    date = comparison_snapshot(snapshot_dates(smk.input.history), current_date, since)
    if date is None:
        comparison = Comparison(None, current_date, since)
    else:
        folder = Path(smk.params.history) / date
        try:
            comparison = compare(
                read_snapshot(folder), current_results(smk, verdict), date, current_date, since
            )
        except (SnapshotFormatError, ValueError) as error:
            # (pandas' ParserError is a ValueError: a snapshot file that is not a CSV.)
            raise ChangesRefused(
                f"Cannot compare with the snapshot {folder}: {error}\nNothing was published. "
                "Snapshots are never rewritten; to compare with another one: --config "
                "changes_since=YYYY-MM-DD"
            ) from None
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
    return ChangesReport(
        table_bytes(CHANGES_COLUMNS, csv_rows(comparison)),
        markdown(comparison).encode("utf-8"),
        section,
    )


def publish(
    smk, verdict: Verdict, leaderboard: LeaderboardFiles, changes: ChangesReport, newest: str, log
):
    """Part 3 (module docstring): results/, every file replaced atomically."""
    optional = smk.params.optional
    names = [Path(f).name for f in [*smk.output, *optional.values()]]
    remove_stale_staging(Path(smk.output.metadata).parent, names)
    remove_stale_staging(Path(smk.output.charts[0]).parent, names)
    copied = ["per_run", "metrics_per_subject", "metrics_per_family", "uncertainty"]
    copied += ["criterion_scores", "input_files", "findings", "family_heatmap"]
    if smk.params.double_review:
        copied += ["per_run_consolidated", "pending_runs"]
        copied += ["agreement", "grid", "severity", "divergent"]
    contents = {name: Path(smk.input[name]).read_bytes() for name in copied}
    contents["critical_fails"] = leaderboard.critical_fails_csv
    contents["leaderboard_csv"] = leaderboard.leaderboard_csv
    contents["leaderboard_md"] = leaderboard.leaderboard_md
    contents["changes_csv"] = changes.changes_csv
    contents["changes_md"] = changes.changes_md
    # The changes report runs beside the leaderboard: its section joins each page here.
    for name, page, html in (
        ("leaderboard_html", leaderboard.leaderboard_html, changes.section.html),
        ("leaderboard_es_html", leaderboard.leaderboard_es_html, changes.section.html_es),
    ):
        contents[name] = with_changes_section(page.decode("utf-8"), html).encode("utf-8")
    for name, content in contents.items():
        write_bytes_atomic(smk.output[name], content)
    for target in smk.output.charts:
        write_bytes_atomic(target, (Path(smk.input.charts) / Path(target).name).read_bytes())
    for name, target in optional.items():
        if verdict.has_telemetry:
            write_bytes_atomic(target, Path(smk.input[name]).read_bytes())
        elif Path(target).exists():
            Path(target).unlink()
            log.info("removed %s: the corpus has no telemetry any more", target)
    if smk.params.double_review:
        pending = read_table(smk.input.pending_runs, PENDING_COLUMNS)
        write_csv(
            smk.output.coverage,
            COVERAGE_REVIEW_COLUMNS,
            coverage_with_reviews(verdict.coverage, pending),
        )
    else:
        write_csv(smk.output.coverage, COVERAGE_COLUMNS, verdict.coverage)
        for target in smk.params.review_published:
            if Path(target).exists():
                Path(target).unlink()
                log.info("removed %s: the results are of one reviewer per run now", target)
    document = metadata(
        verdict,
        newest,  # (the snapshot rule dates a snapshot by it)
        smk.params,
        smk.input.rubric,
        smk.input.uncertainty_methods,
        list(smk.input.schemas),
    )
    write_json(smk.output.metadata, document, pretty=True)
    log.info("published %s (inputs %s)", Path(smk.output.metadata).parent, document["inputs"])


def main(smk) -> None:
    # The diagrams are text (reliability_svg): no figure's cycles to collect.
    without_cycle_collector()
    log = step_logger("publish", smk.log[0])
    verdict = read_verdict(smk.input.verdict)
    newest = read_per_run_summary(smk.input.per_run_summary).newest_scoring_utc
    beside = forked(report_changes, smk, verdict, newest, log) if smk.threads > 1 else None
    try:
        leaderboard = build_leaderboard(smk, verdict, newest, log)
        changes = beside() if beside else report_changes(smk, verdict, newest, log)
    except ChangesRefused as refused:
        log.error("%s", refused)
        sys.exit(1)
    publish(smk, verdict, leaderboard, changes, newest, log)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake's script directive
