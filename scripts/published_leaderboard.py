"""Rule leaderboard: leaderboard.csv, leaderboard.md and the page in each language.

The build_leaderboard.py planned by aggregated_metrics.md §7: it consumes the rows of
metrics_per_subject.csv and applies the ordering and presentation rules
(ro_metrics.formulas.ranking). Every number is the text of the published CSVs, so the
leaderboard cannot disagree with them. Eligible rows come first by Q_final descending,
rows whose published (4-decimal) Q_final is equal sharing a rank (1, 2, 2, 4) and
ordered by subject_id, subject_version; Disqualified rows follow, unranked, in the same
order (§3.6: disqualification is per subject_version, metrics stay visible). Each row
has its rank interval (uncertainty.csv); between adjacent ranked rows the neighbour test
of rankings.json says whether they are separable. The provider comes from the registry;
under each Disqualified row its critical fails with their evidence
(critical_fails.csv); beside the ranking the operational table (operational_per_subject
.csv) when the corpus has telemetry; with two reviewers per run the agreement line
(agreement.csv, divergent_runs.csv) and each version's runs pending review, which
leaderboard.csv then adds as columns. The pages carry the changes report's section and
each version's reliability diagram (also written, in English, into the figures folder
for `snakemake --report`).
"""

import json
from pathlib import Path

from ro_metrics.contracts.files import (
    read_json,
    step_logger,
    without_cycle_collector,
    write_bytes_atomic,
)
from ro_metrics.contracts.records import (
    read_partition_reviews,
    read_ranking_evidence,
    read_verdict,
)
from ro_metrics.contracts.tables import (
    AGREEMENT_COLUMNS,
    CRITICAL_FAIL_COLUMNS,
    DIVERGENT_RUN_COLUMNS,
    FAMILY_COLUMNS,
    LEADERBOARD_REVIEW_COLUMNS,
    OPERATIONAL_SUBJECT_COLUMNS,
    SUBJECT_COLUMNS,
    assembled_table,
    leaderboard_columns,
    read_per_run,
    read_table,
    read_uncertainty,
    selected_columns,
    table_bytes,
)
from ro_metrics.formulas.aggregates import calibration_of_subjects
from ro_metrics.formulas.consolidation import with_pending_counts
from ro_metrics.formulas.ranking import leaderboard_rows, ranked, tie_groups, with_rank_intervals
from ro_metrics.history.snapshot import earlier_snapshots
from ro_metrics.leaderboard.leaderboard_markdown import render_markdown
from ro_metrics.leaderboard.leaderboard_page import render_page, with_changes_section
from ro_metrics.leaderboard.review_view import review_summary
from ro_metrics.rendering.reliability_diagram import diagram_name, diagram_text, inline
from ro_metrics.rendering.reliability_svg import reliability_svg_text
from ro_metrics.rendering.translations import ENGLISH, LANGUAGES, language


def main(smk) -> None:
    # The diagrams are text (reliability_svg): no figure's cycles to collect.
    without_cycle_collector()
    log = step_logger("leaderboard", smk.log[0])
    verdict = read_verdict(smk.input.verdict)
    last_update = read_json(smk.input.metadata)["newest_scoring_utc"]
    subjects = assembled_table(smk.input.metrics_per_subject, SUBJECT_COLUMNS)
    families = assembled_table(smk.input.metrics_per_family, FAMILY_COLUMNS)
    critical_fails = assembled_table(smk.input.critical_fails, CRITICAL_FAIL_COLUMNS)
    pending = [run for path in smk.input.reviews for run in read_partition_reviews(path).pending]
    tracks = {(subject_id, version): track for subject_id, version, track in verdict.tracks}
    uncertainty = read_uncertainty(smk.input.uncertainty)
    ordered = with_rank_intervals(ranked(subjects), uncertainty)
    version = smk.params.benchmark_version
    providers = {subject_id: entry["provider"] for subject_id, entry in verdict.subjects.items()}

    # leaderboard.csv: every row with its pending counts, the columns the policy publishes.
    keys = [(row["subject_id"], row["subject_version"]) for row in ordered]
    rows = with_pending_counts(leaderboard_rows(ordered, tracks, providers, version), keys, pending)
    columns = leaderboard_columns(smk.params.reviewers_per_run)
    write_bytes_atomic(
        smk.output.csv,
        table_bytes(columns, selected_columns(rows, LEADERBOARD_REVIEW_COLUMNS, columns)),
    )

    operational = None
    if verdict.has_telemetry:
        operational = read_table(smk.input.operational_per_subject, OPERATIONAL_SUBJECT_COLUMNS)
    review = review_summary(
        read_table(smk.input.agreement, AGREEMENT_COLUMNS),
        read_table(smk.input.divergent, DIVERGENT_RUN_COLUMNS),
        pending,
    )
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
        "critical_fails": critical_fails,
        "review": review,
    }
    calibration = calibration_of_subjects(read_per_run(smk.input.counted))
    snapshots = earlier_snapshots(smk.input.history, smk.params.snapshot_date or last_update[:10])
    sections = json.loads(Path(smk.input.changes).read_text("utf-8"))
    figures = Path(smk.output.figures)
    figures.mkdir(parents=True, exist_ok=True)
    for code, target in zip(LANGUAGES, smk.output.pages, strict=True):
        t = language(code)
        words = diagram_text(t)
        diagrams = {}
        for key, bins in calibration.items():
            svg = reliability_svg_text(bins, " · ".join(key), words)
            if code == ENGLISH:
                write_bytes_atomic(figures / diagram_name(*key), svg.encode("utf-8"))
            diagrams[key] = (inline(svg), bins)
        page = render_page(
            **common,
            families=families,
            registry=verdict.subjects,
            diagrams=diagrams,
            snapshots=snapshots,
            t=t,
        )
        write_bytes_atomic(target, with_changes_section(page, sections[code]).encode("utf-8"))
    markdown = render_markdown(**common, registry=verdict.subjects, t=language(ENGLISH))
    write_bytes_atomic(smk.output.markdown, markdown.encode("utf-8"))
    log.info(
        "leaderboard of %d subject versions written (%d diagrams per language, %s)",
        len(ordered),
        len(calibration),
        "with the operational table" if operational is not None else "no telemetry",
    )


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake's script directive
