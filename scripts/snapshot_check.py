"""Rule snapshot (the target of `snakemake snapshot`): check that the snapshot of these
results holds exactly the published files.

The snapshot folder is historico/<date> (config snapshot_date, else the date of the
newest scoring in metadata.json). Rule take_snapshot has written it in this run when
there was none; an existing one is only compared: the same content says so, other
content is refused with every differing file named and a command that snapshots these
results under another date, and nothing is changed (ro_metrics.history.snapshot). If
there is no folder of the results' date, this run published results of another date
than those it started from, which dated the snapshot it planned: it says to run again.
"""

import sys
from pathlib import Path

from ro_metrics.contracts.files import read_json, step_logger, tell
from ro_metrics.contracts.published import METADATA
from ro_metrics.history.snapshot import (
    SnapshotDateError,
    differences,
    moved_date,
    refusal,
    snapshot_command,
    snapshot_contents,
    snapshot_date,
    suggested_command,
)


def main(smk) -> None:
    log = step_logger("snapshot", smk.log[0])
    published = dict(zip(smk.params.names, smk.input.published, strict=True))
    try:
        date = snapshot_date(read_json(published[METADATA.name]), smk.params.snapshot_date)
    except SnapshotDateError as error:
        log.error("No snapshot taken: %s: %s", error, snapshot_command(smk.params.settings))
        sys.exit(1)
    folder = Path(smk.params.history) / date
    if not folder.exists():
        # Planned from the results as they were when the run started, of another date.
        log.error(moved_date(date, suggested_command(smk.params.settings, "snapshot")))
        sys.exit(1)
    contents = snapshot_contents(published)
    found = differences(folder, contents)
    if found:
        log.error(refusal(folder, found, snapshot_command(smk.params.settings)))
        sys.exit(1)
    if smk.input.taken:
        log.info("snapshot %s written in this run: it holds the %d files", folder, len(contents))
        return
    log.info("snapshot %s already holds these %d files", folder, len(contents))
    tell(f"Snapshot {folder} already holds these results; nothing to do.")


if __name__ == "__main__":
    main(smk=snakemake)  # noqa: F821 - injected by Snakemake's script directive
