"""The spec's vocabulary, one home each: families, criteria, classifications, ids.

aggregated_metrics.md and corpus-format.md define these words; every other module
takes them from here.
"""

import re

FAMILIES = ("OXID", "SCAL", "FOUL", "MECH", "NOWE")
# Display names of the families on the leaderboard page.
FAMILY_NAMES = {
    "FOUL": "Fouling",
    "MECH": "Mechanical",
    "NOWE": "No-fault / other",
    "OXID": "Oxidation",
    "SCAL": "Scaling",
}
# The six criteria of a scoring, in the rubric's order.
CRITERIA = (
    "main_hypothesis",
    "key_signals",
    "alternatives",
    "recommended_action",
    "requested_data",
    "decision_change_condition",
)
PASS, CONDITIONAL, FAIL = "Pass", "Conditional", "Fail"
CRITICAL, RECOVERABLE = "critical", "recoverable"
ELIGIBLE, DISQUALIFIED = "Eligible", "Disqualified"
N_BINS = 10
MAX_RAW_SCORE = 12

CASE_ID = r"RO-(?:OXID|SCAL|FOUL|MECH|NOWE)-[0-9]{3}"
RUN_ID = r"run-[0-9]{4}-[0-9]{2}-[0-9]{2}-[0-9]{3}"
SUBJECT_ID_RE = re.compile(r"[a-z0-9][a-z0-9_-]{1,63}")
RESPONSE_NAME_RE = re.compile(rf"(?P<case_id>{CASE_ID})__(?P<run_id>{RUN_ID})\.json")
SCORING_NAME_RE = re.compile(
    rf"(?P<case_id>{CASE_ID})__(?P<run_id>{RUN_ID})__eval-(?P<reviewer_id>[^/]+)\.json"
)
# First characters that make a spreadsheet run a cell as a formula: free-text ids that
# reach a published CSV must not start with one.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
GOLD_NAME_RE = re.compile(rf"(?P<case_id>{CASE_ID})_gold\.md")


def family_of(case_id: str) -> str:
    """family = the <FAMILY> segment of case_id ``RO-<FAMILY>-<NNN>``."""
    prefix, family, number = case_id.split("-")
    if prefix != "RO" or family not in FAMILIES or len(number) != 3:
        raise ValueError(f"not a case_id of the form RO-<FAMILY>-<NNN>: {case_id!r}")
    return family


def timestamp_key(timestamp: str) -> tuple[str, str]:
    """Chronological order of schema-valid UTC timestamps (YYYY-MM-DDThh:mm:ss[.f]Z).

    Plain text order is wrong once fractions appear ("…:10Z" sorts after "…:10.5Z").
    """
    whole, _, fraction = timestamp.rstrip("Z").partition(".")
    return whole, fraction


def newest_timestamp(timestamps) -> str:
    return max(timestamps, key=timestamp_key)
