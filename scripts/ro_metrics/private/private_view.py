"""A private report as one view: what report.html, report.es.html and the PDF show of
one subject version, decided once, in no language (private_page.py prints it).

Built from the published data and the version's own scorings only:
- its row of the leaderboard's view (leaderboard_view.leaderboard_view over the
  published metrics_per_subject.csv, uncertainty.csv, leaderboard.csv's tracks and
  providers, metrics_per_family.csv and critical_fails.csv): status, rank and its
  interval, the five scores with their intervals, its families, its critical fails
  with their evidence;
- the top eligible versions' rows of the same view: their published aggregates only;
- per family, its pass rate against the pooled pass rate of every version (the sum of
  passes over the sum of runs of metrics_per_family.csv, as findings.md § 2 pools
  them) with its Wilson 95 % interval;
- its runs (its rows of per_run.csv), each with the criterion scores and the short
  criterion justifications and fails of its own scoring (public fields only:
  packet_zip.public_scoring).
Never another version's runs, responses or scorings: none is an input.
"""

from fractions import Fraction
from typing import NamedTuple

from ro_metrics.contracts.tables import rounded_exact
from ro_metrics.contracts.vocabulary import CRITERIA, CRITICAL
from ro_metrics.formulas.findings import wilson_95
from ro_metrics.formulas.metrics import calibration_bins, exact_pass_rate
from ro_metrics.leaderboard.leaderboard_view import LeaderboardRow, LeaderboardView
from ro_metrics.private.packet_zip import public_scoring

# How many of the top eligible versions the comparison shows.
TOP_VERSIONS = 5


class Criterion(NamedTuple):
    name: str  # vocabulary.CRITERIA
    score: int
    justification: str  # the short, public one


class Fail(NamedTuple):
    severity: str  # critical or recoverable
    fail_type: str  # generic or case_specific
    justification: str


class RunBreakdown(NamedTuple):
    """One of the version's scored runs (a row of per_run.csv and its scoring)."""

    case_id: str
    family: str
    run_id: str
    reviewer_id: str
    classification: str
    critical: bool
    raw_score: str
    clipped_score: str
    rubric_floor: str
    rubric_ceiling: str
    reported_confidence: str
    correctness: str
    criteria: list[Criterion]
    fails: list[Fail]

    @property
    def n_critical(self) -> int:
        return sum(fail.severity == CRITICAL for fail in self.fails)

    @property
    def n_recoverable(self) -> int:
        return len(self.fails) - self.n_critical


class FamilyLine(NamedTuple):
    """A family of the version against every version's runs of it pooled."""

    family: str
    n_runs: str
    n_pass: str
    pass_rate: str  # the version's, as published
    mean_clipped_score: str
    pooled_n_runs: int
    pooled_n_versions: int
    pooled_pass_rate: str  # 4 decimals, "" without runs
    pooled_low: str  # its Wilson 95 % interval
    pooled_high: str


class PrivateReport(NamedTuple):
    benchmark_version: str
    alpha: str
    inputs_digest: str
    row: LeaderboardRow  # the version's row of the leaderboard's view
    n_versions: int
    n_ranked: int
    comparison: LeaderboardView  # the top eligible rows (and the version's own, if not among them)
    families: list[FamilyLine]
    runs: list[RunBreakdown]  # in per_run.csv's order: by case, run, reviewer
    calibration: list  # its runs' ECE bins (metrics.calibration_bins): the diagram's

    @property
    def cases(self) -> list[tuple[str, list[RunBreakdown]]]:
        """The runs by case, in their order."""
        by_case: dict[str, list[RunBreakdown]] = {}
        for run in self.runs:
            by_case.setdefault(run.case_id, []).append(run)
        return list(by_case.items())


def four_decimals(value: Fraction | float) -> str:
    """A number as the published ones are written: 4 decimals, the shortest text."""
    return repr(rounded_exact(Fraction(value)))


def family_lines(own: list[dict[str, str]], every: list[dict[str, str]]) -> list[FamilyLine]:
    """The version's rows of metrics_per_family.csv, each with its family pooled over
    every version's row of it (every: the whole table)."""
    lines = []
    for row in own:
        rows = [other for other in every if other["family"] == row["family"]]
        n_runs = sum(int(other["n_runs"]) for other in rows)
        n_pass = sum(int(other["n_pass"]) for other in rows)
        rate = exact_pass_rate(n_pass, n_runs)
        interval = wilson_95(n_pass, n_runs)
        lines.append(
            FamilyLine(
                row["family"],
                row["n_runs"],
                row["n_pass"],
                row["pass_rate_family"],
                row["mean_clipped_score_family"],
                n_runs,
                len(rows),
                "" if rate is None else four_decimals(rate),
                "" if interval is None else repr(interval[0]),
                "" if interval is None else repr(interval[1]),
            )
        )
    return lines


def run_breakdown(row: dict[str, str], scoring: dict) -> RunBreakdown:
    """A row of per_run.csv with the public fields of its scoring."""
    public = public_scoring(scoring)
    scores = public["criterion_scores"]
    return RunBreakdown(
        case_id=row["case_id"],
        family=row["family"],
        run_id=row["run_id"],
        reviewer_id=row["reviewer_id"],
        classification=row["classification"],
        critical=row["has_critical_fail"] == "True",
        raw_score=row["raw_score"],
        clipped_score=row["clipped_score"],
        rubric_floor=row["rubric_floor"],
        rubric_ceiling=row["rubric_ceiling"],
        reported_confidence=row["reported_confidence"],
        correctness=row["correctness"],
        criteria=[
            Criterion(name, scores[name]["score"], scores[name]["justification"])
            for name in CRITERIA
        ],
        fails=[
            Fail(fail["severity"], fail["type"], fail["justification"])
            for fail in public["automatic_fails_triggered"]
        ],
    )


def scoring_key(scoring: dict) -> tuple[str, str, str]:
    ref = scoring["response_ref"]
    return ref["case_id"], ref["run_id"], scoring["reviewer_id"]


def private_report(
    view: LeaderboardView,
    subject_id: str,
    subject_version: str,
    *,
    per_run: list[dict[str, str]],
    scorings: list[dict],
    families: list[dict[str, str]],
    inputs_digest: str,
    counted: list[dict[str, str]],
    top: int = TOP_VERSIONS,
) -> PrivateReport:
    """The report of one version (module docstring): view, the leaderboard's view of
    the published data; per_run, its rows of per_run.csv; scorings, its scorings as
    decoded; families, every row of metrics_per_family.csv; counted, the runs its
    metrics count (its rows of per_run.csv, or of per_run_consolidated.csv under
    double review): the calibration's."""
    key = (subject_id, subject_version)
    rows = [row for row in view.rows if (row.subject_id, row.subject_version) == key]
    if len(rows) != 1:
        raise ValueError(f"{subject_id} {subject_version}: no row in metrics_per_subject.csv")
    row = rows[0]
    shown = [other for other in view.rows if other.eligible and not other.left_out][:top]
    if row not in shown:
        shown.append(row)
    by_key = {scoring_key(scoring): scoring for scoring in scorings}
    missing = [
        (run["case_id"], run["run_id"], run["reviewer_id"])
        for run in per_run
        if (run["case_id"], run["run_id"], run["reviewer_id"]) not in by_key
    ]
    if missing:
        raise ValueError(f"{subject_id} {subject_version}: no scoring for the runs {missing}")
    own_families = [
        family for family in families if (family["subject_id"], family["subject_version"]) == key
    ]
    return PrivateReport(
        benchmark_version=view.benchmark_version,
        alpha=view.alpha,
        inputs_digest=inputs_digest,
        row=row,
        n_versions=len(view.rows),
        n_ranked=view.n_ranked,
        comparison=view._replace(rows=shown, neighbours=None, operational=None, review=None),
        families=family_lines(own_families, families),
        runs=[
            run_breakdown(run, by_key[run["case_id"], run["run_id"], run["reviewer_id"]])
            for run in per_run
        ],
        calibration=calibration_bins(
            [int(run["reported_confidence"]) for run in counted],
            [float(run["correctness"]) for run in counted],
        ),
    )
