"""Publish the staged outputs into the results folder, once every step has succeeded.

Each file is replaced atomically (written beside it, then renamed), so a reader or
a killed run never sees a half-written file; results/ changes only after the whole
set was computed.
"""

from pathlib import Path

from step_io import step_logger, write_bytes_atomic


def main(smk) -> None:
    log = step_logger("publish", smk.log[0])
    for name, staged in smk.input.items():
        target = getattr(smk.output, name)
        write_bytes_atomic(target, Path(staged).read_bytes())
        log.info("published %s", target)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake's script directive
