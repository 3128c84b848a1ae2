"""Flag the commits of a range that change the published CSVs by hand.

The benchmark's specification says: "The CSVs are git-tracked. Any commit that
modifies a CSV without a matching commit to the inputs (responses/, scoring/,
golds/) is treated as a CI violation." This script applies that rule to every commit
of a git revision range:

- a commit that adds, modifies or deletes a published CSV (a CSV of the registry of
  published files, ``scripts/ro_metrics/contracts/published.py``, in the results
  folder, e.g. ``results/per_run.csv``) must also change at least one of the INPUTS
  below: a file of the corpus (``responses/``, ``scoring/``, ``golds/``,
  ``subjects/``, ``logs/batch_logs/``), the configuration, the workflow's code or the
  pinned tool versions; otherwise its numbers did not come from a run of the workflow;
- the snapshots under ``<results>/historico/<date>/`` are immutable: adding a new
  snapshot needs no input, but a commit that modifies or deletes a file under
  ``<results>/historico/`` is a violation of its own.

Each commit is compared with its first parent (a merge is judged on everything it
brought in as a whole; a root commit, or the boundary commit of a shallow clone, is
compared with the empty tree). The corpus and results folders are those of
``config/config.yaml`` as it is in that commit (keys ``corpus`` and ``results``, the
workflow's defaults when the file is missing or unreadable), unless ``--corpus`` or
``--results`` is given (a folder outside the repository matches no tracked path).
A rename counts as the deletion of the old path and the addition of the new one.

    python scripts/tools/check_results_commits.py [--repo PATH] [--corpus PREFIX]
                                            [--results PREFIX] RANGE

RANGE is anything ``git rev-list`` accepts (``A..B`` checks the commits reachable
from B and not from A, so A itself is not checked); a single revision ``X`` checks
just that commit (``X^!``). Exit status: 0 if no commit is flagged, 1 if any is, 2
for a usage error, a bad range or a folder that is not a git repository.
"""

import argparse
import importlib
import importlib.util
import posixpath
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import yaml

CONFIG_PATH = "config/config.yaml"
DEFAULT_CORPUS = "demo/corpus"
DEFAULT_RESULTS = "results"
SNAPSHOTS = "historico"

# Every path whose change can legitimately change the published CSVs. An entry ending
# in "/" is a folder (any file under it counts), any other entry is a single file;
# "{corpus}" stands for the corpus root configured in the commit.
INPUTS = (
    "{corpus}/responses/",  # the answers of the models, from which every per-run value comes
    "{corpus}/scoring/",  # the reviewers' scorings: score, fails, classification
    "{corpus}/golds/",  # the golds: floor, ceiling, family and case type of every case
    "{corpus}/subjects/",  # the registry: which subject versions exist and are ranked
    "{corpus}/logs/batch_logs/",  # the runner's telemetry: operational_*.csv, coverage.csv
    "config/",  # the configuration: alpha, benchmark_version, strict, corpus, results…
    "Snakefile",  # the workflow's targets (part of the configuration of a run)
    "workflow/",  # the rules, the config schema and the conda environment of the rules
    "scripts/",  # the code of every step, the formulas (ro_metrics/formulas/) included
    "system/",  # the normative rubric and the JSON Schemas the corpus is checked against
    "requirements.txt",  # the pinned tool versions, recorded in results/metadata.json
    "environment.yml",  # the same pins for conda users, also recorded in metadata.json
)

CSV_REASON = (
    "changes published CSV(s) without changing any input of the corpus, "
    "the configuration or the workflow's code"
)
SNAPSHOT_REASON = "modifies or deletes file(s) of an immutable snapshot under {snapshots}/"

# Revision arguments that already denote a range: A..B, A...B, ^A, X^!, X^@, X^-, X^-n.
RANGE_NOTATION = re.compile(r"\.\.|^\^|\^(?:!|@|-\d*)$")

# The workflow's library, whose registry names the published files.
LIBRARY = Path(__file__).resolve().parents[1] / "ro_metrics"


def published_csvs() -> frozenset[str]:
    """The CSVs of the registry of published files, as paths below the results folder
    (those published only with telemetry or under double review included).

    The spec's rule is about the CSVs. (The other published files are recomputed too,
    but the history has commits that changed only them; CI runs this tool over the
    whole history.) This tool runs as a script from scripts/tools/, where the library
    package is not importable by name: it is loaded from its folder (importlib's recipe
    for a package outside sys.path), unless it is already imported.
    """
    if "ro_metrics" not in sys.modules:
        spec = importlib.util.spec_from_file_location(
            "ro_metrics", LIBRARY / "__init__.py", submodule_search_locations=[str(LIBRARY)]
        )
        package = importlib.util.module_from_spec(spec)
        sys.modules["ro_metrics"] = package
        spec.loader.exec_module(package)
    registry = importlib.import_module("ro_metrics.contracts.published")
    return frozenset(entry.name for entry in registry.PUBLISHED if entry.name.endswith(".csv"))


PUBLISHED_CSVS = published_csvs()


class GitError(Exception):
    """A git command failed; the message is git's own (one line)."""


@dataclass(frozen=True)
class Layout:
    """The repository-relative corpus and results folders of one commit."""

    corpus: str
    results: str


@dataclass(frozen=True)
class Change:
    """One path changed by a commit, with its git status letter (A, M, D, T…)."""

    status: str
    path: str


@dataclass(frozen=True)
class Violation:
    """A flagged commit, why, and the paths concerned."""

    commit: str
    reason: str
    paths: tuple[str, ...]


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on stderr (exit status 2)."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: {message} (see --help)\n")


# --- git ------------------------------------------------------------------------------


def first_error_line(stderr: bytes) -> str:
    lines = [line.strip() for line in stderr.decode("utf-8", "replace").splitlines()]
    lines = [line for line in lines if line]
    for line in lines:
        if line.startswith(("fatal:", "error:")):
            return line
    return lines[0] if lines else "git failed without a message"


def run_git(repo: str, *args: str) -> bytes:
    """Stdout of `git -C repo args…`; GitError with git's message if it fails."""
    try:
        completed = subprocess.run(["git", "-C", repo, *args], capture_output=True, check=False)
    except OSError as error:
        raise GitError(f"cannot run git: {error.strerror or error}") from None
    if completed.returncode != 0:
        raise GitError(first_error_line(completed.stderr))
    return completed.stdout


def revision_argument(rev_range: str) -> str:
    """The rev-list argument for RANGE: a lone revision X means just that commit."""
    return rev_range if RANGE_NOTATION.search(rev_range) else f"{rev_range}^!"


def commits_in_range(repo: str, rev_range: str) -> list[tuple[str, list[str]]]:
    """(commit, parents) of every commit of the range, parents before children."""
    argument = revision_argument(rev_range)
    options = ["--reverse", "--topo-order", "--parents", "--end-of-options"]
    try:
        out = run_git(repo, "rev-list", *options, argument, "--")
    except GitError as error:  # name the revision as the user wrote it, not as X^!
        raise GitError(str(error).replace(f"'{argument}'", f"'{rev_range}'")) from None
    commits = []
    for line in out.decode("ascii").splitlines():
        commit, *parents = line.split()
        commits.append((commit, parents))
    return commits


def parse_name_status(raw: bytes) -> list[Change]:
    """Parse `git diff-tree -z --name-status`: STATUS NUL PATH NUL (two paths for R, C)."""
    fields = raw.split(b"\0")
    changes = []
    index = 0
    while index < len(fields) and fields[index]:
        status = fields[index].decode("ascii")[0]
        path_count = 2 if status in "RC" else 1
        paths = fields[index + 1 : index + 1 + path_count]
        if status in "RC":  # the old path disappears, the new one appears
            changes.append(Change("D", decode_path(paths[0])))
            changes.append(Change("A", decode_path(paths[1])))
        else:
            changes.append(Change(status, decode_path(paths[0])))
        index += 1 + path_count
    return changes


def decode_path(raw: bytes) -> str:
    return raw.decode("utf-8", "surrogateescape")


def changed_files(repo: str, commit: str, parents: list[str]) -> list[Change]:
    """The paths the commit changes relative to its first parent (or the empty tree)."""
    options = ["-r", "-z", "--name-status", "--no-renames"]
    if parents:
        out = run_git(repo, "diff-tree", *options, parents[0], commit)
    else:
        out = run_git(repo, "diff-tree", *options, "--root", "--no-commit-id", commit)
    return parse_name_status(out)


def short_hash_and_subject(repo: str, commit: str) -> tuple[str, str]:
    out = run_git(repo, "log", "-1", "--no-show-signature", "--format=%h%x00%s", commit, "--")
    short, _, subject = out.decode("utf-8", "replace").rstrip("\n").partition("\0")
    return short, subject


# --- where the corpus and the results are -----------------------------------------------


def normalise_prefix(value: object) -> str | None:
    """A repository-relative folder without ./ or trailing slashes; None if unusable."""
    if not isinstance(value, str) or not value.strip():
        return None
    return posixpath.normpath(value)


def committed_config(repo: str, commit: str) -> dict:
    """config/config.yaml as it is in the commit; {} if missing or unreadable."""
    try:
        text = run_git(repo, "cat-file", "blob", f"{commit}:{CONFIG_PATH}")
        config = yaml.safe_load(text)
    except (GitError, yaml.YAMLError, ValueError, TypeError, ArithmeticError, RecursionError):
        return {}
    return config if isinstance(config, dict) else {}


def layout_at(repo: str, commit: str, corpus: str | None, results: str | None) -> Layout:
    """The corpus and results folders of the commit; command-line options win."""
    config = {} if corpus and results else committed_config(repo, commit)
    return Layout(
        corpus=corpus or normalise_prefix(config.get("corpus")) or DEFAULT_CORPUS,
        results=results or normalise_prefix(config.get("results")) or DEFAULT_RESULTS,
    )


# --- classifying paths ------------------------------------------------------------------


def is_under(path: str, folder: str) -> bool:
    return folder == "." or path.startswith(folder + "/")


def is_published_csv(path: str, layout: Layout) -> bool:
    """True if the path is a CSV of the registry in the results folder."""
    return is_under(path, layout.results) and (
        posixpath.relpath(path, layout.results) in PUBLISHED_CSVS
    )


def snapshots_folder(layout: Layout) -> str:
    return posixpath.normpath(posixpath.join(layout.results, SNAPSHOTS))


def is_snapshot_file(path: str, layout: Layout) -> bool:
    return is_under(path, snapshots_folder(layout))


def input_entries(layout: Layout) -> list[str]:
    """INPUTS with the corpus of the layout filled in, normalised (folders keep '/')."""
    entries = []
    for entry in INPUTS:
        path = posixpath.normpath(entry.format(corpus=layout.corpus))
        entries.append(path + "/" if entry.endswith("/") else path)
    return entries


def is_input(path: str, entries: list[str]) -> bool:
    return any(
        path.startswith(entry) if entry.endswith("/") else path == entry for entry in entries
    )


# --- the rule ---------------------------------------------------------------------------


def violations_of(commit: str, changes: list[Change], layout: Layout) -> list[Violation]:
    """The violations of one commit, given the paths it changes."""
    violations = []
    csvs = [change.path for change in changes if is_published_csv(change.path, layout)]
    entries = input_entries(layout)
    if csvs and not any(is_input(change.path, entries) for change in changes):
        violations.append(Violation(commit, CSV_REASON, tuple(csvs)))
    altered_snapshots = [
        change.path
        for change in changes
        if change.status != "A" and is_snapshot_file(change.path, layout)
    ]
    if altered_snapshots:
        reason = SNAPSHOT_REASON.format(snapshots=snapshots_folder(layout))
        violations.append(Violation(commit, reason, tuple(altered_snapshots)))
    return violations


def check_commit(
    repo: str, commit: str, parents: list[str], args: argparse.Namespace
) -> list[Violation]:
    layout = layout_at(repo, commit, args.corpus, args.results)
    return violations_of(commit, changed_files(repo, commit, parents), layout)


# --- output -----------------------------------------------------------------------------


def display_path(path: str) -> str:
    """The path as is, or double-quoted with escapes if it has spaces, commas or oddities."""
    if all(char.isprintable() and char not in ' ",\\' for char in path):
        return path
    return '"' + "".join(escape_char(char) for char in path) + '"'


def escape_char(char: str) -> str:
    if char in '"\\':
        return "\\" + char
    if 0xDC80 <= ord(char) <= 0xDCFF:  # a byte that is not UTF-8 (surrogateescape)
        return f"\\x{ord(char) - 0xDC00:02x}"
    if char == " " or char.isprintable():
        return char
    return char.encode("unicode_escape").decode("ascii")


def format_violation(violation: Violation, short: str, subject: str) -> str:
    paths = ", ".join(display_path(path) for path in violation.paths)
    return f'{short} "{subject}": {violation.reason}: {paths}'


def print_violations(repo: str, commit: str, violations: list[Violation]) -> None:
    if not violations:
        return
    short, subject = short_hash_and_subject(repo, commit)
    for violation in violations:
        print(format_violation(violation, short, subject))


# --- command line -----------------------------------------------------------------------


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = OneLineParser(
        prog="check_results_commits.py",
        description="Flag the commits of RANGE that change a published CSV without "
        "changing any input, or that modify or delete a results snapshot.",
    )
    parser.add_argument("range", metavar="RANGE", help="A..B, or a single commit X (= X^!)")
    parser.add_argument(
        "--repo", metavar="PATH", default=".", help="the git repository (default: .)"
    )
    parser.add_argument(
        "--corpus", metavar="PREFIX", help="corpus folder, overriding config/config.yaml"
    )
    parser.add_argument(
        "--results", metavar="PREFIX", help="results folder, overriding config/config.yaml"
    )
    args = parser.parse_args(argv)
    for option in ("corpus", "results"):
        value = getattr(args, option)
        if value is not None and normalise_prefix(value) is None:
            parser.error(f"--{option} must not be empty")
        setattr(args, option, value and normalise_prefix(value))
    return args


def report(repo: str, args: argparse.Namespace) -> int:
    """Check the range, print one line per violation and a summary; the exit status."""
    commits = commits_in_range(repo, args.range)
    count = 0
    for commit, parents in commits:
        violations = check_commit(repo, commit, parents, args)
        print_violations(repo, commit, violations)
        count += len(violations)
    print(f"{len(commits)} commit(s) checked, {count} violation(s)")
    return 1 if count else 0


def main(argv: list[str] | None = None) -> int:
    sys.stdout.reconfigure(errors="backslashreplace")
    args = parse_args(argv)
    try:
        return report(args.repo, args)
    except GitError as error:
        print(f"check_results_commits.py: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
