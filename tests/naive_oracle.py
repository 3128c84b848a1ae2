"""An independent, naive reading of the specs, for the property tests.

The metrics of aggregated_metrics.md and the telemetry tables of telemetry.md written
again with plain Python, the comparison rules of their published texts, and the
hypothesis strategies of small corpora, shared by the in-process and the end-to-end
property tests.
"""

import csv
import io
import math
import statistics
from collections import defaultdict
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from ro_metrics.contracts.tables import TELEMETRY_COLUMNS

# --------------------------------------------------------------------------------------
# An independent, naive reading of the metrics spec, for the property tests
# (tests/unit/test_metrics_property.py, tests/workflow/test_metrics_property_workflow.py).
#
# Written straight from aggregated_metrics.md with plain Python floats and literal
# comparisons (the ECE bins as the spec writes them, ``(m-1)/10 <= confidence_unit <
# m/10``); it imports nothing from scripts/.
#
# Rounding rule. The workflow computes every aggregate exactly (rationals) and rounds
# the nearest float once; the naive side accumulates float errors of a few ulps. The
# two published texts can therefore only differ when a 4-decimal rounding half-way
# point lies between the exact value and the naive float, i.e. when the naive float is
# within a hair of such a point. So each published metric must be
# ``repr(round(naive, 4))``, or, only when ``naive`` is within 1e-12 of a half-way
# point, one of the two neighbouring 4-decimal values (within 1e-4 of ``naive``).
# --------------------------------------------------------------------------------------


# Deterministic in CI: the same examples on every run, and no example database.
settings.register_profile(
    "metrics-property",
    derandomize=True,
    database=None,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
METRICS_PROFILE = settings.get_profile("metrics-property")

PER_RUN_HEADER = [
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
SUBJECT_HEADER = [
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
FAMILY_HEADER = [
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


# --------------------------------------------------------------------------------------
# The naive implementation, straight from aggregated_metrics.md.
# --------------------------------------------------------------------------------------


class Metric:
    """An expected non-integer metric: the naive float, compared by the rounding rule."""

    def __init__(self, value: float):
        self.value = value

    def __repr__(self) -> str:
        return f"Metric({self.value!r})"


def naive_classification(clipped, floor, critical, recoverable) -> str:
    if critical:
        return "Fail"
    if recoverable:
        return "Conditional"
    if clipped < floor:
        return "Fail"
    if clipped >= 10:
        return "Pass"
    if clipped >= 7:
        return "Conditional"
    return "Fail"


def naive_per_run(run: dict) -> dict:
    raw = 0
    for score in run["criterion_scores"]:
        raw += score
    clipped = raw if raw < run["rubric_ceiling"] else run["rubric_ceiling"]
    critical = False
    recoverable = False
    for severity in run["fail_severities"]:
        critical = critical or severity == "critical"
        recoverable = recoverable or severity == "recoverable"
    return {
        "subject_id": run["subject_id"],
        "subject_version": run["subject_version"],
        "case_id": run["case_id"],
        "family": run["case_id"][3:7],
        "run_id": run["run_id"],
        "reviewer_id": run["reviewer_id"],
        "scoring_timestamp_utc": run["scoring_timestamp_utc"],
        "rubric_floor": run["rubric_floor"],
        "rubric_ceiling": run["rubric_ceiling"],
        "raw_score": raw,
        "clipped_score": clipped,
        "has_critical_fail": critical,
        "has_recoverable_fail": recoverable,
        "classification": naive_classification(clipped, run["rubric_floor"], critical, recoverable),
        "reported_confidence": run["confidence"],
        "confidence_unit": run["confidence"] / 100,
        "correctness": float(run["correctness"]),
    }


def in_bin(m: int, confidence_unit: float) -> bool:
    if m <= 9:
        return (m - 1) / 10 <= confidence_unit < m / 10
    return 0.9 <= confidence_unit <= 1.0


def naive_ece(rows: list[dict]) -> float:
    n = len(rows)
    bins = {m: [] for m in range(1, 11)}
    for row in rows:
        members = [m for m in range(1, 11) if in_bin(m, row["confidence_unit"])]
        assert len(members) == 1, (row["confidence_unit"], members)
        bins[members[0]].append(row)
    ece = 0.0
    for members in bins.values():
        if not members:
            continue
        conf = sum(r["confidence_unit"] for r in members) / len(members)
        acc = sum(r["correctness"] for r in members) / len(members)
        ece += len(members) / n * abs(conf - acc)
    return ece


def naive_counts(rows: list[dict]) -> list[int]:
    classes = [r["classification"] for r in rows]
    return [len(rows), classes.count("Pass"), classes.count("Conditional"), classes.count("Fail")]


def naive_subject_row(subject_id, version, rows, alpha) -> list:
    n = len(rows)
    pass_rate = sum(1 for r in rows if r["classification"] == "Pass") / n
    mean_clipped = sum(r["clipped_score"] for r in rows) / n
    brier = sum((r["confidence_unit"] - r["correctness"]) ** 2 for r in rows) / n
    n_critical = sum(1 for r in rows if r["has_critical_fail"])
    return [
        subject_id,
        version,
        *naive_counts(rows),
        n_critical,
        sum(1 for r in rows if r["has_recoverable_fail"]),
        Metric(pass_rate),
        Metric(mean_clipped),
        Metric(brier),
        Metric(naive_ece(rows)),
        Metric(float(alpha)),
        Metric(alpha * pass_rate + (1 - alpha) * (mean_clipped / 12)),
        "Disqualified" if n_critical > 0 else "Eligible",
    ]


def naive_family_row(subject_id, version, family, rows) -> list:
    n = len(rows)
    return [
        subject_id,
        version,
        family,
        *naive_counts(rows),
        Metric(sum(1 for r in rows if r["classification"] == "Pass") / n),
        Metric(sum(r["clipped_score"] for r in rows) / n),
    ]


def naive_tables(runs: list[dict], alpha):
    """(per-run rows, subject rows, family rows) in the published order."""
    per_run = sorted(
        (naive_per_run(run) for run in runs),
        key=lambda r: (r["subject_id"], r["case_id"], r["run_id"], r["reviewer_id"]),
    )
    by_version = defaultdict(list)
    by_family = defaultdict(list)
    for row in per_run:
        by_version[(row["subject_id"], row["subject_version"])].append(row)
        by_family[(row["subject_id"], row["family"], row["subject_version"])].append(row)
    subjects = [
        naive_subject_row(subject_id, version, by_version[(subject_id, version)], alpha)
        for subject_id, version in sorted(by_version)
    ]
    families = [
        naive_family_row(subject_id, version, family, by_family[(subject_id, family, version)])
        for subject_id, family, version in sorted(by_family)
    ]
    return per_run, subjects, families


def per_run_cells(row: dict) -> list:
    return [
        row[column] if column not in ("confidence_unit", "correctness") else Metric(row[column])
        for column in PER_RUN_HEADER
    ]


# --------------------------------------------------------------------------------------
# Comparison.
# --------------------------------------------------------------------------------------


def near_half_way(value: float) -> bool:
    half_way = (math.floor(value * 10_000) + 0.5) / 10_000
    return abs(value - half_way) <= 1e-12


def assert_metric(published: str, naive: float, where: str) -> None:
    assert isinstance(published, str), (where, published)
    if published == repr(round(naive, 4)):
        return
    # Exact rational (workflow) and float accumulation (naive) may sit on either side of a
    # half-way point; only then may the rounded texts differ, by one unit of 1e-4.
    assert near_half_way(naive), (where, published, naive)
    assert abs(float(published) - naive) <= 1e-4, (where, published, naive)
    assert published == repr(round(float(published), 4)), (where, published)


def assert_rows(actual: list, expected: list, *, as_text: bool, table: str) -> None:
    assert len(actual) == len(expected), (table, len(actual), len(expected))
    for index, (got, want) in enumerate(zip(actual, expected, strict=True)):
        assert len(got) == len(want), (table, index, got)
        for column, (cell, wanted) in enumerate(zip(got, want, strict=True)):
            where = f"{table} row {index} column {column}: {want[:3]}"
            if isinstance(wanted, Metric):
                # Published 4-decimal metrics are text already; per-run floats are floats.
                text = cell if isinstance(cell, str) else repr(cell)
                if not as_text and not isinstance(cell, str):
                    assert type(cell) is float, (where, cell)
                if table == "per_run":
                    assert text == repr(wanted.value), (where, text, wanted)
                else:
                    assert_metric(text, wanted.value, where)
            elif as_text:
                text = ("True" if wanted else "False") if isinstance(wanted, bool) else str(wanted)
                assert cell == text, (where, cell, wanted)
            else:
                assert type(cell) is type(wanted), (where, cell, wanted)
                assert cell == wanted, (where, cell, wanted)


def assert_existence(runs, subject_rows, family_rows) -> None:
    """A version row iff it has a run; a (version, family) row iff it has a run there."""
    with_runs = {(r["subject_id"], r["subject_version"]) for r in runs}
    family_with_runs = {(r["subject_id"], r["subject_version"], r["case_id"][3:7]) for r in runs}
    assert {(row[0], row[1]) for row in subject_rows} == with_runs
    assert {(row[0], row[1], row[2]) for row in family_rows} == family_with_runs
    assert len(subject_rows) == len(with_runs)
    assert len(family_rows) == len(family_with_runs)


# --------------------------------------------------------------------------------------
# Strategies.
# --------------------------------------------------------------------------------------

FAMILIES = ("OXID", "SCAL", "FOUL", "MECH", "NOWE")
# Slugs whose order exercises '-' < digits < '_' < letters.
SUBJECT_IDS = ("ab", "ab-c", "ab2", "ab_c", "zeta-13b")
# subject_version is free text: values a CSV reader could take for numbers, missing
# values or separators must come back as the same text.
VERSIONS = ("v1", "v2-20251001", "NA", "1.0", "null", "v,comma", 'q"uote', "snap shot", "é-1")
TIMESTAMPS = ("2026-05-13T10:38:10Z", "2026-05-14T00:00:00.25Z")
BIN_EDGES = (0, 9, 10, 30, 90, 99, 100)

case_ids = st.builds(
    "RO-{}-{:03d}".format, st.sampled_from(FAMILIES), st.integers(min_value=1, max_value=12)
)


@st.composite
def gold_bounds(draw, floor_below_ceiling=False):
    floor = draw(st.integers(min_value=0, max_value=11))
    lowest = floor + 1 if floor_below_ceiling else max(floor, 1)
    ceiling = draw(st.integers(min_value=lowest, max_value=12))
    return floor, ceiling


confidences = st.one_of(st.sampled_from(BIN_EDGES), st.integers(min_value=0, max_value=100))
# Three runs in four without automatic fail, so that not every version is disqualified.
severities = st.one_of(
    st.just([]),
    st.just([]),
    st.just([]),
    st.lists(st.sampled_from(["critical", "recoverable"]), min_size=1, max_size=3),
)
# Mostly high scores, so that Pass, Conditional and the floor all show up.
criterion_scores = st.lists(st.sampled_from([0, 1, 2, 2, 2]), min_size=6, max_size=6)
alphas = st.one_of(
    st.sampled_from([0, 1, 0.0, 1.0, 0.5]),
    st.floats(min_value=0, max_value=1, allow_nan=False),
)


@st.composite
def corpora(
    draw,
    max_subjects=3,
    min_runs_per_subject=1,
    max_runs_per_subject=30,
    with_unscored=False,
    floor_below_ceiling=False,
):
    """Scored runs (see step_one_output for the shape step 2 consumes), plus the registry.

    Returns (runs, registry, golds, unscored): registry maps subject_id to its versions
    (some may have no run), golds case_id to (floor, ceiling), unscored lists responses
    without a scoring as (subject_id, version, case_id, run_id, confidence).
    floor_below_ceiling: only golds a corpus may hold (the benchmark's validators refuse
    rubric_floor >= rubric_ceiling); the formulas alone take floor == ceiling too.
    """
    bounds = gold_bounds(floor_below_ceiling=floor_below_ceiling)
    golds = draw(st.dictionaries(case_ids, bounds, min_size=1, max_size=8))
    case_list = sorted(golds)
    subject_ids = draw(
        st.lists(st.sampled_from(SUBJECT_IDS), min_size=1, max_size=max_subjects, unique=True)
    )
    registry, runs, unscored = {}, [], []
    for subject_id in subject_ids:
        versions = draw(st.lists(st.sampled_from(VERSIONS), min_size=1, max_size=3, unique=True))
        registry[subject_id] = versions
        specs = draw(
            st.lists(
                st.tuples(
                    st.sampled_from(case_list),
                    st.integers(min_value=12, max_value=13),  # day of the run
                    st.integers(min_value=1, max_value=5),  # run number
                    st.booleans() if with_unscored else st.just(True),
                ),
                min_size=min_runs_per_subject,
                max_size=max_runs_per_subject,
                unique_by=lambda spec: spec[:3],
            )
        )
        for case_id, day, number, scored in specs:
            version = draw(st.sampled_from(versions))
            run_id = f"run-2026-05-{day:02d}-{number:03d}"
            confidence = draw(confidences)
            if not (scored or draw(st.booleans())):
                unscored.append((subject_id, version, case_id, run_id, confidence))
                continue
            floor, ceiling = golds[case_id]
            runs.append(
                {
                    "subject_id": subject_id,
                    "subject_version": version,
                    "case_id": case_id,
                    "run_id": run_id,
                    "reviewer_id": draw(st.sampled_from(["R01", "R02"])),
                    "scoring_timestamp_utc": draw(st.sampled_from(TIMESTAMPS)),
                    "rubric_floor": floor,
                    "rubric_ceiling": ceiling,
                    "criterion_scores": draw(criterion_scores),
                    "fail_severities": draw(severities),
                    "confidence": confidence,
                    "correctness": draw(st.sampled_from([0, 0.5, 1, 0.0, 1.0])),
                }
            )
    return runs, registry, golds, unscored


def edge_corpus():
    """A fixed corpus through every bin edge and every classification branch.

    Every confidence of BIN_EDGES with every correctness; the classification order
    (critical before recoverable before floor before the thresholds 10 and 7), the
    clipping by a ceiling below 10, an eligible and a disqualified version, a version
    registered without runs, unscored responses, and versions that look like a number
    or a missing value.
    """
    golds = {"RO-OXID-001": (0, 12), "RO-SCAL-002": (8, 12), "RO-NOWE-003": (3, 9)}
    registry = {"ab": ["v1", "NA", "never-run"], "ab-c": ["1.0"]}
    shapes = [
        # (case_id, criterion scores, fail severities), classification in the comment
        ("RO-OXID-001", [2, 2, 2, 2, 2, 2], []),  # 12: Pass
        ("RO-OXID-001", [2, 2, 2, 2, 2, 0], []),  # 10: Pass
        ("RO-OXID-001", [2, 2, 2, 2, 1, 0], []),  # 9: Conditional
        ("RO-OXID-001", [2, 2, 2, 1, 0, 0], []),  # 7: Conditional
        ("RO-OXID-001", [2, 2, 2, 0, 0, 0], []),  # 6: Fail
        ("RO-SCAL-002", [2, 2, 2, 1, 0, 0], []),  # 7 < floor 8: Fail
        ("RO-SCAL-002", [2, 2, 2, 2, 2, 2], ["recoverable"]),  # Conditional
        ("RO-NOWE-003", [2, 2, 2, 2, 2, 2], []),  # clipped to 9: Conditional
        ("RO-NOWE-003", [1, 1, 0, 0, 0, 0], ["recoverable"]),  # below floor: Conditional
    ]
    runs, unscored = [], []
    for index, confidence in enumerate(BIN_EDGES):
        for offset, correctness in enumerate([0, 0.5, 1]):
            case_id, scores, fails = shapes[(index + offset) % len(shapes)]
            subject_id, version = [("ab", "v1"), ("ab", "NA"), ("ab-c", "1.0")][offset]
            if subject_id == "ab-c" and index == 0:
                fails = ["recoverable", "critical"]  # critical wins: Fail, disqualified
            runs.append(
                {
                    "subject_id": subject_id,
                    "subject_version": version,
                    "case_id": case_id,
                    "run_id": f"run-2026-05-12-{index * 3 + offset + 1:03d}",
                    "reviewer_id": "R01",
                    "scoring_timestamp_utc": TIMESTAMPS[0],
                    "rubric_floor": golds[case_id][0],
                    "rubric_ceiling": golds[case_id][1],
                    "criterion_scores": scores,
                    "fail_severities": fails,
                    "confidence": confidence,
                    "correctness": correctness,
                }
            )
    unscored.append(("ab", "v1", "RO-OXID-001", "run-2026-05-13-001", 100))
    unscored.append(("ab-c", "1.0", "RO-SCAL-002", "run-2026-05-13-001", 0))
    return runs, registry, golds, unscored


def read_csv_rows(path: Path) -> tuple[list[str], list[list[str]]]:
    raw = path.read_bytes()
    assert not raw.startswith(b"\xef\xbb\xbf")
    with open(path, encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle))
    return rows[0], rows[1:]


# The benchmark's operational tables (telemetry.md), implemented independently of
# ro_metrics: what the tests compare the workflow's operational_*.csv with.


def benchmark_tables(batch_logs: list[str]) -> dict[str, list[list[str]]]:
    """telemetry.md's computation as the benchmark does it today: every passing row whose
    prompt_tokens, completion_tokens and latency_ms are integers counts; no corpus."""
    rows = [row for text in batch_logs for row in csv.DictReader(io.StringIO(text, newline=""))]
    counted = [
        row
        for row in rows
        if row["status"] == "pass"
        and all(
            row[name].isdigit() for name in ("prompt_tokens", "completion_tokens", "latency_ms")
        )
    ]
    tables = {}
    for name, with_family in (("per_subject", False), ("per_family", True)):
        groups = defaultdict(list)
        for row in counted:
            key = (row["subject_id"], row["subject_version"])
            groups[key + ((row["case_id"].split("-")[1],) if with_family else ())].append(row)
        table = []
        for key in sorted(groups):
            members = groups[key]
            mean_in = statistics.fmean(int(row["prompt_tokens"]) for row in members)
            mean_out = statistics.fmean(int(row["completion_tokens"]) for row in members)
            latency = sorted(int(row["latency_ms"]) for row in members)
            if len(latency) == 1:
                p95 = latency[0]
            else:
                p95 = statistics.quantiles(latency, n=20, method="inclusive")[18]
            prices = []
            for column in ("price_per_input_token_usd", "price_per_output_token_usd"):
                known = [float(row[column]) for row in members if row[column]]
                prices.append(f"{statistics.fmean(known):.10f}" if known else "")
            table.append(
                [
                    *key,
                    str(len(members)),
                    f"{mean_in:.1f}",
                    f"{mean_out:.1f}",
                    f"{(mean_out / mean_in if mean_in else 0.0):.3f}",
                    f"{statistics.median(latency) / 1000:.2f}",
                    f"{p95 / 1000:.2f}",
                    *prices,
                ]
            )
        tables[name] = table
    return tables


# Unit prices per subject version of the generated telemetry: known, unknown, one known.
GENERATED_PRICES = [("1e-06", "5e-06"), ("", ""), ("2.5e-06", "1e-05"), ("3e-07", "")]


def one_call_per_response(rng, responses, *, batches: int = 3) -> list[str]:
    """Batch logs (CSV texts, telemetry.md's format) holding exactly one passing call per
    response (subject_id, subject_version, case_id, run_id), with random tokens, latency
    and per-version prices, some preceded by a failed attempt; spread over batches."""
    versions = sorted({(subject, version) for subject, version, _, _ in responses})
    prices = {key: GENERATED_PRICES[i % len(GENERATED_PRICES)] for i, key in enumerate(versions)}
    buffers = [io.StringIO() for _ in range(batches)]
    writers = [csv.writer(buffer, lineterminator="\r\n") for buffer in buffers]
    for writer in writers:
        writer.writerow(TELEMETRY_COLUMNS)
    for index, (subject, version, case, run) in enumerate(responses):
        price_in, price_out = prices[(subject, version)]
        prompt, completion = rng.randint(0, 6000), rng.randint(0, 9000)
        latency = rng.choice([rng.randint(100, 90000), 1000 * rng.randint(1, 90)])
        when = f"2026-05-12T{index // 3600 % 24:02d}:{index // 60 % 60:02d}:{index % 60:02d}Z"
        base = [when, case, subject, version, run, "classic", f"p/{version}", version]
        writer = rng.choice(writers)
        if rng.random() < 0.3:  # a failed attempt first: no number of it counts
            writer.writerow([*base, "", "", "", "", price_in, price_out, 60000, "fail", "Timeout"])
        cells = [prompt, completion, prompt + completion, "", price_in, price_out, latency]
        writer.writerow([*base, *cells, "pass", ""])
    return [buffer.getvalue() for buffer in buffers]
