"""The changes report on constructed histories, each against a report written by hand.

A base history of two subject versions (alpha-1, beta-1) × two cases, then one
change at a time: a new subject version, a new run, a re-score of one criterion
(Pass → Conditional), a new critical fail that disqualifies, a gold floor change, an
α change with no input change, and no change at all. The tables are built as the
workflow publishes them (CSV, \\r\\n); the expected rows and Markdown are literal.
"""

import copy
import dataclasses
import json
import random

import pytest

from ro_metrics.contracts.tables import (
    ANNOTATION_COLUMNS,
    CHANGES_COLUMNS,
    CRITERION_COLUMNS,
    INPUT_FILE_COLUMNS,
    PER_RUN_COLUMNS,
    SUBJECT_COLUMNS,
    UNCERTAINTY_COLUMNS,
)
from ro_metrics.history import changes
from ro_metrics.history.changes import (
    Comparison,
    PublishedResults,
    SnapshotFormatError,
    compare,
    comparison_snapshot,
    read_snapshot,
)
from ro_metrics.history.changes_report import csv_rows, lead, markdown, page_section
from ro_metrics.rendering.translations import language
from workflow_runs import COMMITTED_RESULTS

RUN = "run-2026-05-12-001"
RUN_2 = "run-2026-05-12-002"
SCORING = "scoring/v1.0"
RESPONSES = "responses/v1.0"


def csv(header, rows) -> str:
    return "".join(",".join(map(str, row)) + "\r\n" for row in [header, *rows])


def per_run_row(
    subject, version, case, run, reviewer, floor, ceiling, raw, critical, cls, conf, correctness
):
    family = case.split("-")[1]
    clipped = min(raw, ceiling)
    return [
        subject,
        version,
        case,
        family,
        run,
        reviewer,
        "2026-05-13T09:00:00Z",
        floor,
        ceiling,
        raw,
        clipped,
        critical,
        False,
        cls,
        conf,
        conf / 100,
        correctness,
    ]


class History:
    """Published results built from a few runs (mutable copies for each scenario)."""

    def __init__(self):
        # key → (per-run fields, criterion scores)
        self.runs = {
            ("alpha", "alpha-1", "RO-FOUL-001", RUN): (
                per_run_row(
                    "alpha", "alpha-1", "RO-FOUL-001", RUN, "R01", 4, 12, 10, False, "Pass", 80, 1.0
                ),
                [2, 2, 2, 2, 1, 1],
            ),
            ("alpha", "alpha-1", "RO-SCAL-001", RUN): (
                per_run_row(
                    "alpha",
                    "alpha-1",
                    "RO-SCAL-001",
                    RUN,
                    "R01",
                    3,
                    11,
                    7,
                    False,
                    "Conditional",
                    60,
                    0.5,
                ),
                [2, 1, 1, 1, 1, 1],
            ),
            ("beta", "beta-1", "RO-FOUL-001", RUN): (
                per_run_row(
                    "beta", "beta-1", "RO-FOUL-001", RUN, "R02", 4, 12, 6, False, "Fail", 70, 0.0
                ),
                [1, 1, 1, 1, 1, 1],
            ),
            ("beta", "beta-1", "RO-SCAL-001", RUN): (
                per_run_row(
                    "beta", "beta-1", "RO-SCAL-001", RUN, "R02", 3, 11, 12, False, "Pass", 90, 1.0
                ),
                [2, 2, 2, 2, 2, 2],
            ),
        }
        # Rows of metrics_per_subject.csv (the values of a real run on these runs).
        self.subjects = {
            ("alpha", "alpha-1"): [
                2,
                1,
                1,
                0,
                0,
                0,
                0.5,
                8.5,
                0.025,
                0.15,
                0.5,
                0.6042,
                "Eligible",
            ],
            # s̄ (6 + min(12, 11)) / 2 = 8.5 too; Q_final as published by the (made-up)
            # snapshot is 0.625, so that beta-1 ranks first.
            ("beta", "beta-1"): [2, 1, 0, 1, 0, 0, 0.5, 8.5, 0.25, 0.4, 0.5, 0.625, "Eligible"],
        }
        self.intervals = {
            ("alpha", "alpha-1"): {
                "pass_rate": (0.5, 0.0945, 0.9055),
                "mean_clipped_score": (8.5, 7.0, 10.0),
                "q_final": (0.6042, 0.4, 0.75),
                "brier": (0.025, 0.01, 0.04),
                "ece": (0.15, 0.1, 0.2),
                "rank": (2, 1, 2),
            },
            ("beta", "beta-1"): {
                "pass_rate": (0.5, 0.0945, 0.9055),
                "mean_clipped_score": (8.5, 6.0, 11.0),
                "q_final": (0.625, 0.3, 0.9),
                "brier": (0.25, 0.04, 0.49),
                "ece": (0.4, 0.3, 0.5),
                "rank": (1, 1, 2),
            },
        }
        self.files = {
            "golds/v1.0/RO-FOUL-001_gold.md": "g1",
            "golds/v1.0/RO-SCAL-001_gold.md": "g2",
            "subjects/registry.yaml": "r1",
            **{f"{RESPONSES}/{s}/{c}__{r}.json": f"resp-{s}-{c}-{r}" for s, _, c, r in self.runs},
            **{
                f"{SCORING}/{s}/{c}__{r}__eval-{self.runs[(s, v, c, r)][0][5]}.json": f"sc-{s}-{c}"
                for s, v, c, r in self.runs
            },
        }
        self.metadata = {
            "alpha": 0.5,
            "benchmark_version": "v1.0",
            "strict": False,
            "workflow_version": "1.1",
            "tools": {"numpy": "2.4.6", "pandas": "3.1.1"},
        }

    def copy(self):
        return copy.deepcopy(self)

    def published(self, *, with_files=True, with_criteria=True) -> PublishedResults:
        ordered = sorted(self.runs.items(), key=lambda item: (item[0][0], item[0][2], item[0][3]))
        digest = "sha256:" + "".join(f"{p}={d};" for p, d in sorted(self.files.items()))
        metadata = {
            **self.metadata,
            "inputs": {"digest": digest, "n_files": len(self.files)},
        }
        uncertainty = [
            [*key, metric, *values, "method"]
            for key, metrics in sorted(self.intervals.items())
            for metric, values in metrics.items()
        ]
        return PublishedResults(
            per_run=csv(PER_RUN_COLUMNS, [fields for fields, _ in (v for _, v in ordered)]),
            subjects=csv(
                SUBJECT_COLUMNS, [[*key, *row] for key, row in sorted(self.subjects.items())]
            ),
            metadata=metadata,
            criteria=(
                csv(
                    CRITERION_COLUMNS,
                    [[*key, fields[5], *scores] for key, (fields, scores) in ordered],
                )
                if with_criteria
                else None
            ),
            uncertainty=csv(UNCERTAINTY_COLUMNS, uncertainty),
            input_files=(
                csv(INPUT_FILE_COLUMNS, sorted(self.files.items())) if with_files else None
            ),
        )


def report(old: History, new: History, **options) -> list[list[str]]:
    comparison = compare(old.published(**options), new.published(), "2026-05-16", "2026-05-17")
    assert all(len(row) == len(CHANGES_COLUMNS) for row in csv_rows(comparison))
    return csv_rows(comparison)


def row(
    scope,
    change,
    subject="",
    version="",
    case="",
    run="",
    field="",
    old="",
    new="",
    outside="",
    cause="",
):
    return [scope, change, subject, version, case, run, field, old, new, outside, cause]


@pytest.fixture
def base():
    return History()


def test_no_change_gives_an_empty_report(base):
    comparison = compare(base.published(), base.published(), "2026-05-16", "2026-05-17")
    assert csv_rows(comparison) == []
    assert markdown(comparison) == (
        "# Changes since the snapshot of 2026-05-16\n"
        "\n"
        "The results of 2026-05-17 compared with historico/2026-05-16/, the newest snapshot "
        "dated before them.\n"
        "\n"
        "Inputs: no input file changed (11 files, same digest).\n"
        "\n"
        "No change: every published value is the same as in the snapshot.\n"
        "\n"
        "| scope | change | subject_id | subject_version | case_id | run_id | field | old | new "
        "| outside_old_ci95 | cause |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|\n"
    )


def test_no_earlier_snapshot_says_so_with_a_header_only_table():
    comparison = Comparison(None, "2026-05-17", "")
    assert csv_rows(comparison) == []
    assert markdown(comparison) == (
        "# Changes since the last snapshot\n"
        "\n"
        "No earlier snapshot: historico/ has none of other results dated on or before "
        "2026-05-17; nothing to compare.\n"
        "\n"
        "| scope | change | subject_id | subject_version | case_id | run_id | field | old | new "
        "| outside_old_ci95 | cause |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|\n"
    )
    section = page_section(comparison)
    assert "No earlier snapshot" in section
    assert "<tbody></tbody>" in section


def test_a_new_subject_version(base):
    new = base.copy()
    key = ("gamma", "gamma-1", "RO-FOUL-001", RUN)
    new.runs[key] = (
        per_run_row(*key, "R01", 4, 12, 8, False, "Conditional", 50, 0.5),
        [1, 1, 2, 2, 1, 1],
    )
    new.subjects[("gamma", "gamma-1")] = [
        1,
        0,
        1,
        0,
        0,
        0,
        0.0,
        8.0,
        0.0,
        0.0,
        0.5,
        0.3333,
        "Eligible",
    ]
    new.intervals[("gamma", "gamma-1")] = {"rank": (3, 3, 3)}
    new.files["subjects/registry.yaml"] = "r2"
    new.files[f"{RESPONSES}/gamma/RO-FOUL-001__{RUN}.json"] = "resp-gamma"
    new.files[f"{SCORING}/gamma/RO-FOUL-001__{RUN}__eval-R01.json"] = "sc-gamma"
    scoring = f"{SCORING}/gamma/RO-FOUL-001__{RUN}__eval-R01.json"
    response = f"{RESPONSES}/gamma/RO-FOUL-001__{RUN}.json"
    assert report(base, new) == [
        row(
            "version",
            "added",
            "gamma",
            "gamma-1",
            field="leaderboard_status",
            new="Eligible",
            cause="first scored runs: 1 run(s) added; subjects/registry.yaml changed",
        ),
        row("version", "changed", "gamma", "gamma-1", field="rank", new="3", cause="version added"),
        row(
            "run",
            "added",
            "gamma",
            "gamma-1",
            "RO-FOUL-001",
            RUN,
            "classification",
            new="Conditional",
            cause=f"{scoring} added; {response} added",
        ),
    ]


def test_a_new_run_moves_metrics_and_ranks(base):
    new = base.copy()
    key = ("alpha", "alpha-1", "RO-SCAL-001", RUN_2)
    new.runs[key] = (
        per_run_row(*key, "R03", 3, 11, 10, False, "Pass", 90, 1.0),
        [2, 2, 2, 2, 1, 1],
    )
    # P 2/3, s̄ (10 + 7 + 10) / 3 = 9.0, Q_final 0.5·0.6667 + 0.5·9/12 = 0.7083
    new.subjects[("alpha", "alpha-1")] = [
        3,
        2,
        1,
        0,
        0,
        0,
        0.6667,
        9.0,
        0.0200,
        0.1333,
        0.5,
        0.7083,
        "Eligible",
    ]
    new.intervals[("alpha", "alpha-1")]["rank"] = (1, 1, 2)
    new.intervals[("beta", "beta-1")]["rank"] = (2, 1, 2)
    new.files[f"{RESPONSES}/alpha/RO-SCAL-001__{RUN_2}.json"] = "resp-new"
    new.files[f"{SCORING}/alpha/RO-SCAL-001__{RUN_2}__eval-R03.json"] = "sc-new"
    cause = "1 run(s) added (RO-SCAL-001 run-2026-05-12-002)"
    assert report(base, new) == [
        row(
            "version",
            "changed",
            "alpha",
            "alpha-1",
            field="rank",
            old="2",
            new="1",
            cause="q_final 0.6042 → 0.7083; no longer ranked below beta-1",
        ),
        row(
            "version",
            "changed",
            "alpha",
            "alpha-1",
            field="pass_rate",
            old="0.5",
            new="0.6667",
            outside="False",
            cause=cause,
        ),
        row(
            "version",
            "changed",
            "alpha",
            "alpha-1",
            field="mean_clipped_score",
            old="8.5",
            new="9.0",
            outside="False",
            cause=cause,
        ),
        row(
            "version",
            "changed",
            "alpha",
            "alpha-1",
            field="brier",
            old="0.025",
            new="0.02",
            outside="False",
            cause=cause,
        ),
        row(
            "version",
            "changed",
            "alpha",
            "alpha-1",
            field="ece",
            old="0.15",
            new="0.1333",
            outside="False",
            cause=cause,
        ),
        row(
            "version",
            "changed",
            "alpha",
            "alpha-1",
            field="q_final",
            old="0.6042",
            new="0.7083",
            outside="False",
            cause=cause,
        ),
        row(
            "version",
            "changed",
            "beta",
            "beta-1",
            field="rank",
            old="1",
            new="2",
            cause="now ranked below alpha-1",
        ),
        row(
            "run",
            "added",
            "alpha",
            "alpha-1",
            "RO-SCAL-001",
            RUN_2,
            "classification",
            new="Pass",
            cause=f"{SCORING}/alpha/RO-SCAL-001__{RUN_2}__eval-R03.json added; "
            f"{RESPONSES}/alpha/RO-SCAL-001__{RUN_2}.json added",
        ),
    ]


def rescored(base):
    """alpha's FOUL run: main_hypothesis 2 → 1, raw 10 → 9: Pass → Conditional."""
    new = base.copy()
    key = ("alpha", "alpha-1", "RO-FOUL-001", RUN)
    new.runs[key] = (
        per_run_row(*key, "R01", 4, 12, 9, False, "Conditional", 80, 1.0),
        [1, 2, 2, 2, 1, 1],
    )
    # P 0/2, s̄ (9 + 7) / 2 = 8.0, Q_final 0 + 0.5·8/12 = 0.3333; Brier and ECE depend
    # on confidence and correctness only: unchanged.
    new.subjects[("alpha", "alpha-1")] = [
        2,
        0,
        2,
        0,
        0,
        0,
        0.0,
        8.0,
        0.025,
        0.15,
        0.5,
        0.3333,
        "Eligible",
    ]
    new.files[f"{SCORING}/alpha/RO-FOUL-001__{RUN}__eval-R01.json"] = "sc-rescored"
    return new


def test_a_rescore_of_one_criterion_flips_pass_to_conditional(base):
    scoring = f"{SCORING}/alpha/RO-FOUL-001__{RUN}__eval-R01.json"
    cause = "1 run(s) re-scored (RO-FOUL-001 run-2026-05-12-001)"
    assert report(base, rescored(base)) == [
        row(
            "version",
            "changed",
            "alpha",
            "alpha-1",
            field="pass_rate",
            old="0.5",
            new="0.0",
            outside="True",
            cause=cause,
        ),
        row(
            "version",
            "changed",
            "alpha",
            "alpha-1",
            field="mean_clipped_score",
            old="8.5",
            new="8.0",
            outside="False",
            cause=cause,
        ),
        row(
            "version",
            "changed",
            "alpha",
            "alpha-1",
            field="q_final",
            old="0.6042",
            new="0.3333",
            outside="True",
            cause=cause,
        ),
        row(
            "run",
            "changed",
            "alpha",
            "alpha-1",
            "RO-FOUL-001",
            RUN,
            "main_hypothesis",
            "2",
            "1",
            cause=f"re-scored: {scoring} changed",
        ),
        row(
            "run",
            "changed",
            "alpha",
            "alpha-1",
            "RO-FOUL-001",
            RUN,
            "classification",
            "Pass",
            "Conditional",
            cause="main_hypothesis 2 → 1",
        ),
    ]


def test_the_rescore_as_markdown_and_page_section(base):
    comparison = compare(base.published(), rescored(base).published(), "2026-05-16", "2026-05-17")
    scoring = r"scoring/v1.0/alpha/RO-FOUL-001\_\_run-2026-05-12-001\_\_eval-R01.json"
    assert markdown(comparison) == "\n".join(
        [
            "# Changes since the snapshot of 2026-05-16",
            "",
            "The results of 2026-05-17 compared with historico/2026-05-16/, the newest "
            "snapshot dated before them.",
            "",
            "Inputs: scorings 1 changed (11 files now).",
            "",
            "5 change(s): 3 of subject versions, 2 of runs.",
            "",
            "## Subject versions",
            "",
            "| subject | version | change | field | old | new | outside old 95 % CI | cause |",
            "|---|---|---|---|---|---|---|---|",
            r"| alpha | alpha-1 | changed | pass\_rate | 0.5 | 0.0 | True | 1 run(s) "
            "re-scored (RO-FOUL-001 run-2026-05-12-001) |",
            r"| alpha | alpha-1 | changed | mean\_clipped\_score | 8.5 | 8.0 | False | 1 run(s) "
            "re-scored (RO-FOUL-001 run-2026-05-12-001) |",
            r"| alpha | alpha-1 | changed | q\_final | 0.6042 | 0.3333 | True | 1 run(s) "
            "re-scored (RO-FOUL-001 run-2026-05-12-001) |",
            "",
            "## Runs",
            "",
            "| subject | version | case | run | change | field | old | new | cause |",
            "|---|---|---|---|---|---|---|---|---|",
            r"| alpha | alpha-1 | RO-FOUL-001 | run-2026-05-12-001 | changed | main\_hypothesis "
            f"| 2 | 1 | re-scored: {scoring} changed |",
            "| alpha | alpha-1 | RO-FOUL-001 | run-2026-05-12-001 | changed | classification "
            r"| Pass | Conditional | main\_hypothesis 2 → 1 |",
            "",
        ]
    )
    section = page_section(comparison)
    assert section.startswith('<section id="changes">\n<h2>Changes since the snapshot of')
    assert section.count("<tr>") == 2 + 3 + 2  # two header rows, five changes


def test_the_spanish_page_section_translates_the_texts_not_the_values(base):
    comparison = compare(base.published(), rescored(base).published(), "2026-05-16", "2026-05-17")
    section = page_section(comparison, language("es"))
    lines = section.split("\n")
    assert lines[:5] == [
        '<section id="changes">',
        "<h2>Cambios desde la instantánea del 2026-05-16</h2>",
        '<p class="meta">Los resultados del 2026-05-17 comparados con historico/2026-05-16/, '
        "la instantánea más reciente con fecha anterior a ellos.</p>",
        "<p>Entradas: evaluaciones 1 modificado(s) (11 ficheros ahora).</p>",
        "<p>5 cambio(s): 3 de versiones de sujeto, 2 de ejecuciones.</p>",
    ]
    assert lines[5] == "<h3>Versiones de sujeto</h3>"
    assert lines[6].startswith(
        '<div class="table-wrap"><table class="changes"><thead><tr><th scope="col">sujeto</th>'
        '<th scope="col">versión</th><th scope="col">cambio</th><th scope="col">campo</th>'
        '<th scope="col">antes</th><th scope="col">ahora</th>'
        '<th scope="col">fuera del IC 95 % anterior</th><th scope="col">causa</th>'
    )
    # The values are changes.csv's, as in the English section: numbers with their dot.
    assert "<td>pass_rate</td><td>0.5</td><td>0.0</td><td>True</td>" in lines[6]
    assert lines[7] == "<h3>Ejecuciones</h3>"
    english = page_section(comparison).split("\n")
    assert [line.count("<td") for line in lines] == [line.count("<td") for line in english]


def test_a_new_critical_fail_disqualifies(base):
    new = base.copy()
    key = ("beta", "beta-1", "RO-SCAL-001", RUN)
    new.runs[key] = (
        per_run_row(*key, "R02", 3, 11, 12, True, "Fail", 90, 0.0),
        [2, 2, 2, 2, 2, 2],
    )
    # P 0/2, s̄ unchanged (8.5), Q_final 0 + 0.5·8.5/12 = 0.3542; Brier/ECE: correctness 0.
    new.subjects[("beta", "beta-1")] = [
        2,
        0,
        0,
        2,
        1,
        0,
        0.0,
        8.5,
        0.575,
        0.8,
        0.5,
        0.3542,
        "Disqualified",
    ]
    del new.intervals[("beta", "beta-1")]["rank"]
    new.intervals[("alpha", "alpha-1")]["rank"] = (1, 1, 1)
    scoring = f"{SCORING}/beta/RO-SCAL-001__{RUN}__eval-R02.json"
    new.files[scoring] = "sc-critical"
    cause = "1 run(s) re-scored (RO-SCAL-001 run-2026-05-12-001)"
    assert report(base, new) == [
        row(
            "version",
            "changed",
            "alpha",
            "alpha-1",
            field="rank",
            old="2",
            new="1",
            cause="no longer ranked below beta-1",
        ),
        row(
            "version",
            "changed",
            "alpha",
            "alpha-1",
            field="tie_group",
            old="1",
            new="1",
            cause="rank interval 1–2 → 1–1; no longer tied with beta-1",
        ),
        row(
            "version",
            "changed",
            "beta",
            "beta-1",
            field="leaderboard_status",
            old="Eligible",
            new="Disqualified",
            cause=f"critical fail in RO-SCAL-001 {RUN} (re-scored: {scoring} changed)",
        ),
        row(
            "version",
            "changed",
            "beta",
            "beta-1",
            field="rank",
            old="1",
            new="",
            cause="disqualified: unranked",
        ),
        row(
            "version",
            "changed",
            "beta",
            "beta-1",
            field="tie_group",
            old="1",
            new="",
            cause="rank interval 1–2 → none; no longer tied with alpha-1",
        ),
        row(
            "version",
            "changed",
            "beta",
            "beta-1",
            field="pass_rate",
            old="0.5",
            new="0.0",
            outside="True",
            cause=cause,
        ),
        row(
            "version",
            "changed",
            "beta",
            "beta-1",
            field="brier",
            old="0.25",
            new="0.575",
            outside="True",
            cause=cause,
        ),
        row(
            "version",
            "changed",
            "beta",
            "beta-1",
            field="ece",
            old="0.4",
            new="0.8",
            outside="True",
            cause=cause,
        ),
        row(
            "version",
            "changed",
            "beta",
            "beta-1",
            field="q_final",
            old="0.625",
            new="0.3542",
            outside="False",
            cause=cause,
        ),
        row(
            "run",
            "changed",
            "beta",
            "beta-1",
            "RO-SCAL-001",
            RUN,
            "has_critical_fail",
            "False",
            "True",
            cause=f"re-scored: {scoring} changed",
        ),
        row(
            "run",
            "changed",
            "beta",
            "beta-1",
            "RO-SCAL-001",
            RUN,
            "correctness",
            "1.0",
            "0.0",
            cause=f"re-scored: {scoring} changed",
        ),
        row(
            "run",
            "changed",
            "beta",
            "beta-1",
            "RO-SCAL-001",
            RUN,
            "classification",
            "Pass",
            "Fail",
            cause="has_critical_fail False → True; correctness 1.0 → 0.0",
        ),
    ]


def test_a_gold_floor_change_reclassifies_the_runs_of_its_case(base):
    new = base.copy()
    for subject, version, reviewer, raw, cls, conf in [
        ("alpha", "alpha-1", "R01", 10, "Fail", 80),
        ("beta", "beta-1", "R02", 6, "Fail", 70),
    ]:
        key = (subject, version, "RO-FOUL-001", RUN)
        correctness = base.runs[key][0][-1]  # the reviewer's correctness is the same
        fields = per_run_row(*key, reviewer, 11, 12, raw, False, cls, conf, correctness)
        new.runs[key] = (fields, base.runs[key][1])
    # alpha: P 0/2, s̄ 8.5, Q_final 0 + 0.5·8.5/12 = 0.3542.
    new.subjects[("alpha", "alpha-1")] = [
        2,
        0,
        1,
        1,
        0,
        0,
        0.0,
        8.5,
        0.025,
        0.15,
        0.5,
        0.3542,
        "Eligible",
    ]
    gold = "golds/v1.0/RO-FOUL-001_gold.md"
    new.files[gold] = "g1-new"
    cause = "1 run(s) under a changed gold (RO-FOUL-001 run-2026-05-12-001)"
    assert report(base, new) == [
        row(
            "gold",
            "changed",
            case="RO-FOUL-001",
            field="rubric_floor",
            old="4",
            new="11",
            cause=f"{gold} changed",
        ),
        row(
            "version",
            "changed",
            "alpha",
            "alpha-1",
            field="pass_rate",
            old="0.5",
            new="0.0",
            outside="True",
            cause=cause,
        ),
        row(
            "version",
            "changed",
            "alpha",
            "alpha-1",
            field="q_final",
            old="0.6042",
            new="0.3542",
            outside="True",
            cause=cause,
        ),
        row(
            "run",
            "changed",
            "alpha",
            "alpha-1",
            "RO-FOUL-001",
            RUN,
            "rubric_floor",
            "4",
            "11",
            cause=f"gold changed: {gold} changed",
        ),
        row(
            "run",
            "changed",
            "alpha",
            "alpha-1",
            "RO-FOUL-001",
            RUN,
            "classification",
            "Pass",
            "Fail",
            cause="rubric_floor 4 → 11",
        ),
        row(
            "run",
            "changed",
            "beta",
            "beta-1",
            "RO-FOUL-001",
            RUN,
            "rubric_floor",
            "4",
            "11",
            cause=f"gold changed: {gold} changed",
        ),
    ]


def test_an_alpha_change_with_no_input_change(base):
    new = base.copy()
    new.metadata["alpha"] = 0.6
    # Q_final = 0.6·P + 0.4·s̄/12: alpha 0.3 + 0.2833 = 0.5833, beta 0.3 + 0.3 = 0.6.
    new.subjects[("alpha", "alpha-1")][10:12] = [0.6, 0.5833]
    new.subjects[("beta", "beta-1")][10:12] = [0.6, 0.6]
    comparison = compare(base.published(), new.published(), "2026-05-16", "2026-05-17")
    assert csv_rows(comparison) == [
        row("parameter", "changed", field="alpha", old="0.5", new="0.6", cause="configuration"),
        row(
            "version",
            "changed",
            "alpha",
            "alpha-1",
            field="q_final",
            old="0.6042",
            new="0.5833",
            outside="False",
            cause="alpha 0.5 → 0.6; no input change",
        ),
        row(
            "version",
            "changed",
            "beta",
            "beta-1",
            field="q_final",
            old="0.625",
            new="0.6",
            outside="False",
            cause="alpha 0.5 → 0.6; no input change",
        ),
    ]
    assert "Inputs: no input file changed (11 files, same digest)." in markdown(comparison)


def test_a_value_moved_by_a_new_workflow_version_is_said_so(base):
    new = rescored(base)
    new.files = base.files  # the same inputs: only the workflow changed
    new.metadata["workflow_version"] = "1.2"
    rows = report(base, new)
    assert rows[0] == row(
        "parameter",
        "changed",
        field="workflow_version",
        old="1.1",
        new="1.2",
        cause="a new version of the workflow",
    )
    scoring = f"{SCORING}/alpha/RO-FOUL-001__{RUN}__eval-R01.json"
    assert rows[-2][-1] == (
        f"re-scored: {scoring} unchanged; no input change: workflow_version 1.1 → 1.2"
    )


def test_an_older_snapshot_without_digests_or_criteria_still_compares(base):
    rows = report(base, rescored(base), with_files=False, with_criteria=False)
    unknown = "cause unknown at file level (the snapshot records no per-file digests)"
    assert rows[-2:] == [
        row(
            "run",
            "changed",
            "alpha",
            "alpha-1",
            "RO-FOUL-001",
            RUN,
            "raw_score",
            "10",
            "9",
            cause=f"re-scored (criteria not recorded by the snapshot): {unknown}",
        ),
        row(
            "run",
            "changed",
            "alpha",
            "alpha-1",
            "RO-FOUL-001",
            RUN,
            "classification",
            "Pass",
            "Conditional",
            cause="raw_score 10 → 9",
        ),
    ]
    comparison = compare(
        base.published(with_files=False, with_criteria=False),
        rescored(base).published(),
        "2026-05-16",
        "2026-05-17",
    )
    assert "which files changed is unknown" in markdown(comparison)


def test_a_removed_run_with_a_critical_fail_requalifies(base):
    old = base.copy()
    key = ("beta", "beta-1", "RO-SCAL-001", RUN)
    old.runs[key] = (per_run_row(*key, "R02", 3, 11, 12, True, "Fail", 90, 0.0), [2] * 6)
    old.subjects[("beta", "beta-1")][12] = "Disqualified"
    del old.intervals[("beta", "beta-1")]["rank"]
    new = base.copy()
    del new.runs[key]
    del new.files[f"{SCORING}/beta/RO-SCAL-001__{RUN}__eval-R02.json"]
    new.subjects[("beta", "beta-1")] = [
        1,
        0,
        0,
        1,
        0,
        0,
        0.0,
        6.0,
        0.49,
        0.7,
        0.5,
        0.25,
        "Eligible",
    ]
    new.intervals[("beta", "beta-1")]["rank"] = (2, 2, 2)
    new.intervals[("alpha", "alpha-1")]["rank"] = (1, 1, 1)
    rows = report(old, new)
    scoring = f"{SCORING}/beta/RO-SCAL-001__{RUN}__eval-R02.json"
    status = next(r for r in rows if r[6] == "leaderboard_status")
    assert status == row(
        "version",
        "changed",
        "beta",
        "beta-1",
        field="leaderboard_status",
        old="Disqualified",
        new="Eligible",
        cause=f"no critical fail left: removed from RO-SCAL-001 {RUN} ({scoring} removed)",
    )
    assert rows[-2:] == [
        row(
            "run",
            "removed",
            "beta",
            "beta-1",
            "RO-SCAL-001",
            RUN,
            "classification",
            "Fail",
            "",
            cause=f"{scoring} removed",
        ),
        row(
            "run",
            "removed",
            "beta",
            "beta-1",
            "RO-SCAL-001",
            RUN,
            "has_critical_fail",
            "True",
            "",
            cause=f"{scoring} removed",
        ),
    ]


def without_column(text: str, column: str) -> str:
    """A published CSV (no quoted field) without one of its columns."""
    rows = [line.split(",") for line in text.split("\r\n")[:-1]]
    position = rows[0].index(column)
    return "".join(",".join(row[:position] + row[position + 1 :]) + "\r\n" for row in rows)


def with_column(text: str, column: str, value: str) -> str:
    """A published CSV (no quoted field) with one more column, last, of one value."""
    rows = [line.split(",") for line in text.split("\r\n")[:-1]]
    return "".join(
        ",".join([*row, column if number == 0 else value]) + "\r\n"
        for number, row in enumerate(rows)
    )


TABLES_CHANGED = "the workflow's tables changed"


def test_a_snapshot_without_a_column_of_the_results_compares_the_others(base):
    # The snapshot predates two columns: per_run's has_recoverable_fail and
    # metrics_per_subject's ece. The re-score also moves alpha's ECE (0.15 → 0.2): a
    # value of a column the snapshot has not, so not compared.
    snapshot = base.published()
    snapshot = dataclasses.replace(
        snapshot,
        per_run=without_column(snapshot.per_run, "has_recoverable_fail"),
        subjects=without_column(snapshot.subjects, "ece"),
    )
    new = rescored(base)
    new.subjects[("alpha", "alpha-1")][9] = 0.2
    comparison = compare(snapshot, new.published(), "2026-05-16", "2026-05-17")
    scoring = f"{SCORING}/alpha/RO-FOUL-001__{RUN}__eval-R01.json"
    cause = "1 run(s) re-scored (RO-FOUL-001 run-2026-05-12-001)"
    assert csv_rows(comparison) == [
        row(
            "parameter",
            "added",
            field="per_run.csv:has_recoverable_fail",
            cause=f"{TABLES_CHANGED}: the snapshot's table has no such column; "
            "the columns both have are compared",
        ),
        row(
            "parameter",
            "added",
            field="metrics_per_subject.csv:ece",
            cause=f"{TABLES_CHANGED}: the snapshot's table has no such column; "
            "the columns both have are compared",
        ),
        row(
            "version",
            "changed",
            "alpha",
            "alpha-1",
            field="pass_rate",
            old="0.5",
            new="0.0",
            outside="True",
            cause=cause,
        ),
        row(
            "version",
            "changed",
            "alpha",
            "alpha-1",
            field="mean_clipped_score",
            old="8.5",
            new="8.0",
            outside="False",
            cause=cause,
        ),
        row(
            "version",
            "changed",
            "alpha",
            "alpha-1",
            field="q_final",
            old="0.6042",
            new="0.3333",
            outside="True",
            cause=cause,
        ),
        row(
            "run",
            "changed",
            "alpha",
            "alpha-1",
            "RO-FOUL-001",
            RUN,
            "main_hypothesis",
            "2",
            "1",
            cause=f"re-scored: {scoring} changed",
        ),
        row(
            "run",
            "changed",
            "alpha",
            "alpha-1",
            "RO-FOUL-001",
            RUN,
            "classification",
            "Pass",
            "Conditional",
            cause="main_hypothesis 2 → 1",
        ),
    ]
    assert "7 change(s): 2 of parameters or workflow, 3 of subject versions, 2 of runs." in (
        markdown(comparison)
    )
    assert (
        r"| metrics\_per\_subject.csv:ece |   |   | the workflow's tables changed: the "
        "snapshot's table has no such column; the columns both have are compared |"
    ) in markdown(comparison)


def test_a_snapshot_with_a_column_the_results_no_longer_have(base):
    # The snapshot has a metric and an interval column the workflow no longer writes,
    # with values no current column has: only the columns are reported.
    snapshot = base.published()
    snapshot = dataclasses.replace(
        snapshot,
        subjects=with_column(snapshot.subjects, "mcc", "0.42"),
        uncertainty=with_column(snapshot.uncertainty, "n_replicates", "2000"),
    )
    assert report_of(snapshot, base.published()) == [
        row(
            "parameter",
            "removed",
            field="metrics_per_subject.csv:mcc",
            cause=f"{TABLES_CHANGED}: the results' table no longer has it; "
            "the columns both have are compared",
        ),
        row(
            "parameter",
            "removed",
            field="uncertainty.csv:n_replicates",
            cause=f"{TABLES_CHANGED}: the results' table no longer has it; "
            "the columns both have are compared",
        ),
    ]


def test_columns_in_another_order_are_no_change(base):
    old, new = base.copy(), base.copy()
    for history in (old, new):  # a quoted field too: the rows are parsed, not split
        fields, scores = history.runs.pop(("beta", "beta-1", "RO-SCAL-001", RUN))
        fields = [*fields]
        fields[1] = '"beta, 2026"'
        history.runs[("beta", '"beta, 2026"', "RO-SCAL-001", RUN)] = (fields, scores)
    snapshot = old.published()
    header, *lines = snapshot.per_run.split("\r\n")
    assert header.endswith(",reported_confidence,confidence_unit,correctness")
    moved = [header.replace(",confidence_unit,correctness", ",correctness,confidence_unit")]
    for line in lines[:-1]:
        *rest, unit, correctness = line.rsplit(",", 2)
        moved.append(",".join([*rest, correctness, unit]))
    snapshot = dataclasses.replace(snapshot, per_run="\r\n".join([*moved, ""]))
    assert report_of(snapshot, new.published()) == []
    new.runs[("beta", '"beta, 2026"', "RO-SCAL-001", RUN)][0][-1] = 0.5  # correctness
    assert [r[6:9] for r in report_of(snapshot, new.published())] == [["correctness", "1.0", "0.5"]]


def test_a_snapshot_without_a_column_the_comparison_needs_is_refused(base):
    snapshot = base.published()
    snapshot = dataclasses.replace(snapshot, subjects=without_column(snapshot.subjects, "q_final"))
    with pytest.raises(SnapshotFormatError, match=r"^metrics_per_subject\.csv: .* lacks q_final"):
        compare(snapshot, base.published(), "2026-05-16", "2026-05-17")


def report_of(old: PublishedResults, new: PublishedResults) -> list[list[str]]:
    return csv_rows(compare(old, new, "2026-05-16", "2026-05-17"))


def test_which_snapshot_is_compared():
    dates = ["2026-05-01", "2026-05-10", "2026-05-16"]
    assert comparison_snapshot(dates, "2026-05-17") == "2026-05-16"
    # The day's snapshot of these very results: the one before it.
    assert comparison_snapshot(dates, "2026-05-16", these_results=["2026-05-16"]) == "2026-05-10"
    assert comparison_snapshot(dates, "2026-05-01", these_results=["2026-05-01"]) is None
    assert comparison_snapshot(dates, "2026-05-17", since="2026-05-12") == "2026-05-10"
    assert comparison_snapshot(dates, "2026-05-17", since="2026-05-10") == "2026-05-10"
    assert comparison_snapshot(dates, "2026-05-17", since="2026-04-30") is None
    assert comparison_snapshot([], "2026-05-17") is None


def test_a_snapshot_of_the_same_day_is_compared_unless_it_holds_these_results():
    dates = ["2026-05-10", "2026-05-16"]
    # A scoring later on the 16th: the day's snapshot holds other results.
    assert comparison_snapshot(dates, "2026-05-16") == "2026-05-16"
    # A snapshot of these very results is never the base, whatever its date (taking one
    # must not change the report it froze).
    assert comparison_snapshot(dates, "2026-05-17", these_results=["2026-05-16"]) == "2026-05-10"
    assert comparison_snapshot(["2026-05-16"], "2026-05-16", these_results=["2026-05-16"]) is None
    # A snapshot dated after the results is never the base, unless changes_since names it.
    assert comparison_snapshot(["2026-05-20"], "2026-05-16") is None
    assert comparison_snapshot(["2026-05-20"], "2026-05-16", since="2026-05-20") == "2026-05-20"
    # changes_since is the user's choice: even a snapshot of these very results.
    assert (
        comparison_snapshot(dates, "2026-05-16", since="2026-05-16", these_results=["2026-05-16"])
        == "2026-05-16"
    )


def test_holds_these_results_compares_metadata_json(tmp_path):
    metadata = {"inputs": {"digest": "sha256:aa"}, "newest_scoring_utc": "2026-05-16T09:00:00Z"}
    assert not changes.holds_these_results(tmp_path, metadata)  # no metadata.json
    (tmp_path / "metadata.json").write_text(json.dumps(metadata, indent=1))
    assert changes.holds_these_results(tmp_path, metadata)
    later = {**metadata, "newest_scoring_utc": "2026-05-16T17:00:00Z"}
    assert not changes.holds_these_results(tmp_path, later)
    (tmp_path / "metadata.json").write_text("{not json")
    assert not changes.holds_these_results(tmp_path, metadata)


def test_a_same_day_comparison_says_which_snapshot():
    comparison = Comparison("2026-05-16", "2026-05-16", "")
    assert lead(comparison) == (
        "The results of 2026-05-16 compared with historico/2026-05-16/, the snapshot of the "
        "same day, which holds other results (scorings or settings changed since it was taken)."
    )


def test_no_base_names_the_snapshots_seen_and_the_changes_since_that_uses_them():
    comparison = Comparison(None, "2026-05-16", "", seen=("2026-05-20", "2026-06-01"))
    assert lead(comparison) == (
        "No earlier snapshot: historico/ has none of other results dated on or before "
        "2026-05-16, only later ones (2026-05-20, 2026-06-01); nothing to compare. To compare "
        "with one, set changes_since to its date (changes_since=2026-05-20, "
        "changes_since=2026-06-01)."
    )
    spanish = lead(comparison, language("es"))
    assert "solo posteriores (2026-05-20, 2026-06-01)" in spanish
    assert "(changes_since=2026-05-20, changes_since=2026-06-01)" in spanish


def test_a_quoted_subject_version_is_joined_whole(base):
    old = base.copy()
    new = base.copy()
    for history in (old, new):
        fields, scores = history.runs.pop(("beta", "beta-1", "RO-SCAL-001", RUN))
        fields = [*fields]
        fields[1] = '"beta, 2026"'
        history.runs[("beta", '"beta, 2026"', "RO-SCAL-001", RUN)] = (fields, scores)
    new.runs[("beta", '"beta, 2026"', "RO-SCAL-001", RUN)][1][0] = 1
    rows = report(old, new)
    assert [r[:9] for r in rows] == [
        ["run", "changed", "beta", "beta, 2026", "RO-SCAL-001", RUN, "main_hypothesis", "2", "1"]
    ]


def test_a_snapshot_missing_a_required_file_is_named(tmp_path):
    (tmp_path / "metadata.json").write_text("{}")
    with pytest.raises(SnapshotFormatError, match=r"per_run\.csv: missing from the snapshot"):
        read_snapshot(tmp_path)


@pytest.mark.parametrize("seed", range(20))
def test_differing_lines_equals_a_plain_set_difference(seed, monkeypatch):
    monkeypatch.setattr(changes, "SEARCH_SLACK", 64)  # small windows: some anchors missed
    rng = random.Random(seed)  # noqa: S311 - test data, not a secret
    keys = sorted(rng.sample(range(10_000), 300))
    old = {key: f"k{key:05d},{rng.randint(0, 9)}" for key in keys}
    new = dict(old)
    for key in rng.sample(keys, rng.randint(0, 12)):
        del new[key]
    for key in rng.sample(keys, rng.randint(0, 12)):
        if key in new:
            new[key] = f"k{key:05d},changed"
    for key in rng.sample(range(10_000, 10_050), rng.randint(0, 5)):
        new[key] = f"k{key:05d},added"
    old_text = "".join(f"{old[key]}\r\n" for key in sorted(old)).encode()
    new_text = "".join(f"{new[key]}\r\n" for key in sorted(new)).encode()
    removed, added = changes.differing_lines(old_text, new_text)
    assert sorted(line.decode() for line in removed) == sorted(
        set(old.values()) - set(new.values())
    )
    assert sorted(line.decode() for line in added) == sorted(set(new.values()) - set(old.values()))


def test_first_run_has_no_earlier_snapshot():
    # The committed results are such a run: no historico/ in results/.
    assert (COMMITTED_RESULTS / "changes.csv").read_bytes() == (
        b"scope,change,subject_id,subject_version,case_id,run_id,field,old,new,"
        b"outside_old_ci95,cause\r\n"
    )
    text = (COMMITTED_RESULTS / "changes.md").read_text("utf-8")
    assert "No earlier snapshot" in text
    assert '<section id="changes">' in (COMMITTED_RESULTS / "leaderboard.html").read_text()


def test_a_withdrawal_is_listed_and_is_the_cause_of_the_rank_it_takes_away(base):
    """beta-1 (rank 1, tied with alpha-1) withdrawn on 2026-05-17 (lifecycle.md): its
    annotation is a change; it is unranked, out of the tie group; alpha-1 ranks first."""
    withdrawn = ["beta", "beta-1", "withdrawn", "2026-05-17", "By the submitter.", ""]
    new = dataclasses.replace(base.published(), annotations=csv(ANNOTATION_COLUMNS, [withdrawn]))
    comparison = compare(base.published(), new, "2026-05-16", "2026-05-17")
    assert csv_rows(comparison) == [
        row("version", "changed", "alpha", "alpha-1", field="rank", old="2", new="1",
            cause="no longer ranked below beta-1"),
        row("version", "changed", "alpha", "alpha-1", field="tie_group", old="1", new="1",
            cause="rank interval 1–2 → 1–2; no longer tied with beta-1"),
        row("version", "added", "beta", "beta-1", field="annotation",
            new="withdrawn 2026-05-17: By the submitter.",
            cause="annotation withdrawn 2026-05-17"),
        row("version", "changed", "beta", "beta-1", field="rank", old="1",
            cause="annotation withdrawn 2026-05-17: left out of active comparisons"),
        row("version", "changed", "beta", "beta-1", field="tie_group", old="1",
            cause="rank interval 1–2 → 1–2; no longer tied with alpha-1"),
    ]  # fmt: skip
