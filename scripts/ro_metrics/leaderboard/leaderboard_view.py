"""The leaderboard as one view (aggregated_metrics.md §7): what every rendering of it
shows, decided once, in no language. The page in each language (leaderboard_page.py),
leaderboard.md (leaderboard_markdown.py), the site's index (site/site_pages.py) and
leaderboard.csv (leaderboard_table) print this view; they decide only how it reads.

`leaderboard_view` builds it from the published data: the rows of
metrics_per_subject.csv in leaderboard order with their ranks (formulas/ranking.py),
each with its rank interval and tie group, its scores' 95 % intervals and its
critical-fail rate's bound (uncertainty.csv), its track and provider (the verdict's
registry), its critical fails with their evidence (critical_fails.csv), its families
(metrics_per_family.csv), its runs pending review (review_view.ReviewSummary, under
double review) and its neighbour test with the ranked row below (rankings.json); the
operational table (operational_per_subject.csv) when the corpus has telemetry; its
annotations (annotations.csv, shared/spec/lifecycle.md): a withdrawn or invalidated row
keeps its values, marked, with no rank, after the others.

Every number is a published text, with a dot: a renderer writes it with its
language's decimal mark (translations.Language.number). What a number's text cannot
say is a field of its own: a p-value or a cost below the shown resolution (then
written "< 0.0001" by the label of each language), an undefined interval ("").
"""

from decimal import Decimal
from fractions import Fraction
from typing import NamedTuple

from ro_metrics.contracts.files import read_json
from ro_metrics.contracts.records import (
    Annotation,
    NeighbourTest,
    read_partition_reviews,
    read_ranking_evidence,
    read_verdict,
)
from ro_metrics.contracts.tables import (
    AGREEMENT_COLUMNS,
    CRITICAL_FAIL_COLUMNS,
    DIVERGENT_RUN_COLUMNS,
    FAMILY_COLUMNS,
    OPERATIONAL_MEASURES,
    OPERATIONAL_SUBJECT_COLUMNS,
    PER_RUN_COLUMNS,
    SUBJECT_COLUMNS,
    assembled_table,
    decimal_text,
    format_metric,
    p_value_text,
    read_annotations,
    read_per_run,
    read_table,
    read_uncertainty,
    rounded_exact,
    share_percent_text,
)
from ro_metrics.contracts.vocabulary import ELIGIBLE
from ro_metrics.formulas.operational import cost_per_case
from ro_metrics.formulas.ranking import left_out, ranked, tie_groups, with_rank_intervals
from ro_metrics.leaderboard.review_view import (
    PendingCounts,
    ProvisionalRange,
    ReviewSummary,
    provisional_ranges,
    review_summary,
)

# The scores of a row, in the order every rendering shows them.
SCORES = ("q_final", "pass_rate", "mean_clipped_score", "brier", "ece")
# The cost per case is shown to 4 decimals (1/100 of a cent); p-values by
# tables.p_value_text.
PLACES = 4
RESOLUTION = Fraction(1, 10**PLACES)
# What leaderboard.csv says of a version with no run pending its review.
NO_PENDING = PendingCounts(0, 0, False)


class Score(NamedTuple):
    """A score of a row: its published text and its 95 % interval (uncertainty.csv),
    ("", "") when it has none."""

    value: str
    ci_low: str
    ci_high: str


class Shown(NamedTuple):
    """A number shown to 4 decimals: its text; or, when it rounds to 0 though it is
    not 0 (a p-value never is; a cost may be), below=True and the resolution as text,
    "0.0001", which the renderings write "< 0.0001" (label p_below or
    below_cost_resolution)."""

    text: str
    below: bool


class Neighbour(NamedTuple):
    """The neighbour test of two adjacent ranked versions (rankings.json's
    records.NeighbourTest), as shown."""

    upper: tuple[str, str]  # (subject_id, subject_version)
    lower: tuple[str, str]
    n_common: int
    separable: bool
    delta: str  # ΔQ_final, upper − lower, 4 decimals; "" when they share no case
    ci_low: str  # its 95 % bootstrap interval, "" when undefined
    ci_high: str
    p_value: Shown
    p_holm: Shown  # Holm-adjusted


class Registered(NamedTuple):
    """A subject's public registry fields (the verdict's), None where it has none."""

    subject_id: str
    kind: str | None
    provider: str | None
    description: str | None


class LeaderboardRow(NamedTuple):
    """A subject version's row of the ranking, with everything shown of it."""

    index: int  # its place in the ranking (the page's anchors: subject-<index>)
    subject_id: str
    subject_version: str
    registered: Registered
    provider: str  # the registry's, "" when it names none
    track: str
    status: str  # leaderboard_status as published (Eligible, Disqualified)
    eligible: bool
    rank: str  # "" for a Disqualified row (unranked)
    rank_low: str  # the rank's 95 % bootstrap interval, "" when it has none
    rank_high: str
    # The share of bootstrap replicates in which it ranks first (uncertainty.csv's
    # p_rank_1, as published), "" when it has none (unranked).
    p_rank_1: str
    tie_group: int | None  # None when unranked or without a rank interval
    group_start: bool  # the first row of its tie group
    q_final: Score
    pass_rate: Score
    mean_clipped_score: Score
    brier: Score
    ece: Score
    n_runs: str
    n_pass: str
    n_conditional: str
    n_fail: str
    n_critical_fails: str
    critical_rate_high: str  # the 95 % upper bound of its critical-fail rate, or ""
    fails: list[dict[str, str]]  # its rows of critical_fails.csv, in the file's order
    families: list[dict[str, str]]  # its rows of metrics_per_family.csv
    largest_family: int  # runs of its largest family (0 without families)
    pending: PendingCounts | None  # its runs pending review; None when it has none
    neighbour: Neighbour | None  # a ranked row's test with the ranked row below it
    # Provisional (runs pending review): the range of its Q_final and gate once they are
    # reviewed; None when it has no run pending.
    provisional: ProvisionalRange | None = None
    # The committee's annotations of the row, in the file's order (lifecycle.md).
    annotations: tuple[Annotation, ...] = ()
    # Withdrawn or invalidated: shown, marked, unranked, in no active comparison.
    left_out: bool = False

    @property
    def p_rank_1_percent(self) -> str:
        """p_rank_1 as a whole percentage, the number only ("58"; "" without one):
        tables.share_percent_text, the one rounding of a bootstrap share on every page."""
        return share_percent_text(self.p_rank_1) if self.p_rank_1 else ""

    @property
    def scores(self) -> list[tuple[str, Score]]:
        """(name, score) of its five scores, in the order of SCORES."""
        return [(name, getattr(self, name)) for name in SCORES]


class Operational(NamedTuple):
    """A version's operational columns (operational_per_subject.csv) as shown."""

    numbers: list[str]  # n_runs, mean input and output tokens, their ratio, median and p95 latency
    prices: list[str]  # USD per million tokens, input and output; "" when unknown
    cost: Shown | None  # USD per case, 4 decimals; None when a price is unknown


class OperationalLine(NamedTuple):
    row: LeaderboardRow
    values: Operational | None  # None for a version without telemetry


class OperationalTable(NamedTuple):
    """The operational table: a line per row of the ranking, in its order, and the
    versions with telemetry but no row in the ranking (no scored run)."""

    lines: list[OperationalLine]
    not_ranked: list[tuple[str, str]]


class LeaderboardView(NamedTuple):
    """The leaderboard as every rendering shows it (module docstring)."""

    benchmark_version: str  # stated once: every number is of this version
    alpha: str  # the Q_final weight, as a number's text ("0.5")
    last_update: str  # the newest scoring timestamp (the pages hold no clock)
    rows: list[LeaderboardRow]  # in leaderboard order
    subjects: list[Registered]  # each subject of the rows once, in their order
    neighbours: list[Neighbour] | None  # every test, in leaderboard order; None: no tests
    operational: OperationalTable | None  # None without telemetry
    review: ReviewSummary | None  # under double review: the agreement line, pending counts

    @property
    def n_ranked(self) -> int:
        return sum(bool(row.rank) for row in self.rows)

    @property
    def annotated(self) -> list[LeaderboardRow]:
        """The rows with an annotation, in leaderboard order."""
        return [row for row in self.rows if row.annotations]

    @property
    def disqualified(self) -> list[LeaderboardRow]:
        return [row for row in self.rows if not row.eligible]


def exact_decimal(text: str) -> str:
    """An exact "num/den" fraction of a record, rounded half-even to 4 decimals and
    written as the published numbers are (shortest text: 0.0812, 0.25)."""
    return repr(rounded_exact(Fraction(text)))


def p_value_shown(text: str) -> Shown:
    """A p-value ("num/den") as every page writes it (tables.p_value_text: two
    significant digits, so an exact 3.1e-6 reads 0.0000031, never below a resolution)."""
    return Shown(p_value_text(Fraction(text)), False)


def per_million_tokens(price: str) -> str:
    """A unit price per token (10 decimals) as USD per million tokens, exactly: at least
    two decimals, no trailing zeros beyond (0.0000010000 → 1.00, 0.0000000750 → 0.075)."""
    value = (Decimal(price) * 10**6).quantize(Decimal("0.0001"))
    shown = f"{value:f}".rstrip("0")
    whole, _, decimals = shown.partition(".")
    return f"{whole}.{decimals.ljust(2, '0')}"


def cost_shown(row: dict[str, str]) -> Shown | None:
    """Cost per case (formulas.operational.cost_per_case) in USD to 4 decimals (rounded
    half-even); below 0.0001 when it rounds to 0 but is not 0; None when unknown."""
    cost = cost_per_case(row)
    if cost is None:
        return None
    if round(cost, PLACES) == 0 and cost > 0:
        return Shown(decimal_text(RESOLUTION, PLACES), True)
    return Shown(decimal_text(cost, PLACES), False)


# The prices are shown per million tokens; the other measures as published.
PRICES = ("price_per_input_token_usd", "price_per_output_token_usd")
OPERATIONAL_NUMBERS = tuple(name for name in OPERATIONAL_MEASURES if name not in PRICES)


def operational_values(row: dict[str, str]) -> Operational:
    """A row of operational_per_subject.csv as the operational table shows it."""
    return Operational(
        [row[name] for name in OPERATIONAL_NUMBERS],
        [per_million_tokens(row[name]) if row[name] else "" for name in PRICES],
        cost_shown(row),
    )


def operational_table(rows: list[LeaderboardRow], operational) -> OperationalTable:
    """The operational table beside the ranking: one line per row, in the ranking's
    order, joined by (subject_id, subject_version)."""
    by_version = {(row["subject_id"], row["subject_version"]): row for row in operational}
    lines = []
    for row in rows:
        found = by_version.get((row.subject_id, row.subject_version))
        lines.append(OperationalLine(row, None if found is None else operational_values(found)))
    shown = {(row.subject_id, row.subject_version) for row in rows}
    not_ranked = [
        (row["subject_id"], row["subject_version"])
        for row in operational
        if (row["subject_id"], row["subject_version"]) not in shown
    ]
    return OperationalTable(lines, not_ranked)


def neighbour(test: NeighbourTest) -> Neighbour:
    undefined = test.ci_low is None
    return Neighbour(
        upper=(test.upper_subject_id, test.upper_subject_version),
        lower=(test.lower_subject_id, test.lower_subject_version),
        n_common=test.n_common_cases,
        separable=test.separable,
        delta=exact_decimal(test.delta_q_final) if test.delta_q_final else "",
        ci_low="" if undefined else format_metric(test.ci_low),
        ci_high="" if undefined else format_metric(test.ci_high),
        p_value=p_value_shown(test.p_value),
        p_holm=p_value_shown(test.p_holm),
    )


def score(uncertainty, key: tuple[str, str], name: str, value: str) -> Score:
    entry = uncertainty.get((*key, name)) or {}
    return Score(value, entry.get("ci_low", ""), entry.get("ci_high", ""))


def leaderboard_view(
    *,
    benchmark_version: str,
    alpha,
    last_update: str,
    subjects: list[dict[str, str]],
    uncertainty: dict,
    tracks: dict[tuple[str, str], str],
    registry: dict[str, dict],
    families: list[dict[str, str]],
    critical_fails: list[dict[str, str]],
    operational: list[dict[str, str]] | None = None,
    neighbours: list[NeighbourTest] | None = None,
    review: ReviewSummary | None = None,
    provisional: dict[tuple[str, str], ProvisionalRange] | None = None,
    annotations: list[dict[str, str]] = (),
) -> LeaderboardView:
    """The view (module docstring) from: the rows of metrics_per_subject.csv (subjects),
    of uncertainty.csv (tables.read_uncertainty), the tracks and registry of the
    verdict, the rows of metrics_per_family.csv and critical_fails.csv; the rows of
    operational_per_subject.csv, None without telemetry; the neighbour tests of
    rankings.json, None for none; the review summary, None with one reviewer per run;
    the provisional range of each version with runs pending review; the rows of
    annotations.csv (withdrawn and invalidated versions unranked, last)."""
    left = left_out(annotations)
    annotations_of = {}
    for entry in annotations:
        annotation = Annotation(**entry)
        annotations_of.setdefault(annotation.key, []).append(annotation)
    ordered = with_rank_intervals(ranked(subjects, left), uncertainty)
    groups = tie_groups(ordered)
    fails_of, families_of = {}, {}
    for fail in critical_fails:
        fails_of.setdefault((fail["subject_id"], fail["subject_version"]), []).append(fail)
    for family in families:
        families_of.setdefault((family["subject_id"], family["subject_version"]), []).append(family)
    tests = None if neighbours is None else [neighbour(test) for test in neighbours]
    # A test is shown under its upper row when both its versions have a row.
    keys = {(row["subject_id"], row["subject_version"]) for row in ordered}
    below = {test.upper: test for test in tests or [] if test.upper in keys and test.lower in keys}
    pending = {} if review is None else review.pending
    registered, rows = {}, []
    for index, (row, group) in enumerate(zip(ordered, groups, strict=True)):
        key = (row["subject_id"], row["subject_version"])
        entry = registry.get(row["subject_id"]) or {}
        subject = registered.setdefault(
            row["subject_id"],
            Registered(
                row["subject_id"],
                entry.get("kind"),
                entry.get("provider"),
                entry.get("description"),
            ),
        )
        eligible = row["leaderboard_status"] == ELIGIBLE
        critical_bound = uncertainty.get((*key, "critical_fail_rate")) or {}
        own_families = families_of.get(key, [])
        rows.append(
            LeaderboardRow(
                index=index,
                subject_id=row["subject_id"],
                subject_version=row["subject_version"],
                registered=subject,
                provider=subject.provider or "",
                track=tracks[key],
                status=row["leaderboard_status"],
                eligible=eligible,
                rank=row["rank"],
                rank_low=row["rank_low"],
                rank_high=row["rank_high"],
                p_rank_1=(uncertainty.get((*key, "p_rank_1")) or {}).get("estimate", "")
                if eligible
                else "",
                tie_group=group,
                group_start=group is not None and group != (groups[index - 1] if index else None),
                **{name: score(uncertainty, key, name, row[name]) for name in SCORES},
                n_runs=row["n_runs"],
                n_pass=row["n_pass"],
                n_conditional=row["n_conditional"],
                n_fail=row["n_fail"],
                n_critical_fails=row["n_critical_fails"],
                critical_rate_high=critical_bound.get("ci_high", ""),
                fails=fails_of.get(key, []),
                families=own_families,
                largest_family=max((int(family["n_runs"]) for family in own_families), default=0),
                pending=pending.get(key),
                neighbour=below.get(key) if eligible else None,
                provisional=(provisional or {}).get(key),
                annotations=tuple(annotations_of.get(key, ())),
                left_out=key in left,
            )
        )
    return LeaderboardView(
        benchmark_version=benchmark_version,
        alpha=repr(float(alpha)),
        last_update=last_update,
        rows=rows,
        subjects=list(registered.values()),
        neighbours=tests,
        operational=None if operational is None else operational_table(rows, operational),
        review=review,
    )


def read_leaderboard_view(files, *, benchmark_version: str, alpha) -> LeaderboardView:
    """The view from the files the steps staged for publish (each table's partitions
    assembled as publish assembles them): the one reading of them for every rendering.
    files: the rule's input (rules leaderboard and front_pages name them alike), with
    the paths verdict, metadata, uncertainty, rankings, operational, agreement,
    divergent, annotations, and the partitions' metrics_per_subject, metrics_per_family,
    critical_fails, reviews, counted (the provisional ranges)."""
    checked = read_verdict(files.verdict)
    pending = [run for path in files.reviews for run in read_partition_reviews(path).pending]
    subjects = assembled_table(files.metrics_per_subject, SUBJECT_COLUMNS)
    provisional = None
    if pending:
        # The counted runs of the versions with runs pending: their provisional range.
        keys = {(run.subject_id, run.subject_version) for run in pending}
        counted = read_per_run(files.counted)
        counted_rows = [
            dict(zip(PER_RUN_COLUMNS, record, strict=True))
            for record in counted.records
            if (record[0], record[1]) in keys
        ]
        statuses = {
            (row["subject_id"], row["subject_version"]): row["leaderboard_status"]
            for row in subjects
        }
        provisional = provisional_ranges(counted_rows, pending, alpha, statuses)
    return leaderboard_view(
        benchmark_version=benchmark_version,
        alpha=alpha,
        last_update=read_json(files.metadata)["newest_scoring_utc"],
        subjects=subjects,
        uncertainty=read_uncertainty(files.uncertainty),
        tracks={(subject_id, version): track for subject_id, version, track in checked.tracks},
        registry=checked.subjects,
        families=assembled_table(files.metrics_per_family, FAMILY_COLUMNS),
        critical_fails=assembled_table(files.critical_fails, CRITICAL_FAIL_COLUMNS),
        # Without telemetry the operational step writes the header only: no table.
        operational=read_table(files.operational, OPERATIONAL_SUBJECT_COLUMNS)
        if checked.has_telemetry
        else None,
        neighbours=read_ranking_evidence(files.rankings).neighbours,
        # None when no run has two primaries and none is pending.
        review=review_summary(
            read_table(files.agreement, AGREEMENT_COLUMNS),
            read_table(files.divergent, DIVERGENT_RUN_COLUMNS),
            pending,
        ),
        provisional=provisional,
        annotations=read_annotations(files.annotations),
    )


def leaderboard_table(view: LeaderboardView) -> list[list]:
    """The rows of leaderboard.csv with every column (tables.LEADERBOARD_ALL_COLUMNS;
    the pending counts and provisional range are published under double review only,
    the annotations with annotations): each row's published texts, its provider and
    track, the benchmark version, its runs pending review, its provisional range, its
    annotations."""
    return [
        [
            row.rank,
            row.rank_low,
            row.rank_high,
            row.p_rank_1,
            row.subject_id,
            row.subject_version,
            row.provider,
            row.track,
            *(value.value for _, value in row.scores),
            row.n_runs,
            row.n_pass,
            row.n_conditional,
            row.n_fail,
            row.n_critical_fails,
            row.status,
            view.benchmark_version,
            *(row.pending or NO_PENDING),
            *provisional_cells(row.provisional),
            annotations_text(row.annotations),
        ]
        for row in view.rows
    ]


def provisional_cells(provisional: ProvisionalRange | None) -> list[str]:
    """leaderboard.csv's provisional columns: Q_final's range once the pending runs are
    reviewed and the statuses it could then have (";"-joined); empty when none."""
    if provisional is None:
        return ["", "", ""]
    return [provisional.q_final_low, provisional.q_final_high, ";".join(provisional.statuses)]


def annotations_text(annotations) -> str:
    """leaderboard.csv's annotations cell: "<label> <date>: <note> <link>" of each, in
    order, joined by " | "; "" for none."""
    return " | ".join(
        f"{a.label} {a.date}: {a.note}" + (f" {a.link}" if a.link else "") for a in annotations
    )
