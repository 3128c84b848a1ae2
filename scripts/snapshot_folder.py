"""Rule take_snapshot: freeze the published results into historico/<date>/.

Planned only when the dated folder does not exist (rule snapshot asks for it then, and
never otherwise). Without config snapshot_date, the results copied must be of that date
(the newest scoring in their metadata.json): the date was read from the results as they
were when the run started, and this run may have published later ones. The folder is
assembled beside its place and renamed into it (ro_metrics.history.snapshot).
"""

import sys
from pathlib import Path

from ro_metrics.contracts.files import read_json, step_logger, tell
from ro_metrics.contracts.published import METADATA
from ro_metrics.history.snapshot import (
    SnapshotDateError,
    moved_date,
    snapshot_command,
    snapshot_contents,
    snapshot_date,
    suggested_command,
    write_snapshot,
)


def main(smk) -> None:
    log = step_logger("take_snapshot", smk.log[0])
    target = Path(smk.output[0])
    published = dict(zip(smk.params.names, smk.input.published, strict=True))
    if not smk.params.snapshot_date:
        try:
            date = snapshot_date(read_json(published[METADATA.name]))
        except SnapshotDateError as error:
            log.error("No snapshot taken: %s: %s", error, snapshot_command(smk.params.settings))
            sys.exit(1)
        if date != smk.wildcards.date:
            command = suggested_command(smk.params.settings, "snapshot")
            log.error(moved_date(date, command, smk.wildcards.date))
            sys.exit(1)
    contents = snapshot_contents(published)
    write_snapshot(target, contents)
    log.info("snapshot %s written (%d files)", target, len(contents))
    tell(f"Snapshot {target} written ({len(contents)} files).")


if __name__ == "__main__":
    main(smk=snakemake)  # noqa: F821 - injected by Snakemake's script directive
