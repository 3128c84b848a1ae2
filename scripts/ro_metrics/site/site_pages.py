"""The pages of the static site, in each language: the index, one page per subject
version, one per case.

- index.html: the leaderboard as leaderboard.html shows it (the ranking with the
  neighbour tests, each Disqualified row with its critical fails, the "Disqualified
  subject versions" section, the changes since the last snapshot, each version's
  section with its reliability diagram) and the matrix of
  classifications (colour and letter) of every subject version (a row each, in
  leaderboard order) on every case (a column each), each cell linking to the runs;
- versions/<subject_id>/<version>.html: every scored run of the version, case by
  case: the response's public fields and confidence, the six criterion scores with
  their public justifications, raw and clipped score, floor and ceiling,
  classification, and each fail with its evidence;
- cases/<case_id>.html: the case's statement when the benchmark publishes it
  (site/case_statement.py), then every subject version's runs of the case side by side
  (classification, scores, confidence, main hypothesis, a link to the full answer on
  the version page of the same edition), sortable.

Every page exists in each language of rendering/translations.py: English at the site
root (the default), Spanish under es/ with the same structure
(site_files.edition_page), so the links inside an edition are the same relative links
(but for the answers', below); each page's language switch leads to the same page of
the other edition. Every label, note and caption comes from the labels' data file
(rendering/labels.json, through the `t` each renderer takes), numbers are the
published texts with the language's decimal mark; the corpus' texts (answers,
justifications, quotes, case statements) are data and shown as written in every
edition: a reader of either edition reads the model's own words, only the labels
around them are translated. A case page repeats only the main hypothesis (one
sentence), so the site grows linearly with the corpus.

Every page is self-contained (style and the few lines of sorting script inline, no
network), and no page holds a clock. The frames, headers and index are Jinja2
templates (rendering/templates/), which escape every text; a run's article and case
row, rendered ~10^5 times at size L, are compiled str.format templates whose corpus
texts go through html_fragments.text. What a page never shows: gold prose (only floor, ceiling,
family and case type reach this module), a scoring's `reference`, `justification_long`
or any field the schemas do not name (records.PublishedRun carries none of them).
"""

import string
from collections.abc import Callable
from typing import NamedTuple

from markupsafe import Markup

from ro_metrics.contracts.records import CaseRows, CaseStatement, PublicGold, PublishedRun
from ro_metrics.contracts.tables import PER_RUN_COLUMNS, SUBJECT_COLUMNS
from ro_metrics.contracts.vocabulary import (
    CONDITIONAL,
    CRITERIA,
    CRITICAL,
    FAIL,
    PASS,
    family_name,
    family_of,
)
from ro_metrics.formulas.consolidation import (
    ARBITER,
    AWAITING_SECOND_REVIEW,
    MEAN_OF_PRIMARIES,
    PENDING_ARBITRATION,
)
from ro_metrics.formulas.evidence import Evidence
from ro_metrics.formulas.ranking import left_out
from ro_metrics.leaderboard.leaderboard_page import (
    CHANGES_PLACEHOLDER,
    diagram,
    with_changes_section,
)
from ro_metrics.leaderboard.leaderboard_view import LeaderboardRow, LeaderboardView
from ro_metrics.leaderboard.review_view import (
    ARBITER_ROLE,
    PRIMARY_ROLE,
    RULE_LABELS,
    ReviewedRun,
)
from ro_metrics.rendering.html_fragments import evidence_html, number, text
from ro_metrics.rendering.page_templates import Labels, macros, render
from ro_metrics.rendering.translations import LANGUAGES, Language, language
from ro_metrics.site.case_statement import statement_html
from ro_metrics.site.site_files import (
    FINDINGS,
    INDEX,
    WORKLIST,
    case_page,
    edition_page,
    href,
    run_anchor,
    version_page,
)

# Every edition's labels, loaded once: the pages jobs render each page in each of them.
EDITIONS = {code: language(code) for code in LANGUAGES}
# The leaderboard's components (rendering/templates/components.html).
COMPONENTS = macros("components.html")
# The frame of every page (templates/site_frame.html); what follows a page's body is
# the same for every page, rendered once.
SITE_FRAME = macros("site_frame.html")
FRAME_AFTER = str(SITE_FRAME.frame_after())
# The css class of each classification's letter in the matrix (the letters themselves
# are labels: "letter_<classification>"); a Fail with a critical fail is marked apart.
LETTER_CSS = {PASS: "pass", CONDITIONAL: "conditional", FAIL: "fail"}
CRITICAL_CSS = "critical"

_AT = {name: index for index, name in enumerate(PER_RUN_COLUMNS)}
_RAW, _CLIPPED = _AT["raw_score"], _AT["clipped_score"]
_FLOOR, _CEILING = _AT["rubric_floor"], _AT["rubric_ceiling"]
_CLASSIFICATION, _CRITICAL = _AT["classification"], _AT["has_critical_fail"]
_CONFIDENCE, _CORRECTNESS = _AT["reported_confidence"], _AT["correctness"]


class RunTexts(NamedTuple):
    """A run's own words as every edition shows them, escaped once: they appear on its
    version's page and in its case's rows, in each edition."""

    anchor: str  # the id of its article (site_files.run_anchor)
    run_id: str
    reviewer: str
    justifications: list[str]  # of its six criterion scores, in the order of CRITERIA
    scoring_timestamp: str
    main_hypothesis: str
    answer_timestamp: str
    track: str
    served_model: str  # "" when the response names none


class VersionRun(NamedTuple):
    """One run as its subject-version page shows it (made by VersionRun.of)."""

    published: PublishedRun
    row: list  # its per-run row (tables.PER_RUN_COLUMNS)
    evidence: list[Evidence]  # of each of its fails, in the scoring's order
    texts: RunTexts

    @classmethod
    def of(cls, published: PublishedRun, row: list, evidence: list[Evidence]) -> "VersionRun":
        run, answer = published.run, published.answer
        texts = RunTexts(
            text(run_anchor(run.case_id, run.run_id)),
            text(run.run_id),
            text(run.reviewer_id),
            [text(justification) for justification in published.scoring.justifications],
            text(row[_AT["scoring_timestamp_utc"]]),
            text(answer.main_hypothesis),
            text(answer.timestamp_utc),
            text(answer.track),
            text(answer.served_model),
        )
        return cls(published, row, evidence, texts)


def compiled_template(template: str, *fields: str) -> Callable[..., str]:
    """template.format(**values) as a function of the given fields (its parameters, in
    that order), its fields checked once. A template here is markup around labels, and a
    label is itself a format template (translations.py: its literal braces doubled, its
    fields the values the code fills in), so a label is placed in it as it is. Every
    field of the template must be one of `fields`, without a format spec or conversion.
    """
    for _, field, spec, conversion in string.Formatter().parse(template):
        if field is not None and (field not in fields or spec or conversion):
            raise ValueError(f"template field {field!r} is not one of {fields}: {template!r}")
    fill = template.format

    def filled(*values: str, **named: str) -> str:
        return fill(**dict(zip(fields, values, strict=False)), **named)

    return filled


def _root(page: str) -> str:
    """The relative way from a page up to its edition's root ("", "../", "../../")."""
    return href(page, INDEX)[: -len(INDEX)]


def classification_label(classification: str, t: Language, critical: bool = False) -> str:
    label = t(f"classification_{classification}")
    return t("classification_critical", classification=label) if critical else label


def classification_badge(classification: str, t: Language, critical: bool = False) -> str:
    css = CRITICAL_CSS if critical else LETTER_CSS[classification]
    return f'<span class="cls {css}">{classification_label(classification, t, critical)}</span>'


def letter_mark(
    classification: str, t: Language, critical: bool = False, *, brief: bool = False
) -> str:
    """A run's classification as one coloured letter (P, C, F, F! with a critical fail
    in English); brief: without the tooltip (the matrix has 30,000 cells at size L)."""
    letter = t("letter_critical") if critical else t(f"letter_{classification}")
    css = CRITICAL_CSS if critical else LETTER_CSS[classification]
    if brief:
        return f"<i class={css}>{letter}</i>"
    return f'<i class="{css}" title="{t(f"classification_{classification}")}">{letter}</i>'


def other_edition_href(page: str, t: Language) -> str:
    """The way from a page of edition t to the same page of the other edition (page: its
    path in the site's layout, before site_files.edition_page puts it in an edition)."""
    other = t("other_language_code")
    return href(edition_page(page, t.code), edition_page(page, other))


def language_switch(page: str, t: Language) -> str:
    """The link from a page of edition t to the same page of the other edition."""
    return str(SITE_FRAME.language_switch(other_edition_href(page, t), Labels(t)))


def frame_around(
    title: str,
    t: Language,
    run_card_labels: list[str] = (),
    *,
    review: bool = False,
    annotated: bool = False,
) -> tuple[str, str]:
    """What a page of edition t writes before and after its body (title: plain text;
    run_card_labels: a case page's, see run_card_labels; review: a version page under
    double review, with the run view's style; annotated: a version page with an
    annotation, with their style)."""
    before = SITE_FRAME.frame_before(title, Labels(t), run_card_labels, review, annotated)
    return str(before), FRAME_AFTER


def gold_facts(case_id: str, gold: PublicGold, t: Language) -> str:
    family = family_of(case_id)
    return t(
        "site_gold_facts",
        family=text(family),
        family_name=text(family_name(family, t.code)),
        case_type=t(f"case_type_{gold.case_type}"),
        floor=gold.rubric_floor,
        ceiling=gold.rubric_ceiling,
    )


_SCORES = tuple(f"score_{i}" for i in range(len(CRITERIA)))
_JUSTIFICATIONS = tuple(f"justification_{i}" for i in range(len(CRITERIA)))


class _RunMarkup:
    """One edition's markup of a run, its article on the version page and its row on
    the case page, as templates of the edition's labels compiled once
    (compiled_template; _run_markup keeps one per edition)."""

    def __init__(self, t: Language):
        label = t.labels
        self.t = t
        self.badges = {
            (name, critical): classification_badge(name, t, critical)
            for name in LETTER_CSS
            for critical in (False, True)
        }
        self.marks = {
            (name, critical): letter_mark(name, t, critical)
            for name in LETTER_CSS
            for critical in (False, True)
        }
        self.brief_marks = {
            (name, critical): letter_mark(name, t, critical, brief=True)
            for name in LETTER_CSS
            for critical in (False, True)
        }
        self.article = compiled_template(
            '<article class="run" id="{anchor}"><h3>{run_id} {badge}</h3>'
            f'<p class="scores">{label["site_run_scores"]}</p>'
            '<div class="run-grid">{answer}{scoring}</div></article>',
            *("anchor", "run_id", "badge", "answer", "scoring"),
            *("raw", "clipped", "floor", "ceiling", "confidence", "correctness"),
        )
        criteria_rows = "".join(
            f'<tr><td>{label[f"criterion_{name}"]}</td><td class="num">{{{score}}}</td>'
            f"<td>{{{justification}}}</td></tr>"
            for name, score, justification in zip(CRITERIA, _SCORES, _JUSTIFICATIONS, strict=True)
        )
        scoring_body = (
            '<div class="table-wrap"><table class="criteria"><thead><tr>'
            f"<th>{label['site_col_criterion']}</th>"
            f'<th class="num">{label["site_col_score"]}</th>'
            f"<th>{label['site_col_justification']}</th></tr></thead>"
            f"<tbody>{criteria_rows}</tbody></table></div>"
            f'{{fails}}<p class="meta">{label["site_scored"]}</p></div>'
        )
        self.scoring = compiled_template(
            f'<div class="scoring"><h4>{label["site_scoring_heading"]}</h4>{scoring_body}',
            *("reviewer", *_SCORES, *_JUSTIFICATIONS, "fails", "timestamp", "correctness"),
        )
        # Under double review, one of a run's scorings: its role, class and values, and
        # whether it counts (css: its role, and " counts" when it does).
        self.reviewed_scoring = compiled_template(
            f'<div class="scoring {{css}}"><h4>{label["review_scoring_heading"]}</h4>'
            f'<p class="meta">{label["review_scoring_values"]} · '
            f'<span class="counting">{{counting}}</span></p>{scoring_body}',
            *("css", "role", "reviewer", "badge", "raw", "n_critical", "counting"),
            *(*_SCORES, *_JUSTIFICATIONS, "fails", "timestamp", "correctness"),
        )
        self.reviewed_article = compiled_template(
            '<article class="run reviewed" id="{anchor}"><h3>{run_id} {badge}</h3>'
            '<p class="decision {state}">{decision}</p>{scores}{answer}'
            '<div class="scorings">{scorings}</div></article>',
            *("anchor", "run_id", "badge", "state", "decision", "scores", "answer", "scorings"),
        )
        self.run_scores = compiled_template(
            f'<p class="scores">{label["site_run_scores"]}</p>',
            *("raw", "clipped", "floor", "ceiling", "confidence", "correctness"),
        )
        # A run pending its review: its status in place of a class, "?" in the marks.
        statuses = {
            PENDING_ARBITRATION: label["review_status_pending_arbitration"],
            AWAITING_SECOND_REVIEW: label["review_status_awaiting_second_review"],
        }
        letter = label["review_letter_pending"]
        self.pending_badges = {
            status: f'<span class="cls pending">{name}</span>' for status, name in statuses.items()
        }
        self.pending_marks = {
            status: f'<i class="pending" title="{name}">{letter}</i>'
            for status, name in statuses.items()
        }
        self.brief_pending_mark = f"<i class=pending>{letter}</i>"
        # When the answer was given, on which track, by which served model (if it says).
        answered = f'<p class="meta">{label["site_answered"]}{{served}}</p>'
        self.served_model = compiled_template(label["site_served_model"], "model")
        self.answer = compiled_template(
            f'<div class="answer"><h4>{label["site_answer"]}</h4><dl>'
            f"<dt>{label['criterion_main_hypothesis']}</dt><dd>{{main_hypothesis}}</dd>"
            f"<dt>{label['site_confidence']}</dt><dd>{{confidence}} / 100</dd>"
            f"<dt>{label['criterion_key_signals']}</dt><dd><ol>{{signals}}</ol></dd>"
            f"<dt>{label['criterion_alternatives']}</dt><dd><ol>{{alternatives}}</ol></dd>"
            f"<dt>{label['criterion_requested_data']}</dt><dd>{{requested_data}}</dd>"
            f"<dt>{label['criterion_recommended_action']}</dt>"
            "<dd>{recommended_action}</dd>"
            f"<dt>{label['criterion_decision_change_condition']}</dt>"
            f"<dd>{{decision_change_condition}}</dd></dl>{answered}</div>",
            *("main_hypothesis", "confidence", "signals", "alternatives", "requested_data"),
            *("recommended_action", "decision_change_condition", "timestamp", "track"),
            "served",
        )
        self.alternative = compiled_template(
            '<li class="alternative"><p>{hypothesis}</p>'
            f'<p><span class="label">{label["site_why_plausible"]}</span> {{plausible}}</p>'
            f'<p><span class="label">{label["site_why_discardable"]}</span> {{discardable}}</p>'
            "</li>",
            *("hypothesis", "plausible", "discardable"),
        )
        answer_label = f">{label['site_full_answer']}</a>"

        # No data-value: the sorting script sorts these cells by their text (85,500 rows
        # at size L, read again by every rebuild of the case pages).
        def case_row(under_run: str, field: str):
            return compiled_template(
                '<tr>{name_cell}<td class="run">{run_id}'
                f'<span class="ci">{under_run}</span></td>'
                '<td>{badge}</td><td class="num">{raw}</td><td class="num">{clipped}</td>'
                + "".join(f'<td class="num">{{{score}}}</td>' for score in _SCORES)
                + '<td class="num">{confidence}</td><td class="text">{main_hypothesis}</td>'
                '<td class="answer-link"><a href="{answer_link}#{anchor}"'
                f"{answer_label}</td></tr>",
                *("name_cell", "run_id", field, "badge", "raw", "clipped", *_SCORES),
                *("confidence", "main_hypothesis", "answer_link", "anchor"),
            )

        self.case_row = case_row(label["reviewer_id"], "reviewer")
        # Under double review a run's row is the run as counted, its method under its id.
        self.reviewed_case_row = case_row("{method}", "method")


_RUN_MARKUP: dict[int, tuple[Language, _RunMarkup]] = {}


def _run_markup(t: Language) -> _RunMarkup:
    """The edition's _RunMarkup, made for its first page (kept per Language object)."""
    kept = _RUN_MARKUP.get(id(t))
    if kept is None or kept[0] is not t:
        kept = _RUN_MARKUP[id(t)] = (t, _RunMarkup(t))
    return kept[1]


def _served(texts: RunTexts, markup: _RunMarkup) -> str:
    model = texts.served_model
    return markup.served_model(model) if model else ""


def _answer_html(entry: VersionRun, markup: _RunMarkup) -> str:
    answer, texts, alternative = entry.published.answer, entry.texts, markup.alternative
    return markup.answer(
        main_hypothesis=texts.main_hypothesis,
        confidence=answer.confidence,
        signals="".join([f"<li>{text(signal)}</li>" for signal in answer.key_signals]),
        alternatives="".join(
            [
                alternative(text(hypothesis), text(plausible), text(discardable))
                for hypothesis, plausible, discardable in answer.alternatives
            ]
        ),
        requested_data=text(answer.requested_data),
        recommended_action=text(answer.recommended_action),
        decision_change_condition=text(answer.decision_change_condition),
        timestamp=texts.answer_timestamp,
        track=texts.track,
        served=_served(texts, markup),
    )


def _fails_html(entry: VersionRun, t: Language) -> str:
    items = []
    for fail, found in zip(entry.published.scoring.fails, entry.evidence, strict=True):
        shown = {
            "match": found.match,
            "quote": found.quote,
            "response_field": found.response_field,
            "reviewer_justification": fail.justification,
        }
        severity = (
            f'<span class="severity {text(fail.severity)}">{t(f"severity_{fail.severity}")}</span>'
        )
        line = t(
            "site_run_fail",
            severity=severity,
            fail_type=t(f"fail_type_{fail.fail_type}"),
            evidence=evidence_html(shown, t, long=found.match != "none"),
        )
        items.append(f"<li>{line}</li>")
    return f'<h4>{t("site_fails_heading")}</h4><ul class="run-fails">{"".join(items)}</ul>'


def _run_article(entry: VersionRun, markup: _RunMarkup) -> str:
    """A run's article on its version's page."""
    t, row, texts = markup.t, entry.row, entry.texts
    correctness = number(row[_CORRECTNESS], t)
    answer = _answer_html(entry, markup)
    fails = _fails_html(entry, t) if entry.published.scoring.fails else ""
    # By position: the six scores and the six justifications are lists.
    scoring = markup.scoring(
        texts.reviewer,
        *entry.published.run.criterion_scores,
        *texts.justifications,
        fails,
        texts.scoring_timestamp,
        correctness,
    )
    return markup.article(
        anchor=texts.anchor,
        run_id=texts.run_id,
        badge=markup.badges[row[_CLASSIFICATION], row[_CRITICAL]],
        answer=answer,
        scoring=scoring,
        raw=row[_RAW],
        clipped=row[_CLIPPED],
        floor=row[_FLOOR],
        ceiling=row[_CEILING],
        confidence=row[_CONFIDENCE],
        correctness=correctness,
    )


def _reviewers(reviewed: ReviewedRun, role: str) -> str:
    """The ids of a run's scorings in a role, escaped, joined."""
    return text(
        ", ".join(
            [
                entry.published.run.reviewer_id
                for entry, its_role in zip(reviewed.scorings, reviewed.roles, strict=True)
                if its_role == role
            ]
        )
    )


def decision_text(reviewed: ReviewedRun, t: Language) -> str:
    """Which scoring of a run counts, in words: the mean of the two primaries (the
    rules that fired when `union` settled a critical-fail disagreement), the arbiter's
    scoring (whole, with the divergence rules that fired), or why none does yet
    (pending arbitration, with the rules that fired; awaiting the second review)."""
    primaries = _reviewers(reviewed, PRIMARY_ROLE)
    rules = ", ".join([t(RULE_LABELS[rule]) for rule in reviewed.divergent])
    if reviewed.method == MEAN_OF_PRIMARIES:
        if reviewed.divergent:
            # Diverged on a critical fail only, which critical_fails: union settled.
            return t("review_decision_union", reviewers=primaries, rules=rules)
        return t("review_decision_mean", reviewers=primaries)
    if reviewed.method == ARBITER:
        arbiter = _reviewers(reviewed, ARBITER_ROLE)
        return t("review_decision_arbiter", arbiter=arbiter, reviewers=primaries, rules=rules)
    if reviewed.method == PENDING_ARBITRATION:
        return t("review_decision_pending", reviewers=primaries, rules=rules)
    return t("review_decision_awaiting", reviewers=primaries)


def counting_text(reviewed: ReviewedRun, index: int, t: Language) -> str:
    """Whether the scoring at `index` of a run counts, and why (its tag on the page)."""
    if reviewed.counts(index):
        mean = reviewed.method == MEAN_OF_PRIMARIES
        return t("review_counts_mean" if mean else "review_counts_arbiter")
    if reviewed.method == ARBITER:
        return t("review_overruled")
    if reviewed.method == PENDING_ARBITRATION:
        return t("review_not_counted_pending")
    return t("review_not_counted_awaiting")


ROLE_LABELS = {PRIMARY_ROLE: "review_role_primary", ARBITER_ROLE: "review_role_arbiter"}


def _reviewed_scoring(reviewed: ReviewedRun, index: int, markup: _RunMarkup) -> str:
    """One scoring of a double-reviewed run: its role, reviewer, class, raw score,
    correctness, critical fails, whether it counts, and its criteria table and fails as
    a single reviewer's scoring shows them."""
    t, entry, role = markup.t, reviewed.scorings[index], reviewed.roles[index]
    row, texts, run = entry.row, entry.texts, entry.published.run
    fails = _fails_html(entry, t) if entry.published.scoring.fails else ""
    return markup.reviewed_scoring(
        f"{role} counts" if reviewed.counts(index) else role,
        t(ROLE_LABELS[role]),
        texts.reviewer,
        markup.badges[row[_CLASSIFICATION], row[_CRITICAL]],
        row[_RAW],
        run.fail_severities.count(CRITICAL),
        counting_text(reviewed, index, t),
        *run.criterion_scores,
        *texts.justifications,
        fails,
        texts.scoring_timestamp,
        number(row[_CORRECTNESS], t),
    )


def _reviewed_article(reviewed: ReviewedRun, markup: _RunMarkup) -> str:
    """A double-reviewed run's article on its version's page: the run as counted (its
    class and consolidated scores) or its pending status, which scoring counts, the
    answer once, then every scoring."""
    t, first = markup.t, reviewed.scorings[0]
    answer = _answer_html(first, markup)
    row = reviewed.row
    if row is None:
        badge, scores, state = markup.pending_badges[reviewed.method], "", "pending"
    else:
        badge = markup.badges[row[_CLASSIFICATION], row[_CRITICAL]]
        scores = markup.run_scores(
            raw=number(row[_RAW], t),
            clipped=number(row[_CLIPPED], t),
            floor=row[_FLOOR],
            ceiling=row[_CEILING],
            confidence=row[_CONFIDENCE],
            correctness=number(row[_CORRECTNESS], t),
        )
        state = "counted"
    return markup.reviewed_article(
        anchor=first.texts.anchor,
        run_id=first.texts.run_id,
        badge=badge,
        state=state,
        decision=decision_text(reviewed, t),
        scores=scores,
        answer=answer,
        scorings="".join(
            [_reviewed_scoring(reviewed, i, markup) for i in range(len(reviewed.scorings))]
        ),
    )


def _reviewed_mark(reviewed: ReviewedRun, markup: _RunMarkup, *, brief: bool = False) -> str:
    """A double-reviewed run's coloured letter: its class as counted, or "?" pending."""
    row = reviewed.row
    if row is None:
        return markup.brief_pending_mark if brief else markup.pending_marks[reviewed.method]
    marks = markup.brief_marks if brief else markup.marks
    return marks[row[_CLASSIFICATION], row[_CRITICAL]]


def _first(view: "VersionRun | ReviewedRun") -> "VersionRun":
    """A run as its page shows it: a VersionRun, or a ReviewedRun's first scoring."""
    return view if isinstance(view, VersionRun) else view.scorings[0]


def _runs_by_case(views: list) -> dict[str, list]:
    """A version's runs (review_view.run_views) by case id, in their order."""
    by_case: dict[str, list] = {}
    for view in views:
        by_case.setdefault(_first(view).published.run.case_id, []).append(view)
    return by_case


def _mark(view, markup: _RunMarkup, *, brief: bool = False) -> str:
    """A run's coloured letter: its class (as counted, under review), "?" pending."""
    if isinstance(view, ReviewedRun):
        return _reviewed_mark(view, markup, brief=brief)
    marks = markup.brief_marks if brief else markup.marks
    return marks[view.row[_CLASSIFICATION], view.row[_CRITICAL]]


def render_version_page(
    *,
    subject_id: str,
    subject_version: str,
    runs: list,
    summary: list,
    golds: dict[str, PublicGold],
    benchmark_version: str,
    t: Language,
    annotations=(),
) -> str:
    """The page of one subject version in language t (module docstring); runs: its runs
    as review_view.run_views gives them, by case and run. A run with several scorings or
    pending its review (a review_view.ReviewedRun) has one article that shows every
    scoring and which one counts; the page then has the run view's style and note.
    annotations: the version's (records.Annotation, lifecycle.md), shown under its
    title; a withdrawn or invalidated version says it is left out of comparisons."""
    page = version_page(subject_id, subject_version)
    root = _root(page)
    summary_row = dict(zip(SUBJECT_COLUMNS, summary, strict=True))
    markup = _run_markup(t)
    reviewed = any(isinstance(view, ReviewedRun) for view in runs)
    # The sections' pieces, joined once with the rest of the page (a page holds ~900
    # runs at size L: joining case by case would copy it again for each level).
    toc, sections = [], []
    for case_id, views in _runs_by_case(runs).items():
        marks = "".join([_mark(view, markup) for view in views])
        toc.append(f'<span><a href="#{text(case_id)}">{text(case_id)}</a> {marks}</span>')
        sections.append(
            f'<section class="case" id="{text(case_id)}"><h2>'
            f'<a href="{text(root + case_page(case_id))}">{text(case_id)}</a> '
            f'<span class="muted">{gold_facts(case_id, golds[case_id], t)}</span></h2>'
        )
        sections.extend(
            [
                _reviewed_article(view, markup)
                if isinstance(view, ReviewedRun)
                else _run_article(view, markup)
                for view in views
            ]
        )
        sections.append("</section>")
    head = SITE_FRAME.version_header(
        other_edition_href(page, t),
        root + INDEX,
        subject_id,
        subject_version,
        benchmark_version,
        summary_row,
        "site_version_note",
        # Escaped as they were written, above.
        Markup("".join(toc)),  # noqa: S704
        Labels(t),
        review_note="review_version_note" if reviewed else None,
        # Provisional: its runs pending arbitration or awaiting their second review.
        n_provisional=sum(
            isinstance(view, ReviewedRun) and view.consolidated is None for view in runs
        ),
        annotations=annotations,
        left_out=bool(left_out(annotation._asdict() for annotation in annotations)),
    )
    before, after = frame_around(
        f"{subject_id} {subject_version} · {benchmark_version}",
        t,
        review=reviewed,
        annotated=bool(annotations),
    )
    return "".join([before, str(head), *sections, "\n</main>", after])


def run_card_labels(t: Language) -> list[str]:
    """The labels of a case page's run card (its table's columns but the first, which
    names the card): the table head's, as plain text."""
    keys = [
        "site_col_run",
        "site_col_classification",
        "site_col_raw",
        "site_col_clipped",
        *(f"criterion_short_{name}" for name in CRITERIA),
        "site_confidence",
        "criterion_main_hypothesis",
        "site_answer",
    ]
    # Labels are this project's data; a card shows them as text.
    return [Markup(t(key)).striptags() for key in keys]  # noqa: S704


def _case_row(entry: VersionRun, name_cell: str, answer_link: str, markup: _RunMarkup) -> str:
    """A run's row on its case's page in the markup's edition; name_cell and answer_link
    (escaped, relative to the case page: the version page of the same edition, which
    prints the answer) are the same for every run of a version and rendered once."""
    row, texts = entry.row, entry.texts
    return markup.case_row(
        name_cell,
        texts.run_id,
        texts.reviewer,
        markup.badges[row[_CLASSIFICATION], row[_CRITICAL]],
        row[_RAW],
        row[_CLIPPED],
        *entry.published.run.criterion_scores,
        entry.published.run.reported_confidence,
        texts.main_hypothesis,
        answer_link,
        texts.anchor,
    )


def _reviewed_case_row(
    reviewed: ReviewedRun, name_cell: str, answer_link: str, markup: _RunMarkup
) -> str:
    """A double-reviewed run's row on its case's page (as _case_row): the run as counted,
    its consolidated scores (a mean may be a half) and its method under its id; a run
    pending its review, its status and no scores."""
    t, first, row = markup.t, reviewed.scorings[0], reviewed.row
    if row is None:
        unknown = t("unknown")
        method = t("reviewer_id", reviewer=_reviewers(reviewed, PRIMARY_ROLE))
        values = [markup.pending_badges[reviewed.method], *[unknown] * (2 + len(CRITERIA))]
    else:
        if reviewed.method == ARBITER:
            method = t("review_method_arbiter", arbiter=_reviewers(reviewed, ARBITER_ROLE))
        else:
            method = t("review_method_mean", reviewers=_reviewers(reviewed, PRIMARY_ROLE))
        values = [
            markup.badges[row[_CLASSIFICATION], row[_CRITICAL]],
            number(row[_RAW], t),
            number(row[_CLIPPED], t),
            *[number(score, t) for score in reviewed.consolidated.criterion_scores],
        ]
    return markup.reviewed_case_row(
        name_cell,
        first.texts.run_id,
        method,
        *values,
        first.published.run.reported_confidence,
        first.texts.main_hypothesis,
        answer_link,
        first.texts.anchor,
    )


def matrix_row(subject_id: str, subject_version: str, runs: list, case_ids, t: Language) -> str:
    """The version's row of the index's matrix in language t: a cell per case (in
    case_ids order), a coloured letter per run in run order (runs: review_view.run_views;
    as counted, "?" pending), linking to the case on the version's page."""
    page = version_page(subject_id, subject_version)
    markup = _run_markup(t)
    letters: dict[str, str] = {}
    for view in sorted(runs, key=lambda view: _first(view).published.run.run_id):
        case_id = _first(view).published.run.case_id
        letters[case_id] = letters.get(case_id, "") + _mark(view, markup, brief=True)
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


def case_rows(
    subject_id: str,
    subject_version: str,
    runs: list,
    *,
    editions: dict[str, Language] = EDITIONS,
) -> list[CaseRows]:
    """The version's rows of each case page it has runs of (runs: review_view.run_views),
    in every edition, with the counts of its counted runs. The links are the same in
    every edition (each mirrors the site's layout). A run under review has one row, the
    run as counted."""
    page = version_page(subject_id, subject_version)
    version_link = text(f"../{page}")
    name_cell = (
        f'<td class="name"><a href="{version_link}">{text(subject_id)}</a>'
        f'<span class="ci">{text(subject_version)}</span></td>'
    )
    found = []
    for case_id, views in _runs_by_case(runs).items():
        counted = [view.row for view in views if view.row is not None]
        classifications = [row[_CLASSIFICATION] for row in counted]
        counts = [
            len(counted),
            *(classifications.count(name) for name in (PASS, CONDITIONAL, FAIL)),
            sum([bool(row[_CRITICAL]) for row in counted]),
        ]
        html = {}
        for code, t in editions.items():
            markup = _run_markup(t)
            html[code] = "".join(
                [
                    _reviewed_case_row(view, name_cell, version_link, markup)
                    if isinstance(view, ReviewedRun)
                    else _case_row(view, name_cell, version_link, markup)
                    for view in views
                ]
            )
        found.append(CaseRows(case_id, subject_id, subject_version, counts, html))
    return found


def render_case_page(
    *,
    case_id: str,
    gold: PublicGold,
    rows: list[CaseRows],
    benchmark_version: str,
    t: Language,
    statement: CaseStatement | None = None,
) -> str:
    """The page of one case in language t: its statement (None: not public, and the page
    says so), then the runs of every subject version (rows: each
    version's CaseRows of the case, rendered by its partition's version pages job, in
    the order given), sortable. The versions come in (subject_id, subject_version)
    order, each run by run: not in leaderboard order, so that a ranking change elsewhere
    does not change the case pages. With no versions, the page says there are no runs
    and has no rows."""
    page = case_page(case_id)
    root = _root(page)
    n_runs, n_pass, n_conditional, n_fail, n_critical = (
        sum(version.counts[i] for version in rows) for i in range(5)
    )
    main_before = SITE_FRAME.case_header(
        other_edition_href(page, t),
        root + INDEX,
        case_id,
        benchmark_version,
        # Labels with the gold's values escaped into them.
        Markup(gold_facts(case_id, gold, t)),  # noqa: S704
        {
            "n_runs": n_runs,
            "n_versions": len(rows),
            "n_pass": n_pass,
            "n_conditional": n_conditional,
            "n_fail": n_fail,
            "n_critical": n_critical,
        },
        "site_case_note",
        bool(rows),
        CRITERIA,
        Labels(t),
        # The corpus' Markdown rendered with raw HTML off (site/case_statement.py).
        statement=Markup(statement_html(statement, t)),  # noqa: S704
    )
    table_after = "</tbody></table></div>" if rows else ""
    before, after = frame_around(
        f"{case_id} · {benchmark_version}", t, run_card_labels(t) if rows else []
    )
    body = "".join(version.html[t.code] for version in rows)
    return f"{before}{main_before}{body}{table_after}\n</main>{after}"


def render_index(
    view: LeaderboardView,
    t: Language,
    *,
    case_ids: list[str],
    matrix_rows: list[str],
    diagrams: dict,
    changes_section: str,
) -> str:
    """The site's index in language t: the leaderboard as leaderboard.html shows it, from
    the same view and template (leaderboard_body.html: the neighbour tests, the
    disqualified versions, the changes since the last snapshot, the operational table
    with telemetry, the agreement line and pending counts under double review, each
    version's section with its reliability diagram), then the matrix (module docstring;
    matrix_rows: the versions' rows in this language, in the view's order). diagrams:
    each version's (SVG, bins) in language t, as leaderboard_page.render_page takes
    them; changes_section: the changes step's section in language t."""

    def subject_href(row: LeaderboardRow) -> str:
        return version_page(row.subject_id, row.subject_version)

    def run_href(fail: dict[str, str]) -> str:
        page = version_page(fail["subject_id"], fail["subject_version"])
        return f"{page}#{run_anchor(fail['case_id'], fail['run_id'])}"

    page = render(
        "site_index.html",
        view=view,
        t=Labels(t),
        subject_href=subject_href,
        run_href=run_href,
        diagrams={key: diagram(svg, bins) for key, (svg, bins) in diagrams.items()},
        changes_placeholder=Markup(CHANGES_PLACEHOLDER),  # noqa: S704 - the page's constant
        # The results' files are not on the site: the agreement line names them only.
        files_linked=False,
        worklist_href=WORKLIST,
        language_target=other_edition_href(INDEX, t),
        findings_href=FINDINGS,
        case_ids=case_ids,
        case_href=case_page,
        # Pre-rendered by the version pages jobs (matrix_row), escaped there.
        matrix_rows=Markup("".join(matrix_rows)),  # noqa: S704
        letter_css=LETTER_CSS,
        critical_css=CRITICAL_CSS,
        PASS=PASS,
        CONDITIONAL=CONDITIONAL,
        FAIL=FAIL,
    )
    return with_changes_section(page, changes_section)
