"""Where things live in a corpus, and how it is split into partitions.

A corpus is partitioned by subject folder: every subject folder (under both
``responses/<version>/`` and ``scoring/<version>/``) belongs to one of a number of
partitions chosen by a stable hash of its name, so all the runs of a subject version are
in one partition. The partition is a wildcard of the workflow: its load, per-run,
metrics and version-page jobs rerun only when one of its files changes. The main
Snakemake process lists the corpus once when it builds the DAG (scan_corpus: one stat
per entry) and gives each job the digest of the part it reads; the job lists that part
again itself (partition_entries, gold_entries, ...) and reads it.

The number is the configuration's, or with ``partitions: auto`` sized to the corpus:
one partition per FILES_PER_PARTITION response and scoring files, rounded up to a
power of two, at most AUTO_MAX_PARTITIONS. Each load job costs a fixed ~0.3 s (a
process, Snakemake's script preamble), and a rerun re-checks its whole partition
(by stat): a small corpus is best read by one job, a large one by partitions small
enough that one new scoring re-checks few files. Powers of two: a growing corpus
changes its partitions (and re-reads them once) only when it doubles.
"""

import hashlib
import math
import os
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

REGISTRY = "subjects/registry.yaml"
# The reviewer registry (multi-reviewer.md): optional with one reviewer per run.
REVIEWERS = "subjects/reviewers.yaml"
# The subjects' annotations: optional; an input of the results where present.
ANNOTATIONS = "subjects/annotations.yaml"
# The optional files of subjects/ that are inputs where present: their digests enter
# input_files.csv and the inputs digest (a corpus without them keeps its digest).
OPTIONAL_INPUTS = (REVIEWERS, ANNOTATIONS)
# The runner's telemetry: one CSV per batch of calls (telemetry.md).
BATCH_LOGS = "logs/batch_logs"
BATCH_LOG_SUFFIX = ".csv"
# Runner error logs kept beside a subject's responses; not artifacts.
RUNNER_ERRORS_FOLDER = "_errors"

FILE, FOLDER, MISSING, OUTSIDE = "file", "folder", "missing", "outside"
# What a load job reports for an entry of the corpus scan that is not a file to read.
NOT_A_FILE = {
    FOLDER: "unexpected folder (not part of the corpus layout)",
    OUTSIDE: "symbolic link to a place outside the corpus; not followed",
    MISSING: "is missing",
}


@dataclass(frozen=True)
class Entry:
    """One line of the corpus scan: an entry of the corpus, relative to its root."""

    kind: str
    path: str
    size: int = 0
    mtime_ns: int = 0
    ctime_ns: int = 0


def responses_dir(version: str) -> str:
    return f"responses/{version}"


def scoring_dir(version: str) -> str:
    return f"scoring/{version}"


def golds_dir(version: str) -> str:
    return f"golds/{version}"


def statements_dir(version: str) -> str:
    """The public case statements' folder (optional: corpus/statements.py)."""
    return f"cases/{version}"


def response_path(benchmark_version, subject_id, case_id, run_id) -> str:
    return f"{responses_dir(benchmark_version)}/{subject_id}/{case_id}__{run_id}.json"


def scoring_path(benchmark_version, subject_id, case_id, run_id, reviewer_id) -> str:
    folder = f"{scoring_dir(benchmark_version)}/{subject_id}"
    return f"{folder}/{case_id}__{run_id}__eval-{reviewer_id}.json"


def gold_path(benchmark_version, case_id) -> str:
    return f"{golds_dir(benchmark_version)}/{case_id}_gold.md"


# A rerun after one new scoring re-checks its whole partition (by stat, ~85 µs an entry
# with the bookkeeping) besides paying a job's fixed ~0.3 s: 4,000 files cost about
# that much again. Fewer, larger partitions made that rerun 1 s slower at 30,000 files.
FILES_PER_PARTITION = 4_000
AUTO_MAX_PARTITIONS = 8


def auto_partitions(n_files: int) -> int:
    """The number of partitions for a corpus of n_files responses and scorings."""
    needed = max(1, math.ceil(n_files / FILES_PER_PARTITION))
    return min(AUTO_MAX_PARTITIONS, 1 << (needed - 1).bit_length())


def partition_id(index: int, n_partitions: int) -> str:
    """The id of partition `index` of n_partitions: zero-padded to the width of the last."""
    return f"{index:0{len(str(n_partitions - 1))}d}"


def partition_ids(n_partitions: int) -> list[str]:
    return [partition_id(index, n_partitions) for index in range(n_partitions)]


def partition_of(subject_folder: str, n_partitions: int) -> str:
    """The partition of a subject folder: stable across runs, machines and Pythons."""
    index = zlib.crc32(subject_folder.encode("utf-8")) % n_partitions
    return partition_id(index, n_partitions)


def _is_ignored(name: str) -> bool:
    return name.startswith(".")


def _line(kind: str, relative: str, stat=None) -> str:
    if stat is None:
        return f"{kind}\t{relative}\t0\t0\t0\n"
    return f"{kind}\t{relative}\t{stat.st_size}\t{stat.st_mtime_ns}\t{stat.st_ctime_ns}\n"


def _leaves(root: Path, item) -> bool:
    """A symbolic link to a place outside the corpus (never followed, only reported)."""
    if not item.is_symlink():
        return False
    target = os.path.realpath(item.path)
    inside = os.path.realpath(root)
    return target != inside and not target.startswith(inside + os.sep)


def _scan_folder(root: str, relative: str, skip: frozenset, stat: bool = True) -> list[str]:
    # Lines are built directly: this runs on every file at every start. The change time
    # is kept too: unlike the modification time it cannot be set back. Without stat,
    # the sizes and times are 0 (a count or a list of paths).
    lines = []
    with os.scandir(f"{root}/{relative}") as listing:
        for item in listing:
            name = item.name
            if name[0] == "." or name in skip:
                continue
            if _leaves(root, item):
                lines.append(f"{OUTSIDE}\t{relative}/{name}\t0\t0\t0\n")
            elif item.is_dir():
                lines.append(f"{FOLDER}\t{relative}/{name}\t0\t0\t0\n")
            elif not stat:
                lines.append(f"{FILE}\t{relative}/{name}\t0\t0\t0\n")
            else:
                info = item.stat()
                lines.append(
                    f"{FILE}\t{relative}/{name}\t{info.st_size}\t{info.st_mtime_ns}"
                    f"\t{info.st_ctime_ns}\n"
                )
    return lines


def group_partitions(subjects: dict[str, list[str]], n_partitions: int) -> dict[str, list[str]]:
    """The corpus scan's lines of each subject folder, grouped by partition and sorted."""
    partitions = {pid: [] for pid in partition_ids(n_partitions)}
    for name, lines in subjects.items():
        partitions[partition_of(name, n_partitions)].extend(lines)
    for lines in partitions.values():
        lines.sort()
    return partitions


def scan_subject_folders(
    root: Path, version: str, stat: bool = True, only=None
) -> dict[str, list[str]]:
    """The lines of every response and scoring entry, by subject folder name (an entry
    directly under responses/ or scoring/ counts as a folder of its own name); only the
    folders whose name `only` accepts, if given."""
    subjects: dict[str, list[str]] = {}
    for top, skip in (
        (responses_dir(version), frozenset({RUNNER_ERRORS_FOLDER})),
        (scoring_dir(version), frozenset()),
    ):
        if not (root / top).is_dir():
            continue
        with os.scandir(root / top) as listing:
            for item in listing:
                if _is_ignored(item.name) or (only is not None and not only(item.name)):
                    continue
                relative = f"{top}/{item.name}"
                lines = subjects.setdefault(item.name, [])
                if _leaves(root, item):
                    lines.append(_line(OUTSIDE, relative))
                elif item.is_dir():
                    lines.extend(_scan_folder(str(root), relative, skip, stat))
                else:
                    lines.append(_line(FILE, relative, item.stat() if stat else None))
    return subjects


def scan_golds(root: Path, version: str) -> list[str]:
    top = golds_dir(version)
    if not (root / top).is_dir():
        return [_line(MISSING, top)]
    return sorted(_scan_folder(str(root), top, frozenset()))


def scan_statements(root: Path, version: str) -> list[str]:
    """The lines of the case statements' folder; none when the corpus has none."""
    top = statements_dir(version)
    if not (root / top).is_dir():
        return []
    return sorted(_scan_folder(str(root), top, frozenset()))


def scan_layout(root: Path, version: str) -> list[str]:
    """The registry and whether each artifact folder exists."""
    registry = root / REGISTRY
    if registry.is_symlink() and not os.path.realpath(registry).startswith(
        os.path.realpath(root) + os.sep
    ):
        lines = [_line(OUTSIDE, REGISTRY)]
    elif registry.is_file():
        lines = [_line(FILE, REGISTRY, registry.stat())]
    else:
        lines = [_line(MISSING, REGISTRY)]
    for top in (responses_dir(version), scoring_dir(version), golds_dir(version)):
        lines.append(_line(FOLDER if (root / top).is_dir() else MISSING, top))
    return lines


def scan_telemetry(root: Path, stat: bool = True) -> list[str]:
    """The lines of the batch logs; none when the corpus has no telemetry.

    Only ``*.csv`` files are batch logs (dot-files and other names are ignored); a
    folder or a link out of the corpus named like one is listed, to be reported.
    """
    folder = root / BATCH_LOGS
    if not folder.is_dir():
        return []
    inside = os.path.realpath(root) + os.sep
    if not os.path.realpath(folder).startswith(inside):
        return [_line(OUTSIDE, BATCH_LOGS)]
    lines = _scan_folder(str(root), BATCH_LOGS, frozenset(), stat)
    return sorted(line for line in lines if line.split("\t", 2)[1].endswith(BATCH_LOG_SUFFIX))


def response_paths(root: Path, version: str) -> list[str]:
    """The response files' paths, sorted: what the operational step matches the
    telemetry against (it needs their existence, not their content). Names only."""
    return sorted(
        entry.path
        for lines in scan_subject_folders(root, version, stat=False).values()
        for entry in map(entry_of, lines)
        if entry.kind == FILE and entry.path.startswith(responses_dir(version) + "/")
    )


def entry_of(line: str) -> Entry:
    kind, relative, size, mtime_ns, ctime_ns = line.rstrip("\n").split("\t")
    return Entry(kind, relative, int(size), int(mtime_ns), int(ctime_ns))


def partition_entries(root: Path, version: str, partition: str, n_partitions: int) -> list[Entry]:
    """The entries of one partition's subject folders, sorted by path: what its load job
    reads."""
    subjects = scan_subject_folders(
        root, version, only=lambda name: partition_of(name, n_partitions) == partition
    )
    return [
        entry_of(line) for line in sorted(line for lines in subjects.values() for line in lines)
    ]


def gold_entries(root: Path, version: str) -> list[Entry]:
    return [entry_of(line) for line in scan_golds(root, version)]


def statement_entries(root: Path, version: str) -> list[Entry]:
    return [entry_of(line) for line in scan_statements(root, version)]


def layout_entries(root: Path, version: str) -> list[Entry]:
    return [entry_of(line) for line in scan_layout(root, version)]


def telemetry_entries(root: Path) -> list[Entry]:
    return [entry_of(line) for line in scan_telemetry(root)]


def has_telemetry(root: Path) -> bool:
    """Whether the corpus has batch logs (its operational tables are then published)."""
    return bool(scan_telemetry(root, stat=False))


class CorpusScan(NamedTuple):
    """The digest of what each job reads of the corpus: the path, size, modification
    and change time of every entry (a file copied in with an old modification time still
    has a new change time). Each is a parameter of its job, so that a change reruns it."""

    n_partitions: int
    partitions: dict[str, str]  # partition id → its subject folders' entries
    golds: str
    layout: str  # the registry and whether each artifact folder exists
    telemetry: str
    responses: str  # which responses exist (their paths), for the operational step
    reviewers: str  # subjects/reviewers.yaml
    optional_inputs: str  # OPTIONAL_INPUTS (the cross-check digests them)
    statements: str  # the case statements' folder (cases/<version>/)
    annotations: str  # subjects/annotations.yaml


def _digest(lines) -> str:
    return hashlib.sha256("".join(lines).encode("utf-8")).hexdigest()


def scan_corpus(root: Path, version: str, setting: int | str) -> CorpusScan:
    """List the whole corpus once (one stat per entry) into the digests of CorpusScan;
    `setting`: the number of partitions, or "auto" (sized to the corpus)."""
    subjects = scan_subject_folders(root, version)
    n_partitions = (
        auto_partitions(sum(len(lines) for lines in subjects.values()))
        if setting == "auto"
        else int(setting)
    )
    partitions = group_partitions(subjects, n_partitions)
    responses = response_paths_of(partitions, version)
    reviewers = root / REVIEWERS
    annotations = root / ANNOTATIONS
    return CorpusScan(
        n_partitions=n_partitions,
        partitions={pid: _digest(lines) for pid, lines in partitions.items()},
        golds=_digest(scan_golds(root, version)),
        layout=_digest(scan_layout(root, version)),
        telemetry=_digest(scan_telemetry(root)),
        responses=_digest(responses),
        reviewers=_digest(
            [_line(FILE, REVIEWERS, reviewers.stat())] if reviewers.is_file() else []
        ),
        optional_inputs=_digest(
            [
                _line(FILE, name, (root / name).stat())
                for name in OPTIONAL_INPUTS
                if (root / name).is_file()
            ]
        ),
        statements=_digest(scan_statements(root, version)),
        annotations=_digest(
            [_line(FILE, ANNOTATIONS, annotations.stat())] if has_annotations(root) else []
        ),
    )


def has_annotations(root: Path) -> bool:
    """Whether the corpus has subjects/annotations.yaml (annotations.csv is then
    published, and leaderboard.csv has its annotations column)."""
    return (root / ANNOTATIONS).is_file()


def response_paths_of(partitions: dict[str, list[str]], version: str) -> list[str]:
    prefix = f"{FILE}\t{responses_dir(version)}/"
    return sorted(
        line.split("\t", 2)[1] + "\n"
        for lines in partitions.values()
        for line in lines
        if line.startswith(prefix)
    )
