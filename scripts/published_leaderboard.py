"""Rule leaderboard: leaderboard.csv, leaderboard.md and the page in each language,
each a rendering of the leaderboard's one view (leaderboard_view.read_leaderboard_view).

The build_leaderboard.py planned by aggregated_metrics.md §7: it consumes the rows of
metrics_per_subject.csv and applies the ordering and presentation rules
(ro_metrics.formulas.ranking, in the view). Every number is the text of the published
CSVs, so the leaderboard cannot disagree with them. Eligible rows come first by Q_final
descending, rows whose published (4-decimal) Q_final is equal sharing a rank (1, 2, 2,
4) and ordered by subject_id, subject_version; Disqualified rows follow, unranked, in
the same order (§3.6: disqualification is per subject_version, metrics stay visible).
Each row has its rank interval (uncertainty.csv); between adjacent ranked rows the
neighbour test of rankings.json says whether they are separable. The provider comes
from the registry; under each Disqualified row its critical fails with their evidence
(critical_fails.csv); beside the ranking the operational table
(operational_per_subject.csv) when the corpus has telemetry; with two reviewers per run
the agreement line (agreement.csv, divergent_runs.csv) and each version's runs pending
review, which leaderboard.csv then adds as columns; each row's annotations (withdrawn
and invalidated rows unranked, last), a column of leaderboard.csv when the corpus has
subjects/annotations.yaml. The pages carry the changes
report's section and each version's reliability diagram (also written, in English, into
the figures folder for `snakemake --report`).
"""

import json
from pathlib import Path

from ro_metrics.contracts.files import step_logger, without_cycle_collector, write_bytes_atomic
from ro_metrics.contracts.tables import (
    LEADERBOARD_ALL_COLUMNS,
    leaderboard_columns,
    read_per_run,
    selected_columns,
    table_bytes,
)
from ro_metrics.formulas.aggregates import calibration_of_subjects
from ro_metrics.history.snapshot import earlier_snapshots
from ro_metrics.leaderboard.leaderboard_markdown import render_markdown
from ro_metrics.leaderboard.leaderboard_page import (
    reliability_diagrams,
    render_page,
    with_changes_section,
)
from ro_metrics.leaderboard.leaderboard_view import leaderboard_table, read_leaderboard_view
from ro_metrics.rendering.reliability_diagram import diagram_name, inline
from ro_metrics.rendering.translations import ENGLISH, LANGUAGES, language


def main(smk) -> None:
    # The diagrams are text (reliability_svg): no figure's cycles to collect.
    without_cycle_collector()
    log = step_logger("leaderboard", smk.log[0])
    view = read_leaderboard_view(
        smk.input, benchmark_version=smk.params.benchmark_version, alpha=smk.params.alpha
    )
    # leaderboard.csv: the columns the review policy publishes, and the annotations'
    # when the corpus has subjects/annotations.yaml.
    columns = leaderboard_columns(smk.params.reviewers_per_run, smk.params.annotated)
    rows = selected_columns(leaderboard_table(view), LEADERBOARD_ALL_COLUMNS, columns)
    write_bytes_atomic(smk.output.csv, table_bytes(columns, rows))

    calibration = calibration_of_subjects(read_per_run(smk.input.counted))
    date = smk.params.snapshot_date or view.last_update[:10]
    snapshots = earlier_snapshots(smk.input.history, date)
    sections = json.loads(Path(smk.input.changes).read_text("utf-8"))
    figures = Path(smk.output.figures)
    figures.mkdir(parents=True, exist_ok=True)
    for code, target in zip(LANGUAGES, smk.output.pages, strict=True):
        t = language(code)
        diagrams = {}
        for key, (svg, bins) in reliability_diagrams(calibration, t).items():
            if code == ENGLISH:
                write_bytes_atomic(figures / diagram_name(*key), svg.encode("utf-8"))
            diagrams[key] = (inline(svg), bins)
        page = render_page(view, t, diagrams=diagrams, snapshots=snapshots)
        write_bytes_atomic(target, with_changes_section(page, sections[code]).encode("utf-8"))
    markdown = render_markdown(view, language(ENGLISH))
    write_bytes_atomic(smk.output.markdown, markdown.encode("utf-8"))
    log.info(
        "leaderboard of %d subject versions written (%d diagrams per language, %s)",
        len(view.rows),
        len(calibration),
        "with the operational table" if view.operational is not None else "no telemetry",
    )


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake's script directive
