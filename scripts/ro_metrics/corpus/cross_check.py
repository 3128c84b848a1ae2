"""Cross-checking the whole corpus (step 1c): partitions, golds and the registry.

Joins every partition with the golds and the registry. If any file of the corpus
has a problem, the full list goes to the terminal and the log, the step exits
non-zero and nothing downstream runs, so the published results stay as they were.
Otherwise it writes its verdict: the digest of the inputs, the counts and the
coverage of every subject version.
"""

import hashlib
from collections import Counter, defaultdict
from pathlib import Path
from typing import NamedTuple

from ro_metrics.contracts.records import (
    CoverageRow,
    GoldsSummary,
    InputDigest,
    OperationalSummary,
    PartitionSummary,
    Problem,
    Track,
    UnscoredResponse,
    Verdict,
    VersionCount,
    read_scored_runs,
)
from ro_metrics.corpus.decoding import SchemaCheck, decode_yaml, formula_problems, read_checked
from ro_metrics.corpus.layout import (
    FILE,
    MISSING,
    NOT_A_FILE,
    OPTIONAL_INPUTS,
    REGISTRY,
    partition_ids,
    partition_of,
    response_path,
    responses_dir,
    scoring_path,
)

# The terminal gets the head of a long list; the log file always has all of it.
MAX_PROBLEMS_SHOWN = 200
MAX_VERSIONS_SHOWN = 10
MAX_IDS_SHOWN = 3  # of each kind of telemetry gap, in the warning


# What the leaderboard shows of a registered subject (public registry fields).
SUBJECT_FIELDS = ("kind", "provider", "description")
# ... and of each of its versions, under "versions" (the findings' registry dimensions,
# the registration quota); a field the version does not declare is left out, never inferred.
VERSION_FIELDS = ("access_type", "weights", "registered_at")


def load_registry(corpus: Path, layout, schema_path, problem, max_bytes: int):
    """The registry's subjects, (subject_id, subject_version) → sampling policy kind, digest."""
    registry_entry = next(entry for entry in layout if entry.path == REGISTRY)
    if registry_entry.kind == MISSING:
        problem(REGISTRY, "file is missing: every subject_version must be registered")
        return None, None, ""
    if registry_entry.kind != FILE:
        problem(REGISTRY, NOT_A_FILE[registry_entry.kind])
        return None, None, ""
    checked = read_checked(
        corpus / REGISTRY, registry_entry.size, max_bytes, decode_yaml, SchemaCheck(schema_path)
    )
    for message in checked.problems:
        problem(REGISTRY, message)
    if checked.problems:
        return None, None, checked.digest
    registry, digest = checked.document, checked.digest
    subjects = {
        subject["subject_id"]: {
            **{field: subject.get(field) for field in SUBJECT_FIELDS},
            "versions": {
                version["subject_version"]: {
                    field: version[field] for field in VERSION_FIELDS if field in version
                }
                for version in subject["versions"]
            },
        }
        for subject in registry["subjects"]
    }
    versions = {}
    seen_subjects = Counter(subject["subject_id"] for subject in registry["subjects"])
    for subject_id, count in sorted(seen_subjects.items()):
        if count > 1:
            problem(REGISTRY, f"subject_id {subject_id!r} is listed {count} times")
    for subject in registry["subjects"]:
        seen_versions = Counter(v["subject_version"] for v in subject["versions"])
        for version, count in sorted(seen_versions.items()):
            if count > 1:
                problem(
                    REGISTRY,
                    f"subject_version {version!r} is listed {count} times under "
                    f"subject {subject['subject_id']!r}",
                )
        for version in subject["versions"]:
            for message in formula_problems({"subject_version": version["subject_version"]}):
                problem(REGISTRY, message)
            policy = version.get("sampling_policy", {}).get("kind")
            versions[(subject["subject_id"], version["subject_version"])] = policy
    for index, subject in enumerate(registry["subjects"]):
        if subject["kind"] == "llm":
            for message in llm_version_problems(index, subject):
                problem(REGISTRY, message)
    return subjects, versions, digest


def llm_version_problems(index: int, subject: dict) -> list[str]:
    """The benchmark's rules for the versions of a subject of kind llm
    (validation-rules.md § Registry): a pinned snapshot, with its sampling policy."""
    problems = []
    subject_id = subject["subject_id"]
    # The subject_id's first token must name the model family of every snapshot.
    family = normalised_name(subject_id.split("-")[0])
    for number, version in enumerate(subject["versions"]):
        where = f"subjects.{index}.versions.{number}"
        name = version["subject_version"]
        policy = version.get("sampling_policy")
        if policy is None:
            problems.append(
                f"{where}: a version of a subject of kind llm needs a sampling_policy "
                "with its kind (classic or reasoning)"
            )
        elif policy["kind"] == "classic" and "reasoning_effort" in policy:
            problems.append(
                f"{where}.sampling_policy.reasoning_effort: not allowed with kind classic "
                "(a subject of kind llm)"
            )
        if name == subject_id and version.get("provider_pins_id") is not True:
            problems.append(
                f"{where}.subject_version: {name!r} equals the subject_id; a version of a "
                "subject of kind llm must be a pinned snapshot, not an alias (unless "
                "provider_pins_id: true)"
            )
        if family not in normalised_name(name):
            problems.append(
                f"{where}.subject_version: {name!r} does not contain {family!r}, the first "
                f"token of subject_id {subject_id!r} (with '.' and '_' read as '-'): a "
                "snapshot of one model family registered under another?"
            )
    return problems


def normalised_name(name: str) -> str:
    """A model name compared as the benchmark does: lower case, '.' and '_' read as '-'."""
    return name.lower().replace(".", "-").replace("_", "-")


def resolve_tracks(versions, registry, problem) -> dict[tuple[str, str], str]:
    """The track of every version: the registry's sampling_policy.kind, else the one
    track its responses declare, else classic. Responses of one version that declare
    different tracks, with no policy in the registry to settle it, are a problem."""
    tracks = {key: policy or "classic" for key, policy in registry.items()}
    for subject_id, subject_version, _, _, first, declared in versions:
        if registry.get((subject_id, subject_version)):
            continue
        if len(declared) > 1:
            problem(
                first,
                f"the responses of subject_version {subject_version!r} declare different "
                f"tracks ({', '.join(declared)}); give the version a sampling_policy.kind "
                f"in {REGISTRY}",
            )
        tracks[(subject_id, subject_version)] = declared[0] if declared else "classic"
    return tracks


class CrossCheckResult(NamedTuple):
    problems: list[Problem]
    unscored: list[UnscoredResponse]
    verdict: Verdict
    input_files: list[InputDigest]  # every input file and its digest, sorted by path


def cross_check(
    partitions: list[PartitionSummary],
    runs_files: dict[str, str],
    golds_result: GoldsSummary,
    layout,
    registry_schema,
    corpus: Path,
    version,
    strict,
    max_bytes,
    operational: OperationalSummary,
) -> CrossCheckResult:
    """Every problem of the corpus, or (with none) the verdict the later steps build on."""
    problems = list(operational.problems)

    def problem(path, message):
        problems.append(Problem(path, message))

    for entry in layout:
        if entry.kind == MISSING and entry.path != REGISTRY:
            problem(entry.path, "folder is missing from the corpus")
    subjects, registry, registry_digest = load_registry(
        corpus, layout, registry_schema, problem, max_bytes
    )
    problems.extend(golds_result.problems)
    golds = golds_result.golds

    versions = [row for partition in partitions for row in partition.versions]
    for partition in partitions:
        problems.extend(partition.problems)
    if not versions and not problems:
        problem(responses_dir(version), "the corpus has no responses")

    if registry is not None:
        for subject_id, subject_version, n_responses, _, first, _ in versions:
            if (subject_id, subject_version) not in registry:
                more = f" (and {n_responses - 1} more response(s))" if n_responses > 1 else ""
                problem(
                    first,
                    f"subject_version {subject_version!r} of subject {subject_id!r} is not "
                    f"in {REGISTRY}{more}",
                )

    tracks = resolve_tracks(versions, registry or {}, problem)

    scored_cases = {case_id for p in partitions for case_id in p.scored_cases}
    if scored_cases - set(golds):
        # Rare: only then are the scored runs read, to name every scoring concerned.
        for path in runs_files.values():
            for run in read_scored_runs(path):
                if run.case_id not in golds:
                    problem(
                        scoring_path(
                            version, run.subject_id, run.case_id, run.run_id, run.reviewer_id
                        ),
                        f"case {run.case_id} has no (valid) gold",
                    )

    unscored = [row for partition in partitions for row in partition.unscored]
    if strict:
        for subject_id, _version, case_id, run_id in unscored:
            problem(
                response_path(version, subject_id, case_id, run_id),
                "response has no scoring (strict mode)",
            )
    telemetry = None
    if operational.has_telemetry:
        answered = ResponseVersions(versions, unscored, runs_files)
        for call in [*operational.counted, *operational.without_usage]:
            answer = answered.get((call.subject_id, call.case_id, call.run_id))
            if answer is not None and answer != call.subject_version:
                path, line = call.where.split(", ", 1)
                problem(
                    path,
                    f"{line}, column 4 (subject_version): {call.subject_version!r} but its "
                    f"response {response_path(version, call.subject_id, call.case_id, call.run_id)}"
                    f" has {answer!r}",
                )
        telemetry = telemetry_counts(operational, answered)
    digest = hashlib.sha256()
    parts = [golds_result.digest, registry_digest, *digests_of_groups(partitions)]
    if operational.has_telemetry:
        # Telemetry is an input only where it exists: a corpus without it keeps its digest.
        parts.append(operational.digest)
    # So are the reviewer registry and the annotations (their problems are the per-run
    # step's and the annotations' reader's; a file too large to read is digested by name).
    optional = optional_input_digests(corpus, max_bytes)
    parts += [f"{path}\t{file_digest}" for path, file_digest in optional]
    for part in parts:
        digest.update(part.encode("ascii") + b"\n")
    verdict = Verdict(
        inputs_digest=digest.hexdigest(),
        n_files=sum(p.n_files for p in partitions)
        + golds_result.n_files
        + 1
        + operational.n_files
        + len(optional),
        n_scored_runs=sum(row.n_scored for row in versions),
        coverage=coverage_rows(versions, registry or {}, telemetry),
        subjects=subjects or {},
        tracks=[Track(*key, track) for key, track in sorted(tracks.items())],
        has_telemetry=operational.has_telemetry,
    )
    input_files = [
        *golds_result.file_digests,
        *([InputDigest(REGISTRY, registry_digest)] if registry_digest else []),
        *(entry for partition in partitions for entry in partition.file_digests),
        *optional,
    ]
    input_files.sort()
    return CrossCheckResult(problems, unscored, verdict, input_files)


def optional_input_digests(corpus: Path, max_bytes: int) -> list[InputDigest]:
    """The digest of each of layout.OPTIONAL_INPUTS the corpus has (subjects/reviewers.yaml,
    subjects/annotations.yaml), by path. A file larger than max_bytes is not read (its
    reader reports it): its digest is of its size instead, so a change still shows."""
    found = []
    for name in OPTIONAL_INPUTS:
        path = Path(corpus) / name
        if not path.is_file():
            continue
        size = path.stat().st_size
        content = path.read_bytes() if size <= max_bytes else f"size {size}".encode()
        found.append(InputDigest(name, hashlib.sha256(content).hexdigest()))
    return found


# The inputs digest covers the responses and scorings in this many fixed groups of
# subject folders (by partition_of): the load partitions of the workflow's first
# releases, whose count was fixed. The load jobs' partitions are sized to the corpus
# now; the digest stays the one the published metadata.json and every snapshot taken
# before record, for any `partitions` setting.
DIGEST_GROUPS = 8


def digests_of_groups(partitions: list[PartitionSummary]) -> list[str]:
    """SHA-256 over the "path<TAB>digest" lines, sorted by path, of the read files of
    each of the DIGEST_GROUPS groups, in group order (an empty group included)."""
    groups = {group: [] for group in partition_ids(DIGEST_GROUPS)}
    group_of_folder: dict[str, list] = {}  # 175,000 files, 100 subject folders at size L
    for partition in partitions:
        for path, file_digest in partition.file_digests:
            folder = path.split("/")[2]
            group = group_of_folder.get(folder)
            if group is None:
                group = group_of_folder[folder] = groups[partition_of(folder, DIGEST_GROUPS)]
            group.append((path, file_digest))
    return [
        hashlib.sha256(
            "".join(f"{path}\t{file_digest}\n" for path, file_digest in sorted(lines)).encode()
        ).hexdigest()
        for lines in groups.values()
    ]


class ResponseVersions:
    """(subject_id, case_id, run_id) → subject_version of a valid response.

    A subject whose responses all have one version needs no lookup. Only for a subject
    with several versions are its partition's scored runs read (the unscored responses
    are in the summaries), so the check costs nothing at the usual one version per
    subject, and one partition's runs per subject with several.
    """

    def __init__(self, versions: list[VersionCount], unscored, runs_files: dict[str, str]):
        self.of_subject = defaultdict(set)
        for row in versions:
            self.of_subject[row.subject_id].add(row.subject_version)
        several = {subject for subject, found in self.of_subject.items() if len(found) > 1}
        self.answered = {
            (subject, case_id, run_id): version
            for subject, version, case_id, run_id in unscored
            if subject in several
        }
        wanted = {partition_of(subject, len(runs_files)) for subject in several}
        for partition in sorted(wanted):
            for run in read_scored_runs(runs_files[partition]):
                if run.subject_id in several:
                    key = (run.subject_id, run.case_id, run.run_id)
                    self.answered[key] = run.subject_version

    def get(self, key: tuple[str, str, str]) -> str | None:
        found = self.of_subject.get(key[0])
        if not found:
            return None
        if len(found) == 1:
            return next(iter(found))
        return self.answered.get(key)


def telemetry_counts(
    operational: OperationalSummary, answered: ResponseVersions
) -> dict[tuple, list[int]]:
    """The four telemetry columns of coverage.csv per (subject_id, subject_version):
    counted runs, responses without a passing call, latest calls without usage and
    passing calls without a response, per subject version (a response's own version for
    a response without a call, the telemetry's for a call without a response)."""
    counts = defaultdict(lambda: [0, 0, 0, 0])
    for call in operational.counted:
        counts[(call.subject_id, call.subject_version)][0] += 1
    for subject_id, case_id, run_id in operational.without_call:
        answer = answered.get((subject_id, case_id, run_id))
        if answer is not None:  # an invalid response is reported on its own
            counts[(subject_id, answer)][1] += 1
    for call in operational.without_usage:
        counts[(call.subject_id, call.subject_version)][2] += 1
    for call in operational.without_response:
        counts[(call.subject_id, call.subject_version)][3] += 1
    return dict(counts)


def coverage_rows(
    versions: list[VersionCount], registry, telemetry: dict[tuple, list[int]] | None
) -> list[CoverageRow]:
    """Every registered or responding version (and, with telemetry, every version a
    passing call names): responses, scored, unscored, and the telemetry's counts ("" when
    the corpus has no telemetry)."""
    counts = dict.fromkeys(registry, (0, 0))
    for subject_id, subject_version, n_responses, n_scored, _, _ in versions:
        counts[(subject_id, subject_version)] = (n_responses, n_scored)
    if telemetry is not None:
        for key in telemetry:
            counts.setdefault(key, (0, 0))
    rows = []
    for key, (n_responses, n_scored) in sorted(counts.items()):
        extra = ["", "", "", ""] if telemetry is None else telemetry.get(key, [0, 0, 0, 0])
        rows.append(CoverageRow(*key, n_responses, n_scored, n_responses - n_scored, *extra))
    return rows


def _report_order(problem: Problem) -> tuple:
    """By file, then line number for messages that start with one (a batch log's), then text."""
    path, message = problem
    head = message.split(",", 1)[0].split(":", 1)[0]
    line = int(head[5:]) if head.startswith("line ") and head[5:].isdigit() else 0
    return path, line, message


def report(problems: list[Problem], corpus: str, log) -> str:
    """The message that stops the run: every problem, each with its file."""
    lines = [f"{corpus}/{path}: {message}" for path, message in sorted(problems, key=_report_order)]
    for line in lines:
        log.info(line)
    shown = lines[:MAX_PROBLEMS_SHOWN]
    if len(lines) > len(shown):
        shown.append(f"... and {len(lines) - len(shown)} more (all are in the log file)")
    header = (
        f"The corpus has {len(lines)} problem(s); nothing was published and the "
        "published results were left as they were:"
    )
    return "\n".join([header, *("  " + line for line in shown)])


def _first(items, describe) -> str:
    shown = ", ".join(describe(item) for item in items[:MAX_IDS_SHOWN])
    return shown + (", …" if len(items) > MAX_IDS_SHOWN else "")


def telemetry_warning(verdict: Verdict, operational: OperationalSummary) -> str | None:
    """What the operational tables leave out, with counts (per subject version for the
    responses without a call) and the first ids of each kind; None when nothing is."""

    def call(item):
        return f"{item.subject_id}/{item.case_id}/{item.run_id} ({item.where})"

    def response(item):
        return f"{item.subject_id}/{item.case_id}/{item.run_id}"

    parts = []
    if not operational.has_telemetry:
        return None
    if operational.without_response:
        parts.append(
            f"{len(operational.without_response)} passing call(s) match no response of the "
            f"corpus: {_first(operational.without_response, call)}"
        )
    if operational.without_call:
        per_version = [
            f"{row.subject_version} {row.n_responses_without_call}"
            + (" (no call at all)" if row.n_responses_without_call == row.n_responses else "")
            for row in verdict.coverage
            if row.n_responses_without_call
        ]
        parts.append(
            f"{len(operational.without_call)} response(s) have no passing call in the "
            f"telemetry ({', '.join(per_version)}): {_first(operational.without_call, response)}"
        )
    if operational.without_usage:
        parts.append(
            f"{len(operational.without_usage)} response(s) whose latest passing call lacks "
            f"its token counts or latency: {_first(operational.without_usage, call)}"
        )
    if not parts:
        return None
    return (
        "Warning: the operational tables count only the latest passing call of each "
        "response; not counted (numbers per subject version in coverage.csv): " + "; ".join(parts)
    )


def unscored_warning(unscored) -> str:
    per_version = sorted(Counter((subject, version) for subject, version, _, _ in unscored).items())
    shown = ", ".join(f"{version}: {n}" for (_, version), n in per_version[:MAX_VERSIONS_SHOWN])
    if len(per_version) > MAX_VERSIONS_SHOWN:
        shown += f", and {len(per_version) - MAX_VERSIONS_SHOWN} more subject versions"
    return (
        f"Warning: {len(unscored)} response(s) have no scoring yet and are in no metric "
        f"(see coverage.csv): {shown}"
    )
