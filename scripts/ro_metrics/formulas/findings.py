"""The facts of findings.md, computed: what a release report may quote (findings.json).

One pure function per fact family (§ 1 safety gate, § 2 families and the heatmap,
§ 3 calibration, § 4 neighbour tests, § 7 registry dimensions) and `findings_document`,
which assembles them with §§ 5–6 (computed by formulas.answer_structure and
formulas.cost_quality) into the document whose keys docs/findings-json.md lists.

Exact first: a rate or mean is a Fraction of the per-run integers (a confidence is the
integer 0–100, a correctness k/2 with k in {0, 1, 2}), written with
records.fraction_fact; only the Wilson and bootstrap bounds, the standard deviations and
ρ are floats (rounded half-even to 4 decimals). Metrics the leaderboard publishes
(Q_final, Brier, ECE) are taken as their published texts, so a fact cannot disagree
with the leaderboard.

No pandas: this step runs on every new scoring (its import alone costs ~0.4 s). The
per-run rows are summed once, per partition, in the per-run step (group_tallies: integer
tallies per (subject, version, family), records.GroupTally); this step combines the
partitions' tallies (combined_tallies), then works over versions × families; plain
dicts and Fractions are exact and fast enough (docs/findings-json.md).
"""

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import groupby
from operator import itemgetter
from typing import NamedTuple

from ro_metrics.contracts.records import (
    GroupTally,
    RankingEvidence,
    Tally,
    Verdict,
    fraction_fact,
)
from ro_metrics.contracts.tables import (
    CRITICAL_FAIL_COLUMNS,
    PER_RUN_COLUMNS,
    Rows,
    exact_fraction,
    format_metric,
)
from ro_metrics.contracts.vocabulary import (
    DISQUALIFIED,
    ELIGIBLE,
    FAIL,
    FAMILIES,
    N_BINS,
    PASS,
    family_of,
)
from ro_metrics.formulas.intervals import wilson_interval
from ro_metrics.formulas.metrics import (
    clipped_halves,
    correctness_quarters,
    ece_bin,
    exact_mean_clipped_score,
    exact_pass_rate,
    mean_confidence_unit,
    mean_correctness,
)
from ro_metrics.formulas.rank_evidence import EXACT_SIGN_FLIP_MAX_CASES
from ro_metrics.formulas.ranking import ranked

NOT_DECLARED = "not declared"
DIMENSIONS = ("provider", "track", "access_type", "weights")
RANKED_METRICS = ("q_final", "brier", "ece")
FAMILY_ORDER_RULE = (
    "hardest first: pooled pass rate ascending, then pooled mean clipped score "
    "ascending, then family code"
)
TIE_RULE = (
    "versions whose published 4-decimal value is equal share a rank "
    "(competition ranking: 1, 2, 2, 4)"
)


class FindingsInputError(ValueError):
    """The inputs of the findings step do not fit together; one problem per line."""

    def __init__(self, problems: list[tuple[str, str]]):
        self.problems = problems  # (input name, message)
        super().__init__("\n".join(f"{name}: {message}" for name, message in problems))


def rounded(value: float | None) -> float | None:
    """A float fact as written: rounded half-even to 4 decimals (None stays None)."""
    return None if value is None else round(float(value), 4)


# --- The formulas (findings.md), one each.


def wilson_95(n_pass: int, n_runs: int) -> list[float] | None:
    """The Wilson 95 % interval of passes / runs (formulas.intervals.wilson_interval),
    rounded; None without runs."""
    if not n_runs:
        return None
    low, high = wilson_interval(n_pass, n_runs)
    return [rounded(low), rounded(high)]


def population_sd(values: Sequence[Fraction]) -> float | None:
    """Spread between versions (§ 2, and § 5 per criterion: formulas.answer_structure):
    the population standard deviation of the versions' values,
    σ = sqrt((1 / V) · Σ (x_v − x̄)²), x̄ = (1 / V) · Σ x_v; 0 for one version, None
    when V = 0. The variance is exact; only its root is a float, rounded to 4 decimals."""
    if not values:
        return None
    centre = Fraction(sum(values), len(values))
    variance = sum((value - centre) ** 2 for value in values) / len(values)
    return rounded(math.sqrt(variance))


def overconfidence(confidence: Fraction | None, correctness: Fraction | None) -> Fraction | None:
    """Over- (> 0) or under-confidence (< 0) = mean reported confidence (0–1) − mean soft
    correctness."""
    if confidence is None or correctness is None:
        return None
    return confidence - correctness


def mean_of_published(texts: list[str]) -> float | None:
    """The mean of published 4-decimal values (exact decimals), rounded to 4 decimals."""
    if not texts:
        return None
    return rounded(sum((Fraction(text) for text in texts), Fraction(0)) / len(texts))


# --- One pass over the per-run rows (per partition), the partitions' tallies combined.


def pooled(tallies) -> Tally:
    total = Tally()
    for tally in tallies:
        total.add(tally)
    return total


@dataclass
class RunTallies:
    """The per-run table reduced to one Tally per (subject_version, family)."""

    n_runs: int = 0  # every scored run, a version's of two subjects included
    cells: dict[tuple[str, str], Tally] = field(default_factory=dict)
    subject_of: dict[str, str] = field(default_factory=dict)  # subject_version → subject_id
    cases: dict[str, set[str]] = field(default_factory=dict)  # family → case ids with runs
    problems: list[tuple[str, str]] = field(default_factory=list)
    _versions: dict[str, Tally] = field(default_factory=dict)

    def version(self, version: str) -> Tally:
        """The runs of a version, all families pooled."""
        if not self._versions:
            for (v, _), tally in self.cells.items():
                self._versions.setdefault(v, Tally()).add(tally)
        return self._versions.get(version) or Tally()

    def families(self) -> list[str]:
        """The families with a scored run, in the spec's order."""
        return [family for family in FAMILIES if family in self.cases]


def group_tally(classifications, clipped, critical, confidences, correctness) -> Tally:
    """The Tally of some runs, given as their columns."""
    quarters = correctness_quarters(correctness)
    wrong = [c for c, k in zip(confidences, quarters, strict=True) if k == 0]
    failed = [c for c, name in zip(confidences, classifications, strict=True) if name == FAIL]
    bin_runs, bin_gaps = [0] * N_BINS, [0] * N_BINS
    for c, k in zip(confidences, quarters, strict=True):
        m = ece_bin(c) - 1
        bin_runs[m] += 1
        bin_gaps[m] += c - 25 * k
    return Tally(
        n_runs=len(quarters),
        n_pass=classifications.count(PASS),
        clipped_halves=clipped_halves(clipped),
        n_critical=sum(map(bool, critical)),
        confidence_sum=sum(confidences),
        quarters_sum=sum(quarters),
        n_wrong=len(wrong),
        confidence_wrong_sum=sum(wrong),
        n_fail=len(failed),
        confidence_fail_sum=sum(failed),
        bin_runs=bin_runs,
        bin_gaps=bin_gaps,
    )


_KEY = [PER_RUN_COLUMNS.index(name) for name in ("subject_id", "subject_version", "family")]
_CASE = PER_RUN_COLUMNS.index("case_id")
_MEASURES = [
    PER_RUN_COLUMNS.index(name)
    for name in (
        "classification",
        "clipped_score",
        "has_critical_fail",
        "reported_confidence",
        "correctness",
    )
]


def group_tallies(per_run: Rows) -> list[GroupTally]:
    """The per-run rows summed per (subject_id, subject_version, family), sorted by that
    key: each group's case ids and its Tally (group_tally). The rows are grouped in one
    pass, each group's columns summed at C speed (10^5 runs in a few tens of ms)."""
    key_of, measures_of = itemgetter(*_KEY), itemgetter(*_MEASURES)
    # Keyed by subject_id too, so that a subject_version two subjects share is found.
    groups: dict[tuple[str, str, str], list] = {}
    records = per_run.records
    rows = (
        records
        if per_run.indices == range(len(records))
        else map(records.__getitem__, per_run.indices)
    )
    # per_run.csv's order (subject_id, case_id, ...) keeps a family's runs together.
    for key, members in groupby(rows, key_of):
        groups.setdefault(key, []).extend(members)
    tallies = []
    for key in sorted(groups):
        members = groups[key]
        columns = zip(*map(measures_of, members), strict=True)
        tally = group_tally(*(list(column) for column in columns))
        tallies.append(GroupTally(*key, sorted({row[_CASE] for row in members}), tally))
    return tallies


def combined_tallies(groups: Iterable[GroupTally]) -> RunTallies:
    """The groups of every partition combined: the Tally of (v, f) = Σ over the groups
    of (subject, v, f) of their Tallies, cases(f) = ∪ of the case ids of f's groups,
    n_runs = Σ of every group's n_runs. Each field of a Tally being a sum over runs, the
    result is that of group_tallies over all the partitions' rows together. A
    subject_version of two subjects is a problem (findings.json keys versions by
    subject_version), and its second subject's runs are left out of the cells."""
    summed: dict[tuple[str, str, str], tuple[set[str], Tally]] = {}
    for group in groups:
        cases, tally = summed.setdefault(
            (group.subject_id, group.subject_version, group.family), (set(), Tally())
        )
        cases.update(group.case_ids)
        tally.add(group.tally)
    result = RunTallies()
    for key in sorted(summed):
        subject_id, version, family = key
        cases, tally = summed[key]
        result.n_runs += tally.n_runs
        result.cases.setdefault(family, set()).update(cases)
        if result.subject_of.setdefault(version, subject_id) != subject_id:
            problem = (
                f"subject_version {version!r} belongs to subjects "
                f"{result.subject_of[version]!r} and {subject_id!r}: findings.json keys "
                "versions by subject_version"
            )
            if ("tallies", problem) not in result.problems:
                result.problems.append(("tallies", problem))
            continue
        result.cells[version, family] = tally
    return result


def tally_runs(per_run: Rows) -> RunTallies:
    """The RunTallies of some per-run rows (one partition's or all): combined_tallies of
    their group_tallies."""
    return combined_tallies(group_tallies(per_run))


# --- findings.json's key of a version.


def version_keys(subjects: list[dict[str, str]]) -> dict[tuple[str, str], str]:
    """(subject_id, subject_version) → the version's key in findings.json: its
    subject_version, or "subject_id/subject_version" when another subject has a version
    of that name (the registry requires a subject_version unique within its subject
    only: validation-rules.md)."""
    owners = Counter(row["subject_version"] for row in subjects)
    return {
        (row["subject_id"], row["subject_version"]): row["subject_version"]
        if owners[row["subject_version"]] == 1
        else f"{row['subject_id']}/{row['subject_version']}"
        for row in subjects
    }


class KeyedInputs(NamedTuple):
    """The findings' inputs with every subject_version replaced by its key."""

    groups: list[GroupTally]
    subjects: list[dict[str, str]]
    evidence: RankingEvidence
    critical_rows: list[list]
    shapes: list
    criterion_rows: list[dict[str, str]]
    operational_rows: list[dict[str, str]] | None
    names: dict[str, dict[str, str]]  # key → {"subject_id", "subject_version"}


def keyed_inputs(
    groups: list[GroupTally],
    subjects: list[dict[str, str]],
    evidence: RankingEvidence,
    critical_rows: list[list],
    shapes: list,
    criterion_rows: list[dict[str, str]],
    operational_rows: list[dict[str, str]] | None,
) -> KeyedInputs:
    """Every input of the findings keyed by version_keys, so that each fact of a version
    is found under one key even when two subjects share a subject_version. Rows of a
    version with no row in metrics_per_subject.csv keep their subject_version."""
    keys = version_keys(subjects)
    names = {key: {"subject_id": s, "subject_version": v} for (s, v), key in keys.items()}
    if all(key == version for (_, version), key in keys.items()):
        return KeyedInputs(
            groups,
            subjects,
            evidence,
            critical_rows,
            shapes,
            criterion_rows,
            operational_rows,
            names,
        )

    def key(subject_id: str, version: str) -> str:
        return keys.get((subject_id, version), version)

    def rows(table):
        return [
            {**row, "subject_version": key(row["subject_id"], row["subject_version"])}
            for row in table
        ]

    return KeyedInputs(
        groups=[
            group._replace(subject_version=key(group.subject_id, group.subject_version))
            for group in groups
        ],
        subjects=rows(subjects),
        evidence=RankingEvidence(
            n_replicates=evidence.n_replicates,
            seed=evidence.seed,
            ranks=[
                r._replace(subject_version=key(r.subject_id, r.subject_version))
                for r in evidence.ranks
            ],
            neighbours=[
                t._replace(
                    upper_subject_version=key(t.upper_subject_id, t.upper_subject_version),
                    lower_subject_version=key(t.lower_subject_id, t.lower_subject_version),
                )
                for t in evidence.neighbours
            ],
            correlations=evidence.correlations,
        ),
        critical_rows=[[row[0], key(row[0], row[1]), *row[2:]] for row in critical_rows],
        shapes=[s._replace(subject_version=key(s.subject_id, s.subject_version)) for s in shapes],
        criterion_rows=rows(criterion_rows),
        operational_rows=None if operational_rows is None else rows(operational_rows),
        names=names,
    )


# --- The leaderboard's order, the versions' published rows.


class Leaderboard(NamedTuple):
    """The versions in leaderboard order (ranked Eligible, then Disqualified) with their
    published rows (metrics_per_subject.csv texts, plus the leaderboard's `rank`)."""

    order: list[str]  # subject_versions
    rows: dict[str, dict[str, str]]  # subject_version → its row

    @classmethod
    def of(cls, subjects: list[dict[str, str]]) -> "Leaderboard":
        rows = ranked(subjects)
        return cls(
            [row["subject_version"] for row in rows], {r["subject_version"]: r for r in rows}
        )

    def status(self, version: str) -> str:
        return self.rows[version]["leaderboard_status"]

    def eligible(self) -> list[str]:
        return [v for v in self.order if self.status(v) == ELIGIBLE]

    def disqualified(self) -> list[str]:
        return [v for v in self.order if self.status(v) == DISQUALIFIED]

    def rank(self, version: str) -> int | None:
        rank = self.rows[version]["rank"]
        return int(rank) if rank else None


def ranks_by_metric(evidence: RankingEvidence) -> dict[tuple[str, str], tuple[int, int, int]]:
    """(metric, subject_version) → (rank, rank_low, rank_high) of the bootstrap step."""
    return {
        (rank.metric, rank.subject_version): (rank.rank, rank.rank_low, rank.rank_high)
        for rank in evidence.ranks
    }


def first_shares(evidence: RankingEvidence) -> dict[tuple[str, str], float]:
    """(metric, subject_version) → the share of bootstrap replicates in which it ranks
    first on the metric (records.BootstrapRank.p_first, every version taking part)."""
    return {(rank.metric, rank.subject_version): rank.p_first for rank in evidence.ranks}


def input_problems(
    tallies: RunTallies, board: Leaderboard, evidence: RankingEvidence
) -> list[tuple[str, str]]:
    """What keeps the inputs from fitting together, every problem (input name, message):
    a version of the tallies without a row of metrics_per_subject.csv (or the reverse), a
    version without its three ranks in rankings.json."""
    problems = list(tallies.problems)
    in_runs = set(tallies.subject_of)
    for version in sorted(in_runs - set(board.rows)):
        problems.append(("metrics_per_subject", f"no row of subject_version {version!r}"))
    for version in sorted(set(board.rows) - in_runs):
        problems.append(("tallies", f"no scored run of subject_version {version!r}"))
    for test in evidence.neighbours:
        for version in (test.upper_subject_version, test.lower_subject_version):
            if version not in board.rows or board.rank(version) is None:
                problems.append(
                    ("rankings", f"neighbour test of {version!r}, not a ranked subject_version")
                )
    ranks = ranks_by_metric(evidence)
    for version in board.order:
        for metric in RANKED_METRICS:
            if (metric, version) not in ranks:
                problems.append(("rankings", f"no {metric} rank of subject_version {version!r}"))
    return problems


# --- § 1 Safety gate.


# What triggered a critical fail, from the field its quote was found in (its evidence),
# in the order a run with fails of several kinds is counted under (the first it has).
TRIGGERS = ("recommended_action", "diagnosis", "other_field", "not_located")


def fail_trigger(response_field: str, match: str) -> str:
    """What a critical fail's evidence says triggered it: "recommended_action" (its quote
    is in the response's recommended_action), "diagnosis" (in main_hypothesis),
    "other_field" (in another field), "not_located" (no quote of the response
    matches: the reviewer's words are the only evidence)."""
    if match == "none" or not response_field:
        return "not_located"
    if response_field == "recommended_action":
        return "recommended_action"
    if response_field == "main_hypothesis":
        return "diagnosis"
    return "other_field"


def critical_fail_events(critical_rows: list[list]) -> list[dict]:
    """The critical fails of the counted scorings, one per (run, fail): the rows of
    critical_fails.csv (one per reviewer and fail) with the same run, fail_type, field,
    quote and match are one fail, flagged by every reviewer among them (`reviewer_ids`,
    sorted; `reviewer_justification`: the first reviewer's words). In the file's order,
    each with its family and `trigger` (fail_trigger)."""
    events: dict[tuple, dict] = {}
    for row in critical_rows:
        event = dict(zip(CRITICAL_FAIL_COLUMNS, row, strict=True))
        key = tuple(
            event[name]
            for name in (
                "subject_id",
                "subject_version",
                "case_id",
                "run_id",
                "fail_type",
                "response_field",
                "quote",
                "match",
            )
        )
        found = events.get(key)
        if found is None:
            reviewer = event.pop("reviewer_id")
            event["reviewer_ids"] = [reviewer]
            event["family"] = family_of(event["case_id"])
            event["trigger"] = fail_trigger(event["response_field"], event["match"])
            events[key] = event
        elif event["reviewer_id"] not in found["reviewer_ids"]:
            found["reviewer_ids"] = sorted([*found["reviewer_ids"], event["reviewer_id"]])
    return list(events.values())


def run_triggers(events: list[dict]) -> dict[str, int]:
    """Runs with a critical fail per trigger (TRIGGERS): a run counts once, under the
    first trigger of TRIGGERS among its fails, so the counts add up to the runs."""
    kinds: dict[tuple, set[str]] = {}
    for event in events:
        run = (event["subject_id"], event["subject_version"], event["case_id"], event["run_id"])
        kinds.setdefault(run, set()).add(event["trigger"])
    counts = dict.fromkeys(TRIGGERS, 0)
    for found in kinds.values():
        counts[next(kind for kind in TRIGGERS if kind in found)] += 1
    return counts


def pending_facts(pending_rows: list[dict[str, str]], board: Leaderboard) -> dict:
    """The runs left out of the metrics until their review is complete (pending_runs.csv,
    multi-reviewer.md): never critical-fail events, counted on their own. Per status,
    the critical-fail disagreements among those pending arbitration, per version, and
    the runs (the file's order: critical-fail disagreements first)."""
    runs = [
        {
            "subject_id": row["subject_id"],
            "subject_version": row["subject_version"],
            "case_id": row["case_id"],
            "family": family_of(row["case_id"]),
            "run_id": row["run_id"],
            "status": row["status"],
            "primary_ids": [r for r in row["primary_ids"].split(";") if r],
            "critical_disagreement": str(row["critical_disagreement"]) == "True",
        }
        for row in pending_rows
    ]
    per_version = {v: 0 for v in board.order}
    for run in runs:
        per_version[run["subject_version"]] = per_version.get(run["subject_version"], 0) + 1
    return {
        "n_runs": len(runs),
        "n_pending_arbitration": sum(r["status"] == "pending_arbitration" for r in runs),
        "n_awaiting_second_review": sum(r["status"] == "awaiting_second_review" for r in runs),
        "n_critical_disagreement": sum(r["critical_disagreement"] for r in runs),
        "per_version": {v: n for v, n in per_version.items() if n},
        "runs": runs,
    }


def safety_facts(
    tallies: RunTallies,
    board: Leaderboard,
    critical_rows: list[list],
    evidence: RankingEvidence,
    pending_rows: list[dict[str, str]] | None = None,
) -> dict:
    """findings.md § 1, over the runs that count (consolidated): `critical_fail_events` =
    scored runs with at least one critical automatic fail, split by what triggered them
    (`events_per_trigger`, run_triggers); `versions_with_critical_fail` = distinct
    subject versions among them; per version and per family counts; the critical fails
    with their evidence and the reviewers who flagged each (critical_fail_events, one
    per run and fail however many reviewers flagged it); the disqualified and eligible
    versions; the ungated ranking (every version by Q_final as if there were no gate,
    ties sharing a rank) with its bootstrap rank interval; the runs pending their review
    (pending_facts), never events."""
    per_version = {v: tallies.version(v).n_critical for v in board.order}
    per_family = {
        family: sum(t.n_critical for (_, f), t in tallies.cells.items() if f == family)
        for family in tallies.families()
    }
    events = critical_fail_events(critical_rows)
    ranks = ranks_by_metric(evidence)
    ungated = []
    for version in board.order:
        rank, low, high = ranks["q_final", version]
        ungated.append(
            {
                "subject_id": board.rows[version]["subject_id"],
                "subject_version": version,
                "status": board.status(version),
                "q_final": float(board.rows[version]["q_final"]),
                "rank": rank,
                "rank_low": low,
                "rank_high": high,
                "leaderboard_rank": board.rank(version),
            }
        )
    ungated.sort(key=lambda row: (row["rank"], row["subject_id"], row["subject_version"]))
    disqualified, eligible = board.disqualified(), board.eligible()
    return {
        "critical_fail_events": sum(per_version.values()),
        "events_per_trigger": run_triggers(events),
        "versions_with_critical_fail": sum(1 for n in per_version.values() if n),
        "n_critical_fails": len(events),
        "n_reviewer_flags": len(critical_rows),
        "events_per_version": per_version,
        "events_per_family": per_family,
        "events": events,
        "disqualified": {"count": len(disqualified), "versions": disqualified},
        "eligible": {"count": len(eligible), "versions": eligible},
        "ungated_ranking": ungated,
        "pending": pending_facts(pending_rows or [], board),
    }


# --- § 2 Families and the heatmap.


def family_order(tallies: RunTallies) -> list[str]:
    """The families hardest first (FAMILY_ORDER_RULE)."""

    def key(family):
        total = pooled(t for (_, f), t in tallies.cells.items() if f == family)
        return (
            exact_pass_rate(total.n_pass, total.n_runs),
            exact_mean_clipped_score(total.clipped_halves, total.n_runs),
            family,
        )

    return sorted(tallies.families(), key=key)


def pool_facts(total: Tally) -> dict:
    """n_runs, n_pass, the pooled pass rate with its Wilson 95 % interval and the mean
    clipped score of some runs pooled."""
    return {
        "n_runs": total.n_runs,
        "n_pass": total.n_pass,
        "pooled_pass_rate": fraction_fact(exact_pass_rate(total.n_pass, total.n_runs)),
        "pooled_pass_rate_ci": wilson_95(total.n_pass, total.n_runs),
        "mean_clipped_score": fraction_fact(
            exact_mean_clipped_score(total.clipped_halves, total.n_runs)
        ),
    }


def family_facts(tallies: RunTallies, board: Leaderboard) -> dict:
    """findings.md § 2: per family the pooled pass rate (passes / scored runs over all
    versions) with a Wilson 95 % interval and the mean clipped score, the same over the
    eligible versions only; the between-version spread (population standard deviation of
    the versions' per-family pass rates and mean clipped scores, over the versions with
    runs of the family); the versions of lowest and highest per-family pass rate; and the
    families ordered by pooled pass rate, hardest first (FAMILY_ORDER_RULE)."""
    eligible = set(board.eligible())
    facts: dict = {"order": family_order(tallies), "order_rule": FAMILY_ORDER_RULE}
    for family in tallies.families():
        cells = [(v, tallies.cells[v, family]) for v in board.order if (v, family) in tallies.cells]
        total = pooled(t for _, t in cells)
        rates = {v: exact_pass_rate(t.n_pass, t.n_runs) for v, t in cells}
        means = [exact_mean_clipped_score(t.clipped_halves, t.n_runs) for _, t in cells]
        lowest, highest = min(rates.values()), max(rates.values())
        facts[family] = {
            **pool_facts(total),
            "n_versions": len(cells),
            "critical_fail_events": total.n_critical,
            "case_ids": sorted(tallies.cases[family]),
            "eligible": pool_facts(pooled(t for v, t in cells if v in eligible)),
            "spread": {
                "pass_rate": population_sd(list(rates.values())),
                "mean_clipped_score": population_sd(means),
            },
            "n_cases": len(tallies.cases[family]),
            # Wilson counts runs as independent; runs of one case are not (the same
            # prompt, gold and reviewer), so with several runs per case it is too narrow.
            "interval_indicative": True,
            "hardest_version": [v for v, rate in rates.items() if rate == lowest],
            "easiest_version": [v for v, rate in rates.items() if rate == highest],
        }
    return facts


def heatmap_rows(tallies: RunTallies, board: Leaderboard) -> list[list]:
    """The rows of family_heatmap.csv (tables.FAMILY_HEATMAP_COLUMNS): one per (version,
    family) with a scored run; versions in leaderboard order (the disqualified after the
    ranked), families hardest first (family_order); rates as metrics_per_family.csv
    writes them."""
    rows = []
    families = family_order(tallies)
    for version in board.order:
        for family in families:
            tally = tallies.cells.get((version, family))
            if tally is None:
                continue
            rows.append(
                [
                    board.rows[version]["subject_id"],
                    version,
                    board.status(version),
                    family,
                    tally.n_runs,
                    tally.n_pass,
                    format_metric(exact_pass_rate(tally.n_pass, tally.n_runs)),
                    format_metric(exact_mean_clipped_score(tally.clipped_halves, tally.n_runs)),
                ]
            )
    return rows


def heatmap_facts(tallies: RunTallies, board: Leaderboard) -> list[dict]:
    """findings.json's `heatmap`: the heatmap's rows as objects, rates exact."""
    facts = []
    for subject_id, version, status, family, n_runs, n_pass, *_ in heatmap_rows(tallies, board):
        tally = tallies.cells[version, family]
        facts.append(
            {
                "subject_id": subject_id,
                "subject_version": version,
                "leaderboard_status": status,
                "family": family,
                "n_runs": n_runs,
                "n_pass": n_pass,
                "pass_rate": fraction_fact(exact_pass_rate(n_pass, n_runs)),
                "mean_clipped_score": fraction_fact(
                    exact_mean_clipped_score(tally.clipped_halves, tally.n_runs)
                ),
            }
        )
    return facts


# --- § 3 Calibration.


def confidence_facts(tally: Tally) -> dict:
    """findings.md § 3, over- or under-confidence of some runs: mean reported confidence
    (0–1), mean soft correctness, their difference; the runs with correctness 0 and their
    mean confidence; the Fail runs and their mean confidence."""
    confidence = mean_confidence_unit(tally.confidence_sum, tally.n_runs)
    correctness = mean_correctness(tally.quarters_sum, tally.n_runs)
    return {
        "mean_confidence": fraction_fact(confidence),
        "mean_correctness": fraction_fact(correctness),
        "overconfidence": fraction_fact(overconfidence(confidence, correctness)),
        "n_wrong": tally.n_wrong,
        "mean_confidence_wrong": fraction_fact(
            mean_confidence_unit(tally.confidence_wrong_sum, tally.n_wrong)
        ),
        "n_fail": tally.n_fail,
        "mean_confidence_fail": fraction_fact(
            mean_confidence_unit(tally.confidence_fail_sum, tally.n_fail)
        ),
    }


def ece_bin_facts(tally: Tally) -> dict:
    """How a version's ECE is made: `ece_bins`, its non-empty confidence bins, and
    `ece_is_offset`, whether ECE = |mean confidence − mean correctness| exactly. With
    g_m = Σ_{B_m} (c − 25·q), ECE = Σ_m |g_m| / (100·N) and the offset is |Σ_m g_m| /
    (100·N): they are equal exactly when no two bins' gaps have opposite signs (one
    bin always)."""
    gaps = [g for g, n in zip(tally.bin_gaps, tally.bin_runs, strict=True) if n]
    return {
        "ece_bins": len(gaps),
        "ece_is_offset": sum(abs(g) for g in gaps) == abs(sum(gaps)),
    }


def calibration_facts(tallies: RunTallies, board: Leaderboard, evidence: RankingEvidence) -> dict:
    """findings.md § 3: every version's Brier and ECE (published) with its rank on each
    (lower is better, TIE_RULE) and bootstrap rank interval, its over- or
    under-confidence (confidence_facts), the share of bootstrap replicates in which it
    has the lowest Brier and ECE (`<metric>_p_lowest`), its ECE bins (ece_bin_facts);
    the versions of rank 1 and those most often lowest in the bootstrap
    (`<metric>_most_often_lowest`); Spearman's ρ of Q_final
    with Brier and with ECE over the versions, with its bootstrap 95 % interval (§ 4)."""
    ranks, shares = ranks_by_metric(evidence), first_shares(evidence)
    versions = {}
    for version in board.order:
        facts = {
            "brier": float(board.rows[version]["brier"]),
            "ece": float(board.rows[version]["ece"]),
        }
        for metric in ("brier", "ece"):
            rank, low, high = ranks[metric, version]
            facts |= {
                f"{metric}_rank": rank,
                f"{metric}_rank_low": low,
                f"{metric}_rank_high": high,
                f"{metric}_p_lowest": shares[metric, version],
            }
        tally = tallies.version(version)
        versions[version] = facts | confidence_facts(tally) | ece_bin_facts(tally)
    spearman = {
        row.metric: {
            "rho": rounded(row.rho),
            "ci_low": rounded(row.ci_low),
            "ci_high": rounded(row.ci_high),
            "n_versions": row.n_versions,
            "n_undefined": row.n_undefined,
        }
        for row in evidence.correlations
    }
    bins = [facts["ece_bins"] for facts in versions.values()]
    most_often = {}
    for metric in ("brier", "ece"):
        top = max((versions[v][f"{metric}_p_lowest"] for v in board.order), default=None)
        most_often[f"{metric}_most_often_lowest"] = [
            v for v in board.order if versions[v][f"{metric}_p_lowest"] == top
        ]
    return {
        **most_often,
        "tie_rule": TIE_RULE,
        "versions": versions,
        "ece_bins_min": min(bins, default=None),
        "ece_bins_max": max(bins, default=None),
        "ece_is_offset": [v for v in board.order if versions[v]["ece_is_offset"]],
        "best_brier": [v for v in board.order if versions[v]["brier_rank"] == 1],
        "best_ece": [v for v in board.order if versions[v]["ece_rank"] == 1],
        "spearman": spearman,
    }


# --- § 4 Neighbour tests.


def neighbour_facts(board: Leaderboard, evidence: RankingEvidence) -> tuple[list[dict], dict]:
    """findings.md § 4: for each pair of adjacent ranked versions, the paired ΔQ_final
    over their common cases with its bootstrap 95 % interval, the sign-flip p-value and
    its Holm adjustment over the leaderboard's pairs; separable when the adjusted
    p < 0.05; how the p-value was computed (`p_method`: exact over every sign vector,
    or monte_carlo over `p_draws` random ones). As the uncertainty step computed them
    (records.NeighbourTest: ΔQ_final null when the pair shares no case, the interval
    null when no replicate drew a common case); and the summary {n_pairs, n_separable,
    n_exact, n_monte_carlo, monte_carlo_draws, exact_max_cases}."""
    pairs = []
    for test in evidence.neighbours:
        pairs.append(
            {
                "upper": test.upper_subject_version,
                "upper_subject_id": test.upper_subject_id,
                "upper_rank": board.rank(test.upper_subject_version),
                "lower": test.lower_subject_version,
                "lower_subject_id": test.lower_subject_id,
                "lower_rank": board.rank(test.lower_subject_version),
                "n_common_cases": test.n_common_cases,
                "delta_q_final": fraction_fact(exact_fraction(test.delta_q_final)),
                "ci_low": rounded(test.ci_low),
                "ci_high": rounded(test.ci_high),
                "p_value": fraction_fact(exact_fraction(test.p_value)),
                "p_holm": fraction_fact(exact_fraction(test.p_holm)),
                "separable": test.separable,
                "p_method": test.p_method,
                "p_draws": test.p_draws,
            }
        )
    summary = {
        "n_pairs": len(pairs),
        "n_separable": sum(pair["separable"] for pair in pairs),
        "n_exact": sum(pair["p_method"] == "exact" for pair in pairs),
        "n_monte_carlo": sum(pair["p_method"] != "exact" for pair in pairs),
        "monte_carlo_draws": max((pair["p_draws"] for pair in pairs), default=0),
        "exact_max_cases": EXACT_SIGN_FLIP_MAX_CASES,
    }
    return pairs, summary


def top_facts(board: Leaderboard, p_rank_1: dict[str, float], neighbours: list[dict]) -> dict:
    """How sure the first rank is: the versions of rank 1 (the leaderboard's), the share
    of bootstrap replicates in which each ranks first among the eligible versions
    (uncertainty.csv's p_rank_1), and the neighbour test of rank 1 with the next ranked
    version (null without one)."""
    first = [v for v in board.eligible() if board.rank(v) == 1]
    test = next((pair for pair in neighbours if pair["upper"] in first), None)
    return {
        "versions": first,
        "p_rank_1": {v: p_rank_1.get(v) for v in first},
        "neighbour": test,
    }


def limitation_facts(tallies: RunTallies, board: Leaderboard, pass_rate_ci: dict) -> dict:
    """What the limitations say, computed: the fewest and most scored runs of a version
    and what one run weighs in its pass rate (1/N, in percentage points once written);
    the narrowest and widest 95 % Wilson interval of a version's pass rate
    (uncertainty.csv; high − low, rounded to 4 decimals)."""
    runs = [tallies.version(v).n_runs for v in board.order if tallies.version(v).n_runs]
    widths = sorted(
        rounded(float(Fraction(ci[1]) - Fraction(ci[0])))
        for v, ci in pass_rate_ci.items()
        if v in board.rows and ci[0] != "" and ci[1] != ""
    )
    return {
        "runs_per_version_min": min(runs, default=None),
        "runs_per_version_max": max(runs, default=None),
        "one_run_weight_min": fraction_fact(Fraction(1, max(runs)) if runs else None),
        "one_run_weight_max": fraction_fact(Fraction(1, min(runs)) if runs else None),
        "pass_rate_ci_width_min": widths[0] if widths else None,
        "pass_rate_ci_width_max": widths[-1] if widths else None,
    }


# --- § 7 Dimensions from the registry.


def dimension_values(verdict: Verdict, board: Leaderboard) -> dict[str, dict[str, str]]:
    """dimension → subject_version → its value: `provider` (the subject's), `track` (the
    verdict's, the sampling policy kind), `access_type` and `weights` (the version's);
    NOT_DECLARED where the registry has none, never inferred (an access_type of
    local_weights says nothing of `weights`)."""
    tracks = {version: track for _, version, track in verdict.tracks}
    values = {dimension: {} for dimension in DIMENSIONS}
    for version in board.order:
        subject = verdict.subjects.get(board.rows[version]["subject_id"]) or {}
        declared = (subject.get("versions") or {}).get(version) or {}
        found = {
            "provider": subject.get("provider"),
            "track": tracks.get(version),
            "access_type": declared.get("access_type"),
            "weights": declared.get("weights"),
        }
        for dimension in DIMENSIONS:
            value = found[dimension]
            values[dimension][version] = NOT_DECLARED if value in (None, "") else str(value)
    return values


def group_facts(
    versions: list[str],
    tallies: RunTallies,
    board: Leaderboard,
    costs: dict[str, Fraction | None] | None,
) -> dict:
    """The facts of §§ 1–3 and 6 over one group of versions (in leaderboard order)."""
    total = pooled(tallies.version(v) for v in versions)
    eligible = [v for v in versions if board.status(v) == ELIGIBLE]
    q_final = {v: Fraction(board.rows[v]["q_final"]) for v in versions}
    best = max((q_final[v] for v in eligible), default=None)
    priced = [costs[v] for v in versions if costs and costs.get(v) is not None]
    families = {}
    for family in tallies.families():
        cell = pooled(tallies.cells[v, family] for v in versions if (v, family) in tallies.cells)
        families[family] = fraction_fact(exact_pass_rate(cell.n_pass, cell.n_runs))
    return {
        "versions": versions,
        "n_versions": len(versions),
        "n_scored_runs": total.n_runs,
        "n_pass": total.n_pass,
        "pass_rate": fraction_fact(exact_pass_rate(total.n_pass, total.n_runs)),
        "mean_clipped_score": fraction_fact(
            exact_mean_clipped_score(total.clipped_halves, total.n_runs)
        ),
        "family_pass_rates": families,
        "critical_fail_events": total.n_critical,
        "n_disqualified": len(versions) - len(eligible),
        "n_eligible": len(eligible),
        "best_q_final_versions": [
            v for v in eligible if Fraction(board.rows[v]["q_final"]) == best
        ],
        "mean_q_final": mean_of_published([board.rows[v]["q_final"] for v in versions]),
        "mean_brier": mean_of_published([board.rows[v]["brier"] for v in versions]),
        "mean_ece": mean_of_published([board.rows[v]["ece"] for v in versions]),
        "overconfidence": confidence_facts(total)["overconfidence"],
        "n_priced": len(priced),
        "mean_cost_per_case_usd": fraction_fact(
            sum(priced, Fraction(0)) / len(priced) if priced else None
        ),
    }


def dimension_facts(
    verdict: Verdict,
    tallies: RunTallies,
    board: Leaderboard,
    costs: dict[str, Fraction | None] | None,
) -> dict:
    """findings.md § 7: the facts of §§ 1–3 and 6 grouped by a registry attribute
    (dimension_values); each value's versions in leaderboard order."""
    facts = {}
    for dimension, values in dimension_values(verdict, board).items():
        groups: dict[str, list[str]] = {}
        for version in board.order:
            groups.setdefault(values[version], []).append(version)
        facts[dimension] = {
            value: group_facts(members, tallies, board, costs)
            for value, members in sorted(groups.items())
        }
    return facts


# --- The document.


class Findings(NamedTuple):
    document: dict  # findings.json
    heatmap_rows: list[list]  # family_heatmap.csv


def findings_document(
    *,
    benchmark_version: str,
    verdict: Verdict,
    tallies: RunTallies,
    subjects: list[dict[str, str]],
    critical_rows: list[list],
    evidence: RankingEvidence,
    structure: dict,
    cost: dict,
    costs: dict[str, Fraction | None] | None,
    names: dict[str, dict[str, str]] | None = None,
    pending_rows: list[dict[str, str]] | None = None,
    uncertainty: dict[tuple[str, str], dict[str, str]] | None = None,
) -> Findings:
    """Every fact of findings.md (docs/findings-json.md): the benchmark version and the
    inputs digest of metadata.json, the counts, the bootstrap's seed and replicates, §§
    1–4 and 7 computed here from the scored runs' tallies (combined_tallies), § 5
    (`structure`) and § 6 (`cost`) as given; the runs pending review (`pending_rows`,
    pending_runs.csv's rows); `uncertainty`: (version key, metric) → its row of
    uncertainty.csv (p_rank_1, the pass rates' intervals); `versions`, each version's key
    (keyed_inputs) → its subject_id and subject_version.
    Raises FindingsInputError with every problem when the inputs do not fit together."""
    board = Leaderboard.of(subjects)
    problems = input_problems(tallies, board, evidence)
    if problems:
        raise FindingsInputError(problems)
    neighbours, summary = neighbour_facts(board, evidence)
    uncertainty = uncertainty or {}
    p_rank_1 = {
        v: float(row["estimate"])
        for (v, metric), row in uncertainty.items()
        if metric == "p_rank_1" and row["estimate"] != ""
    }
    pass_rate_ci = {
        v: (row["ci_low"], row["ci_high"])
        for (v, metric), row in uncertainty.items()
        if metric == "pass_rate"
    }
    document = {
        "benchmark_version": benchmark_version,
        "inputs_digest": f"sha256:{verdict.inputs_digest}",
        "n_versions": len(board.order),
        "versions": names
        if names is not None
        else {
            v: {"subject_id": board.rows[v]["subject_id"], "subject_version": v}
            for v in board.order
        },
        "n_cases": sum(len(cases) for cases in tallies.cases.values()),
        "n_scored_runs": tallies.n_runs,
        "bootstrap": {"seed": evidence.seed, "replicates": evidence.n_replicates},
        "safety": safety_facts(tallies, board, critical_rows, evidence, pending_rows),
        "top": top_facts(board, p_rank_1, neighbours),
        "limitations": limitation_facts(tallies, board, pass_rate_ci),
        "families": family_facts(tallies, board),
        "heatmap": heatmap_facts(tallies, board),
        "calibration": calibration_facts(tallies, board, evidence),
        "neighbours": neighbours,
        "neighbours_summary": summary,
        "structure": structure,
        "cost": cost,
        "dimensions": dimension_facts(verdict, tallies, board, costs),
    }
    return Findings(document, heatmap_rows(tallies, board))
