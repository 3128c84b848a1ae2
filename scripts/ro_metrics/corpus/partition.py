"""Checking the responses and scorings of one partition of subjects (step 1a).

Reads the partition's entries (layout.partition_entries), validates each against its JSON
Schema and against its path, and checks what can be checked inside one subject:
every scoring has its response, with the same subject_version, a (case, subject,
run) has at most the scorings the review policy allows (v1.0: one; with two
reviewers per run three, whose roles the consolidation checks), and no two scorings
of a subject's folder share an evaluation_id (the benchmark's ids leave out the
subject, so the same id in two subjects' folders is normal). Problems are collected, not raised: the
cross-check step reports those of every partition together.

Each file gives its digest, the fields later steps need, the lengths of a response's
alternatives and key_signals, and its problems. The job reads every file of its
partition; Snakemake reruns it when the partition's entries change (their digest is one
of the job's parameters), and when its code or schemas do.
"""

import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

import orjson

from ro_metrics.contracts.files import json_bytes, tell
from ro_metrics.contracts.records import (
    AnswerShape,
    CriticalFail,
    InputDigest,
    PartitionSummary,
    Problem,
    PublicAnswer,
    PublicFail,
    PublicScoring,
    PublishedRun,
    PublishedVersion,
    ScoredRun,
    UnscoredResponse,
    VersionCount,
)
from ro_metrics.contracts.vocabulary import (
    CRITERIA,
    CRITICAL,
    RESPONSE_NAME_RE,
    SCORING_NAME_RE,
    SUBJECT_ID_RE,
)
from ro_metrics.corpus.decoding import (
    SchemaCheck,
    decode_json,
    formula_problems,
    read_checked,
)
from ro_metrics.corpus.layout import FILE, NOT_A_FILE, responses_dir

PROGRESS_SECONDS = 5.0
RESPONSE, SCORING, OTHER = "response", "scoring", "other"


class FileChecker:
    """Everything about one file that does not depend on any other file."""

    def __init__(self, corpus: Path, version: str, response_schema, scoring_schema, max_bytes):
        self.corpus = str(corpus)
        self.version = version
        self.max_bytes = max_bytes
        self.response_top = responses_dir(version) + "/"
        self.response_check = SchemaCheck(response_schema)
        self.scoring_check = SchemaCheck(scoring_schema)

    def check(self, entry) -> list:
        """[kind, sha256, record or None, problems] of one of the partition's entries."""
        if entry.kind != FILE:
            return [OTHER, "", None, [NOT_A_FILE[entry.kind]]]
        parts = entry.path.split("/")
        if len(parts) != 4:
            return [OTHER, "", None, ["unexpected file outside a subject folder"]]
        folder, name = parts[2], parts[3]
        if entry.path.startswith(self.response_top):
            kind, match = RESPONSE, RESPONSE_NAME_RE.fullmatch(name)
            expected = "<case_id>__<run_id>.json"
        else:
            kind, match = SCORING, SCORING_NAME_RE.fullmatch(name)
            expected = "<case_id>__<run_id>__eval-<reviewer_id>.json"
        if not match:
            return [kind, "", None, [f"file name is not {expected}"]]
        if not SUBJECT_ID_RE.fullmatch(folder):
            return [kind, "", None, [f"folder name {folder!r} is not a valid subject_id"]]
        schema = self.response_check if kind == RESPONSE else self.scoring_check
        checked = read_checked(
            f"{self.corpus}/{entry.path}", entry.size, self.max_bytes, decode_json, schema
        )
        if checked.problems:
            return [kind, checked.digest, None, checked.problems]
        if kind == RESPONSE:
            record, problems = self.response(checked.document, folder, match)
        else:
            record, problems = self.scoring(checked.document, folder, match)
        return [kind, checked.digest, None if problems else record, problems]

    def response(self, document, folder: str, match) -> tuple[list, list[str]]:
        """The response's record for the partition summary, and its problems."""
        problems = self.path_problems(
            {
                "subject_id": (document["subject_id"], folder),
                "case_id": (document["case_id"], match["case_id"]),
                "run_id": (document["run_id"], match["run_id"]),
            }
        )
        problems += self.version_problems(document["benchmark_version"])
        problems += formula_problems({"subject_version": document["subject_version"]})
        record = [
            folder,
            match["case_id"],
            match["run_id"],
            document["subject_version"],
            # The schema's "integer" admits 78.0, as the benchmark does: published as 78.
            int(document["confidence"]),
            document.get("track", "classic"),
            # Kept serialised: the published runs carry it as it is.
            json_bytes(public_answer(document)).decode("utf-8"),
            # Counted here, while the document is decoded: its AnswerShape needs no
            # second decoding of the answer.
            len(document["alternatives"]),
            len(document["key_signals"]),
        ]
        return record, problems

    def scoring(self, document, folder: str, match) -> tuple[list, list[str]]:
        """The scoring's record for the partition summary, and its problems."""
        ref = document["response_ref"]
        problems = self.path_problems(
            {
                "response_ref.subject_id": (ref["subject_id"], folder),
                "response_ref.case_id": (ref["case_id"], match["case_id"]),
                "response_ref.run_id": (ref["run_id"], match["run_id"]),
                "reviewer_id": (document["reviewer_id"], match["reviewer_id"]),
            }
        )
        problems += self.version_problems(document["benchmark_version"])
        problems += formula_problems(
            {"reviewer_id": document["reviewer_id"], "subject_version": ref["subject_version"]}
        )
        scores = document["criterion_scores"]
        record = [
            folder,
            match["case_id"],
            match["run_id"],
            match["reviewer_id"],
            ref["subject_version"],
            document["scoring_timestamp_utc"],
            [int(scores[key]["score"]) for key in CRITERIA],
            sorted(fail["severity"] for fail in document["automatic_fails_triggered"]),
            float(document["correctness"]),
            # The public text of the scoring (records.PublicScoring), kept serialised:
            # each criterion's justification (never justification_long, a premium
            # field) and each fail without its reference (the gold's private rule).
            json_bytes(
                PublicScoring(
                    [scores[key]["justification"] for key in CRITERIA],
                    [
                        PublicFail(fail["type"], fail["severity"], fail["justification"])
                        for fail in document["automatic_fails_triggered"]
                    ],
                )
            ).decode("utf-8"),
            document["evaluation_id"],
        ]
        return record, problems

    @staticmethod
    def path_problems(pairs: dict) -> list[str]:
        return [
            f"{field} is {in_file!r} but the file's path says {in_path!r}"
            for field, (in_file, in_path) in pairs.items()
            if in_file != in_path
        ]

    def version_problems(self, version: str) -> list[str]:
        if version == self.version:
            return []
        return [f"benchmark_version is {version!r} but this run is configured for {self.version!r}"]


def public_answer(document: dict) -> PublicAnswer:
    """The public fields of a schema-valid response (records.PublicAnswer)."""
    return PublicAnswer(
        document["timestamp_utc"],
        document.get("served_model", ""),
        document.get("track", "classic"),
        int(document["confidence"]),  # 78.0 is shown as 78 (the schema's integer)
        document["main_hypothesis"],
        list(document["key_signals"]),
        [
            [item["hypothesis"], item["why_plausible"], item["why_discardable"]]
            for item in document["alternatives"]
        ],
        document["requested_data"],
        document["recommended_action"],
        document["decision_change_condition"],
    )


def check_files(entries, checker: FileChecker) -> dict:
    """Per-path [size, mtime_ns, ctime_ns, result]: every entry of the partition checked."""
    files = {}
    last_report = started = time.monotonic()
    for done, entry in enumerate(entries, start=1):
        files[entry.path] = [entry.size, entry.mtime_ns, entry.ctime_ns, checker.check(entry)]
        if time.monotonic() - last_report > PROGRESS_SECONDS:
            last_report = time.monotonic()
            elapsed = last_report - started
            tell(f"  {done:,} of {len(entries):,} files checked ({elapsed:.0f} s)")
    return files


@dataclass(frozen=True)
class PartitionLoad:
    """What a load job hands on: the summary, the scored runs, the public part of every
    scored run (the site) and of every critical fail (the critical-fail table), and the
    structure of every scored run's response (the findings), in the scored runs' order."""

    summary: PartitionSummary
    scored_runs: list[ScoredRun]
    published_versions: list[PublishedVersion]
    critical_fails: list[CriticalFail]
    answer_shapes: list[AnswerShape]


def duplicate_evaluation_ids(scorings: list[tuple[str, str]]) -> list[Problem]:
    """Every scoring whose evaluation_id another scoring of its subject's folder has.

    `scorings`: (path, evaluation_id) of each scoring. The benchmark names a scoring
    `eval-<case_id>-<run_id>-<reviewer_id>`, without the subject, so one id in several
    subjects' folders is normal (validation-rules.md).
    """
    paths_of = defaultdict(list)
    for path, evaluation_id in scorings:
        paths_of[(path.rpartition("/")[0], evaluation_id)].append(path)
    problems = []
    for (_, evaluation_id), paths in sorted(paths_of.items()):
        paths.sort()
        for path in paths if len(paths) > 1 else ():
            others = ", ".join(other for other in paths if other != path)
            problems.append(
                Problem(
                    path,
                    f"evaluation_id: {evaluation_id!r} is not unique within the subject's "
                    f"folder (also in: {others})",
                )
            )
    return problems


def partition_summary(
    partition: str, files: dict, version: str, max_scorings: int = 1
) -> PartitionLoad:
    """Cross-file checks inside the partition; its summary and its scored runs.

    max_scorings: the scorings a run may have under the review policy (v1.0: 1; with two
    reviewers per run 3, two primaries and an arbiter, whose roles the consolidation
    checks)."""
    problems = []
    responses = {}
    scorings = defaultdict(list)
    evaluation_ids = []
    for path, (_, _, _, (kind, _, record, file_problems)) in files.items():
        if file_problems:
            problems += [Problem(path, message) for message in file_problems]
        if record is None:
            continue
        if kind == RESPONSE:
            subject_id, case_id, run_id, *answer = record
            responses[(subject_id, case_id, run_id)] = (path, answer)
        else:
            subject_id, case_id, run_id, reviewer_id, *scored, evaluation_id = record
            scorings[(subject_id, case_id, run_id)].append((path, reviewer_id, scored))
            evaluation_ids.append((path, evaluation_id))
    problems += duplicate_evaluation_ids(evaluation_ids)

    scored_runs, published_runs, critical_fails, answer_shapes = [], [], [], []
    for key, found in sorted(scorings.items()):
        subject_id, case_id, run_id = key
        if len(found) > max_scorings:
            paths = sorted(path for path, _, _ in found)
            allowed = (
                "v1.0 allows one and never averages"
                if max_scorings == 1
                else f"the review policy allows {max_scorings} (two primaries and an arbiter)"
            )
            for path in paths:
                others = ", ".join(other for other in paths if other != path)
                problems.append(
                    Problem(
                        path,
                        f"{len(paths)} scorings for the same (case, subject, run) "
                        f"{case_id}/{subject_id}/{run_id}; {allowed} (also: {others})",
                    )
                )
            continue
        # By reviewer (a run has one scoring but under double review).
        in_order = found if len(found) == 1 else sorted(found, key=lambda scoring: scoring[1])
        for path, reviewer_id, scored in in_order:
            joined = joined_scoring(key, path, reviewer_id, scored, responses, files, version)
            if isinstance(joined, Problem):
                problems.append(joined)
            elif joined is not None:
                run, published, critical, shape = joined
                # One shape per response, however many reviewers scored it.
                if not scored_runs or scored_runs[-1][:4] != run[:4]:
                    answer_shapes.append(shape)
                scored_runs.append(run)
                published_runs.append(published)
                critical_fails += critical
    # files follows the partition's entries, which are sorted by path
    file_digests = [
        InputDigest(path, result[1]) for path, (_, _, _, result) in files.items() if result[1]
    ]
    scored_keys = {(run.subject_id, run.case_id, run.run_id) for run in scored_runs}
    summary = PartitionSummary(
        partition=partition,
        n_files=len(file_digests),
        problems=sorted(problems),
        versions=version_counts(responses, scored_keys),
        unscored=[
            UnscoredResponse(subject_id, answer[0], case_id, run_id)
            for (subject_id, case_id, run_id), (_, answer) in sorted(responses.items())
            if (subject_id, case_id, run_id) not in scored_keys
        ],
        scored_cases=dict(sorted(Counter(run.case_id for run in scored_runs).items())),
        file_digests=file_digests,
    )
    return PartitionLoad(
        summary, scored_runs, published_versions(published_runs), critical_fails, answer_shapes
    )


def joined_scoring(key, path, reviewer_id, scored, responses, files, version):
    """A scoring joined with its response: (ScoredRun, PublishedRun, its CriticalFails,
    the response's AnswerShape), a Problem, or None when its response is invalid
    (reported on its own)."""
    subject_id, case_id, run_id = key
    version_scored, timestamp, scores, severities, correctness, scoring_json = scored
    response = responses.get(key)
    if response is None:
        response_path = f"{responses_dir(version)}/{subject_id}/{case_id}__{run_id}.json"
        if response_path not in files:
            return Problem(path, f"its response {response_path} does not exist")
        # An existing but invalid response is reported on its own.
        return None
    response_path, answered = response
    version_answered, confidence, _track, answer_json, n_alternatives, n_key_signals = answered
    if version_scored != version_answered:
        return Problem(
            path,
            f"response_ref.subject_version is {version_scored!r} but its response "
            f"{response_path} has {version_answered!r}",
        )
    run = ScoredRun(
        subject_id,
        version_scored,
        case_id,
        run_id,
        reviewer_id,
        timestamp,
        scores,
        severities,
        confidence,
        correctness,
    )
    answer = orjson.Fragment(answer_json)
    critical = []
    if CRITICAL in severities:
        _, fails = orjson.loads(scoring_json)
        critical = [
            CriticalFail(
                subject_id,
                version_scored,
                case_id,
                run_id,
                reviewer_id,
                position,
                fail_type,
                justification,
                answer,
            )
            for position, (fail_type, severity, justification) in enumerate(fails)
            if severity == CRITICAL
        ]
    shape = AnswerShape(subject_id, version_scored, case_id, run_id, n_alternatives, n_key_signals)
    return run, PublishedRun(run, answer, orjson.Fragment(scoring_json)), critical, shape


def published_versions(runs: list[PublishedRun]) -> list[PublishedVersion]:
    """The published runs by subject version (sorted)."""
    by_version = defaultdict(list)
    for published in runs:
        by_version[(published.run.subject_id, published.run.subject_version)].append(published)
    return [
        PublishedVersion(subject_id, subject_version, members)
        for (subject_id, subject_version), members in sorted(by_version.items())
    ]


def version_counts(responses: dict, scored_keys: set) -> list[VersionCount]:
    """What the partition's responses say of each subject version."""
    versions = {}
    for key, (path, answer) in sorted(responses.items()):
        # answer: subject_version, confidence, track, ... (FileChecker.response)
        found = versions.setdefault((key[0], answer[0]), [0, 0, path, set()])
        found[0] += 1
        found[1] += key in scored_keys
        found[3].add(answer[2])
    return [
        VersionCount(subject_id, version, n_responses, n_scored, first, sorted(tracks))
        for (subject_id, version), (n_responses, n_scored, first, tracks) in sorted(
            versions.items()
        )
    ]
