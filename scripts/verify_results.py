"""Rule verify: recompute every published file into a scratch folder and compare.

A hand-edited or stale file in results/ is named with its first differing line and
fails the rule, with the command that publishes the results again from the inputs
(`--forcerun publish` with the run's settings); results/ itself is never repaired here
(ro_metrics.history.verification).
"""

import shutil
import sys
import tempfile
from pathlib import Path

from ro_metrics.contracts.files import step_logger, tell
from ro_metrics.history.verification import compare, recompute


def main(smk) -> None:
    log = step_logger("verify", smk.log[0])
    scratch_root = Path(smk.params.scratch)
    scratch_root.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix="run-", dir=scratch_root))
    try:
        recomputed = recompute(smk.params, scratch, smk.threads, log)
        problems = compare(
            Path(smk.params.results), recomputed, smk.params.published, smk.params.withdrawn
        )
    finally:
        link = scratch / "results" / "historico"
        if link.is_symlink():
            link.unlink()
        shutil.rmtree(scratch, ignore_errors=True)
    if problems:
        log.error(
            "verify: %d published file(s) differ from a recomputation from the inputs:\n%s\n"
            "To publish them again from the inputs (a hand edit is not seen by a plain run, "
            "which finds nothing to do):\n  %s",
            len(problems),
            "\n".join(f"  {line}" for line in problems),
            smk.params.repair,
        )
        sys.exit(1)
    message = (
        f"verify: the {len(smk.params.published)} published files in {smk.params.results} "
        "are byte-identical to a recomputation from the inputs."
    )
    log.info(message)
    tell(message)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake's script directive
