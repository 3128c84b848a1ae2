"""The public leaderboard: results/leaderboard.csv and leaderboard.html.

The build_leaderboard.py planned by aggregated_metrics.md §7: it consumes
metrics_per_subject.csv and applies the ordering and presentation rules. Every
number is the text of the published CSVs, so the leaderboard cannot disagree with
them. Eligible rows come first by Q_final descending, rows whose published
(4-decimal) Q_final is equal sharing a rank (1, 2, 2, 4) and ordered by
subject_id, subject_version; Disqualified rows follow, unranked, in the same order
(§3.6: disqualification is per subject_version, metrics stay visible).
"""

import hashlib
import re
from pathlib import Path

import compute_metrics as cm
from build_metrics_per_family import FAMILY_COLUMNS
from build_metrics_per_subject import SUBJECT_COLUMNS
from leaderboard_page import render_page
from per_run_table import column, groups, read_per_run
from ranking import UNCERTAINTY_COLUMNS, ranked, read_table
from reliability_diagram import diagram_key, inline, prune_diagrams, reliability_svg
from step_io import read_json, step_logger, write_bytes_atomic, write_csv, write_json

LEADERBOARD_COLUMNS = [
    "rank",
    "rank_low",
    "rank_high",
    "subject_id",
    "subject_version",
    "track",
    "q_final",
    "pass_rate",
    "mean_clipped_score",
    "brier",
    "ece",
    "n_runs",
    "n_critical_fails",
    "leaderboard_status",
    "benchmark_version",
]
SNAPSHOT_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
# A subject_version is free text; a diagram file name uses it only when it is tame.
TAME_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")


def timestamp_key(timestamp: str) -> tuple[str, str]:
    """Chronological order of schema-valid UTC timestamps (YYYY-MM-DDThh:mm:ss[.f]Z).

    Plain text order is wrong once fractions appear ("…:10Z" sorts after "…:10.5Z").
    """
    whole, _, fraction = timestamp.rstrip("Z").partition(".")
    return whole, fraction


def newest_timestamp(timestamps) -> str:
    return max(timestamps, key=timestamp_key)


def earlier_snapshots(history_files, before: str) -> list[str]:
    """Dates of the snapshots (folders historico/<date>/ with a metadata.json) before a date."""
    dates = {Path(path).parent.name for path in history_files}
    return sorted((d for d in dates if SNAPSHOT_DATE.fullmatch(d) and d < before), reverse=True)


def diagram_name(subject_id: str, subject_version: str) -> str:
    """File name of a diagram: readable when the version allows it, unique always."""
    if TAME_NAME.fullmatch(subject_version):
        return f"{subject_id}__{subject_version}.svg"
    digest = hashlib.sha256(subject_version.encode("utf-8")).hexdigest()[:16]
    return f"{subject_id}__version-{digest}.svg"


def read_uncertainty(path) -> dict[tuple[str, str, str], dict[str, str]]:
    """(subject_id, subject_version, metric) → its row of uncertainty.csv."""
    return {
        (row["subject_id"], row["subject_version"], row["metric"]): row
        for row in read_table(path, UNCERTAINTY_COLUMNS)
    }


def with_rank_intervals(ordered, uncertainty) -> list[dict[str, str]]:
    """Each row with its 95 % rank interval (empty for a Disqualified row)."""
    rows = []
    for row in ordered:
        interval = uncertainty.get((row["subject_id"], row["subject_version"], "rank"), {})
        rows.append(
            {
                **row,
                "rank_low": interval.get("ci_low", ""),
                "rank_high": interval.get("ci_high", ""),
            }
        )
    return rows


def tie_groups(rows) -> list[int | None]:
    """Tie group of each row: consecutive Eligible rows share one while each row's rank
    interval overlaps the previous row's (uncertainty_methods.md §4); None if unranked."""
    groups, group, previous = [], 0, None
    for row in rows:
        if not row["rank"] or not row["rank_low"]:
            groups.append(None)
            continue
        low, high = int(row["rank_low"]), int(row["rank_high"])
        if previous is None or not (low <= previous[1] and previous[0] <= high):
            group += 1
        groups.append(group)
        previous = (low, high)
    return groups


def leaderboard_rows(ordered, tracks, benchmark_version: str) -> list[list]:
    return [
        [
            row["rank"],
            row["rank_low"],
            row["rank_high"],
            row["subject_id"],
            row["subject_version"],
            tracks[(row["subject_id"], row["subject_version"])],
            *(row[name] for name in LEADERBOARD_COLUMNS[6:-1]),
            benchmark_version,
        ]
        for row in ordered
    ]


def calibration_of_subjects(per_run) -> dict[tuple[str, str], list]:
    """(subject_id, subject_version) → its non-empty ECE bins."""
    return {
        key: cm.calibration_bins(column(runs, "reported_confidence"), column(runs, "correctness"))
        for key, runs in groups(per_run, ["subject_id", "subject_version"])
    }


def main(smk) -> None:
    log = step_logger("leaderboard", smk.log[0])
    subjects = read_table(smk.input.metrics_per_subject, SUBJECT_COLUMNS)
    families = read_table(smk.input.metrics_per_family, FAMILY_COLUMNS)
    per_run = read_per_run(smk.input.per_run)
    verdict = read_json(smk.input.verdict)
    tracks = {(subject_id, version): track for subject_id, version, track in verdict["tracks"]}

    uncertainty = read_uncertainty(smk.input.uncertainty)
    ordered = with_rank_intervals(ranked(subjects), uncertainty)
    version = smk.params.benchmark_version
    write_csv(smk.output.csv, LEADERBOARD_COLUMNS, leaderboard_rows(ordered, tracks, version))

    last_update = newest_timestamp(column(per_run, "scoring_timestamp_utc"))
    snapshot_date = smk.params.snapshot_date or last_update[:10]
    diagrams = {}
    figures = Path(smk.output.figures)
    figures.mkdir(parents=True, exist_ok=True)
    used = set()
    for key, bins in calibration_of_subjects(per_run).items():
        salt = hashlib.sha256("\t".join(key).encode("utf-8")).hexdigest()[:12]
        title = " · ".join(key)
        svg = reliability_svg(bins, title, salt, smk.params.diagram_cache)
        used.add(diagram_key(bins, title, salt))
        write_bytes_atomic(figures / diagram_name(*key), svg.encode("utf-8"))
        diagrams[key] = (inline(svg, f"d{salt}"), bins)
    prune_diagrams(smk.params.diagram_cache, used)

    page = render_page(
        benchmark_version=version,
        alpha=smk.params.alpha,
        last_update=last_update,
        rows=ordered,
        tie_groups=tie_groups(ordered),
        uncertainty=uncertainty,
        tracks=tracks,
        families=families,
        registry=verdict["subjects"],
        diagrams=diagrams,
        snapshots=earlier_snapshots(smk.input.history, snapshot_date),
    )
    write_bytes_atomic(smk.output.html, page.encode("utf-8"))
    # What publish records in metadata.json (take_snapshot dates a snapshot by it).
    write_json(smk.output.summary, {"newest_scoring_utc": last_update})
    log.info(
        "leaderboard of %d subject versions written (%d diagrams)", len(ordered), len(diagrams)
    )


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake's script directive
