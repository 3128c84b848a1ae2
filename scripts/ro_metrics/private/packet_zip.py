"""The packet's ZIP: a version's own machine-readable artifacts, byte-reproducible.

It holds, under one folder named for the version:
- responses/<file>: the version's responses, as submitted (their bytes);
- scorings/<file>: its scorings with their public fields only (public_scoring);
- per_run.csv, metrics_per_subject.csv, metrics_per_family.csv, critical_fails.csv:
  the version's rows of the published tables, with their header, in the published
  format (contracts/tables.py);
- MANIFEST.txt: the SHA-256 of every other file, one line each in `sha256sum` form
  (`sha256sum -c MANIFEST.txt` checks an unpacked copy).

The same files give the same bytes: the members in sorted order, each dated
1980-01-01 00:00:00 (the earliest date ZIP can hold), Unix permissions 0644, deflate
at level 9, no comment, no extra field. (Another zlib build may compress differently;
the MANIFEST's sums, of the uncompressed files, stay the same.)
"""

import hashlib
import io
import json
import zipfile

from ro_metrics.contracts.tables import table_bytes

MANIFEST = "MANIFEST.txt"
FIXED_DATE = (1980, 1, 1, 0, 0, 0)
UNIX = 3  # ZipInfo.create_system: the permissions below are Unix ones, on every machine
FILE_MODE = 0o100644  # a regular file, rw-r--r--

# A scoring's fields as the packet keeps them: those the site shows (records.PublicScoring)
# and the ids. Never `justification_long` (the premium report's), never a fail's
# `reference` (it restates the private gold's rule), never `reviewer_notes` (the
# reviewer's working notes, which cite the gold; not public either).
SCORING_FIELDS = (
    "evaluation_id",
    "benchmark_version",
    "scoring_timestamp_utc",
    "reviewer_id",
    "response_ref",
    "criterion_scores",
    "correctness",
    "automatic_fails_triggered",
)
CRITERION_FIELDS = ("score", "justification")
FAIL_FIELDS = ("type", "severity", "justification")


def public_scoring(document: dict) -> dict:
    """A scoring with its public fields only (SCORING_FIELDS), in the schema's order."""
    kept = {name: document[name] for name in SCORING_FIELDS if name in document}
    kept["criterion_scores"] = {
        name: {field: score[field] for field in CRITERION_FIELDS if field in score}
        for name, score in document["criterion_scores"].items()
    }
    kept["automatic_fails_triggered"] = [
        {field: fail[field] for field in FAIL_FIELDS if field in fail}
        for fail in document["automatic_fails_triggered"]
    ]
    return kept


def scoring_bytes(document: dict) -> bytes:
    """A public scoring as a file: indented JSON, UTF-8, a final newline."""
    return (json.dumps(public_scoring(document), ensure_ascii=False, indent=2) + "\n").encode()


def version_rows(rows: list[dict[str, str]], subject_id: str, subject_version: str) -> list:
    """The rows of a published table that belong to one version, in the file's order."""
    return [
        row
        for row in rows
        if row["subject_id"] == subject_id and row["subject_version"] == subject_version
    ]


def rows_bytes(header: list[str], rows: list[dict[str, str]]) -> bytes:
    """Rows of a published table in its format (tables.table_bytes): its texts as read."""
    return table_bytes(header, [[row[name] for name in header] for row in rows])


def sha256(content: bytes) -> str:
    return hashlib.sha256(content).hexdigest()


def manifest_bytes(files: dict[str, bytes]) -> bytes:
    """`<sha256>  <name>` per file, sorted by name: sha256sum's own format."""
    return "".join(f"{sha256(files[name])}  {name}\n" for name in sorted(files)).encode()


def packet_zip(folder: str, files: dict[str, bytes]) -> bytes:
    """The ZIP of the files (name → bytes, names relative to `folder`) and their
    MANIFEST.txt, every member under folder/ (module docstring)."""
    if MANIFEST in files:
        raise ValueError(f"{MANIFEST} is written by the packet, not given")
    members = {**files, MANIFEST: manifest_bytes(files)}
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name in sorted(members):
            info = zipfile.ZipInfo(f"{folder}/{name}", date_time=FIXED_DATE)
            info.create_system = UNIX
            info.external_attr = FILE_MODE << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, members[name], compresslevel=9)
    return buffer.getvalue()


def inputs_digest(digests: dict[str, str]) -> str:
    """The digest of a packet's inputs (name → SHA-256 of its bytes): the SHA-256 of
    their sorted `<sha256>  <name>` lines. Names are relative (a corpus file's path
    below the corpus, a published file's name), so the digest does not depend on where
    the corpus or the results are."""
    lines = "".join(f"{digests[name]}  {name}\n" for name in sorted(digests))
    return sha256(lines.encode("utf-8"))
