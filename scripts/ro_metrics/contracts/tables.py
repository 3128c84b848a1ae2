"""The published tables' contracts: every table's columns (one home each), the CSV
format of corpus-format.md, and the typed per-run table that steps 3-4 read.
"""

import csv
import io
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from numbers import Rational
from pathlib import Path

from ro_metrics.contracts.files import read_json, write_bytes_atomic, write_json
from ro_metrics.contracts.vocabulary import CRITERIA

PER_RUN_COLUMNS = [
    "subject_id",
    "subject_version",
    "case_id",
    "family",
    "run_id",
    "reviewer_id",
    "scoring_timestamp_utc",
    "rubric_floor",
    "rubric_ceiling",
    "raw_score",
    "clipped_score",
    "has_critical_fail",
    "has_recoverable_fail",
    "classification",
    "reported_confidence",
    "confidence_unit",
    "correctness",
]
SUBJECT_COLUMNS = [
    "subject_id",
    "subject_version",
    "n_runs",
    "n_pass",
    "n_conditional",
    "n_fail",
    "n_critical_fails",
    "n_recoverable_fails",
    "pass_rate",
    "mean_clipped_score",
    "brier",
    "ece",
    "alpha",
    "q_final",
    "leaderboard_status",
]
FAMILY_COLUMNS = [
    "subject_id",
    "subject_version",
    "family",
    "n_runs",
    "n_pass",
    "n_conditional",
    "n_fail",
    "pass_rate_family",
    "mean_clipped_score_family",
]
# findings.md § 2's heatmap: one row per (version, family) with a scored run, versions
# in leaderboard order (the disqualified after the ranked), families hardest first;
# rates formatted as metrics_per_family.csv's (formulas.findings.heatmap_rows).
FAMILY_HEATMAP_COLUMNS = [
    "subject_id",
    "subject_version",
    "leaderboard_status",
    "family",
    "n_runs",
    "n_pass",
    "pass_rate",
    "mean_clipped_score",
]
# The last four come from the runner's telemetry (telemetry.md), empty when the corpus
# has none: responses counted in operational_*.csv, responses without a passing call,
# responses whose latest passing call lacks its token counts or latency, and passing
# calls that match no response of the corpus.
COVERAGE_COLUMNS = [
    "subject_id",
    "subject_version",
    "n_responses",
    "n_scored",
    "n_unscored",
    "n_operational_runs",
    "n_responses_without_call",
    "n_calls_without_usage",
    "n_calls_without_response",
]
UNCERTAINTY_COLUMNS = [
    "subject_id",
    "subject_version",
    "metric",
    "estimate",
    "ci_low",
    "ci_high",
    "method",
]
LEADERBOARD_COLUMNS = [
    "rank",
    "rank_low",
    "rank_high",
    "p_rank_1",  # the share of bootstrap replicates ranking it first (uncertainty.csv)
    "subject_id",
    "subject_version",
    "provider",
    "track",
    "q_final",
    "pass_rate",
    "mean_clipped_score",
    "brier",
    "ece",
    "n_runs",
    "n_pass",
    "n_conditional",
    "n_fail",
    "n_critical_fails",
    "leaderboard_status",
    "benchmark_version",
]
CRITICAL_FAIL_COLUMNS = [
    "subject_id",
    "subject_version",
    "case_id",
    "run_id",
    "reviewer_id",
    "fail_type",
    "response_field",
    "quote",
    "match",
    "reviewer_justification",
]

# telemetry.md's published contract: the runner's batch logs, and the two operational
# tables (the per-family one has `family` after subject_version).
TELEMETRY_COLUMNS = [
    "timestamp_utc",
    "case_id",
    "subject_id",
    "subject_version",
    "run_id",
    "track",
    "litellm_model",
    "served_model",
    "prompt_tokens",
    "completion_tokens",
    "total_tokens",
    "cost_usd",
    "price_per_input_token_usd",
    "price_per_output_token_usd",
    "latency_ms",
    "status",
    "error_type",
]
OPERATIONAL_MEASURES = [
    "n_runs",
    "mean_input_tokens",
    "mean_output_tokens",
    "output_to_input_ratio",
    "median_latency_s",
    "p95_latency_s",
    "price_per_input_token_usd",
    "price_per_output_token_usd",
]
OPERATIONAL_SUBJECT_COLUMNS = ["subject_id", "subject_version", *OPERATIONAL_MEASURES]
OPERATIONAL_FAMILY_COLUMNS = ["subject_id", "subject_version", "family", *OPERATIONAL_MEASURES]


# One row per scored run: the six criterion scores behind its raw_score, so that a
# later comparison can say which criterion a re-score moved (no justification, no
# reference: only the integers of the rubric). Same order as per_run.csv.
CRITERION_COLUMNS = [
    "subject_id",
    "subject_version",
    "case_id",
    "run_id",
    "reviewer_id",
    *CRITERIA,
]
# One row per input file the results were computed from (registry, golds, responses,
# scorings), sorted by path: what a later run compares to name the cause of a change.
INPUT_FILE_COLUMNS = ["path", "digest"]

# annotations.csv: subjects/annotations.yaml as published (lifecycle.md), in the file's
# order; link "" when the annotation has none.
ANNOTATION_COLUMNS = ["subject_id", "subject_version", "label", "date", "note", "link"]
# One row per value that changed since a snapshot (changes.csv), with its cause.
CHANGES_COLUMNS = [
    "scope",
    "change",
    "subject_id",
    "subject_version",
    "case_id",
    "run_id",
    "field",
    "old",
    "new",
    "outside_old_ci95",
    "cause",
]


# --- Two reviewers (multi-reviewer.md, Agreement and Published): agreement between the
# two primaries of each run, never the arbiter's or the consolidated values.
# agreement.csv: one row per (scope, variable, statistic); scope "overall" or a family.
# A count (a confusion cell, the critical-fail counts) has no interval.
AGREEMENT_COLUMNS = [
    "scope",
    "variable",
    "statistic",
    "estimate",
    "ci_low",
    "ci_high",
    "n_runs",
    "n_cases",
    "n_undefined_replicates",
    "note",
]
# agreement_grid.csv: per family and criterion, the quadratically weighted κ with its
# interval and the mean absolute difference (which criteria of which family to rewrite).
AGREEMENT_GRID_COLUMNS = [
    "family",
    "criterion",
    "quadratic_kappa",
    "ci_low",
    "ci_high",
    "mean_absolute_difference",
    "n_runs",
    "n_cases",
    "n_undefined_replicates",
    "note",
]
# reviewer_severity.csv: per reviewer, its raw score minus its partner's, and how the
# arbiter decided on its runs that went to arbitration (formulas/agreement_tables.py
# defines "sided with").
REVIEWER_SEVERITY_COLUMNS = [
    "reviewer_id",
    "n_runs_primary",
    "mean_signed_difference",
    "n_runs_arbitrated",
    "n_own_runs_arbitrated",
    "n_arbiter_sided_with",
    "n_arbiter_sided_against",
    "share_arbiter_sided_with",
]
# divergent_runs.csv: one row per run whose primaries diverged, critical-fail
# disagreements first.
DIVERGENT_RUN_COLUMNS = [
    "subject_id",
    "subject_version",
    "case_id",
    "family",
    "run_id",
    "reviewer_a",
    "reviewer_b",
    "classification_a",
    "classification_b",
    "raw_score_a",
    "raw_score_b",
    "correctness_a",
    "correctness_b",
    "critical_fail_a",
    "critical_fail_b",
    "diverged",
    "arbiter_status",
    "arbiter_id",
    "arbiter_classification",
]


class PublishedTableError(ValueError):
    """A published CSV of the earlier steps is not in the expected format."""


def format_metric(value: float) -> str:
    """A non-integer metric: round-half-even to 4 decimals, shortest text (0.8065, 1.0)."""
    return repr(round(float(value), 4))


def rounded_exact(value: Fraction) -> float:
    """An exact value as a 4-decimal published value: the exact value rounded half-even
    to 4 decimals (13/160 = 0.08125 → 0.0812, not its float's 0.0813), as the float
    whose shortest text (repr) is the published one."""
    return float(round(value, 4))


def exact_fraction(value) -> Fraction | None:
    """A published number read back as an exact Fraction: a fraction object of
    findings.json ({"num", "den", "value"}), a text ("0.8065", "13/160", "1e-06"), an
    int, or a float (the decimal it prints as: its repr, the published text, not its
    binary value); None for null or an empty text. Anything else is a ValueError."""
    if value is None or value == "":
        return None
    if isinstance(value, dict) and "num" in value and "den" in value:
        return Fraction(value["num"], value["den"])
    if isinstance(value, float):
        return Fraction(repr(value))
    if isinstance(value, Rational) and not isinstance(value, bool):
        return Fraction(value)
    # A text; any other value's text (True, a list, an object) is no number.
    return Fraction(str(value))


def decimal_text(value, places: int, mark: str = ".") -> str:
    """An exact number (a Fraction, an int, or a float's binary value) rounded half-even
    to `places` decimals and written with them all and the decimal `mark` (no negative
    zero: −0.001 to 2 places is 0.00)."""
    if isinstance(places, bool) or not isinstance(places, int) or places < 0:
        raise ValueError(f"decimals must be an integer ≥ 0, not {places!r}")
    scaled = round(Fraction(value) * 10**places)  # Fraction rounds half to even
    sign = "-" if scaled < 0 else ""
    whole, part = divmod(abs(scaled), 10**places)
    return f"{sign}{whole}{mark}{part:0{places}d}" if places else f"{sign}{whole}"


# A p-value is shown with this many significant digits, everywhere (the report, the
# findings page, the leaderboard): 0.85, 0.020, 0.00020, 0.000012.
P_VALUE_DIGITS = 2


def p_value_text(value, mark: str = ".") -> str:
    """A p-value (exact, 0 < p ≤ 1) as every page writes it: rounded half-even to
    P_VALUE_DIGITS significant digits, in plain decimals (2040/10^7 → 0.00020; 1 → 1.0)."""
    value = Fraction(value)
    if value <= 0:
        return decimal_text(value, P_VALUE_DIGITS, mark)
    places = P_VALUE_DIGITS - 1
    while value * 10**places < 10 ** (P_VALUE_DIGITS - 1):
        places += 1
    if round(value * 10**places) >= 10**P_VALUE_DIGITS:  # 0.0999 → 0.10, one place less
        places -= 1
    return decimal_text(value, places, mark)


def share_percent_text(value, mark: str = ".") -> str:
    """A bootstrap share (p_rank_1, the share of draws a version is lowest in) as every
    page writes it: a whole percentage, the number only ("58"); "< 1" and "> 99" when
    it is not 0 or 1 but would round to them, so 0 and 100 are only ever exact."""
    value = Fraction(value)
    if 0 < value < Fraction(1, 200):
        return "< 1"
    if Fraction(199, 200) <= value < 1:
        return "> 99"
    return decimal_text(value * 100, 0, mark)


def write_csv(path, header: list[str], rows) -> None:
    """RFC 4180 as published: comma, CRLF, UTF-8 without BOM, minimal quoting.

    Cells are ints, floats (written as repr: the shortest text that reads back as
    the same float), bools (True/False) or text.
    """
    write_bytes_atomic(path, table_bytes(header, rows))


def table_bytes(header: list[str], rows) -> bytes:
    """What write_csv writes, for a step that publishes it later; every row checked to
    have the header's width."""
    rows = list(rows)
    widths = {len(row) for row in rows}
    if widths - {len(header)}:
        raise ValueError(f"rows of {sorted(widths)} fields under a header of {len(header)}")
    return csv_bytes(header, rows)


def csv_bytes(header: list[str], rows: list) -> bytes:
    """The CSV text of write_csv. Cells that need no quoting (no comma, quote or line
    break: nearly always) are joined directly, 6 x faster than csv.writer at 10^5
    rows; the counts below prove that no cell needed quoting, else csv.writer writes."""
    lines = [",".join(header), *(",".join(map(str, row)) for row in rows)]
    text = "\r\n".join(lines) + "\r\n"
    n_lines = len(lines)
    plain = (
        '"' not in text
        and text.count(",") == n_lines * (len(header) - 1)
        and text.count("\n") == n_lines
        and text.count("\r") == n_lines
        and (len(header) > 1 or all(row[0] != "" for row in rows))
    )
    if not plain:
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\r\n", quoting=csv.QUOTE_MINIMAL)
        writer.writerow(header)
        writer.writerows(rows)
        text = buffer.getvalue()
    return text.encode("utf-8")


def read_table(path, header: list[str]) -> list[dict[str, str]]:
    """The rows of a CSV written by write_csv, as text, after checking its header."""
    return [dict(zip(header, row, strict=True)) for row in read_rows(path, header)]


def read_annotations(path) -> list[dict[str, str]]:
    """The rows of annotations.csv (ANNOTATION_COLUMNS), in the file's order."""
    return read_table(path, ANNOTATION_COLUMNS)


def read_uncertainty(path) -> dict[tuple[str, str, str], dict[str, str]]:
    """(subject_id, subject_version, metric) → its row of uncertainty.csv."""
    return {
        (row["subject_id"], row["subject_version"], row["metric"]): row
        for row in read_table(path, UNCERTAINTY_COLUMNS)
    }


class PerRunTableError(ValueError):
    """The per-run table is not what step 2 writes."""


@dataclass(frozen=True)
class Rows:
    """Some rows of the per-run table (all of them by default)."""

    records: list[list]
    indices: range | list[int]

    def column(self, name: str) -> list:
        position = PER_RUN_COLUMNS.index(name)
        records = self.records
        return [records[index][position] for index in self.indices]

    def __len__(self) -> int:
        return len(self.indices)


def write_per_run_table(path, rows: list[list]) -> None:
    """The per-run rows of the runs the metrics count (one per run), typed, for steps 3-4
    and the global steps: parsing 10^5 CSV rows would cost each of them more than its own
    work; the JSON carries exactly the values of the CSV's rows and reads in a few ms.
    With one reviewer per run they are per_run.csv's rows; under double review one per
    consolidated run (its reviewer_id: the scorings that count, "R01+R02" or the
    arbiter's), the runs the metrics are computed from (multi-reviewer.md)."""
    write_json(path, {"columns": PER_RUN_COLUMNS, "rows": rows})


def read_per_run(paths) -> Rows:
    """The per-run rows of one or more partitions (write_per_run_table), together."""
    records = []
    for path in [paths] if isinstance(paths, str | Path) else paths:
        table = read_json(path)
        if table.get("columns") != PER_RUN_COLUMNS:
            raise PerRunTableError(f"{path}: not the per-run table of step 2")
        records += table["rows"]
    return Rows(records, range(len(records)))


def column(rows: Rows, name: str) -> list:
    return rows.column(name)


def groups(rows: Rows, keys: list[str]) -> Iterator[tuple[tuple, Rows]]:
    """(key values, rows) per group, in the sorted order of the keys."""
    members = defaultdict(list)
    keys_of_rows = zip(*(rows.column(name) for name in keys), strict=True)
    for index, key in zip(rows.indices, keys_of_rows, strict=True):
        members[key].append(index)
    for key in sorted(members):
        yield key, Rows(records=rows.records, indices=members[key])


# --- Two reviewers and an arbiter (multi-reviewer.md): published only under double
# review (reviewers_per_run 2), so the v1.0 tables keep their columns and bytes.

# One row per run the metrics count: per_run.csv's columns of a run (no reviewer_id,
# no scoring_timestamp_utc: the run has several), how it was consolidated and by whom.
CONSOLIDATED_COLUMNS = [
    *PER_RUN_COLUMNS[: PER_RUN_COLUMNS.index("reviewer_id")],
    "method",  # single, mean_of_primaries or arbiter
    "primary_ids",  # the primaries' ids, by id, joined by ";"
    "arbiter_id",
    *PER_RUN_COLUMNS[PER_RUN_COLUMNS.index("rubric_floor") :],
]
# One row per scored run left out of R for its review, for the committee; pending
# critical-fail disagreements first (pending_order).
PENDING_COLUMNS = [
    "subject_id",
    "subject_version",
    "case_id",
    "family",
    "run_id",
    "status",  # pending_arbitration or awaiting_second_review
    "primary_ids",
    "divergent",  # the divergence rules that fired, joined by ";"
    "critical_disagreement",
    # The worklist (multi-reviewer.md): when the second primary scored (empty while
    # awaiting it), who may arbitrate (registered arbiters, active then, not a primary),
    # the primaries who raised a critical fail, the files (paths in the corpus).
    "second_review_utc",
    "eligible_arbiters",
    "critical_fail_by",
    "response_file",
    "scoring_files",
]
COVERAGE_REVIEW_COLUMNS = [
    *COVERAGE_COLUMNS[:5],
    "n_pending_arbitration",
    "n_awaiting_second_review",
    *COVERAGE_COLUMNS[5:],
]


def coverage_columns(reviewers_per_run: int) -> list[str]:
    """coverage.csv's columns: with the pending counts under double review only, so that
    the v1.0 table keeps its columns and bytes."""
    return COVERAGE_REVIEW_COLUMNS if reviewers_per_run == 2 else COVERAGE_COLUMNS


def selected_columns(rows: list[list], header: list[str], columns: list[str]) -> list[list]:
    """Rows of `header` cut down to `columns` (a subset, in its order)."""
    positions = [header.index(name) for name in columns]
    return [[row[position] for position in positions] for row in rows]


# The leaderboard's pending counts, after its columns; pending_critical_fail: the
# version has a run whose primaries disagree on a critical fail, not yet arbitrated.
LEADERBOARD_PENDING_COLUMNS = [
    *LEADERBOARD_COLUMNS,
    "n_pending_arbitration",
    "n_awaiting_second_review",
    "pending_critical_fail",
]
# Then a provisional version's (one with runs pending review) Q_final once they are
# reviewed, each taking one of its primaries' values, and the statuses it could have
# (";"-joined); empty for a version with none pending.
LEADERBOARD_REVIEW_COLUMNS = [
    *LEADERBOARD_PENDING_COLUMNS,
    "q_final_if_reviewed_low",
    "q_final_if_reviewed_high",
    "status_if_reviewed",
]


# leaderboard.csv's last column with annotations: each annotation of the row as
# "<label> <date>: <note> <link>", joined by " | " (annotations.csv has them one a row).
LEADERBOARD_ANNOTATIONS = "annotations"
LEADERBOARD_ALL_COLUMNS = [*LEADERBOARD_REVIEW_COLUMNS, LEADERBOARD_ANNOTATIONS]


def leaderboard_columns(reviewers_per_run: int, annotated: bool = False) -> list[str]:
    """leaderboard.csv's columns: with the pending counts under double review only, and
    the row's annotations when the corpus has subjects/annotations.yaml."""
    columns = LEADERBOARD_REVIEW_COLUMNS if reviewers_per_run == 2 else LEADERBOARD_COLUMNS
    return [*columns, LEADERBOARD_ANNOTATIONS] if annotated else columns


def read_leaderboard(path) -> list[dict[str, str]]:
    """The rows of a published leaderboard.csv, in any of its forms (with the pending
    counts or without, with the annotations or without: leaderboard_columns), as
    read_table gives them."""
    with open(path, encoding="utf-8", newline="") as handle:
        found = next(csv.reader(handle), None)
    # read_table checks the header: any other is an error. An earlier release's review
    # columns (without the provisional range) still read.
    forms = [
        [*columns, LEADERBOARD_ANNOTATIONS] if annotated else columns
        for columns in (
            LEADERBOARD_COLUMNS,
            LEADERBOARD_PENDING_COLUMNS,
            LEADERBOARD_REVIEW_COLUMNS,
        )
        for annotated in (False, True)
    ]
    return read_table(path, next((form for form in forms if form == found), LEADERBOARD_COLUMNS))


def pending_order(row: list) -> tuple:
    """The order of pending_runs.csv: pending critical-fail disagreements first, then by
    (subject_id, subject_version, case_id, run_id). A row's cells as written or as read
    back (critical_disagreement True or "True")."""
    critical = row[PENDING_COLUMNS.index("critical_disagreement")]
    return (str(critical) != "True", *row[:3], row[PENDING_COLUMNS.index("run_id")])


# --- Tables computed per partition of the corpus (one fragment per partition, with its
# header; a subject's rows are all in one partition), and put together for publishing.


def read_rows(path, header: list[str]) -> list[list[str]]:
    """The rows of a CSV written by write_csv, as text, after checking its header."""
    with open(path, encoding="utf-8", newline="") as handle:
        reader = csv.reader(handle)
        found = next(reader, None)
        if found != header:
            raise PublishedTableError(f"{path}: header {found} is not {header}")
        return list(reader)


def assembled_rows(paths, header: list[str]) -> list[list[str]]:
    """The rows of a table from its partitions' fragments: sorted as the table is, by
    subject_id first (the rows of one subject in their fragment's order), except
    pending_runs.csv (pending_order)."""
    if header == PENDING_COLUMNS:
        rows = [row for path in paths for row in read_rows(path, header)]
        return sorted(rows, key=pending_order)
    blocks: dict[str, list[list[str]]] = {}
    for path in paths:
        for row in read_rows(path, header):
            blocks.setdefault(row[0], []).append(row)
    return [row for subject_id in sorted(blocks) for row in blocks[subject_id]]


def assembled_table(paths, header: list[str]) -> list[dict[str, str]]:
    """assembled_rows as read_table gives a table: one dict per row."""
    return [dict(zip(header, row, strict=True)) for row in assembled_rows(paths, header)]


def assembled_bytes(paths, header: list[str]) -> bytes:
    """The published CSV of a table computed per partition (what write_csv writes).

    When no fragment holds a quote, write_csv quoted no cell, so each line after the
    header is one row: the fragments' lines are put together by subject_id as
    assembled_rows orders the rows, without parsing the cells (at size L, three tables
    of 85,500 rows on the path of every new scoring). Otherwise the rows are parsed."""
    if header != PENDING_COLUMNS:
        head = (",".join(header) + "\r\n").encode("utf-8")
        fragments = [Path(path).read_bytes() for path in paths]
        if all(fragment.startswith(head) and b'"' not in fragment for fragment in fragments):
            blocks: dict[bytes, list[bytes]] = {}
            for fragment in fragments:
                # Every line ends with \r\n: the last piece of the split is empty.
                for line in fragment[len(head) :].split(b"\r\n")[:-1]:
                    blocks.setdefault(line.split(b",", 1)[0], []).append(line + b"\r\n")
            return head + b"".join(line for key in sorted(blocks) for line in blocks[key])
    return csv_bytes(header, assembled_rows(paths, header))
