import datetime
import hashlib
import re
import sys
from pathlib import Path

import yaml

from snakemake.exceptions import WorkflowError
from snakemake.utils import validate

# The one sys.path entry of the project: the parse-time imports below (the corpus scan,
# the review policy, the published registry, the library's layers) need the library
# package. Rule scripts get scripts/ from Snakemake's script preamble, tests from
# pyproject's pythonpath.
sys.path.insert(0, str(Path(workflow.basedir) / "scripts"))

from ro_metrics.contracts.files import DIRECTORY_MARKER, read_json
from ro_metrics.contracts.published import (
    CHARTS,
    FINDINGS_REPORTS,
    LEADERBOARD_ES_HTML,
    LEADERBOARD_HTML,
    METADATA,
    PUBLISHED as REGISTRY,
    published_files,
)
from ro_metrics.contracts.vocabulary import FAMILIES, LANGUAGES
from ro_metrics.corpus.layout import has_annotations, has_telemetry, partition_ids, scan_corpus
from ro_metrics.corpus.reviewers import MAX_SCORINGS, PolicyError, review_policy
from ro_metrics.corpus.statements import statement_files
from ro_metrics.history.snapshot import (
    SnapshotDateError,
    snapshot_date,
    snapshot_dates,
    suggested_command,
)


def configuration_error(message):
    # A one-line message and a non-zero exit; a raised error would add a traceback.
    print(f"Invalid configuration: {message}", file=sys.stderr)
    sys.exit(1)


def validate_config(config):
    """Validate the configuration (setting defaults); a bad value is a one-line error."""
    # `--config strict=true` arrives as text; accept the YAML spellings of booleans.
    for key in ("strict", "local_aggregates"):
        if str(config.get(key)).lower() in {"true", "false"}:
            config[key] = str(config[key]).lower() == "true"
    # `--config private_report_versions=v1` (one version, no brackets) arrives as text.
    for key in ("private_report_versions", "private_report_languages"):
        if isinstance(config.get(key), str):
            config[key] = [config[key]]
    # An unquoted YAML date arrives as a date object; the schema checks the text.
    for key in ("snapshot_date", "changes_since"):
        if isinstance(config.get(key), datetime.date):
            config[key] = config[key].isoformat()
    try:
        validate(config, "../schemas/config.schema.yaml")
    except WorkflowError as error:
        cause = error.__context__
        if not hasattr(cause, "absolute_path"):
            raise
        where = ".".join(str(part) for part in cause.absolute_path)
        if cause.validator == "additionalProperties":
            # The keys the schema knows, not jsonschema's wording.
            valid = sorted(cause.schema.get("properties", {}))
            unknown = sorted(set(cause.instance) - set(valid))
            inside = f"{where}: " if where else ""
            configuration_error(
                f"{inside}unknown key{'s' if len(unknown) > 1 else ''} {', '.join(unknown)}; "
                f"the valid keys are {', '.join(valid)} (config/README.md)"
            )
        configuration_error(f"{where or 'config'}: {cause.message}")
    # The schema checks the form YYYY-MM-DD; 2026-02-30 has it.
    for key in ("snapshot_date", "changes_since"):
        try:
            if config[key]:
                datetime.date.fromisoformat(config[key])
        except ValueError:
            configuration_error(f"{key}: {config[key]!r} is not a date")


validate_config(config)

# The settings of this run that a command repeating it must give (the corpus, the
# results and the site as in effect, and every setting that differs from
# config/config.yaml with the schema's defaults): what every command a message suggests
# carries (history.snapshot.suggested_command), so that a copy acts on the same data.
_DEFAULTS = yaml.safe_load(Path(workflow.basedir, "config", "config.yaml").read_text("utf-8"))
validate(_DEFAULTS, "../schemas/config.schema.yaml")
_PLACES = ("corpus", "results", "site")
RUN_SETTINGS = {key: config[key] for key in _PLACES} | {
    key: value
    for key, value in config.items()
    if key not in _PLACES and value != _DEFAULTS.get(key)
}

CORPUS = str(Path(config["corpus"]).absolute())
RESULTS = config["results"].rstrip("/")
# The static site (`snakemake site`); not a published result, never committed.
SITE = str(Path(config["site"]).absolute())
VERSION = config["benchmark_version"]
SCHEMAS = f"{workflow.basedir}/system/schemas/{VERSION}"
RUBRIC = f"{workflow.basedir}/system/rubric/{VERSION}"
MAX_FILE_BYTES = int(config["max_file_mib"] * 2**20)

if not Path(CORPUS).is_dir():
    configuration_error(f"corpus: {CORPUS} is not a folder")
if not Path(SCHEMAS).is_dir():
    configuration_error(f"benchmark_version: no schemas for {VERSION} in system/schemas/")

# One cache folder per (corpus, results, version): runs on other corpora never
# overwrite each other's intermediate files.
_CACHE_KEY = hashlib.sha256(
    "\n".join([CORPUS, str(Path(RESULTS).absolute()), VERSION]).encode("utf-8")
).hexdigest()[:16]
CACHE = f"{config['cache'].rstrip('/')}/{_CACHE_KEY}"
LOGS = f"{CACHE}/logs"


def site_folder_problem():
    """Why SITE cannot be the site folder, or None. Rule site_folder owns the folder
    whole (Snakemake empties a directory() output before its job runs): it must not be
    or hold what the workflow reads or writes, nor lie inside what it reads, nor be a
    folder with files the workflow did not write (a user's site=~/Documents)."""
    site = Path(SITE).resolve()
    places = {
        "the repository": workflow.basedir,
        "the corpus": CORPUS,
        "the results folder": RESULTS,
        "the cache": config["cache"],
    }
    for name, place in places.items():
        place = Path(place).resolve()
        if place.is_relative_to(site):
            return f"{SITE} is or holds {name} ({place})"
        if name != "the repository" and site.is_relative_to(place):
            return f"{SITE} is inside {name} ({place})"
    if site.exists() and not site.is_dir():
        return f"{SITE} is not a folder"
    # The marker Snakemake writes into a directory() output (rule site_folder writes it
    # first): the folder is the workflow's own.
    if site.is_dir() and any(site.iterdir()) and not (site / DIRECTORY_MARKER).is_file():
        return (
            f"{SITE} holds files the workflow did not write (no {DIRECTORY_MARKER}), and "
            "`snakemake site` would remove them: choose another folder, or empty it"
        )
    return None


# Only the main process: a job process may start while rule site_folder fills the folder.
if workflow.is_main_process and (problem := site_folder_problem()):
    configuration_error(f"site: {problem}")

# A partition's files between its steps (partitions/<id>/), and the global steps' files
# that rule publish copies into RESULTS (staged/).
PARTITION = f"{CACHE}/partitions/{{partition}}"
STAGED = f"{CACHE}/staged"
# Dated snapshots of the published results (`snakemake snapshot`), never rewritten.
HISTORY = f"{RESULTS}/historico"

# The review policy of the version (one reviewer per run in v1.0, or two and an
# arbiter), with the configuration's overrides (shared/spec/multi-reviewer.md).
REVIEW_POLICY_FILE = f"{RUBRIC}/review_policy.yaml"
try:
    REVIEW_POLICY = review_policy(REVIEW_POLICY_FILE, config)
except PolicyError as error:
    configuration_error(str(error))

# The corpus is split into partitions of subject folders (a wildcard of the load, the
# per-run table, the per-subject and per-family metrics and the version pages), the
# cases into their families (the case pages). A partition's job reruns when one of its
# files changes: the corpus is listed when the DAG is built (one stat per file) and each
# job gets the digest of what it reads (path, size, modification and change time of
# every file) as a parameter, so a changed digest reruns it (Snakemake's params trigger)
# and the change time catches a file copied in with an old date.
try:
    SCAN = scan_corpus(Path(CORPUS), VERSION, config["partitions"])
except KeyboardInterrupt:
    # Ctrl-C while a large corpus is listed (seconds at 10^5 files): one line, no
    # traceback, as an interrupted job (contracts.files.step_logger).
    print("Interrupted while listing the corpus; nothing was run.", file=sys.stderr)
    sys.exit(130)
PARTITIONS = partition_ids(SCAN.n_partitions)
# What is published: with telemetry in the corpus, under double review, with
# subjects/annotations.yaml (the registry, contracts/published.py).
ANNOTATED = has_annotations(Path(CORPUS))
PUBLISHED = published_files(
    has_telemetry(Path(CORPUS)),
    double_review=REVIEW_POLICY.reviewers_per_run == 2,
    annotated=ANNOTATED,
)
# The registry's files not published now: removed from RESULTS if an earlier run left them.
WITHDRAWN = [entry for entry in REGISTRY if entry not in PUBLISHED]


# The public case statements by family (corpus/statements.py): each family's are inputs
# of its case pages only, so that an edited statement re-renders its family's pages.
STATEMENTS = statement_files(Path(CORPUS), VERSION)


def statements_of(wildcards):
    return STATEMENTS.get(wildcards.family, [])


def digest_of(kind):
    """The parameter that reruns a job when its part of the corpus changes (above)."""

    def digest(wildcards):
        if kind == "partition":
            return SCAN.partitions[wildcards.partition]
        return getattr(SCAN, kind)

    return digest


# The review policy as a parameter of the jobs that consolidate runs: a changed setting
# reruns them.
POLICY = {
    key: list(value) if isinstance(value, tuple) else value
    for key, value in REVIEW_POLICY._asdict().items()
}


def library(*packages):
    """The code a rule's script runs besides itself: every file of the library packages
    it uses (templates and labels included) and the library's __init__.py. An input, so
    that editing one re-runs the steps that use it (Snakemake's own code trigger follows
    only the script itself); tests/unit/test_architecture.py checks that each rule lists
    every package its script imports, directly or not."""
    root = Path(workflow.basedir) / "scripts" / "ro_metrics"
    return sorted(
        str(path)
        for name in packages
        for path in (root / name).rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    ) + [str(root / "__init__.py")]


def staged(entry):
    return f"{STAGED}/{entry.name}"


def snapshot_metadata_files(wildcards=None):
    """metadata.json of every snapshot folder: the set changes when a snapshot is taken."""
    return sorted(
        str(path)
        for path in Path(HISTORY).glob("*/metadata.json")
        if re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", path.parent.name)
    )


def snapshot_to_take(wildcards):
    """The snapshot folder of the results as published when the DAG is built, if there
    is none yet (take_snapshot writes it), else nothing. Dated by config snapshot_date,
    else by the newest scoring their metadata.json records. Results this very run
    publishes may be of a later date: take_snapshot and snapshot check it."""
    date = config["snapshot_date"]
    metadata = Path(RESULTS, METADATA.name)
    if not date and metadata.is_file():
        try:
            date = snapshot_date(read_json(metadata))
        except SnapshotDateError:
            return []
    if not date or Path(HISTORY, date).exists():
        return []
    return [f"{HISTORY}/{date}"]


def no_snapshot_yet(wildcards):
    """No input of take_snapshot: an error if the dated folder exists (snapshot.smk says
    why an existing snapshot is never an output to remake)."""
    folder = Path(f"{HISTORY}/{wildcards.date}")
    if folder.exists():
        # A one-line message and a non-zero exit, before anything runs.
        print(
            f"Snapshot {folder} exists; snapshots are never rewritten, so nothing was run "
            f"(`{suggested_command(RUN_SETTINGS, 'snapshot')}` checks it against the "
            "results).",
            file=sys.stderr,
        )
        sys.exit(1)
    return []


# changes_since must name a date with a snapshot on or before it: a comparison the
# user asked for is never silently replaced by "no earlier snapshot".
if config["changes_since"]:
    _dates = snapshot_dates(snapshot_metadata_files())
    if not any(date <= config["changes_since"] for date in _dates):
        # The snapshots seen, and the setting that compares with the oldest of them.
        _use = f"; changes_since={_dates[0]} compares with the oldest" if _dates else ""
        configuration_error(
            f"changes_since: no snapshot in {HISTORY}/ is dated on or before "
            f"{config['changes_since']} (snapshots: {', '.join(_dates) or 'none'}){_use}"
        )


wildcard_constraints:
    partition=r"[0-9]+",
    family="|".join(FAMILIES),
    date=r"[0-9]{4}-[0-9]{2}-[0-9]{2}",


# The private reports (private.smk): the versions whose packets are built, and the
# corpus files of each (a version's own responses and scorings, read from its subject
# folder when the DAG is built, only when `private_reports` is asked for).
from ro_metrics.private.packet_files import (
    evaluated_versions,
    folder_name_problem,
    subject_versions,
)


def chosen_versions():
    """(subject_id, subject_version) of the packets to build: every evaluated version
    (a scoring names it), or those config private_report_versions names (each must be
    an evaluated version; a one-line error names those that are not)."""
    evaluated = evaluated_versions(Path(CORPUS), VERSION)
    chosen = config["private_report_versions"]
    if chosen:
        unknown = sorted(set(chosen) - {version for _, version in evaluated})
        if unknown:
            configuration_error(
                "private_report_versions: no scoring in the corpus names "
                + ", ".join(repr(version) for version in unknown)
            )
        evaluated = [key for key in evaluated if key[1] in chosen]
    problems = [problem for _, version in evaluated if (problem := folder_name_problem(version))]
    if problems:
        configuration_error(f"private_reports: {'; '.join(problems)}")
    return evaluated


def private_packets(wildcards):
    """Every file of the packets to build (rule private_reports)."""
    return [
        path
        for subject_id, version in chosen_versions()
        for path in expand(
            rules.private_report.output,
            subject_id=subject_id,
            subject_version=version,
        )
    ]


def packet_inputs(wildcards):
    """The version's own corpus files: its responses and its scorings."""
    files = subject_versions(Path(CORPUS), VERSION, wildcards.subject_id).get(
        wildcards.subject_version
    )
    return {
        "responses": [f"{CORPUS}/{path}" for path in files.responses] if files else [],
        "scorings": [f"{CORPUS}/{path}" for path in files.scorings] if files else [],
    }
