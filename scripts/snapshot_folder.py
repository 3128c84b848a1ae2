"""Rule snapshot: freeze the published results into historico/<date>/.

The date is config snapshot_date, else the date of the newest scoring (recorded in
metadata.json). Identical content for an existing date does nothing; different
content is refused with the differing files named (ro_metrics.history.snapshot).
"""

import sys
from pathlib import Path

from ro_metrics.contracts.files import read_json, step_logger, tell
from ro_metrics.history.snapshot import differences, snapshot_contents, write_snapshot


def main(smk) -> None:
    log = step_logger("snapshot", smk.log[0])
    published = list(smk.input.published)
    published += [path for path in smk.params.optional if Path(path).is_file()]
    metadata = next(path for path in published if Path(path).name == "metadata.json")
    date = smk.params.snapshot_date or read_json(metadata)["newest_scoring_utc"][:10]
    history = Path(smk.params.history)
    # The results folder is metadata.json's: the files keep their places below it (charts/).
    contents = snapshot_contents(published, Path(metadata).parent)
    target = history / date
    if target.exists():
        found = differences(target, contents)
        if found:
            message = "\n".join(
                [
                    f"Snapshot {target} already exists with other content; snapshots are "
                    "never rewritten, so nothing was changed:",
                    *(f"  {line}" for line in found),
                    "To keep these results too, snapshot them under another date: "
                    "snakemake --cores 1 snapshot --config snapshot_date=YYYY-MM-DD",
                ]
            )
            log.error(message)
            sys.exit(1)
        log.info("snapshot %s already holds these %d files", target, len(contents))
        tell(f"Snapshot {target} already holds these results; nothing to do.")
        return
    write_snapshot(history, date, contents)
    log.info("snapshot %s written (%d files)", target, len(contents))
    tell(f"Snapshot {target} written ({len(contents)} files).")


if __name__ == "__main__":
    main(smk=snakemake)  # noqa: F821 - injected by Snakemake's script directive
