"""Rule build_leaderboard: results/leaderboard.csv, leaderboard.md, leaderboard.html and
its Spanish edition leaderboard.es.html, and the diagrams.

The build_leaderboard.py planned by aggregated_metrics.md §7: it consumes
metrics_per_subject.csv and applies the ordering and presentation rules
(ro_metrics.formulas.ranking). Every number is the text of the published CSVs, so the
leaderboard cannot disagree with them. Eligible rows come first by Q_final descending,
rows whose published (4-decimal) Q_final is equal sharing a rank (1, 2, 2, 4) and
ordered by subject_id, subject_version; Disqualified rows follow, unranked, in the same
order (§3.6: disqualification is per subject_version, metrics stay visible).

The provider comes from the registry; the critical fails shown under each Disqualified
row, with their evidence, from critical_fails.csv. The pages and the Markdown show the
operational table of operational_per_subject.csv beside the ranking when the corpus has
telemetry (the verdict says so).
"""

import hashlib
import os
from pathlib import Path

from ro_metrics.contracts.files import step_logger, write_bytes_atomic
from ro_metrics.contracts.records import (
    LeaderboardSummary,
    read_per_run_summary,
    read_verdict,
    write_leaderboard_summary,
)
from ro_metrics.contracts.tables import (
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
from ro_metrics.formulas.ranking import (
    leaderboard_rows,
    ranked,
    tie_groups,
    with_rank_intervals,
)
from ro_metrics.publishing.leaderboard_markdown import render_markdown
from ro_metrics.publishing.leaderboard_page import render_page
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
from ro_metrics.publishing.snapshot import earlier_snapshots
from ro_metrics.publishing.translations import ENGLISH, SPANISH, language


def diagram_text(t) -> DiagramText:
    return DiagramText(t("diagram_xlabel"), t("diagram_ylabel"), t("decimal_mark"))


def main(smk) -> None:
    log = step_logger("leaderboard", smk.log[0])
    subjects = read_table(smk.input.metrics_per_subject, SUBJECT_COLUMNS)
    families = read_table(smk.input.metrics_per_family, FAMILY_COLUMNS)
    per_run = read_per_run(smk.input.per_run)
    verdict = read_verdict(smk.input.verdict)
    tracks = {(subject_id, version): track for subject_id, version, track in verdict.tracks}

    uncertainty = read_uncertainty(smk.input.uncertainty)
    ordered = with_rank_intervals(ranked(subjects), uncertainty)
    version = smk.params.benchmark_version
    providers = {subject_id: entry["provider"] for subject_id, entry in verdict.subjects.items()}
    write_csv(
        smk.output.csv,
        LEADERBOARD_COLUMNS,
        leaderboard_rows(ordered, tracks, providers, version),
    )

    last_update = read_per_run_summary(smk.input.per_run_summary).newest_scoring_utc
    snapshot_date = smk.params.snapshot_date or last_update[:10]
    operational = None
    if verdict.has_telemetry:
        operational = read_table(smk.input.operational, OPERATIONAL_SUBJECT_COLUMNS)
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
        "critical_fails": read_table(smk.input.critical_fails, CRITICAL_FAIL_COLUMNS),
    }
    used = set()
    editions = ((ENGLISH, smk.output.html), (SPANISH, smk.output.html_es))
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
    markdown = render_markdown(
        **common,
        registry=verdict.subjects,
        t=language(ENGLISH),
    )
    write_bytes_atomic(smk.output.markdown, markdown.encode("utf-8"))
    # What publish records in metadata.json (the snapshot rule dates a snapshot by it).
    write_leaderboard_summary(smk.output.summary, LeaderboardSummary(last_update))
    log.info(
        "leaderboard of %d subject versions written (%d diagrams per language, %d drawn, %s)",
        len(ordered),
        len(calibration),
        drawn,
        "with the operational table" if operational is not None else "no telemetry",
    )


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake's script directive
