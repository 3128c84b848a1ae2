"""The leaderboard in GitHub-flavoured Markdown (results/leaderboard.md).

Sections: under double review the agreement line (leaderboard/review_view.py), the
ranking (each score with its 95 % interval in brackets, the rank with its bootstrap
interval; under double review each version's runs pending arbitration and awaiting
their second review, and a flag on its status when a critical fail awaits the arbiter),
the neighbour tests of adjacent ranks (when given), the disqualified subject versions
with the evidence of each critical fail, the operational table (when the corpus has
telemetry), the subjects (registry text) and a "how to read" table. Labels come from
the labels' data file (rendering/labels.json, English); numbers are the published CSV texts.

Every text from the registry or the corpus goes through `markdown_text()`
(rendering/markdown.py): a table cell can then hold neither a cell break (`|`), nor
emphasis, code or a link, nor HTML, nor a line break, whatever the text is.
"""

import re

from ro_metrics.contracts.tables import format_metric
from ro_metrics.contracts.vocabulary import ELIGIBLE
from ro_metrics.leaderboard.leaderboard_page import (
    cost_text,
    exact_decimal,
    p_value_text,
    per_million_tokens,
)
from ro_metrics.leaderboard.review_view import AgreementLine, PendingCounts, ReviewSummary
from ro_metrics.rendering.markdown import gfm_table, markdown_text
from ro_metrics.rendering.translations import Language

_LONE_STAR = re.compile(r"(?<!\*)\*(?!\*)")
# A version with no run pending its review.
NO_PENDING = PendingCounts(0, 0, False)


def plain(label: str) -> str:
    """A label as Markdown: Q<sub>final</sub> as Q_final, a lone
    * (ECE*, the mark of an indicative value) as a literal star; ** stays bold."""
    return _LONE_STAR.sub(r"\\*", label.replace("<sub>final</sub>", "_final"))


def with_interval(value: str, entry, t: Language) -> str:
    """`0.705 (0.64–0.77)`: a published value and its 95 % interval, compact."""
    if not entry or not entry["ci_low"]:
        return t.number(value)
    return f"{t.number(value)} ({t.number(entry['ci_low'])}–{t.number(entry['ci_high'])})"


def agreement_paragraph(line: AgreementLine, t: Language) -> str:
    """The agreement line (double review), its files linked: the page's words."""

    def shown(value: str) -> str:
        return t.number(value) if value else t("unknown")

    text = t(
        "review_agreement_line",
        n_pairs=line.n_pairs,
        kappa=shown(line.kappa),
        kappa_low=shown(line.kappa_low),
        kappa_high=shown(line.kappa_high),
        raw_score_kappa=shown(line.raw_score_kappa),
        n_divergent=line.n_divergent,
        n_arbitrated=line.n_arbitrated,
        n_pending=line.n_pending_arbitration,
        n_awaiting=line.n_awaiting_second_review,
    )
    files = t(
        "review_agreement_files",
        agreement="[agreement.csv](agreement.csv)",
        divergent="[divergent_runs.csv](divergent_runs.csv)",
    )
    return f"{plain(text)} {files}"


def ranking_section(rows, groups, uncertainty, tracks, t: Language, review=None) -> str:
    scores = ["q_final", "pass_rate", "mean_clipped_score", "brier", "ece"]
    headers = [
        t("col_rank"),
        t("md_col_tie_group"),
        t("md_col_subject"),
        t("md_col_version"),
        t("col_track"),
        *(plain(t(f"col_{name}")) for name in scores),
        t("col_runs"),
        t("col_critical_fails"),
        t("col_status"),
    ]
    if review is not None:
        headers += [t("review_col_pending_arbitration"), t("review_col_awaiting_second_review")]
    body = []
    for row, group in zip(rows, groups, strict=True):
        key = (row["subject_id"], row["subject_version"])
        eligible = row["leaderboard_status"] == ELIGIBLE
        rank = t("unknown")
        if eligible:
            rank = row["rank"]
            if row["rank_low"]:
                rank += f" ({row['rank_low']}–{row['rank_high']})"
        status = t("status_eligible") if eligible else f"**{t('status_disqualified')}**"
        pending = None if review is None else review.pending.get(key, NO_PENDING)
        if pending is not None and pending.critical:
            status += f" ⚠ **{t('review_critical_pending')}**"
        body.append(
            [
                rank,
                str(group) if group else "",
                markdown_text(row["subject_id"]),
                markdown_text(row["subject_version"]),
                markdown_text(tracks[key]),
                *(with_interval(row[name], uncertainty.get((*key, name)), t) for name in scores),
                row["n_runs"],
                row["n_critical_fails"],
                status,
                *([] if pending is None else [str(n) for n in pending[:2]]),
            ]
        )
    alignments = "rrlllrrrrrrrl" + ("" if review is None else "rr")
    return "\n\n".join(
        [
            f"## {t('ranking_heading')}",
            gfm_table(headers, body, alignments),
            t("md_intervals_note"),
        ]
    )


def neighbours_section(neighbours, t: Language) -> str:
    """The neighbour tests of rankings.json (records.NeighbourTest), in leaderboard order:
    each pair of adjacent ranked versions with ΔQ_final, its interval, p and Holm's p."""
    headers = [
        t("md_col_upper"),
        t("md_col_lower"),
        t("md_col_common_cases"),
        plain(t("md_col_delta_q")),
        t("md_col_p"),
        t("md_col_p_holm"),
        t("md_col_separable"),
    ]
    body = []
    for test in neighbours:
        delta = t.number(exact_decimal(test.delta_q_final)) if test.delta_q_final else ""
        if delta and test.ci_low is not None:
            low, high = (t.number(format_metric(end)) for end in (test.ci_low, test.ci_high))
            delta += f" ({low}–{high})"
        body.append(
            [
                markdown_text(f"{test.upper_subject_id} · {test.upper_subject_version}"),
                markdown_text(f"{test.lower_subject_id} · {test.lower_subject_version}"),
                str(test.n_common_cases),
                delta,
                markdown_text(p_value_text(test.p_value, t)),
                markdown_text(p_value_text(test.p_holm, t)),
                f"**{t('md_yes')}**" if test.separable else t("md_no"),
            ]
        )
    return "\n\n".join(
        [
            f"## {t('md_neighbours_heading')}",
            plain(t("md_neighbours_note")),
            gfm_table(headers, body, "llrrrrl"),
        ]
    )


def evidence_cells(fail: dict, t: Language) -> list[str]:
    """Field, kind of match and words of a row of critical_fails.csv: the model's own
    quote, or, when the reviewer quoted nothing the response says, the reviewer's
    justification, labelled as the reviewer's words."""
    if fail["match"] == "none":
        words = f"{t('reviewer_words')} {markdown_text(fail['reviewer_justification'])}"
        return ["", t("match_none"), words]
    return [
        markdown_text(fail["response_field"]),
        t(f"match_{fail['match']}"),
        markdown_text(fail["quote"]),
    ]


def disqualified_section(rows, critical_fails, t: Language) -> str:
    """Each disqualified version with its critical fails (rows of critical_fails.csv, in
    the file's order) and their evidence."""
    parts = [f"## {t('md_disqualified_heading')}"]
    disqualified = [row for row in rows if row["leaderboard_status"] != ELIGIBLE]
    if not disqualified:
        parts.append(t("md_no_disqualified"))
    else:
        parts.append(t("evidence_note_plain"))
    headers = [
        t("md_col_case"),
        t("md_col_run"),
        t("md_col_reviewer"),
        t("md_col_fail_type"),
        t("md_col_field"),
        t("md_col_match"),
        t("md_col_quote"),
    ]
    for row in disqualified:
        key = (row["subject_id"], row["subject_version"])
        cells = [
            [
                markdown_text(fail["case_id"]),
                markdown_text(fail["run_id"]),
                markdown_text(fail["reviewer_id"]),
                markdown_text(fail["fail_type"]),
                *evidence_cells(fail, t),
            ]
            for fail in critical_fails
            if (fail["subject_id"], fail["subject_version"]) == key
        ]
        parts += [
            f"### {markdown_text(row['subject_id'])} · {markdown_text(row['subject_version'])}",
            t("md_disqualified_intro", n_critical=row["n_critical_fails"], n_runs=row["n_runs"]),
            gfm_table(headers, cells),
        ]
    return "\n\n".join(parts)


def operational_section(rows, operational, t: Language) -> str:
    """The operational table, joined to the ranking by subject version, in its order."""
    by_version = {(row["subject_id"], row["subject_version"]): row for row in operational}
    headers = [
        t("md_col_subject"),
        t("md_col_version"),
        t("col_operational_runs"),
        t("col_mean_input_tokens"),
        t("col_mean_output_tokens"),
        t("col_output_to_input"),
        t("col_median_latency"),
        t("col_p95_latency"),
        t("col_price_in"),
        t("col_price_out"),
        t("col_cost_per_case"),
    ]
    body = []
    for row in rows:
        found = by_version.get((row["subject_id"], row["subject_version"]))
        names = [markdown_text(row["subject_id"]), markdown_text(row["subject_version"])]
        if found is None:
            body.append([*names, *[t("unknown")] * 9])
            continue
        prices = [
            per_million_tokens(found[name]) if found[name] else t("unknown")
            for name in ("price_per_input_token_usd", "price_per_output_token_usd")
        ]
        numbers = [
            found["n_runs"],
            found["mean_input_tokens"],
            found["mean_output_tokens"],
            found["output_to_input_ratio"],
            found["median_latency_s"],
            found["p95_latency_s"],
            *prices,
        ]
        body.append(
            [*names, *(t.number(value) for value in numbers), markdown_text(cost_text(found, t))]
        )
    ranked = {(row["subject_id"], row["subject_version"]) for row in rows}
    others = [
        f"{markdown_text(row['subject_id'])} · {markdown_text(row['subject_version'])}"
        for row in operational
        if (row["subject_id"], row["subject_version"]) not in ranked
    ]
    parts = [
        f"## {t('operational_heading')}",
        t("md_operational_note"),
        gfm_table(headers, body, "ll" + "r" * 9),
    ]
    if others:
        parts.append(t("operational_not_ranked", versions=", ".join(others)))
    return "\n\n".join(parts)


def subjects_section(rows, registry, t: Language) -> str:
    shown = []
    for row in rows:
        if row["subject_id"] not in shown:
            shown.append(row["subject_id"])
    cells = []
    for subject_id in shown:
        entry = registry.get(subject_id) or {}
        cells.append(
            [
                markdown_text(subject_id),
                markdown_text(entry.get("kind") or ""),
                markdown_text(entry.get("provider") or ""),
                markdown_text(entry.get("description") or ""),
            ]
        )
    headers = [t("md_col_subject"), t("md_col_kind"), t("md_col_provider"), t("md_col_description")]
    return "\n\n".join([f"## {t('md_subjects_heading')}", gfm_table(headers, cells)])


HOW_TO_READ = [
    ("col_q_final", "how_q_final"),
    ("col_pass_rate", "how_pass_rate"),
    ("col_mean_clipped_score", "how_mean_clipped_score"),
    ("col_brier", "how_brier"),
    ("col_ece", "how_ece"),
    ("md_intervals_term", "how_interval"),
    ("md_col_tie_group", "how_tie_group"),
    ("md_col_separable", "how_separable"),
    ("col_critical_fails", "how_critical_fail"),
    ("operational_heading", "how_operational"),
    ("col_cost_per_case", "how_cost_per_case"),
]


def how_to_read_section(t: Language, *, operational: bool, neighbours: bool = False) -> str:
    terms = [
        (term, meaning)
        for term, meaning in HOW_TO_READ
        if operational or meaning not in ("how_operational", "how_cost_per_case")
    ]
    terms = [(term, meaning) for term, meaning in terms if neighbours or meaning != "how_separable"]
    cells = [[plain(t(term)), plain(t(meaning))] for term, meaning in terms]
    headers = [t("md_col_term"), t("md_col_meaning")]
    return "\n\n".join([f"## {t('md_how_heading')}", gfm_table(headers, cells)])


def render_markdown(
    *,
    benchmark_version,
    alpha,
    last_update,
    rows,
    tie_groups,
    uncertainty,
    tracks,
    registry,
    critical_fails,
    operational,
    t: Language,
    neighbours=None,
    review: ReviewSummary | None = None,
) -> str:
    """The whole document (module docstring); `operational` is None without telemetry,
    `neighbours` the neighbour tests of rankings.json (None: no such section), `review`
    the agreement line and pending counts under double review (None: one reviewer)."""
    n_ranked = sum(row["leaderboard_status"] == ELIGIBLE for row in rows)
    # The template is made Markdown before the values (already escaped) go in.
    meta = plain(t.labels["md_meta"]).format(
        version=markdown_text(benchmark_version),
        alpha=t.number(repr(float(alpha))),
        last_update=last_update,
        n_versions=len(rows),
        n_ranked=n_ranked,
    )
    parts = [
        f"# {t('heading')}",
        meta,
        t("md_editions"),
    ]
    if review is not None:
        parts.append(agreement_paragraph(review.line, t))
    parts += [
        ranking_section(rows, tie_groups, uncertainty, tracks, t, review),
    ]
    if neighbours is not None:
        parts.append(neighbours_section(neighbours, t))
    parts += [
        disqualified_section(rows, critical_fails, t),
    ]
    if operational is not None:
        parts.append(operational_section(rows, operational, t))
    parts += [
        subjects_section(rows, registry, t),
        how_to_read_section(
            t, operational=operational is not None, neighbours=neighbours is not None
        ),
    ]
    return "\n\n".join(parts) + "\n"
