"""The spec's vocabulary, one home each: families and their names, criteria,
classifications, ids.

aggregated_metrics.md, corpus-format.md and families.md define these words; every other
module takes them from here.
"""

import calendar
import datetime
import re
import time
from fractions import Fraction
from functools import lru_cache

FAMILIES = ("OXID", "SCAL", "FOUL", "MECH", "NOWE")
# The languages of the pages, reports and charts; the first is the default edition.
LANGUAGES = ("en", "es")
# Each family's name in each language of the editions (LANGUAGES), the taxonomy's words
# as shared/spec/families.md gives them: every page, chart, report and table names a
# family with these and no others. NOWE is a fault family, not "no fault" or "normal
# operation".
FAMILY_NAMES = {
    "OXID": {"en": "Oxidative damage", "es": "Daño oxidativo"},
    "SCAL": {"en": "Inorganic scaling", "es": "Incrustación inorgánica"},
    "FOUL": {"en": "Organic / biological fouling", "es": "Ensuciamiento orgánico / biológico"},
    "MECH": {"en": "Mechanical damage / integrity", "es": "Daño mecánico / integridad"},
    "NOWE": {"en": "No-wetting / abnormal startup", "es": "Falta de mojado / arranque anómalo"},
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
# The sections of a public case statement (shared/spec/families.md), in the order the
# benchmark writes them and the site shows them.
STATEMENT_SECTIONS = (
    "case_id",
    "plant_context",
    "operational_data",
    "recent_history",
    "reporting_party",
    "reporting_date",
)
PASS, CONDITIONAL, FAIL = "Pass", "Conditional", "Fail"
CRITICAL, RECOVERABLE = "critical", "recoverable"
ELIGIBLE, DISQUALIFIED = "Eligible", "Disqualified"
# The committee's annotations of a published row (shared/spec/lifecycle.md); withdrawn
# and invalidated rows keep their row and values but leave every active comparison.
CORRECTED, WITHDRAWN, INVALIDATED = "corrected", "withdrawn", "invalidated"
ANNOTATION_LABELS = (CORRECTED, WITHDRAWN, INVALIDATED)
LEAVES_COMPARISONS = frozenset({WITHDRAWN, INVALIDATED})
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


def family_name(code: str, language: str) -> str:
    """A family's name in a language (a code of LANGUAGES: "en", "es"); a family code the
    vocabulary does not know (a later version's family) is shown as its code, never
    given an invented name."""
    names = FAMILY_NAMES.get(code)
    return code if names is None else names[language]


def family_of(case_id: str) -> str:
    """family = the <FAMILY> segment of case_id ``RO-<FAMILY>-<NNN>``."""
    prefix, family, number = case_id.split("-")
    if prefix != "RO" or family not in FAMILIES or len(number) != 3:
        raise ValueError(f"not a case_id of the form RO-<FAMILY>-<NNN>: {case_id!r}")
    return family


# An RFC 3339 date-time as the schemas accept it (Z or a numeric offset; T and Z may be
# lower case, RFC 3339 §5.6).
RFC3339 = re.compile(
    r"(?P<date>[0-9]{4}-[0-9]{2}-[0-9]{2})[Tt](?P<hour>[0-9]{2}):(?P<minute>[0-9]{2}):"
    r"(?P<second>[0-9]{2})(?:\.(?P<fraction>[0-9]+))?(?P<zone>[Zz]|[+-][0-9]{2}:[0-9]{2})"
)


def timestamp_instant(timestamp: str) -> tuple[int, Fraction]:
    """The instant an RFC 3339 date-time denotes: (whole seconds since the epoch, fraction).

    Exact for any number of fraction digits (a float or datetime would round past 6) and
    for a leap second (…:60), so "2026-05-13T12:00:00+02:00" and "2026-05-13T10:00:00Z"
    are the same instant and "…:10Z" comes before "…:10.5Z".
    """
    match = RFC3339.fullmatch(timestamp)
    if match is None:
        raise ValueError(f"not an RFC 3339 date-time: {timestamp!r}")
    year, month, day = map(int, match["date"].split("-"))
    seconds = calendar.timegm((year, month, day, int(match["hour"]), int(match["minute"]), 0))
    seconds += int(match["second"])
    zone = match["zone"]
    if zone not in ("Z", "z"):
        sign = 1 if zone[0] == "+" else -1
        seconds -= sign * (int(zone[1:3]) * 3600 + int(zone[4:6]) * 60)
    fraction = match["fraction"] or "0"
    return seconds, Fraction(int(fraction), 10 ** len(fraction))


def utc_text(timestamp: str) -> str:
    """The same instant written YYYY-MM-DDThh:mm:ss[.fraction]Z (a Z timestamp unchanged)."""
    match = RFC3339.fullmatch(timestamp)
    if match is None:
        raise ValueError(f"not an RFC 3339 date-time: {timestamp!r}")
    if match["zone"] == "Z" and "t" not in timestamp:
        return timestamp
    seconds, _ = timestamp_instant(timestamp)
    whole = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds))
    return f"{whole}.{match['fraction']}Z" if match["fraction"] else f"{whole}Z"


# A date-time in UTC written with "T" and "Z", a time of day within range and no leap
# second: its first 19 characters are fixed-width fields, most significant first, so
# their text order is the order of its whole seconds (given a real calendar day).
_PLAIN_UTC = re.compile(
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}T(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\.[0-9]+)?Z"
)


@lru_cache(maxsize=4096)
def _real_day(date: str) -> bool:
    try:
        datetime.date.fromisoformat(date)
    except ValueError:  # 2026-02-30: timegm would carry it into March
        return False
    return True


def newest_timestamp(timestamps) -> str:
    """The newest of some RFC 3339 date-times, by the instant they denote, in UTC (…Z);
    of several denoting that instant, the first.

    The same as max(timestamps, key=timestamp_instant), without computing the instant of
    every one (0.6 s for the 85,500 scorings of size L): a plain UTC date-time (above)
    whose whole second, by text, is older than the newest such second is older than it
    in instant too, so it cannot be the newest; every other one is compared exactly.
    """
    timestamps = list(timestamps)
    plain_form = _PLAIN_UTC.fullmatch
    # The whole second of each plain one, None for the others.
    seconds = [
        timestamp[:19] if plain_form(timestamp) and _real_day(timestamp[:10]) else None
        for timestamp in timestamps
    ]
    newest_second = max((second for second in seconds if second), default=None)
    candidates = [
        timestamp
        for timestamp, second in zip(timestamps, seconds, strict=True)
        if second is None or second == newest_second
    ]
    return utc_text(max(candidates, key=timestamp_instant))


# divergent_runs.csv's arbiter_status of a divergent run (multi-reviewer.md): an arbiter
# decided it, or it awaits one. Written by the agreement step, read by the pages.
ARBITRATED, PENDING = "arbitrated", "pending"
# A critical-fail disagreement `critical_fails: union` settled without arbitration.
SETTLED_BY_UNION = "settled_by_union"
