"""Verify: recompute the results from the inputs and compare them byte for byte.

The recomputation is a separate run of this workflow with the same configuration,
its results and cache in a scratch folder (a cold cache: nothing of earlier runs is
reused), and the snapshot folder of the published results visible to it (the page
links the snapshots). Each published file that differs is named with its first
differing line; any difference fails the rule. The scratch folder is removed.
"""

import os
import subprocess
import sys
from pathlib import Path

import yaml

from ro_metrics.contracts.files import tell


def first_difference(published: bytes, recomputed: bytes) -> str:
    """The first differing line (CSV row) of two versions of a file, 1-based."""
    old_lines = published.splitlines()
    new_lines = recomputed.splitlines()
    for number, (old, new) in enumerate(zip(old_lines, new_lines, strict=False), start=1):
        if old != new:
            return (
                f"line {number}: published {old.decode('utf-8', 'replace')!r}, "
                f"recomputed {new.decode('utf-8', 'replace')!r}"
            )
    if len(old_lines) != len(new_lines):
        return f"published has {len(old_lines)} lines, recomputed {len(new_lines)}"
    return "line ends differ"


def compare(published_dir: Path, recomputed_dir: Path, names, withdrawn=()) -> list[str]:
    """What differs between the published and the recomputed files: every file the run
    publishes (`names`, the registry's for its corpus and review policy) must be
    byte-identical on both sides; a file of the registry it does not publish
    (`withdrawn`: telemetry's without telemetry, the reviews' with one reviewer per
    run) must not be in the published folder."""
    problems = []
    for name in names:
        published = published_dir / name
        recomputed = recomputed_dir / name
        if not recomputed.is_file():
            problems.append(f"{published}: the recomputation did not publish it")
        elif not published.is_file():
            problems.append(f"{published}: missing (the recomputation has it)")
        elif (content := published.read_bytes()) != (fresh := recomputed.read_bytes()):
            problems.append(f"{published}: differs, {first_difference(content, fresh)}")
    for name in withdrawn:
        published = published_dir / name
        if published.is_file():
            problems.append(f"{published}: published, but a recomputation does not publish it")
    return problems


def recompute(params, scratch: Path, cores: int, log) -> Path:
    """Run the workflow on the same inputs into scratch/results; its path."""
    results = scratch / "results"
    results.mkdir(parents=True)
    history = Path(params.history)
    if history.is_dir():
        (results / "historico").symlink_to(history.absolute(), target_is_directory=True)
    config = {**params.config, "results": str(results), "cache": str(scratch / "cache")}
    config_file = scratch / "config.yaml"
    config_file.write_text(yaml.safe_dump(config, sort_keys=True), "utf-8")
    command = [
        sys.executable,
        "-m",
        "snakemake",
        "--snakefile",
        params.snakefile,
        "--directory",
        os.getcwd(),
        "--configfile",
        str(config_file),
        "--cores",
        str(cores),
        # The scratch run shares .snakemake/ with the run that started it, which
        # holds the lock; its own files are private to it.
        "--nolock",
        "all",
    ]
    log.info("recomputing: %s", " ".join(command))
    run = subprocess.run(command, capture_output=True, text=True, check=False)
    log.info("%s%s", run.stdout, run.stderr)
    if run.returncode != 0:
        tell(run.stderr.rstrip())
        log.error("verify: recomputing the results failed (exit %d)", run.returncode)
        sys.exit(1)
    return results
