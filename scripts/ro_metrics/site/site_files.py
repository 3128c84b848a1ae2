"""The static site's files: where each page lives, in each language's edition, and the
whole set of pages the data gives (site_page_paths).

Every page is a declared output of one Snakemake job, inside the folder that job owns
(workflow/rules/site.smk): a partition's version pages, a family's case pages, the front
pages; rule site_folder puts the folders together into the site. A page is written
once into its job's fresh folder (Snakemake empties a directory() output before its job
runs), so nothing here compares, keeps or removes pages.
"""

import hashlib
import posixpath
import re
from pathlib import Path

from ro_metrics.contracts.vocabulary import LANGUAGES

INDEX = "index.html"
FINDINGS = "findings.html"  # the findings page (site/findings_page.py)
REPORT = "report.html"  # the findings report's page (site/report_page.py)
# The pages of the front pages job, each in every edition.
FRONT_PAGES = (INDEX, FINDINGS, REPORT)
# Under double review, the arbitration worklist (site/worklist_page.py): a front page too.
WORKLIST = "worklist.html"
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


def case_page(case_id: str) -> str:
    """cases/<case_id>.html (a case_id is RO-<FAMILY>-<NNN>: safe as it is)."""
    return f"cases/{case_id}.html"


def edition_page(page: str, code: str) -> str:
    """A page (its path in the site's layout) in the edition of one language: English,
    the default, at the site root; another language under <code>/, the same layout
    again, so that the relative links inside an edition are the same in each."""
    return page if code == LANGUAGES[0] else f"{code}/{page}"


def in_editions(pages) -> list[str]:
    """Every edition's copy of each page (its path in the site's layout)."""
    return [edition_page(page, code) for code in LANGUAGES for page in pages]


def site_page_paths(case_ids, versions, double_review: bool = False) -> list[str]:
    """Every page of the site, sorted, relative to the site folder: the front pages (and
    the arbitration worklist under double review), a page per case of the benchmark
    (case_ids: the golds') and per subject version with a scored run (versions:
    (subject_id, subject_version) pairs), in every edition."""
    pages = [
        *FRONT_PAGES,
        *([WORKLIST] if double_review else []),
        *(case_page(case_id) for case_id in case_ids),
        *(version_page(subject_id, version) for subject_id, version in versions),
    ]
    return sorted(in_editions(pages))


def write_page(folder, page: str, html: str) -> None:
    """A page into its job's folder (a directory() output, emptied by Snakemake before
    the job runs and marked incomplete if it fails: a plain write is enough)."""
    path = Path(folder) / page
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(html.encode("utf-8"))


def run_anchor(case_id: str, run_id: str) -> str:
    """The id of a run's article on its subject-version page (one run per case and run)."""
    return f"{case_id}__{run_id}"


def href(from_page: str, to_page: str, anchor: str = "") -> str:
    """A relative link from one page of the site to another (and an anchor in it)."""
    target = posixpath.relpath(to_page, posixpath.dirname(from_page) or ".")
    return f"{target}#{anchor}" if anchor else target
