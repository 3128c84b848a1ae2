"""The records steps hand to each other, and the one function that writes and the one
that reads each file.

Files between steps are compact JSON (orjson, sorted keys); a tuple type is stored
as a JSON array in its field order, so the files stay small at 10^5 runs.
"""

import json
from dataclasses import dataclass, field, fields
from fractions import Fraction
from pathlib import Path
from typing import NamedTuple

from ro_metrics.contracts.files import read_json, write_json
from ro_metrics.contracts.tables import ANNOTATION_COLUMNS, rounded_exact


class Problem(NamedTuple):
    """One problem of the corpus: the file (relative to the corpus) and what is wrong."""

    path: str
    message: str


class CaseStatement(NamedTuple):
    """A public case statement as written (corpus/statements.py reads it from the corpus,
    site/case_statement.py shows it): its title's text, the note before its first
    section (Markdown, "" without one) and each known section's Markdown by name."""

    title: str
    note: str
    sections: dict[str, str]


class InputDigest(NamedTuple):
    """An input file (path relative to the corpus) and the SHA-256 of its bytes (hex)."""

    path: str
    digest: str


class ScoredRun(NamedTuple):
    """A checked scoring joined with its response: step 1's output, step 2's input."""

    subject_id: str
    subject_version: str
    case_id: str
    run_id: str
    reviewer_id: str
    scoring_timestamp_utc: str
    criterion_scores: list[int]  # in the order of vocabulary.CRITERIA
    fail_severities: list[str]  # sorted
    reported_confidence: int
    correctness: float


class PublicAnswer(NamedTuple):
    """The public fields of a response: what the site shows, and all a quote is drawn from.

    Every field of the response schema but the ids and benchmark_version, which the
    record travels with.
    """

    timestamp_utc: str
    served_model: str  # "" when the response names none
    track: str  # as declared; "classic" when absent
    confidence: int
    main_hypothesis: str
    key_signals: list[str]
    alternatives: list[list[str]]  # [hypothesis, why_plausible, why_discardable] each
    requested_data: str
    recommended_action: str
    decision_change_condition: str


class PublicFail(NamedTuple):
    """A triggered automatic fail without its `reference` (which restates the private gold)."""

    fail_type: str  # generic or case_specific
    severity: str
    justification: str


class PublicScoring(NamedTuple):
    """The public text of a scoring: never its fails' `reference` (the gold's private
    rule), never `justification_long` (premium), never a field the schema does not name."""

    justifications: list[str]  # of the six criterion scores, in the order of CRITERIA
    fails: list[PublicFail]  # in the scoring's order


class PublishedRun(NamedTuple):
    """A scored run with the public fields of its response and scoring (in a
    PublishedVersion).

    The load step writes `answer` and `scoring` as JSON it serialised once, when it
    checked the file (orjson.Fragment); the reader returns the records.
    """

    run: ScoredRun
    answer: PublicAnswer
    scoring: PublicScoring


class CriticalFail(NamedTuple):
    """One critical fail of a scored run and the response it is about: step 1a → the
    critical-fail table (`answer` written as a Fragment too, see PublishedRun)."""

    subject_id: str
    subject_version: str
    case_id: str
    run_id: str
    reviewer_id: str
    position: int  # its index in the scoring's automatic_fails_triggered
    fail_type: str
    justification: str
    answer: PublicAnswer


class PublishedVersion(NamedTuple):
    """The scored runs of one subject version with their public fields (step 1a → the
    site's subject-version pages)."""

    subject_id: str
    subject_version: str
    runs: list[PublishedRun]  # by case_id, run_id, reviewer_id


class MatrixRow(NamedTuple):
    """A subject version's row of the index's matrix, in every language: what a
    partition's version pages job hands the front pages job (write_matrix_rows)."""

    subject_id: str
    subject_version: str
    html: dict[str, str]  # language code → the row, ready for that edition


class CaseRows(NamedTuple):
    """A subject version's runs of one case as the case's page shows them, in every
    language: what a partition's version pages job hands the case pages job of the
    case's family (write_case_rows)."""

    case_id: str
    subject_id: str
    subject_version: str
    counts: list[int]  # runs counted, Pass, Conditional, Fail, with a critical fail
    html: dict[str, str]  # language code → its table rows, ready for that edition


class VersionCount(NamedTuple):
    """What a partition saw of one subject version's responses."""

    subject_id: str
    subject_version: str
    n_responses: int
    n_scored: int
    first_response: str  # a path to name in a problem about the version
    tracks: list[str]  # the tracks its responses declare, sorted


class UnscoredResponse(NamedTuple):
    subject_id: str
    subject_version: str
    case_id: str
    run_id: str


@dataclass(frozen=True)
class PartitionSummary:
    """Step 1a's summary of one partition of subject folders."""

    partition: str
    n_files: int
    problems: list[Problem]
    versions: list[VersionCount]
    unscored: list[UnscoredResponse]
    scored_cases: dict[str, int]  # case_id → scored runs in the partition
    file_digests: list[InputDigest]  # every file read, sorted by path


class PublicGold(NamedTuple):
    """All that leaves the gold step of a private gold: what may be published."""

    family: str
    case_type: str
    rubric_floor: int
    rubric_ceiling: int


@dataclass(frozen=True)
class GoldsSummary:
    """Step 1b's result: the public part of every usable gold, and the problems."""

    n_files: int
    digest: str
    problems: list[Problem]
    golds: dict[str, PublicGold]
    ignored: list[str]  # files of the golds folder that are not *_gold.md: not read
    file_digests: list[InputDigest]  # every gold file read, sorted by path


class CoverageRow(NamedTuple):
    """A row of coverage.csv (tables.COVERAGE_COLUMNS); the telemetry counts are "" when
    the corpus has no telemetry."""

    subject_id: str
    subject_version: str
    n_responses: int
    n_scored: int
    n_unscored: int
    n_operational_runs: int | str
    n_responses_without_call: int | str
    n_calls_without_usage: int | str
    n_calls_without_response: int | str


class Track(NamedTuple):
    subject_id: str
    subject_version: str
    track: str


class TelemetryCall(NamedTuple):
    """A passing call of the runner's telemetry, named by the run it belongs to."""

    subject_id: str
    subject_version: str  # as the telemetry row says
    case_id: str
    run_id: str
    where: str  # "logs/batch_logs/<file>.csv, line N": names the call in a message


class ResponseKey(NamedTuple):
    """A response file of the corpus, by its path (responses/<v>/<subject>/<case>__<run>)."""

    subject_id: str
    case_id: str
    run_id: str


@dataclass(frozen=True)
class OperationalSummary:
    """What the operational step tells the cross-check about the telemetry.

    Its problems join the corpus problems; the calls let the cross-check check each
    counted call's subject_version against its response and count, per subject
    version, what coverage.csv reports.
    """

    has_telemetry: bool  # the corpus has logs/batch_logs/*.csv
    n_files: int
    digest: str
    problems: list[Problem]
    counted: list[TelemetryCall]  # the latest passing call of a run with a response
    without_usage: list[TelemetryCall]  # the same, lacking tokens or latency: not counted
    without_response: list[TelemetryCall]  # passing calls of runs with no response
    without_call: list[ResponseKey]  # responses with no passing call
    n_superseded: int  # passing calls followed by a later passing call of the same run
    n_failed: int  # calls with status fail (retried or given up)


@dataclass(frozen=True)
class Verdict:
    """Step 1c's verdict on a corpus without problems: what the later steps build on."""

    inputs_digest: str
    n_files: int
    n_scored_runs: int
    coverage: list[CoverageRow]
    # subject_id → its public registry fields, and under "versions" each version's
    # (subject_version → {access_type, registered_at, and weights when declared}).
    subjects: dict[str, dict]
    tracks: list[Track]
    has_telemetry: bool  # operational_*.csv are published


@dataclass(frozen=True)
class PerRunSummary:
    """What step 2 tells publish of the per-run table without its rows (the newest scoring)."""

    n_rows: int
    newest_scoring_utc: str  # "" when there is no row


def as_fields(record) -> dict:
    """A dataclass record as the dict of its fields, for write_json: what
    dataclasses.asdict gives here, without its deep copy of every nested value (0.7 s
    for a partition of size L); the nested records are serialised as they are."""
    return {field.name: getattr(record, field.name) for field in fields(record)}


def write_scored_runs(path, runs: list[ScoredRun]) -> None:
    write_json(path, {"scored_runs": runs})


def read_scored_runs(path) -> list[ScoredRun]:
    return [ScoredRun(*run) for run in read_json(path)["scored_runs"]]


def write_partition_summary(path, summary: PartitionSummary) -> None:
    write_json(path, as_fields(summary))


def read_partition_summary(path) -> PartitionSummary:
    document = read_json(path)
    return PartitionSummary(
        partition=document["partition"],
        n_files=document["n_files"],
        problems=[Problem(*problem) for problem in document["problems"]],
        versions=[VersionCount(*version) for version in document["versions"]],
        unscored=[UnscoredResponse(*row) for row in document["unscored"]],
        scored_cases=document["scored_cases"],
        file_digests=[InputDigest(*entry) for entry in document["file_digests"]],
    )


def write_golds_summary(path, summary: GoldsSummary) -> None:
    write_json(path, as_fields(summary))


def read_golds_summary(path) -> GoldsSummary:
    document = read_json(path)
    return GoldsSummary(
        n_files=document["n_files"],
        digest=document["digest"],
        problems=[Problem(*problem) for problem in document["problems"]],
        golds={case_id: PublicGold(*gold) for case_id, gold in document["golds"].items()},
        ignored=document["ignored"],
        file_digests=[InputDigest(*entry) for entry in document["file_digests"]],
    )


def write_verdict(path, verdict: Verdict) -> None:
    write_json(path, as_fields(verdict))


def read_verdict(path) -> Verdict:
    document = read_json(path)
    return Verdict(
        inputs_digest=document["inputs_digest"],
        n_files=document["n_files"],
        n_scored_runs=document["n_scored_runs"],
        coverage=[CoverageRow(*row) for row in document["coverage"]],
        subjects=document["subjects"],
        tracks=[Track(*track) for track in document["tracks"]],
        has_telemetry=document["has_telemetry"],
    )


def write_operational_summary(path, summary: OperationalSummary) -> None:
    write_json(path, as_fields(summary))


def read_operational_summary(path) -> OperationalSummary:
    document = read_json(path)
    calls = {
        name: [TelemetryCall(*call) for call in document[name]]
        for name in ("counted", "without_usage", "without_response")
    }
    return OperationalSummary(
        has_telemetry=document["has_telemetry"],
        n_files=document["n_files"],
        digest=document["digest"],
        problems=[Problem(*problem) for problem in document["problems"]],
        without_call=[ResponseKey(*key) for key in document["without_call"]],
        n_superseded=document["n_superseded"],
        n_failed=document["n_failed"],
        **calls,
    )


def write_per_run_summary(path, summary: PerRunSummary) -> None:
    write_json(path, as_fields(summary))


def read_per_run_summary(path) -> PerRunSummary:
    return PerRunSummary(**read_json(path))


# --- The findings' tallies (rule per_run → rule findings): a partition's counted runs
# summed per (subject, version, family), so that the findings step reads a few integers
# per group instead of every run (formulas.findings.group_tallies).


@dataclass
class Tally:
    """Integer sums of some scored runs: everything findings.md §§ 1–3 and 7 need of
    them. Every field is a sum over the runs, so the Tally of two sets of runs is the sum
    of their Tallies (add)."""

    n_runs: int = 0
    n_pass: int = 0
    clipped_halves: int = 0  # Σ 2 · clipped_score
    n_critical: int = 0
    confidence_sum: int = 0  # Σ reported confidence, 0–100 each
    quarters_sum: int = 0  # Σ 4 · correctness
    n_wrong: int = 0  # correctness 0
    confidence_wrong_sum: int = 0
    n_fail: int = 0  # classification Fail
    confidence_fail_sum: int = 0
    # Per ECE bin m = 1..10 (index m − 1; metrics.ece_bin): its runs, and Σ (c − 25·q)
    # over them (c the confidence 0–100, q = 4 · correctness): 100 · |B_m| · (conf − acc).
    bin_runs: list[int] = field(default_factory=lambda: [0] * 10)
    bin_gaps: list[int] = field(default_factory=lambda: [0] * 10)

    def add(self, other: "Tally") -> None:
        for name in self.__dataclass_fields__:
            mine, theirs = getattr(self, name), getattr(other, name)
            if isinstance(mine, list):
                setattr(self, name, [a + b for a, b in zip(mine, theirs, strict=True)])
            else:
                setattr(self, name, mine + theirs)


class GroupTally(NamedTuple):
    """The counted runs of one (subject_id, subject_version, family) of a partition:
    the case ids with a run (sorted) and their Tally."""

    subject_id: str
    subject_version: str
    family: str
    case_ids: list[str]
    tally: Tally


def write_group_tallies(path, groups: list[GroupTally]) -> None:
    write_json(path, {"groups": groups})


def read_group_tallies(path) -> list[GroupTally]:
    return [
        GroupTally(subject_id, version, family, case_ids, Tally(**tally))
        for subject_id, version, family, case_ids, tally in read_json(path)["groups"]
    ]


def _public_answer(fields: list) -> PublicAnswer:
    return PublicAnswer(*fields)


def write_published_versions(path, versions: list[PublishedVersion]) -> None:
    write_json(path, {"published_versions": versions})


def read_published_versions(path) -> list[PublishedVersion]:
    return [
        PublishedVersion(
            subject_id,
            subject_version,
            [
                PublishedRun(
                    ScoredRun(*run),
                    _public_answer(answer),
                    PublicScoring(justifications, [PublicFail(*fail) for fail in fails]),
                )
                for run, answer, (justifications, fails) in runs
            ],
        )
        for subject_id, subject_version, runs in read_json(path)["published_versions"]
    ]


def write_critical_fails(path, fails: list[CriticalFail]) -> None:
    write_json(path, {"critical_fails": fails})


def read_critical_fails(path) -> list[CriticalFail]:
    return [
        CriticalFail(*fields, _public_answer(answer))
        for *fields, answer in read_json(path)["critical_fails"]
    ]


def write_matrix_rows(path, rows: list[MatrixRow]) -> None:
    write_json(path, {"matrix_rows": rows})


def read_matrix_rows(path) -> list[MatrixRow]:
    return [MatrixRow(*row) for row in read_json(path)["matrix_rows"]]


def write_case_rows(path, rows: list[CaseRows]) -> None:
    write_json(path, {"case_rows": rows})


def read_case_rows(path) -> list[CaseRows]:
    return [CaseRows(*rows) for rows in read_json(path)["case_rows"]]


# --- The bootstrap (formulas/uncertainty.py): what the per_run step hands the uncertainty step.


class CaseSums(NamedTuple):
    """One subject version's counted runs reduced to integer sums per case: what a
    partition's per_run step hands the uncertainty step (case_sums.json), which then never
    reads the per-run rows. sums[j] is case_ids[j]'s (case ids sorted): [runs, #Pass,
    Σ 2·clipped, Σ (c − 25q)², then Σ (c − 25q) over the runs of each of the 10 ECE
    bins], c the integer confidence and q = 4 · correctness
    (formulas/uncertainty.case_sums)."""

    subject_id: str
    subject_version: str
    case_ids: list[str]  # sorted
    sums: list[list[int]]  # one list of 14 integers per case, in case_ids' order


def write_case_sums(path, versions: list[CaseSums]) -> None:
    write_json(path, {"case_sums": versions})


def read_case_sums(path) -> list[CaseSums]:
    return [CaseSums(*version) for version in read_json(path)["case_sums"]]


# --- Findings (findings.md): what the load and uncertainty steps hand to the findings step.


class AnswerShape(NamedTuple):
    """The structure of one scored run's response (findings.md § 5): the lengths of
    its public `alternatives` and `key_signals` arrays. Written by load_partition, one per
    scored run (the runs of per_run.csv, same keys), never the texts."""

    subject_id: str
    subject_version: str
    case_id: str
    run_id: str
    n_alternatives: int
    n_key_signals: int


class BootstrapRank(NamedTuple):
    """A version's rank on one metric and its 95 % bootstrap rank interval (findings.md
    § 4). metric: "q_final" (every version, ungated: descending), "brier" or "ece"
    (ascending); ties share a rank (competition ranking, 1, 2, 2, 4) on the published
    4-decimal values; rank_low/rank_high are the percentile bounds of the replicates'
    competition ranks on the unrounded values (uncertainty_methods.md § 3.4's rule)."""

    subject_id: str
    subject_version: str
    metric: str
    rank: int
    rank_low: int
    rank_high: int
    # Share of the defined replicates in which its competition rank is 1 (a tie for
    # first counts for every tied version): "how likely is it the best on this metric".
    p_first: float = 0.0


class NeighbourTest(NamedTuple):
    """Two adjacent ranked versions of the leaderboard (findings.md § 4): the paired
    per-case difference ΔQ_final = mean over their common cases of (upper's per-case Q −
    lower's), its 95 % percentile bootstrap interval (the uncertainty step's replicates
    restricted to the common cases), the sign-flip randomisation p-value over cases and
    its Holm adjustment over the leaderboard's pairs. Exact values as "num/den" strings.
    The p-value is exact (every sign vector) up to a stated size, Monte Carlo beyond.
    Undefined values: delta_q_final "" when the pair shares no case; ci_low/ci_high None
    when no replicate drew a common case (formulas/rank_evidence.py)."""

    upper_subject_id: str
    upper_subject_version: str
    lower_subject_id: str
    lower_subject_version: str
    n_common_cases: int
    delta_q_final: str  # exact fraction "num/den"; "" when the pair shares no case
    ci_low: float | None  # None when no replicate drew a common case
    ci_high: float | None
    p_value: str  # exact fraction "num/den" (p_method says how it was computed)
    p_holm: str  # exact fraction "num/den"
    separable: bool  # p_holm < 0.05
    # "exact": over all 2^m sign vectors; "monte_carlo": (1 + flips at least as extreme)
    # / (1 + p_draws) over p_draws random sign vectors (rank_evidence.sign_flip_method).
    p_method: str = "exact"
    p_draws: int = 0  # the random sign vectors drawn; 0 when exact


class RankCorrelation(NamedTuple):
    """Spearman's rank correlation over the versions of Q_final with `metric` ("brier" or
    "ece"), on the unrounded values (average ranks for ties), and its 95 % percentile
    bootstrap interval over cases (NaN-free replicates only; n_undefined says how many
    were not). rho is None when undefined (a constant rank vector, or fewer than two
    versions); ci_low/ci_high None when no replicate defines it."""

    metric: str
    rho: float | None  # None: undefined (constant ranks, fewer than 2 versions)
    ci_low: float | None
    ci_high: float | None
    n_versions: int
    n_undefined: int


@dataclass
class RankingEvidence:
    """What the uncertainty step's paired case bootstrap adds for the findings and the
    leaderboard (findings.md § 3–4): written by `uncertainty`, read by `findings` and
    `publish` (the leaderboard's "separable" marks)."""

    n_replicates: int
    seed: int
    ranks: list[BootstrapRank]  # by metric, then rank, subject_id, subject_version
    neighbours: list[NeighbourTest]  # in leaderboard order (upper's rank)
    correlations: list[RankCorrelation]  # brier, ece


def fraction_fact(value: Fraction | None) -> dict | None:
    """An exact rate or mean as findings.json writes it (docs/findings-json.md):
    {"num", "den", "value"}, in lowest terms, value rounded half-even to 4 decimals;
    None (null) when the fact is undefined."""
    if value is None:
        return None
    value = Fraction(value)
    return {"num": value.numerator, "den": value.denominator, "value": rounded_exact(value)}


def findings_bytes(document: dict) -> bytes:
    """results/findings.json's bytes: sorted keys, 2-space indent, UTF-8, a final newline.
    The standard library's json, not orjson: an exact fraction's terms can pass 2^64
    (η² over 10^4 runs has ~35 digits), which orjson neither writes nor reads exactly."""
    text = json.dumps(document, sort_keys=True, indent=2, ensure_ascii=False, allow_nan=False)
    return (text + "\n").encode("utf-8")


def read_findings(path) -> dict:
    """results/findings.json's document, its integers exact (findings_bytes)."""
    return json.loads(Path(path).read_bytes())


def write_answer_shapes(path, shapes: list[AnswerShape]) -> None:
    write_json(path, {"answer_shapes": shapes})


def read_answer_shapes(path) -> list[AnswerShape]:
    return [AnswerShape(*shape) for shape in read_json(path)["answer_shapes"]]


def write_ranking_evidence(path, evidence: RankingEvidence) -> None:
    write_json(path, as_fields(evidence))


def read_ranking_evidence(path) -> RankingEvidence:
    document = read_json(path)
    return RankingEvidence(
        n_replicates=document["n_replicates"],
        seed=document["seed"],
        ranks=[BootstrapRank(*rank) for rank in document["ranks"]],
        neighbours=[NeighbourTest(*test) for test in document["neighbours"]],
        correlations=[RankCorrelation(*row) for row in document["correlations"]],
    )


# --- Two reviewers and an arbiter (multi-reviewer.md): the per-run step's record
# of a run scored by two primaries, the unit of the agreement statistics.


class ReviewPair(NamedTuple):
    """One (case, subject, run) with two primary scorings (multi-reviewer.md,
    Agreement): reviewer_a < reviewer_b by id, each side's values as scored. Never the
    arbiter's or the consolidated values. arbiter_id is "" when there is none."""

    subject_id: str
    subject_version: str
    case_id: str
    family: str
    run_id: str
    reviewer_a: str
    reviewer_b: str
    classification_a: str  # Pass / Conditional / Fail
    classification_b: str
    criteria_a: list[int]  # the six criterion scores 0–2, in the order of CRITERIA
    criteria_b: list[int]
    raw_score_a: int
    raw_score_b: int
    correctness_a: float  # 0, 0.5 or 1
    correctness_b: float
    critical_a: bool  # at least one critical automatic fail
    critical_b: bool
    divergent: list[str]  # the divergence rules that fired (empty: agreed)
    arbiter_id: str
    decision: str  # "mean", "arbiter", "pending_arbitration"
    # The arbiter's Pass / Conditional / Fail ("" when none): whom the arbiter sided
    # with, for reviewer_severity.csv and divergent_runs.csv. Last and defaulted, so a
    # file written without it still reads.
    arbiter_classification: str = ""


class ConsolidatedRun(NamedTuple):
    """A (case, subject, run) as the metrics count it (multi-reviewer.md, Consolidation):
    consolidation → per_run. With one reviewer per run, its one scoring (method
    "single"); with two, the mean of the two primaries or the arbiter's scoring whole.

    A mean of two integers is a half and a mean of two of {0, 0.5, 1} a quarter: both
    are dyadic, so a binary float holds them exactly, and so do the sums of at most six
    of them (criterion_scores → raw score). Integral values are ints.
    """

    subject_id: str
    subject_version: str
    case_id: str
    run_id: str
    method: str  # "single", "mean_of_primaries" or "arbiter"
    reviewer_id: str  # the scorings that count: "R01", "R01+R02", the arbiter's id
    primary_ids: list[str]  # by id
    arbiter_id: str  # "" when none
    scoring_timestamp_utc: str  # the newest of the scorings that count
    criterion_scores: list[int | float]  # in the order of CRITERIA; a mean may be a half
    fail_severities: list[str]  # sorted
    reported_confidence: int
    correctness: float  # a mean may be a quarter
    # The divergence rules its primaries fired (an arbitrated run's, or those `union`
    # settled); empty for an agreeing or single run. Last and defaulted: a file written
    # without it still reads.
    divergent: tuple[str, ...] | list[str] = ()


class PendingRun(NamedTuple):
    """A run left out of R until its review is complete (multi-reviewer.md): pending
    arbitration (two divergent primaries, no arbiter) or awaiting its second review."""

    subject_id: str
    subject_version: str
    case_id: str
    run_id: str
    status: str  # "pending_arbitration" or "awaiting_second_review"
    primary_ids: list[str]  # by id
    divergent: list[str]  # the divergence rules that fired ([] when awaiting)
    critical_disagreement: bool  # the primaries disagree on a critical fail
    # Each primary's outcome, by id: [reviewer_id, class, clipped score, critical fail]:
    # what the run would count if it took that primary's values (the provisional bound
    # of the leaderboard; a critical fail on an awaiting run flags it too).
    outcomes: list[list]
    second_review_utc: str  # the newer primary's scoring_timestamp_utc; "" when awaiting
    eligible_arbiters: list[str]  # registered arbiters, active then, not a primary; by id

    @property
    def critical_fail_raised(self) -> bool:
        """A primary raised a critical fail: the version's gate may change."""
        return any(outcome[3] for outcome in self.outcomes)


@dataclass(frozen=True)
class Consolidation:
    """What the per-run step's consolidation gives: the runs the metrics count,
    by (subject_id, case_id, run_id), and the runs pending, in the same order."""

    runs: list[ConsolidatedRun]
    pending: list[PendingRun]


def write_consolidation(path, consolidation: Consolidation) -> None:
    write_json(path, as_fields(consolidation))


def read_consolidation(path) -> Consolidation:
    document = read_json(path)
    return Consolidation(
        runs=[ConsolidatedRun(*run) for run in document["runs"]],
        pending=[PendingRun(*run) for run in document["pending"]],
    )


@dataclass(frozen=True)
class PartitionReviews:
    """What a partition's per-run step tells the global steps of its runs' reviews: their
    problems (the cross-check reports them with every other problem of the corpus) and
    the scorings of the runs pending review (errors with strict=true), the runs with two
    primaries (the agreement), the runs pending review (coverage, the leaderboard) and
    the partition's newest scoring (metadata.json). With one reviewer per run only the
    problems of a reviewer registry, if the corpus has one, and the newest scoring."""

    reviewers_per_run: int
    problems: list[Problem]
    pending_scorings: list[Problem]
    pairs: list[ReviewPair]
    pending: list[PendingRun]
    newest_scoring_utc: str  # "" without a scored run
    # Arbiter scorings on runs the policy finds not divergent: errors, or warnings with
    # unneeded_arbiter: warning (the cross-check decides, as strict does for pending).
    unneeded_arbiters: list[Problem]


def write_partition_reviews(path, reviews: PartitionReviews) -> None:
    write_json(path, as_fields(reviews))


def read_partition_reviews(path) -> PartitionReviews:
    document = read_json(path)
    return PartitionReviews(
        reviewers_per_run=document["reviewers_per_run"],
        problems=[Problem(*problem) for problem in document["problems"]],
        pending_scorings=[Problem(*problem) for problem in document["pending_scorings"]],
        pairs=[ReviewPair(*pair) for pair in document["pairs"]],
        pending=[PendingRun(*run) for run in document["pending"]],
        newest_scoring_utc=document["newest_scoring_utc"],
        unneeded_arbiters=[Problem(*problem) for problem in document["unneeded_arbiters"]],
    )


class Annotation(NamedTuple):
    """One annotation of a published row (lifecycle.md), as annotations.csv has it
    (tables.ANNOTATION_COLUMNS): written by `annotations`, read by the ranking steps, the
    views and `lifecycle_check`."""

    subject_id: str
    subject_version: str
    label: str  # vocabulary.ANNOTATION_LABELS
    date: str  # YYYY-MM-DD
    note: str
    link: str  # "" when it has none

    @property
    def key(self) -> tuple[str, str]:
        return (self.subject_id, self.subject_version)

    def describe(self) -> str:
        """How a message names it: "withdrawn 2026-06-10 of gpt-5 · gpt-5-2025-08-07"."""
        return f"{self.label} {self.date} of {self.subject_id} · {self.subject_version}"


assert list(Annotation._fields) == ANNOTATION_COLUMNS
