"""The published files: the one registry every reader of the published set takes them
from (the publish rule's outputs, snapshots, the changes report, verify, the tests).

Each file is published from the cache by rule publish, either copied from the staged
file its step wrote (`<cache>/staged/<name>`) or, for a table computed per partition of
the corpus, assembled from the partitions' fragments (`<cache>/partitions/<id>/<name>`:
each with the header, rows sorted by the table's keys, subject_id first; a subject's
rows are all in one partition, so the table is the fragments' rows by subject_id).

Some files are published only with telemetry in the corpus, only under double review
(two reviewers per run, multi-reviewer.md), or only when the corpus has
subjects/annotations.yaml (lifecycle.md); the rest always.
"""

from typing import NamedTuple

from ro_metrics.contracts.tables import (
    CONSOLIDATED_COLUMNS,
    CRITERION_COLUMNS,
    CRITICAL_FAIL_COLUMNS,
    FAMILY_COLUMNS,
    PENDING_COLUMNS,
    PER_RUN_COLUMNS,
    SUBJECT_COLUMNS,
)
from ro_metrics.contracts.vocabulary import LANGUAGES

ALWAYS = "always"
WITH_TELEMETRY = "with telemetry"
UNDER_DOUBLE_REVIEW = "under double review"
WITH_ANNOTATIONS = "with annotations"


class PublishedFile(NamedTuple):
    """One published file.

    name: its path below the results folder (charts/family_heatmap.svg).
    columns: a table computed per partition: its columns (tables.py); its fragments are
    assembled. None: copied from the file its step staged.
    when: ALWAYS, WITH_TELEMETRY, UNDER_DOUBLE_REVIEW or WITH_ANNOTATIONS.
    caption, category: its entry in `snakemake --report` (workflow/report/<caption>),
    or none.
    """

    name: str
    columns: list[str] | None = None
    when: str = ALWAYS
    caption: str | None = None
    category: str | None = None

    @property
    def partitioned(self) -> bool:
        return self.columns is not None


def _table(name, caption, category, **kwargs) -> PublishedFile:
    return PublishedFile(name, caption=caption, category=category, **kwargs)


# The findings' charts (rule findings, report.findings_charts), in the order the findings
# page shows them.
CHART_STEMS = ("family_heatmap", "quality_calibration", "cost_quality")


def chart_file(stem: str, code: str) -> str:
    """A chart's file name in charts/: <stem>.svg in the first language, <stem>.<code>.svg
    in another."""
    return f"{stem}.svg" if code == LANGUAGES[0] else f"{stem}.{code}.svg"


PER_RUN = _table("per_run.csv", "per_run.rst", "Metrics", columns=PER_RUN_COLUMNS)
CRITERION_SCORES = _table(
    "criterion_scores.csv", "criterion_scores.rst", "Metrics", columns=CRITERION_COLUMNS
)
METRICS_PER_SUBJECT = _table(
    "metrics_per_subject.csv", "metrics_per_subject.rst", "Metrics", columns=SUBJECT_COLUMNS
)
METRICS_PER_FAMILY = _table(
    "metrics_per_family.csv", "metrics_per_family.rst", "Metrics", columns=FAMILY_COLUMNS
)
CRITICAL_FAILS = _table(
    "critical_fails.csv", "critical_fails.rst", "Leaderboard", columns=CRITICAL_FAIL_COLUMNS
)
PER_RUN_CONSOLIDATED = _table(
    "per_run_consolidated.csv",
    "per_run_consolidated.rst",
    "Metrics",
    columns=CONSOLIDATED_COLUMNS,
    when=UNDER_DOUBLE_REVIEW,
)
PENDING_RUNS = _table(
    "pending_runs.csv",
    "pending_runs.rst",
    "Metrics",
    columns=PENDING_COLUMNS,
    when=UNDER_DOUBLE_REVIEW,
)
COVERAGE = _table("coverage.csv", "coverage.rst", "Metrics")
UNCERTAINTY = _table("uncertainty.csv", "uncertainty.rst", "Metrics")
INPUT_FILES = _table("input_files.csv", "input_files.rst", "Changes")
ANNOTATIONS = _table("annotations.csv", "annotations.rst", "Leaderboard", when=WITH_ANNOTATIONS)
CHANGES_CSV = _table("changes.csv", "changes_csv.rst", "Changes")
CHANGES_MD = _table("changes.md", "changes_md.rst", "Changes")
LEADERBOARD_CSV = _table("leaderboard.csv", "leaderboard_csv.rst", "Leaderboard")
LEADERBOARD_HTML = _table("leaderboard.html", "leaderboard_html.rst", "Leaderboard")
LEADERBOARD_ES_HTML = _table("leaderboard.es.html", "leaderboard_es_html.rst", "Leaderboard")
LEADERBOARD_MD = _table("leaderboard.md", "leaderboard_md.rst", "Leaderboard")
METADATA = PublishedFile("metadata.json")
FINDINGS = PublishedFile("findings.json")
FAMILY_HEATMAP = _table("family_heatmap.csv", "family_heatmap.rst", "Findings")
FINDINGS_REPORTS = tuple(
    PublishedFile("findings.md" if code == LANGUAGES[0] else f"findings.{code}.md")
    for code in LANGUAGES
)
CHARTS = tuple(
    PublishedFile(f"charts/{chart_file(stem, code)}") for code in LANGUAGES for stem in CHART_STEMS
)
OPERATIONAL_PER_SUBJECT = PublishedFile("operational_per_subject.csv", when=WITH_TELEMETRY)
OPERATIONAL_PER_FAMILY = PublishedFile("operational_per_family.csv", when=WITH_TELEMETRY)
AGREEMENT = PublishedFile("agreement.csv", when=UNDER_DOUBLE_REVIEW)
AGREEMENT_GRID = PublishedFile("agreement_grid.csv", when=UNDER_DOUBLE_REVIEW)
REVIEWER_SEVERITY = PublishedFile("reviewer_severity.csv", when=UNDER_DOUBLE_REVIEW)
DIVERGENT_RUNS = PublishedFile("divergent_runs.csv", when=UNDER_DOUBLE_REVIEW)

PUBLISHED = (
    PER_RUN_CONSOLIDATED,
    PENDING_RUNS,
    AGREEMENT,
    AGREEMENT_GRID,
    REVIEWER_SEVERITY,
    DIVERGENT_RUNS,
    PER_RUN,
    METRICS_PER_SUBJECT,
    METRICS_PER_FAMILY,
    COVERAGE,
    UNCERTAINTY,
    CRITERION_SCORES,
    INPUT_FILES,
    ANNOTATIONS,
    CHANGES_CSV,
    CHANGES_MD,
    CRITICAL_FAILS,
    LEADERBOARD_CSV,
    LEADERBOARD_HTML,
    LEADERBOARD_MD,
    LEADERBOARD_ES_HTML,
    METADATA,
    FINDINGS,
    FAMILY_HEATMAP,
    *CHARTS,
    *FINDINGS_REPORTS,
    OPERATIONAL_PER_SUBJECT,
    OPERATIONAL_PER_FAMILY,
)


def published_files(
    has_telemetry: bool, double_review: bool, annotated: bool = False
) -> list[PublishedFile]:
    """The files a run publishes: every ALWAYS one, the telemetry's with telemetry, the
    reviews' under double review, annotations.csv with subjects/annotations.yaml."""
    conditions = {
        ALWAYS: True,
        WITH_TELEMETRY: has_telemetry,
        UNDER_DOUBLE_REVIEW: double_review,
        WITH_ANNOTATIONS: annotated,
    }
    return [entry for entry in PUBLISHED if conditions[entry.when]]
