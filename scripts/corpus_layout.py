"""Where things live in a corpus, and the manifests that drive incremental loads.

A corpus is partitioned by subject folder: every subject folder (under both
``responses/<version>/`` and ``scoring/<version>/``) belongs to one of a fixed
number of partitions chosen by a stable hash of its name. Each partition has a
small manifest (path, size, mtime of every entry) that is rewritten only when
its content changes, so Snakemake re-runs only the load jobs whose files changed.
"""

import os
import re
import zlib
from dataclasses import dataclass
from pathlib import Path

CASE_ID = r"RO-(?:OXID|SCAL|FOUL|MECH|NOWE)-[0-9]{3}"
RUN_ID = r"run-[0-9]{4}-[0-9]{2}-[0-9]{2}-[0-9]{3}"
SUBJECT_ID_RE = re.compile(r"[a-z0-9][a-z0-9_-]{1,63}")
RESPONSE_NAME_RE = re.compile(rf"(?P<case_id>{CASE_ID})__(?P<run_id>{RUN_ID})\.json")
SCORING_NAME_RE = re.compile(
    rf"(?P<case_id>{CASE_ID})__(?P<run_id>{RUN_ID})__eval-(?P<reviewer_id>[^/]+)\.json"
)
GOLD_NAME_RE = re.compile(rf"(?P<case_id>{CASE_ID})_gold\.md")

REGISTRY = "subjects/registry.yaml"
# Runner error logs kept beside a subject's responses; not artifacts.
RUNNER_ERRORS_FOLDER = "_errors"

FILE, FOLDER, MISSING = "file", "folder", "missing"


@dataclass(frozen=True)
class Entry:
    """One line of a manifest: an entry of the corpus, relative to its root."""

    kind: str
    path: str
    size: int = 0
    mtime_ns: int = 0

    def line(self) -> str:
        return f"{self.kind}\t{self.path}\t{self.size}\t{self.mtime_ns}\n"


def responses_dir(version: str) -> str:
    return f"responses/{version}"


def scoring_dir(version: str) -> str:
    return f"scoring/{version}"


def golds_dir(version: str) -> str:
    return f"golds/{version}"


def partition_ids(n_partitions: int) -> list[str]:
    width = len(str(n_partitions - 1))
    return [f"{index:0{width}d}" for index in range(n_partitions)]


def partition_of(subject_folder: str, n_partitions: int) -> str:
    """The partition of a subject folder: stable across runs, machines and Pythons."""
    index = zlib.crc32(subject_folder.encode("utf-8")) % n_partitions
    return partition_ids(n_partitions)[index]


def _is_ignored(name: str) -> bool:
    return name.startswith(".")


def _entry(kind: str, root: Path, relative: str, stat=None) -> Entry:
    if stat is None:
        return Entry(kind, relative)
    return Entry(kind, relative, stat.st_size, stat.st_mtime_ns)


def _scan_subject_folder(root: Path, relative: str, skip: frozenset) -> list[Entry]:
    entries = []
    with os.scandir(root / relative) as listing:
        for item in listing:
            if _is_ignored(item.name) or item.name in skip:
                continue
            path = f"{relative}/{item.name}"
            if item.is_dir():
                entries.append(_entry(FOLDER, root, path))
            else:
                entries.append(_entry(FILE, root, path, item.stat()))
    return entries


def scan_partitions(root: Path, version: str, n_partitions: int) -> dict[str, list]:
    """Every response and scoring entry of the corpus, grouped by partition."""
    partitions = {pid: [] for pid in partition_ids(n_partitions)}
    for top, skip in (
        (responses_dir(version), frozenset({RUNNER_ERRORS_FOLDER})),
        (scoring_dir(version), frozenset()),
    ):
        if not (root / top).is_dir():
            continue
        with os.scandir(root / top) as listing:
            for item in listing:
                if _is_ignored(item.name):
                    continue
                relative = f"{top}/{item.name}"
                bucket = partitions[partition_of(item.name, n_partitions)]
                if item.is_dir():
                    bucket.extend(_scan_subject_folder(root, relative, skip))
                else:
                    bucket.append(_entry(FILE, root, relative, item.stat()))
    for entries in partitions.values():
        entries.sort(key=lambda entry: entry.path)
    return partitions


def scan_golds(root: Path, version: str) -> list[Entry]:
    top = golds_dir(version)
    if not (root / top).is_dir():
        return [Entry(MISSING, top)]
    return sorted(_scan_subject_folder(root, top, frozenset()), key=lambda entry: entry.path)


def scan_layout(root: Path, version: str) -> list[Entry]:
    """The registry and whether each artifact folder exists."""
    entries = []
    registry = root / REGISTRY
    if registry.is_file():
        entries.append(_entry(FILE, root, REGISTRY, registry.stat()))
    else:
        entries.append(Entry(MISSING, REGISTRY))
    for top in (responses_dir(version), scoring_dir(version), golds_dir(version)):
        entries.append(Entry(FOLDER if (root / top).is_dir() else MISSING, top))
    return entries


def write_manifest(path: Path, entries: list[Entry]) -> bool:
    """Write a manifest only if its content changed; True if it was (re)written."""
    content = "".join(entry.line() for entry in entries)
    try:
        if path.read_text(encoding="utf-8") == content:
            return False
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    staging = path.with_name(path.name + ".tmp")
    staging.write_text(content, encoding="utf-8")
    os.replace(staging, path)
    return True


def read_manifest(path: Path) -> list[Entry]:
    entries = []
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        kind, relative, size, mtime_ns = line.split("\t")
        entries.append(Entry(kind, relative, int(size), int(mtime_ns)))
    return entries


def refresh_manifests(root: Path, version: str, n_partitions: int, manifest_dir: Path) -> None:
    """Bring every manifest of the corpus up to date (called when the DAG is built)."""
    for pid, entries in scan_partitions(root, version, n_partitions).items():
        write_manifest(manifest_dir / f"partition-{pid}.tsv", entries)
    write_manifest(manifest_dir / "golds.tsv", scan_golds(root, version))
    write_manifest(manifest_dir / "layout.tsv", scan_layout(root, version))
