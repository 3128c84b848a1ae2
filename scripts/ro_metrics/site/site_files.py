"""The static site's files: where each page lives (in each language's edition), and
writing only the pages that change.

A site job writes many pages (one job per partition writes its subject versions'
pages; one job writes the case pages and the index), each in every language, so that
one added scoring costs two jobs, not a job per page. Each job keeps a manifest
(records.PageManifest) of the pages it wrote: the digest of what a page is rendered
from, the SHA-256 of its bytes, and its size and mtime after writing. A page whose
inputs digest is unchanged and whose file is still as written is neither rendered nor
written; a page rendered anew to the same bytes is not written either. So a rerun
rewrites exactly the pages whose content changed (their mtimes show it), and the job
log lists them.

The index job's manifest is the manifest of the whole site: its own pages and the
subject-version pages. A page it listed that no job renders any more (a subject
version without scored runs now) is removed; files the site folder holds that no job
ever wrote are left alone.

When the workflow starts, `drop_outdated_manifests` compares each manifest with the
site folder: a manifest whose pages are missing or were changed since they were
written (or that describes another site folder) is removed, so its job runs again
and restores them.

What the case pages and the index show of each subject version (its rows of each case
page and its row of the index's matrix, in each language) is rendered by the version's
partition's job and handed on in the cache: per partition a small JSON file,
`partition-N.parts.json`, of its versions' records.VersionParts (matrix rows; per case
the counts and the SHA-256 of the rows), and a rows file per case it has runs of,
`partition-N.cases/<case_id>.json` (case_rows_path), of its versions' rows of that case.
The case pages job reads every partition's small file and, per case, takes the page's
inputs digest over the counts and digests it gathers; it reads the rows files only of
the case pages whose inputs changed, the ones it assembles and writes again.
"""

import hashlib
import os
import posixpath
import re
from pathlib import Path

from ro_metrics.contracts.files import remove_stale_staging, write_bytes_atomic
from ro_metrics.contracts.records import PageManifest, read_page_manifest, write_page_manifest
from ro_metrics.rendering.translations import ENGLISH

INDEX = "index.html"
FINDINGS = "findings.html"  # the findings page (site/findings_page.py)
_SAFE_VERSION = re.compile(r"[a-z0-9][a-z0-9._-]{0,79}")


def version_page(subject_id: str, subject_version: str) -> str:
    """versions/<subject_id>/<version>.html, relative to the site root.

    subject_id is a lower-case slug (its schema); subject_version is free text, so
    it is used as the file name only when it is a short lower-case slug itself
    (safe on every file system, case-insensitive ones included); otherwise its
    characters outside [a-z0-9._-] become "-" and a digest of the exact text is
    appended, so that two versions never share a page.
    """
    if _SAFE_VERSION.fullmatch(subject_version) and ".." not in subject_version:
        name = subject_version
    else:
        slug = re.sub(r"[^a-z0-9._-]+", "-", subject_version.lower()).strip("-.")[:60]
        digest = hashlib.sha256(subject_version.encode("utf-8")).hexdigest()[:10]
        name = f"{slug}-{digest}" if slug else f"version-{digest}"
    return f"versions/{subject_id}/{name}.html"


def edition_page(page: str, code: str) -> str:
    """A page (its path in the site's layout) in the edition of one language: English,
    the default, at the site root; another language under <code>/, the same layout
    again, so that the relative links inside an edition are the same in each."""
    return page if code == ENGLISH else f"{code}/{page}"


def prints_answers(code: str) -> bool:
    """Whether the version pages of edition `code` print the responses' texts: only the
    default edition's (English) do. The texts are the model's own words, never
    translated, so every other edition shows them nowhere and links to them instead
    (answer_page): they are in the site once."""
    return code == ENGLISH


def answer_page(page: str) -> str:
    """Where the answers of a version page (page: its path in the site's layout) are
    printed: the same page in the default edition, whatever the edition linking to it."""
    return edition_page(page, ENGLISH)


def case_page(case_id: str) -> str:
    """cases/<case_id>.html (a case_id is RO-<FAMILY>-<NNN>: safe as it is)."""
    return f"cases/{case_id}.html"


def case_rows_folder(parts_path) -> Path:
    """partition-N.cases/, beside the partition's parts file partition-N.parts.json."""
    parts_path = Path(parts_path)
    return parts_path.with_name(parts_path.name.removesuffix(".parts.json") + ".cases")


def case_rows_path(parts_path, case_id: str) -> Path:
    """The partition's rows file of a case: partition-N.cases/<case_id>.json."""
    return case_rows_folder(parts_path) / f"{case_id}.json"


def run_anchor(case_id: str, run_id: str) -> str:
    """The id of a run's article on its subject-version page (one run per case and run)."""
    return f"{case_id}__{run_id}"


def href(from_page: str, to_page: str, anchor: str = "") -> str:
    """A relative link from one page of the site to another (and an anchor in it)."""
    target = posixpath.relpath(to_page, posixpath.dirname(from_page) or ".")
    return f"{target}#{anchor}" if anchor else target


def digest_of(*parts: bytes) -> str:
    """The inputs digest of a page: SHA-256 over the bytes it is rendered from."""
    digest = hashlib.sha256()
    for part in parts:
        digest.update(len(part).to_bytes(8, "big"))
        digest.update(part)
    return digest.hexdigest()


def code_fingerprint(modules, *parameters) -> str:
    """What every page of a job depends on besides its data: the code (the job's code
    stamp, module_graph.py) and its parameters."""
    digest = hashlib.sha256("\n".join(str(p) for p in parameters).encode("utf-8"))
    for path in modules:
        digest.update(Path(path).read_bytes())
    return digest.hexdigest()


def _on_disk(path: Path) -> list[int] | None:
    try:
        stat = path.stat()
    except FileNotFoundError:
        return None
    return [stat.st_size, stat.st_mtime_ns]


class PageWriter:
    """Writes one job's pages into the site folder, each only if its bytes changed."""

    def __init__(self, site: Path, manifest_path, fingerprint: str):
        self.site = Path(site).absolute()
        self.fingerprint = fingerprint
        previous = read_page_manifest(manifest_path)
        self.previous = previous.pages if previous and previous.site == str(self.site) else {}
        self.same_code = previous is not None and previous.fingerprint == fingerprint
        self.pages: dict[str, list] = {}
        self.written: list[str] = []
        self.swept: set[Path] = set()  # folders cleared of a killed run's staging files

    def is_current(self, page: str, inputs_digest: str) -> bool:
        """True (and the page kept as it is) if it was rendered from the same inputs by
        the same code and its file is still exactly as written."""
        entry = self.previous.get(page)
        if not self.same_code or entry is None or entry[0] != inputs_digest:
            return False
        if _on_disk(self.site / page) != entry[2:]:
            return False
        self.pages[page] = entry
        return True

    def write(self, page: str, inputs_digest: str, content: bytes) -> bool:
        """Record the page; write it only if its bytes differ from the file's. True if written."""
        path = self.site / page
        sha = hashlib.sha256(content).hexdigest()
        entry = self.previous.get(page)
        on_disk = _on_disk(path)
        unchanged = on_disk is not None and (
            (entry is not None and entry[1] == sha and entry[2:] == on_disk)
            or (on_disk[0] == len(content) and path.read_bytes() == content)
        )
        if not unchanged:
            # A killed run may have left its staging files beside the pages; each folder
            # of the site is written by one job only, and looked at once.
            if path.parent not in self.swept:
                remove_stale_staging(path.parent)
                self.swept.add(path.parent)
            write_bytes_atomic(path, content, durable=False)
            on_disk = _on_disk(path)
            self.written.append(page)
        self.pages[page] = [inputs_digest, sha, *on_disk]
        return not unchanged

    def adopt(self, pages: dict[str, list]) -> None:
        """List pages another job wrote (the index job's manifest is the whole site's)."""
        self.pages.update(pages)

    def remove_dropped(self) -> list[str]:
        """Remove the pages listed last time and not this time (only files it wrote)."""
        removed = []
        for page in sorted(set(self.previous) - set(self.pages)):
            path = self.site / page
            if path.is_file():
                path.unlink()
                removed.append(page)
            folder = path.parent
            while folder != self.site and folder.is_dir() and not any(folder.iterdir()):
                folder.rmdir()
                folder = folder.parent
        return removed

    def save(self, manifest_path) -> PageManifest:
        manifest = PageManifest(str(self.site), self.fingerprint, dict(sorted(self.pages.items())))
        write_page_manifest(manifest_path, manifest)
        return manifest


def drop_outdated_manifests(site: Path, manifest_paths) -> list[str]:
    """Remove each manifest whose pages are not as it recorded them in the site folder
    (missing, changed since written, or another site folder); one message per manifest."""
    site = Path(site).absolute()
    messages = []
    manifests = [(path, read_page_manifest(path)) for path in manifest_paths]
    manifests = [(path, manifest) for path, manifest in manifests if manifest is not None]
    if manifests and not site.is_dir():
        for path, _ in manifests:
            os.remove(path)
        return [f"site: {site} does not exist (any more); building it anew"]
    for path, manifest in manifests:
        if manifest.site != str(site):
            damaged = ["the site folder changed"]
        else:
            damaged = [
                page for page, entry in manifest.pages.items() if _on_disk(site / page) != entry[2:]
            ]
        if damaged:
            os.remove(path)
            shown = ", ".join(damaged[:3]) + (
                f" and {len(damaged) - 3} more" if len(damaged) > 3 else ""
            )
            messages.append(
                f"site: {shown} not as the workflow wrote it (missing or edited); "
                f"rebuilding the pages of {Path(path).name}"
            )
    return messages
