"""Which corpus files belong to a subject version, and where its packet lives.

A subject folder holds the responses and scorings of every version of the subject;
the version is a field inside each file (a response's `subject_version`, a scoring's
`response_ref.subject_version`). A packet depends on its own version's files only, so
that a change to another version's files does not rebuild it: the main Snakemake
process reads that one field of the files of the subjects whose packets are asked for
(private.smk), when it builds the DAG. A file that does not decode belongs to no
version here: the load step reports it, and nothing is published from such a corpus.
"""

from pathlib import Path
from typing import NamedTuple

import orjson

from ro_metrics.corpus.layout import responses_dir, scoring_dir

# The packet of a version: <results>/private/<subject_id>/<subject_version>/.
PRIVATE_FOLDER = "private"
# The report in each language (English, the default, is always made), its PDF and ZIP.
REPORT_PAGES = {"en": "report.html", "es": "report.es.html"}
REPORT_PDFS = {"en": "report.pdf", "es": "report.es.pdf"}


class VersionFiles(NamedTuple):
    """A version's corpus files, relative to the corpus root, sorted."""

    responses: list[str]
    scorings: list[str]


def packet_folder(results: str, subject_id: str, subject_version: str) -> str:
    return f"{results}/{PRIVATE_FOLDER}/{subject_id}/{subject_version}"


def zip_name(subject_version: str) -> str:
    return f"{subject_version}.zip"


def folder_name_problem(subject_version: str) -> str | None:
    """Why a subject_version (free text) cannot name its packet's folder, or None."""
    if subject_version in {".", ".."} or "/" in subject_version or "\\" in subject_version:
        return f"subject_version {subject_version!r} cannot name a folder"
    if any(ord(char) < 0x20 or char == "\x7f" for char in subject_version):
        return f"subject_version {subject_version!r} holds a control character"
    return None


def _json_files(folder: Path) -> list[Path]:
    """The JSON files of a subject folder (dot-files and the runners' _errors/ aside)."""
    if not folder.is_dir():
        return []
    return sorted(
        path
        for path in folder.iterdir()
        if path.suffix == ".json" and not path.name.startswith(".") and path.is_file()
    )


def _version_field(path: Path, scoring: bool) -> str | None:
    try:
        document = orjson.loads(path.read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return None
    if scoring:
        document = document.get("response_ref") if isinstance(document, dict) else None
    value = document.get("subject_version") if isinstance(document, dict) else None
    return value if isinstance(value, str) else None


def subject_versions(corpus: Path, benchmark_version: str, subject_id: str) -> dict:
    """subject_version → VersionFiles of one subject's folder, every version found."""
    found: dict[str, VersionFiles] = {}
    for kind, folder in (
        ("responses", corpus / responses_dir(benchmark_version) / subject_id),
        ("scorings", corpus / scoring_dir(benchmark_version) / subject_id),
    ):
        for path in _json_files(folder):
            version = _version_field(path, scoring=kind == "scorings")
            if version is not None:
                files = found.setdefault(version, VersionFiles([], []))
                getattr(files, kind).append(path.relative_to(corpus).as_posix())
    return found


def evaluated_versions(corpus: Path, benchmark_version: str) -> list[tuple[str, str]]:
    """(subject_id, subject_version) of every version with a scoring, sorted."""
    root = corpus / scoring_dir(benchmark_version)
    subjects = sorted(p.name for p in root.iterdir() if p.is_dir()) if root.is_dir() else []
    return sorted(
        (subject_id, version)
        for subject_id in subjects
        for version, files in subject_versions(corpus, benchmark_version, subject_id).items()
        if files.scorings
    )
