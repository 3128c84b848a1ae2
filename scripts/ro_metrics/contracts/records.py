"""The records steps hand to each other, and the one function that writes and the one
that reads each file.

Files between steps are compact JSON (orjson, sorted keys); a tuple type is stored
as a JSON array in its field order, so the files stay small at 10^5 runs.
"""

from dataclasses import asdict, dataclass
from typing import NamedTuple

from ro_metrics.contracts.files import read_json, write_json


class Problem(NamedTuple):
    """One problem of the corpus: the file (relative to the corpus) and what is wrong."""

    path: str
    message: str


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


class EvaluationId(NamedTuple):
    """A scoring's evaluation_id and its file: the id must be unique across the corpus."""

    evaluation_id: str
    path: str


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
    digest: str
    problems: list[Problem]
    versions: list[VersionCount]
    unscored: list[UnscoredResponse]
    scored_cases: dict[str, int]  # case_id → scored runs in the partition
    evaluation_ids: list[EvaluationId]  # of every valid scoring, sorted
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
    subjects: dict[str, dict]  # subject_id → its public registry fields
    tracks: list[Track]
    has_telemetry: bool  # operational_*.csv are published


@dataclass(frozen=True)
class PerRunSummary:
    """What step 2 tells the changes step of the per-run table without its rows."""

    n_rows: int
    newest_scoring_utc: str  # "" when there is no row


@dataclass(frozen=True)
class ChangesSection:
    """The leaderboard page's section on what changed since a snapshot (HTML)."""

    html: str


@dataclass(frozen=True)
class LeaderboardSummary:
    """What the leaderboard step tells the publishing step."""

    newest_scoring_utc: str


def write_scored_runs(path, runs: list[ScoredRun]) -> None:
    write_json(path, {"scored_runs": runs})


def read_scored_runs(path) -> list[ScoredRun]:
    return [ScoredRun(*run) for run in read_json(path)["scored_runs"]]


def write_partition_summary(path, summary: PartitionSummary) -> None:
    write_json(path, asdict(summary))


def read_partition_summary(path) -> PartitionSummary:
    document = read_json(path)
    return PartitionSummary(
        partition=document["partition"],
        n_files=document["n_files"],
        digest=document["digest"],
        problems=[Problem(*problem) for problem in document["problems"]],
        versions=[VersionCount(*version) for version in document["versions"]],
        unscored=[UnscoredResponse(*row) for row in document["unscored"]],
        scored_cases=document["scored_cases"],
        evaluation_ids=[EvaluationId(*pair) for pair in document["evaluation_ids"]],
        file_digests=[InputDigest(*entry) for entry in document["file_digests"]],
    )


def write_golds_summary(path, summary: GoldsSummary) -> None:
    write_json(path, asdict(summary))


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
    write_json(path, asdict(verdict))


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
    write_json(path, asdict(summary))


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


def write_leaderboard_summary(path, summary: LeaderboardSummary) -> None:
    write_json(path, asdict(summary))


def read_leaderboard_summary(path) -> LeaderboardSummary:
    return LeaderboardSummary(**read_json(path))


def write_per_run_summary(path, summary: PerRunSummary) -> None:
    write_json(path, asdict(summary))


def read_per_run_summary(path) -> PerRunSummary:
    return PerRunSummary(**read_json(path))


def write_changes_section(path, section: ChangesSection) -> None:
    write_json(path, asdict(section))


def read_changes_section(path) -> ChangesSection:
    return ChangesSection(**read_json(path))
