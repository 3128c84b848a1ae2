"""Rule site_folder: the site folder (config `site`), put together from the pages'
folders: every partition's version pages, every family's case pages and the front
pages, each file at its own path in the site's layout. The pages are self-contained
(style and script inline): the site needs no other file.

The folder is this job's directory() output: Snakemake empties it before the job runs,
so it holds exactly the pages of this run (a page whose input disappeared is gone). A
page is a hard link to its job's file in the cache where the two folders are on one
file system (no copy of the ~550 MiB of pages at size L), else a copy. A path two
folders both hold is an error: each page has one job.
"""

import errno
import os
import shutil
from pathlib import Path

from ro_metrics.contracts.files import DIRECTORY_MARKER, step_logger, tell


def pages_of(folder: str) -> list[str]:
    """The files below a pages' folder, relative to it (its marker aside)."""
    found = []
    for directory, _, names in os.walk(folder):
        relative = os.path.relpath(directory, folder)
        for name in names:
            if not (relative == "." and name == DIRECTORY_MARKER):
                found.append(name if relative == "." else f"{relative}/{name}")
    return found


def main(smk) -> None:
    log = step_logger("site_folder", smk.log[0])
    site = Path(smk.output[0])
    site.mkdir(parents=True, exist_ok=True)
    # The marker first: a run killed while the folder fills leaves a folder the
    # configuration check (common.smk) still knows as the workflow's own.
    (site / DIRECTORY_MARKER).touch()
    folders = [*smk.input.versions, *smk.input.cases, smk.input.front]
    source_of: dict[str, str] = {}
    linked = True
    for folder in folders:
        for page in pages_of(folder):
            if page in source_of:
                raise ValueError(f"{page}: in both {source_of[page]} and {folder}")
            source_of[page] = folder
            target = site / page
            target.parent.mkdir(parents=True, exist_ok=True)
            if linked:
                try:
                    os.link(Path(folder) / page, target)
                    continue
                except OSError as error:
                    if error.errno not in (errno.EXDEV, errno.EPERM, errno.EMLINK):
                        raise
                    linked = False  # another file system: copies from here on
            shutil.copyfile(Path(folder) / page, target)
    how = "linked" if linked else "copied"
    message = f"site: {len(source_of)} pages {how} into {site}"
    log.info(message)
    tell(message)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake's script directive
