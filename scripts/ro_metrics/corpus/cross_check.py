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
    REGISTRY,
    response_path,
    responses_dir,
    scoring_path,
)

# The terminal gets the head of a long list; the log file always has all of it.
MAX_PROBLEMS_SHOWN = 200
MAX_VERSIONS_SHOWN = 10


# What the leaderboard shows of a registered subject (public registry fields).
SUBJECT_FIELDS = ("kind", "provider", "description")


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
        subject["subject_id"]: {field: subject.get(field) for field in SUBJECT_FIELDS}
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


def duplicate_evaluation_ids(partitions: list[PartitionSummary]) -> list[Problem]:
    """Every scoring whose evaluation_id another scoring of the corpus also has."""
    files = defaultdict(list)
    for partition in partitions:
        for evaluation_id, path in partition.evaluation_ids:
            files[evaluation_id].append(path)
    problems = []
    for evaluation_id, paths in sorted(files.items()):
        if len(paths) > 1:
            for path in sorted(paths):
                others = ", ".join(other for other in sorted(paths) if other != path)
                problems.append(
                    Problem(
                        path,
                        f"evaluation_id: {evaluation_id!r} is not unique across the corpus "
                        f"(also in: {others})",
                    )
                )
    return problems


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
    runs_files,
    golds_result: GoldsSummary,
    layout,
    registry_schema,
    corpus: Path,
    version,
    strict,
    max_bytes,
) -> CrossCheckResult:
    """Every problem of the corpus, or (with none) the verdict the later steps build on."""
    problems = []

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
    problems.extend(duplicate_evaluation_ids(partitions))
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
        for path in runs_files:
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
    digest = hashlib.sha256()
    for part in [golds_result.digest, registry_digest] + [p.digest for p in partitions]:
        digest.update(part.encode("ascii") + b"\n")
    verdict = Verdict(
        inputs_digest=digest.hexdigest(),
        n_files=sum(p.n_files for p in partitions) + golds_result.n_files + 1,
        n_scored_runs=sum(row.n_scored for row in versions),
        coverage=coverage_rows(versions, registry or {}),
        subjects=subjects or {},
        tracks=[Track(*key, track) for key, track in sorted(tracks.items())],
    )
    input_files = [
        *golds_result.file_digests,
        *([InputDigest(REGISTRY, registry_digest)] if registry_digest else []),
        *(entry for partition in partitions for entry in partition.file_digests),
    ]
    input_files.sort()
    return CrossCheckResult(problems, unscored, verdict, input_files)


def coverage_rows(versions: list[VersionCount], registry) -> list[CoverageRow]:
    """Every registered or responding version: responses, scored, unscored."""
    counts = dict.fromkeys(registry, (0, 0))
    for subject_id, subject_version, n_responses, n_scored, _, _ in versions:
        counts[(subject_id, subject_version)] = (n_responses, n_scored)
    return [
        CoverageRow(subject_id, subject_version, n_responses, n_scored, n_responses - n_scored)
        for (subject_id, subject_version), (n_responses, n_scored) in sorted(counts.items())
    ]


def report(problems: list[Problem], corpus: str, log) -> str:
    """The message that stops the run: every problem, each with its file."""
    lines = [f"{corpus}/{path}: {message}" for path, message in sorted(problems)]
    for line in lines:
        log.info(line)
    shown = lines[:MAX_PROBLEMS_SHOWN]
    if len(lines) > len(shown):
        shown.append(f"... and {len(lines) - len(shown)} more (all are in the log file)")
    header = (
        f"The corpus has {len(lines)} problem(s); nothing was computed and the "
        "published results were left as they were:"
    )
    return "\n".join([header, *("  " + line for line in shown)])


def unscored_warning(unscored) -> str:
    per_version = sorted(Counter((subject, version) for subject, version, _, _ in unscored).items())
    shown = ", ".join(f"{version}: {n}" for (_, version), n in per_version[:MAX_VERSIONS_SHOWN])
    if len(per_version) > MAX_VERSIONS_SHOWN:
        shown += f", and {len(per_version) - MAX_VERSIONS_SHOWN} more subject versions"
    return (
        f"Warning: {len(unscored)} response(s) have no scoring yet and are in no metric "
        f"(see coverage.csv): {shown}"
    )
