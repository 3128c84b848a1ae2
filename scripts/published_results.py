"""Rule publish: the results folder, once every step has succeeded.

Every file of the registry published under this run's conditions
(ro_metrics.contracts.published) is written into the results folder: copied from the
step that staged it, or, for a table computed per partition of the corpus, assembled
from the partitions' fragments (contracts.tables.assembled_bytes). Each file is
replaced atomically (written beside it, then renamed), so a reader never sees a
half-written file. A file of the registry not published now (the operational tables of
a corpus without telemetry any more, the review tables after a return to one reviewer
per run) is removed, so the results folder never holds a table of another run.
"""

from pathlib import Path

from ro_metrics.contracts.files import step_logger, without_cycle_collector, write_bytes_atomic
from ro_metrics.contracts.published import PUBLISHED
from ro_metrics.contracts.tables import assembled_bytes


def main(smk) -> None:
    without_cycle_collector()
    log = step_logger("publish", smk.log[0])
    entries = {entry.name: entry for entry in PUBLISHED}
    for target, name in zip(smk.output, smk.params.names, strict=True):
        entry, sources = entries[name], smk.params.sources[name]
        content = (
            assembled_bytes(sources, entry.columns)
            if entry.partitioned
            else Path(sources[0]).read_bytes()
        )
        write_bytes_atomic(target, content)
    for path in map(Path, smk.params.withdrawn):
        if path.exists():
            path.unlink()
            log.info("removed %s: not published by this run", path)
    log.info("published %d files", len(smk.output))


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake's script directive
