import datetime
import hashlib
import re
import sys
from pathlib import Path

from snakemake.exceptions import WorkflowError
from snakemake.utils import validate

# The one sys.path entry of the project: the parse-time imports below (manifests,
# snapshots, the rules' code inputs) need the library package. Rule scripts get
# scripts/ from Snakemake's script preamble, tests from pyproject's pythonpath.
sys.path.insert(0, str(Path(workflow.basedir) / "scripts"))

from ro_metrics.corpus.layout import recorded_partitions, refresh_manifests
from ro_metrics.corpus.reviewers import MAX_SCORINGS, REVIEWERS, PolicyError, review_policy
from ro_metrics.history.snapshot import snapshot_dates
from ro_metrics.module_graph import CodeGraph
from ro_metrics.rendering.translations import LANGUAGES
from ro_metrics.site.site_files import drop_outdated_manifests


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
        where = ".".join(str(part) for part in cause.absolute_path) or "config"
        configuration_error(f"{where}: {cause.message}")


validate_config(config)

CORPUS = str(Path(config["corpus"]).absolute())
RESULTS = config["results"].rstrip("/")
# The static site (`snakemake site`); not a published result, never committed.
SITE = str(Path(config["site"]).absolute())
VERSION = config["benchmark_version"]
SCHEMAS = f"{workflow.basedir}/system/schemas/{VERSION}"
MAX_FILE_BYTES = int(config["max_file_mib"] * 2**20)
# Every label of the pages, the Markdown, the charts and the site, in every language
# (a data file, not code): an input of each step that renders them, so that an edited
# label re-renders what shows it.
LABELS = f"{workflow.basedir}/scripts/ro_metrics/rendering/labels.json"
# The pages' templates, style sheets and script (rendering/templates/): not Python
# modules, so not in a rule's code stamp; an input of each step that renders pages.
TEMPLATES = sorted(
    str(path)
    for path in Path(f"{workflow.basedir}/scripts/ro_metrics/rendering/templates").iterdir()
    if path.is_file()
)


# One cache folder per (corpus, results, version): runs on other corpora never
# overwrite each other's manifests or intermediate files.
_CACHE_KEY = hashlib.sha256(
    "\n".join([CORPUS, str(Path(RESULTS).absolute()), VERSION]).encode("utf-8")
).hexdigest()[:16]
CACHE = f"{config['cache'].rstrip('/')}/{_CACHE_KEY}"
MANIFESTS = f"{CACHE}/manifests"
CODE = CodeGraph(Path(workflow.basedir) / "scripts", Path(f"{CACHE}/code/imports.json"))
LOGS = f"{CACHE}/logs"
# Every step writes here; `publish` copies the set to RESULTS once all succeeded.
STAGED = f"{CACHE}/staged"
# Dated snapshots of the published results (`snakemake snapshot`), never rewritten.
HISTORY = f"{RESULTS}/historico"
# Published only when the corpus has telemetry: `publish` writes or removes them, so
# they cannot be Snakemake outputs (an output must exist); `verify` and `snapshot`
# take them from here.
OPTIONAL_PUBLISHED = {
    "operational_per_subject": f"{RESULTS}/operational_per_subject.csv",
    "operational_per_family": f"{RESULTS}/operational_per_family.csv",
}

# The findings' charts (rule findings, report.findings_charts), as published in
# RESULTS/charts/: each stem in English, then in every other language of the pages.
FINDINGS_CHARTS = [
    f"{stem}.svg" if code == LANGUAGES[0] else f"{stem}.{code}.svg"
    for code in LANGUAGES
    for stem in ("cost_quality", "family_heatmap", "quality_calibration")
]

if not Path(CORPUS).is_dir():
    configuration_error(f"corpus: {CORPUS} is not a folder")
if not Path(SCHEMAS).is_dir():
    configuration_error(f"benchmark_version: no schemas for {VERSION} in system/schemas/")

# The review policy of the version (one reviewer per run in v1.0, or two and an
# arbiter), with the configuration's overrides (shared/spec/multi-reviewer.md).
REVIEW_POLICY_FILE = f"{workflow.basedir}/system/rubric/{VERSION}/review_policy.yaml"
try:
    REVIEW_POLICY = review_policy(REVIEW_POLICY_FILE, config)
except PolicyError as error:
    configuration_error(str(error))
DOUBLE_REVIEW = REVIEW_POLICY.reviewers_per_run == 2
# The reviewer registry: an input only where it exists (optional with one reviewer per
# run; the consolidation names it missing under double review).
REVIEWER_REGISTRY = [f"{CORPUS}/{REVIEWERS}"] if Path(CORPUS, REVIEWERS).is_file() else []
# The consolidation step runs under double review, or to check a corpus's reviewer
# registry against its scorings; a v1.0 corpus without one (one reviewer per run) has
# nothing to consolidate, and its runs go from the load straight to the per-run table.
CONSOLIDATES = DOUBLE_REVIEW or bool(REVIEWER_REGISTRY)

# Job processes (cluster executors) reuse the manifests the main process wrote, and
# the partitions it chose.
if workflow.is_main_process:
    PARTITIONS = refresh_manifests(Path(CORPUS), VERSION, config["partitions"], Path(MANIFESTS))
    # A site page deleted or edited by hand: its job must run again to restore it.
    for message in drop_outdated_manifests(
        Path(SITE), sorted(Path(f"{CACHE}/site").glob("*.pages.json"))
    ):
        print(message, file=sys.stderr)
else:
    PARTITIONS = recorded_partitions(Path(MANIFESTS))


def modules(script):
    """The code stamp of a step: its script and every library module it imports,
    directly or not, with their digests (ro_metrics/module_graph.py). An input, so that
    editing any of them re-runs the step (Snakemake's own code trigger follows only the
    script named by `script:`). Derived from the imports, never listed."""
    return CODE.stamp(
        f"{workflow.basedir}/scripts/{script}",
        Path(f"{CACHE}/code/{Path(script).stem}.txt"),
        write=workflow.is_main_process,
    )


def snapshot_metadata_files(wildcards=None):
    """metadata.json of every snapshot folder: the set changes when a snapshot is taken."""
    return sorted(
        str(path)
        for path in Path(HISTORY).glob("*/metadata.json")
        if re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", path.parent.name)
    )


# changes_since must name a date with a snapshot on or before it: a comparison the
# user asked for is never silently replaced by "no earlier snapshot".
if config["changes_since"]:
    _dates = snapshot_dates(snapshot_metadata_files())
    if not any(date <= config["changes_since"] for date in _dates):
        configuration_error(
            f"changes_since: no snapshot in {HISTORY}/ is dated on or before "
            f"{config['changes_since']} (snapshots: {', '.join(_dates) or 'none'})"
        )
