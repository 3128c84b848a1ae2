"""The pages of the static site: the index, one page per subject version, one per case.

- index.html: the leaderboard (the ranking, each Disqualified row with its critical
  fails, the "Disqualified subject versions" section) and the matrix of
  classifications (colour and letter) of every subject version (a row each, in
  leaderboard order) on every case (a column each), each cell linking to the runs;
- versions/<subject_id>/<version>.html: every scored run of the version, case by
  case: the response's public fields and confidence, the six criterion scores with
  their public justifications, raw and clipped score, floor and ceiling,
  classification, and each fail with its evidence;
- cases/<case_id>.html: every subject version's runs of the case side by side
  (classification, scores, confidence, main hypothesis, a link to the full answer),
  sortable.

A response's text is on its subject-version page only; a case page repeats only its
main hypothesis (one sentence), so the site grows linearly with the corpus. Every page
is self-contained (style and the few lines of sorting script inline, no network),
every text of the corpus or the registry is escaped (leaderboard_page.text), and no
page holds a clock. What a page never shows: gold prose (only floor, ceiling, family
and case type reach this module), a scoring's `reference`, `justification_long` or
any field the schemas do not name (records.PublishedRun carries none of them).
"""

import hashlib
from typing import NamedTuple

from ro_metrics.contracts.records import CasePart, PublicGold, PublishedRun, VersionParts
from ro_metrics.contracts.tables import PER_RUN_COLUMNS, SUBJECT_COLUMNS
from ro_metrics.contracts.vocabulary import (
    CONDITIONAL,
    CRITERIA,
    ELIGIBLE,
    FAIL,
    FAMILY_NAMES,
    PASS,
    family_of,
)
from ro_metrics.formulas.evidence import Evidence
from ro_metrics.publishing.leaderboard_page import (
    OPERATIONAL_STYLE,
    SCRIPT,
    STYLE,
    disqualified_section,
    evidence_html,
    fails_by_version,
    header_meta,
    operational_table,
    ranking_table,
    status_badge,
    text,
    uncertainty_note,
)
from ro_metrics.publishing.site_files import INDEX, case_page, href, run_anchor, version_page
from ro_metrics.publishing.translations import ENGLISH, language

# The site is in English; its labels shared with the leaderboard page come from en.json.
T = language(ENGLISH)

CRITERION_LABELS = {
    "main_hypothesis": "Main hypothesis",
    "key_signals": "Key signals",
    "alternatives": "Alternatives",
    "recommended_action": "Recommended action",
    "requested_data": "Requested data",
    "decision_change_condition": "Decision-change condition",
}
CRITERION_SHORT = {
    "main_hypothesis": "MH",
    "key_signals": "KS",
    "alternatives": "Alt",
    "recommended_action": "RA",
    "requested_data": "RD",
    "decision_change_condition": "DCC",
}
# Letter and css class of each classification in the matrix; a Fail with a critical
# fail is marked apart.
LETTER = {PASS: ("P", "pass"), CONDITIONAL: ("C", "conditional"), FAIL: ("F", "fail")}
CRITICAL_LETTER = ("F!", "critical")

SITE_STYLE = (
    STYLE
    + OPERATIONAL_STYLE
    + """
nav.crumbs { font-size: .9rem; margin-bottom: .5rem; }
.cls { display: inline-block; border-radius: 4px; padding: 0 .4rem; font-size: .8rem;
  font-weight: 600; white-space: nowrap; }
.cls.pass { background: var(--good-bg); color: var(--good); }
.cls.conditional { background: var(--warn-bg); color: var(--warn); }
.cls.fail { background: var(--bad-bg); color: var(--bad); }
.cls.critical { background: var(--bad); color: #fff; }
section.case { border-top: 2px solid var(--line); margin-top: 2rem; }
article.run { border: 1px solid var(--line); border-radius: 8px; padding: .75rem 1rem;
  margin: 1rem 0; }
article.run h3 { font-size: 1rem; }
.run-grid { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: 1.25rem; }
@media (max-width: 900px) { .run-grid { grid-template-columns: minmax(0, 1fr); } }
.answer dl { grid-template-columns: minmax(0, 10rem) minmax(0, 1fr); }
@media (max-width: 600px) { .answer dl { grid-template-columns: minmax(0, 1fr); }
  .answer dd { margin-bottom: .4rem; }
  table.fails thead { display: none; }
  table.fails tr, table.fails td { display: block; border: 0; padding: .15rem 0; }
  table.fails tr { border-bottom: 1px solid var(--line); padding: .4rem 0; } }
.answer ol { margin: 0; padding-left: 1.25rem; }
.alternative p { margin: .1rem 0; }
.alternative .label { color: var(--muted); font-size: .85em; }
table.criteria { font-size: .85rem; }
table.criteria td { white-space: normal; }
ul.run-fails { list-style: none; padding: 0; margin: .5rem 0; font-size: .9rem; }
ul.run-fails li { margin: .35rem 0; }
.severity { font-weight: 600; }
.severity.critical { color: var(--bad); }
nav.cases { display: flex; flex-wrap: wrap; gap: .25rem .9rem; font-size: .85rem; }
nav.cases span { white-space: nowrap; }
table.runs td.run, table.runs td.answer-link { white-space: nowrap; }
.matrix-wrap { overflow: auto; max-height: 80vh; border: 1px solid var(--line); }
table.matrix { width: auto; margin: 0; font-size: .75rem; border-collapse: separate;
  border-spacing: 0; }
table.matrix th, table.matrix td { padding: .15rem .3rem; border-bottom: 1px solid var(--line);
  white-space: nowrap; }
table.matrix thead th { position: sticky; top: 0; z-index: 2; vertical-align: bottom; }
table.matrix thead th.v { writing-mode: vertical-rl; transform: rotate(180deg);
  font-weight: 500; }
table.matrix tbody th { position: sticky; left: 0; z-index: 1; background: #fff; }
table.matrix thead th.corner { left: 0; z-index: 3; }
table.matrix a { text-decoration: none; }
i.pass, i.conditional, i.fail, i.critical { font-style: normal; font-weight: 700;
  padding: 0 .15rem; border-radius: 3px; }
i.pass { background: var(--good-bg); color: var(--good); }
i.conditional { background: var(--warn-bg); color: var(--warn); }
i.fail { background: var(--bad-bg); color: var(--bad); }
i.critical { background: var(--bad); color: #fff; }
table.runs { font-size: .85rem; }
table.runs th, table.runs td { padding: .3rem .3rem; }
table.runs td.text { white-space: normal; min-width: 14rem; }
"""
)


class VersionRun(NamedTuple):
    """One run as its subject-version page shows it (built by the pages job)."""

    published: PublishedRun
    row: list  # its per-run row (tables.PER_RUN_COLUMNS)
    evidence: list[Evidence]  # of each of its fails, in the scoring's order


_AT = {name: index for index, name in enumerate(PER_RUN_COLUMNS)}
_RAW, _CLIPPED = _AT["raw_score"], _AT["clipped_score"]
_CLASSIFICATION, _CRITICAL = _AT["classification"], _AT["has_critical_fail"]


def _value(row: list, name: str):
    return row[_AT[name]]


def _root(page: str) -> str:
    """The relative way from a page up to the site root ("", "../", "../../")."""
    return href(page, INDEX)[: -len(INDEX)]


def classification_badge(classification: str, critical: bool = False) -> str:
    letter_css = CRITICAL_LETTER[1] if critical else LETTER[classification][1]
    label = f"{classification} (critical fail)" if critical else classification
    return f'<span class="cls {letter_css}">{text(label)}</span>'


def letter_mark(classification: str, critical: bool = False, *, brief: bool = False) -> str:
    """A run's classification as one coloured letter (P, C, F, F! with a critical fail);
    brief: without the tooltip (the matrix has 30,000 cells at size L)."""
    letter, css = CRITICAL_LETTER if critical else LETTER[classification]
    if brief:
        return f"<i class={css}>{letter}</i>"
    return f'<i class="{css}" title="{text(classification)}">{letter}</i>'


def frame(title: str, body: str) -> str:
    """A whole self-contained page around its body."""
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{text(title)}</title>
<style>{SITE_STYLE}</style>
</head>
<body>
{body}
<script>{SCRIPT}</script>
</body>
</html>
"""


def gold_facts(case_id: str, gold: PublicGold) -> str:
    family = family_of(case_id)
    return (
        f"{text(family)} ({text(FAMILY_NAMES.get(family, ''))}) · {text(gold.case_type)} · "
        f"floor {gold.rubric_floor} · ceiling {gold.rubric_ceiling}"
    )


def _answer_html(published: PublishedRun) -> str:
    answer = published.answer
    signals = "".join(f"<li>{text(signal)}</li>" for signal in answer.key_signals)
    alternatives = "".join(
        '<li class="alternative">'
        f"<p>{text(hypothesis)}</p>"
        f'<p><span class="label">Why plausible:</span> {text(plausible)}</p>'
        f'<p><span class="label">Why discardable:</span> {text(discardable)}</p></li>'
        for hypothesis, plausible, discardable in answer.alternatives
    )
    served = f" · served model {text(answer.served_model)}" if answer.served_model else ""
    return (
        '<div class="answer"><h4>Answer</h4><dl>'
        f"<dt>Main hypothesis</dt><dd>{text(answer.main_hypothesis)}</dd>"
        f"<dt>Confidence</dt><dd>{answer.confidence} / 100</dd>"
        f"<dt>Key signals</dt><dd><ol>{signals}</ol></dd>"
        f"<dt>Alternatives</dt><dd><ol>{alternatives}</ol></dd>"
        f"<dt>Requested data</dt><dd>{text(answer.requested_data)}</dd>"
        f"<dt>Recommended action</dt><dd>{text(answer.recommended_action)}</dd>"
        "<dt>Decision-change condition</dt>"
        f"<dd>{text(answer.decision_change_condition)}</dd>"
        f'</dl><p class="meta">Answered {text(answer.timestamp_utc)} · track '
        f"{text(answer.track)}{served}</p></div>"
    )


def _scoring_html(entry: VersionRun) -> str:
    published, row = entry.published, entry.row
    criteria = "".join(
        f'<tr><td>{CRITERION_LABELS[name]}</td><td class="num">{score}</td>'
        f"<td>{text(justification)}</td></tr>"
        for name, score, justification in zip(
            CRITERIA, published.run.criterion_scores, published.scoring.justifications, strict=True
        )
    )
    fails = ""
    if published.scoring.fails:
        items = []
        for fail, found in zip(published.scoring.fails, entry.evidence, strict=True):
            shown = {
                "match": found.match,
                "quote": found.quote,
                "response_field": found.response_field,
                "reviewer_justification": fail.justification,
            }
            evidence = evidence_html(shown, T, long=found.match != "none")
            items.append(
                f'<li><span class="severity {text(fail.severity)}">{text(fail.severity)}</span> '
                f"{text(fail.fail_type)} fail: {evidence}</li>"
            )
        fails = f'<h4>Automatic fails</h4><ul class="run-fails">{"".join(items)}</ul>'
    return (
        f'<div class="scoring"><h4>Scoring by {text(published.run.reviewer_id)}</h4>'
        '<div class="table-wrap"><table class="criteria"><thead><tr><th>Criterion</th>'
        '<th class="num">Score</th><th>Justification</th></tr></thead>'
        f"<tbody>{criteria}</tbody></table></div>{fails}"
        f'<p class="meta">Scored {text(_value(row, "scoring_timestamp_utc"))} · '
        f"correctness {text(_value(row, 'correctness'))}</p></div>"
    )


def _run_article(entry: VersionRun) -> str:
    run, row = entry.published.run, entry.row
    critical = _value(row, "has_critical_fail")
    return (
        f'<article class="run" id="{text(run_anchor(run.case_id, run.run_id))}">'
        f"<h3>{text(run.run_id)} "
        f"{classification_badge(_value(row, 'classification'), critical)}</h3>"
        f'<p class="scores">raw score <strong>{_value(row, "raw_score")}</strong> · clipped '
        f"score <strong>{_value(row, 'clipped_score')}</strong> (floor "
        f"{_value(row, 'rubric_floor')}, ceiling {_value(row, 'rubric_ceiling')}) · "
        f"confidence {_value(row, 'reported_confidence')} · correctness "
        f"{_value(row, 'correctness')}</p>"
        f'<div class="run-grid">{_answer_html(entry.published)}{_scoring_html(entry)}</div>'
        "</article>"
    )


def render_version_page(
    *,
    subject_id: str,
    subject_version: str,
    runs: list[VersionRun],
    summary: list,
    golds: dict[str, PublicGold],
    benchmark_version: str,
) -> str:
    """The page of one subject version (module docstring); runs sorted by case, run."""
    page = version_page(subject_id, subject_version)
    root = _root(page)
    summary_row = dict(zip(SUBJECT_COLUMNS, summary, strict=True))
    by_case: dict[str, list[VersionRun]] = {}
    for entry in runs:
        by_case.setdefault(entry.published.run.case_id, []).append(entry)
    toc, sections = [], []
    for case_id, entries in by_case.items():
        marks = "".join(
            letter_mark(_value(entry.row, "classification"), _value(entry.row, "has_critical_fail"))
            for entry in entries
        )
        toc.append(f'<span><a href="#{text(case_id)}">{text(case_id)}</a> {marks}</span>')
        articles = "".join(_run_article(entry) for entry in entries)
        sections.append(
            f'<section class="case" id="{text(case_id)}"><h2>'
            f'<a href="{text(root + case_page(case_id))}">{text(case_id)}</a> '
            f'<span class="muted">{gold_facts(case_id, golds[case_id])}</span></h2>'
            f"{articles}</section>"
        )
    metrics = " · ".join(
        f"{label} {text(summary_row[name])}"
        for label, name in (
            ("Q<sub>final</sub>", "q_final"),
            ("pass rate", "pass_rate"),
            ("mean clipped score", "mean_clipped_score"),
            ("Brier", "brier"),
            ("ECE", "ece"),
        )
    )
    body = f"""<header>
<nav class="crumbs"><a href="{text(root + INDEX)}">Leaderboard</a> › {text(subject_id)}</nav>
<h1>{text(subject_id)} <span class="version">{text(subject_version)}</span></h1>
<p class="meta">Benchmark version <strong>{text(benchmark_version)}</strong> ·
 {status_badge(summary_row, T)} · {text(summary_row["n_runs"])} scored runs:
 {text(summary_row["n_pass"])} Pass, {text(summary_row["n_conditional"])} Conditional,
 {text(summary_row["n_fail"])} Fail · {metrics}</p>
<p class="note">Every scored run of this version, case by case: the answer as the model
 gave it (its public fields), the reviewer's scores and justifications, and each automatic
 fail with its evidence. {T("evidence_note")}</p>
<nav class="cases" aria-label="cases">{"".join(toc)}</nav>
</header>
<main>
{"".join(sections)}
</main>"""
    return frame(f"{subject_id} {subject_version} · {benchmark_version}", body)


def _sort_header(label: str, kind: str, *, numeric: bool = False, title: str = "") -> str:
    css = ' class="num"' if numeric else ""
    hint = f' title="{text(title)}"' if title else ""
    return (
        f'<th scope="col"{css} data-type="{kind}"{hint}><button type="button">{label}</button></th>'
    )


CASE_TABLE_HEAD = "".join(
    [
        _sort_header("Subject · version", "text"),
        _sort_header("Run", "text"),
        _sort_header("Classification", "text"),
        _sort_header("Raw", "number", numeric=True, title="raw score 0-12"),
        _sort_header("Clipped", "number", numeric=True, title="clipped score"),
        *(
            _sort_header(
                CRITERION_SHORT[name], "number", numeric=True, title=CRITERION_LABELS[name]
            )
            for name in CRITERIA
        ),
        _sort_header("Confidence", "number", numeric=True),
        _sort_header("Main hypothesis", "text"),
        "<th>Answer</th>",
    ]
)


def _case_row(entry: VersionRun, name_cell: str, version_link: str) -> str:
    """A run's row on its case's page; name_cell and version_link (escaped, relative to
    cases/) are the same for every run of a version and rendered once."""
    # No data-value: the sorting script sorts these cells by their text (85,500 rows at
    # size L, read again by every rebuild of the case pages).
    run, row = entry.published.run, entry.row
    critical = row[_CRITICAL]
    scores = "".join(f'<td class="num">{score}</td>' for score in run.criterion_scores)
    return (
        f'<tr>{name_cell}<td class="run">{text(run.run_id)}'
        f'<span class="ci">reviewer {text(run.reviewer_id)}</span></td>'
        f"<td>{classification_badge(row[_CLASSIFICATION], critical)}</td>"
        f'<td class="num">{row[_RAW]}</td><td class="num">{row[_CLIPPED]}</td>{scores}'
        f'<td class="num">{run.reported_confidence}</td>'
        f'<td class="text">{text(entry.published.answer.main_hypothesis)}</td>'
        f'<td class="answer-link"><a href="{version_link}#'
        f'{text(run_anchor(run.case_id, run.run_id))}">full answer</a></td></tr>'
    )


def _matrix_row(subject_id: str, subject_version: str, runs: list[VersionRun], case_ids) -> str:
    """The version's row of the index's matrix: a cell per case (in case_ids order), a
    coloured letter per run, linking to the case on the version's page."""
    page = version_page(subject_id, subject_version)
    letters: dict[str, str] = {}
    for entry in sorted(runs, key=lambda e: (e.published.run.run_id, e.published.run.reviewer_id)):
        case_id = entry.published.run.case_id
        letters[case_id] = letters.get(case_id, "") + letter_mark(
            _value(entry.row, "classification"), _value(entry.row, "has_critical_fail"), brief=True
        )
    link = text(page)
    cells = "".join(
        f'<td><a href="{link}#{case_id}">{letters[case_id]}</a></td>'
        if case_id in letters
        else "<td></td>"
        for case_id in case_ids
    )
    return (
        f'<tr><th scope="row"><a href="{link}">{text(subject_id)}</a>'
        f'<span class="ci">{text(subject_version)}</span></th>{cells}</tr>'
    )


def version_parts(
    subject_id: str, subject_version: str, inputs_digest: str, runs: list[VersionRun], case_ids
) -> VersionParts:
    """What the case pages and the index show of one version: its row of the matrix
    (a cell per case of case_ids) and, per case, its rows of the case's page."""
    page = version_page(subject_id, subject_version)
    version_link = text(f"../{page}")
    name_cell = (
        f'<td class="name"><a href="{version_link}">{text(subject_id)}</a>'
        f'<span class="ci">{text(subject_version)}</span></td>'
    )
    by_case: dict[str, list[VersionRun]] = {}
    for entry in runs:
        by_case.setdefault(entry.published.run.case_id, []).append(entry)
    cases = {}
    for case_id, entries in by_case.items():
        classifications = [_value(e.row, "classification") for e in entries]
        counts = [
            len(entries),
            *(classifications.count(name) for name in (PASS, CONDITIONAL, FAIL)),
            sum(bool(_value(e.row, "has_critical_fail")) for e in entries),
        ]
        rows_html = "".join(_case_row(entry, name_cell, version_link) for entry in entries)
        digest = hashlib.sha256(f"{counts}\n{rows_html}".encode()).hexdigest()
        cases[case_id] = CasePart(digest, counts, rows_html)
    return VersionParts(
        subject_id,
        subject_version,
        inputs_digest,
        _matrix_row(subject_id, subject_version, runs, case_ids),
        cases,
    )


def render_case_page(
    *, case_id: str, gold: PublicGold, parts: list[CasePart], benchmark_version: str
) -> str:
    """The page of one case: the runs of every subject version, sortable. The parts come
    in (subject_id, subject_version) order, each run by run: not in leaderboard order, so
    that a ranking change elsewhere does not rewrite every case page."""
    root = _root(case_page(case_id))
    n_runs, n_pass, n_conditional, n_fail, n_critical = (
        sum(part.counts[i] for part in parts) for i in range(5)
    )
    if parts:
        table = (
            '<div class="table-wrap"><table class="sortable runs" id="runs"><thead><tr>'
            f"{CASE_TABLE_HEAD}</tr></thead>"
            f"<tbody>{''.join(part.rows_html for part in parts)}</tbody></table></div>"
        )
    else:
        table = "<p>No scored run of this case yet.</p>"
    main = f"""<header>
<nav class="crumbs"><a href="{text(root + INDEX)}">Leaderboard</a> › {text(case_id)}</nav>
<h1>{text(case_id)}</h1>
<p class="meta">Benchmark version <strong>{text(benchmark_version)}</strong> ·
 {gold_facts(case_id, gold)}
 · {n_runs} scored runs by {len(parts)} subject versions: {n_pass} Pass,
 {n_conditional} Conditional, {n_fail} Fail ({n_critical} with a critical fail)</p>
<p class="note">One row per scored run; the scores are the six criteria of the rubric
 (MH main hypothesis, KS key signals, Alt alternatives, RA recommended action, RD requested
 data, DCC decision-change condition; 0-2 each). The clipped score is the raw score capped
 at the case's ceiling; below the floor a run fails. The gold answer of the case is
 private. Click a column header to sort; "full answer" opens the run on its subject
 version's page.</p>
</header>
<main>
{table}
</main>"""
    return frame(f"{case_id} · {benchmark_version}", main)


def matrix_html(case_ids: list[str], matrix_rows: list[str]) -> str:
    """The subject-version × case matrix: one row per version (in leaderboard order, rows
    rendered by the subject-version pages jobs), one column per case."""
    head = "".join(
        f'<th class="v" scope="col"><a href="{case_page(case_id)}">{case_id}</a></th>'
        for case_id in case_ids
    )
    return (
        '<div class="matrix-wrap"><table class="matrix" id="matrix"><thead><tr>'
        f'<th class="corner" scope="col">Subject · version</th>{head}</tr></thead>'
        f"<tbody>{''.join(matrix_rows)}</tbody></table></div>"
    )


def render_index(
    *,
    benchmark_version,
    alpha,
    last_update,
    rows,
    tie_groups,
    uncertainty,
    tracks,
    providers,
    critical_fails,
    case_ids,
    matrix_rows,
    operational=None,
) -> str:
    """The site's index: the leaderboard and the matrix (module docstring); with the
    rows of operational_per_subject.csv (a corpus with telemetry), the operational table."""
    fails_of = fails_by_version(critical_fails)

    def subject_href(_index, row):
        return version_page(row["subject_id"], row["subject_version"])

    def run_href(fail):
        page = version_page(fail["subject_id"], fail["subject_version"])
        return f"{page}#{run_anchor(fail['case_id'], fail['run_id'])}"

    ranking = ranking_table(
        rows, tie_groups, uncertainty, tracks, providers, fails_of, subject_href, run_href, T
    )
    operational_section = (
        operational_table(rows, operational, subject_href, T) if operational else ""
    )
    versions = [(row["subject_id"], row["subject_version"]) for row in rows]
    n_eligible = sum(row["leaderboard_status"] == ELIGIBLE for row in rows)
    body = f"""<header>
<h1>RO desalination fault-diagnosis benchmark — leaderboard</h1>
{header_meta(benchmark_version, alpha, last_update, rows, T)}
</header>
<main>
<h2>Ranking</h2>
<p class="note">{T("ranking_note")}</p>
{ranking}
{uncertainty_note(benchmark_version, T)}
{disqualified_section(rows, providers, fails_of, run_href, subject_href, T)}
{operational_section}
<h2 id="matrix-title">Cases × subject versions</h2>
<p class="note">Every scored run of the {len(versions)} subject versions ({n_eligible}
 ranked; rows in leaderboard order) on the {len(case_ids)} cases (columns): one letter per
 run, <i class="pass">P</i> Pass, <i class="conditional">C</i> Conditional,
 <i class="fail">F</i> Fail, <i class="critical">F!</i> Fail with a critical fail; an empty
 cell has no scored run. A cell leads to the runs on the version's page, a case to its
 page.</p>
{matrix_html(case_ids, matrix_rows)}
</main>
<footer class="meta"><p>Computed by the benchmark's metrics workflow from the scored runs;
 the same numbers are in leaderboard.csv, metrics_per_subject.csv and critical_fails.csv
 of the published results.</p></footer>"""
    return frame(
        f"Leaderboard · RO desalination fault-diagnosis benchmark {benchmark_version}", body
    )
