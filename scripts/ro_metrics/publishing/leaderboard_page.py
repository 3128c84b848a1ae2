"""The leaderboard as one self-contained HTML page (no network: no CDN, no web font),
in each language of publishing/translations.py (leaderboard.html, leaderboard.es.html).

Every text that comes from the corpus or the registry goes through `text()`
(HTML escaping, quotes included); numbers are the published CSV texts, written with
the language's decimal mark, and the benchmark version they belong to is stated once,
in the header; every label, note and caption comes from the language's data file
(publishing/i18n/<code>.json). The page holds no clock: "Last update" is the newest
scoring timestamp, so the same inputs give the same bytes. The ranking table, the
critical-fail evidence, the "Disqualified subject versions" section and the operational
table, and the language link, are shared with the site's pages (publishing/site_pages.py).
"""

from collections.abc import Callable
from decimal import ROUND_HALF_EVEN, Decimal
from html import escape

from ro_metrics.contracts.vocabulary import ELIGIBLE
from ro_metrics.formulas.operational import cost_per_case
from ro_metrics.publishing.translations import ENGLISH, Language, language

# Links to snapshots are relative to the results folder; a snapshot's own copy of
# the page lives two levels down and rewrites this prefix (see publishing/snapshot.py).
SNAPSHOT_HREF_PREFIX = 'href="historico/'
# Where publish puts the changes step's section (that step runs beside this one).
CHANGES_PLACEHOLDER = '<section id="changes"></section>'

STYLE = """
:root { color-scheme: light; --ink: #1b1f24; --muted: #57606a; --line: #d0d7de;
  --accent: #0b5394; --bad: #b42318; --bad-bg: #fde8e7; --warn: #8a5a00;
  --warn-bg: #fff4d6; --good: #1e6b34; --good-bg: #e6f4ea; }
* { box-sizing: border-box; }
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial,
  sans-serif; color: var(--ink); margin: 0 auto; max-width: 96rem; padding: 1.5rem;
  overflow-wrap: anywhere; }
h1 { font-size: 1.6rem; margin: 0 0 .25rem; }
h2 { font-size: 1.25rem; margin-top: 2.5rem; border-bottom: 1px solid var(--line); }
h3 { font-size: 1.05rem; margin: 0 0 .5rem; }
.meta, .note, figcaption, .muted { color: var(--muted); font-size: .9rem; }
.note { border-left: 3px solid var(--line); padding: .25rem .75rem; margin: .75rem 0; }
table { border-collapse: collapse; width: 100%; margin: .5rem 0 1rem; overflow-wrap: normal; }
th, td { padding: .35rem .5rem; border-bottom: 1px solid var(--line); text-align: left;
  vertical-align: top; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
thead th.num { white-space: normal; }
thead th { background: #f6f8fa; }
#leaderboard { font-size: .82rem; }
#leaderboard th, #leaderboard td { padding: .3rem .25rem; }
#leaderboard .ci { white-space: normal; }
#leaderboard .count { display: block; font-size: .78rem; }
.table-wrap { overflow-x: auto; max-width: 100%; }
td.name { min-width: 8.5rem; }
.nowrap { white-space: nowrap; }
table.bins { font-size: .75rem; }
table.bins th, table.bins td { padding: .2rem .35rem; }
th button { all: inherit; cursor: pointer; padding: 0; }
th button:focus-visible { outline: 2px solid var(--accent); }
th button::after { content: " \\2195"; color: var(--muted); font-size: .8em; }
th[aria-sort="ascending"] button::after { content: " \\2191"; }
th[aria-sort="descending"] button::after { content: " \\2193"; }
tr.disqualified td { background: #fffafa; }
tr.detail td { background: #fffafa; border-top: 0; padding: 0 .5rem .6rem 2rem;
  white-space: normal; font-size: .85rem; }
tr.detail ul.fails { position: sticky; left: 0; max-width: calc(100vw - 4rem); }
tr.group-even td { background: #f4f7fb; }
tr.group-start td { border-top: 2px solid #9fb3c8; }
.ci { display: block; color: var(--muted); font-size: .72rem; white-space: nowrap; }
.group-label { display: block; color: var(--accent); font-size: .72rem; white-space: nowrap; }
.badge { display: inline-block; border-radius: 999px; padding: 0 .5rem; font-size: .78rem;
  font-weight: 600; white-space: nowrap; }
.badge.disqualified { background: var(--bad-bg); color: var(--bad); border: 1px solid var(--bad); }
.badge.eligible { background: var(--good-bg); color: var(--good); border: 1px solid var(--good); }
.badge.track { background: #eef2f8; color: var(--accent); border: 1px solid #b6c6de;
  font-weight: 500; }
.version { color: var(--muted); font-size: .8em; }
.subject { border: 1px solid var(--line); border-radius: 8px; padding: 1rem 1.25rem;
  margin: 1.25rem 0; }
.subject-grid { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 400px);
  gap: 1.5rem; }
@media (max-width: 760px) { .subject-grid { grid-template-columns: minmax(0, 1fr); }
  body { padding: .75rem; } }
figure { margin: 0; }
figure svg { width: 100%; height: auto; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: .15rem .75rem;
  margin: 0 0 .75rem; }
dt { color: var(--muted); }
dd { margin: 0; }
nav.snapshots a { margin-right: .75rem; }
ul.fails { list-style: none; margin: 0; padding: 0; }
ul.fails li { margin: .2rem 0; }
q.quote { quotes: "\\201C" "\\201D"; font-style: italic; }
.field { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  font-size: .8em; color: var(--muted); white-space: nowrap; }
.match { display: inline-block; border-radius: 4px; padding: 0 .35rem; font-size: .75rem;
  font-weight: 600; white-space: nowrap; }
.match.exact { background: var(--good-bg); color: var(--good); }
.match.close { background: var(--warn-bg); color: var(--warn); border: 1px dashed var(--warn); }
.match.none { background: #eef0f3; color: var(--muted); }
.reviewer-words { color: var(--ink); }
.reviewer-label { color: var(--muted); font-style: normal; font-weight: 600; }
table.fails { font-size: .85rem; }
table.fails td { white-space: normal; }
table.fails td:nth-child(-n+2) { white-space: nowrap; }
table.changes { font-size: .85rem; }
table.changes td { white-space: nowrap; }
table.changes td.cause { white-space: normal; overflow-wrap: anywhere; min-width: 20rem; }
"""
# Added after STYLE only on pages with the operational table: a page without it keeps
# the bytes it had before that table existed.
OPERATIONAL_STYLE = """
table.operational { font-size: .85rem; }
table.operational th { vertical-align: bottom; white-space: normal; }
td.none { color: var(--muted); font-style: italic; }
"""

# Sorts a table by the clicked column; cells carry their sort value in data-value (a
# cell without one sorts by its text), and rows without a value (an unranked
# Disqualified row) stay at the bottom. A detail row (class "detail", data-follows =
# the key of the row it belongs to) moves with that row.
SCRIPT = """
document.querySelectorAll("table.sortable").forEach(function (table) {
  var headers = table.querySelectorAll("thead th");
  headers.forEach(function (th, index) {
    var button = th.querySelector("button");
    if (!button) return;
    button.addEventListener("click", function () {
      var ascending = th.getAttribute("aria-sort") !== "ascending";
      headers.forEach(function (other) { other.removeAttribute("aria-sort"); });
      th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
      var numeric = th.dataset.type === "number";
      var body = table.tBodies[0];
      var all = Array.prototype.slice.call(body.rows);
      var details = {};
      all.forEach(function (row) {
        if (row.classList.contains("detail")) details[row.dataset.follows] = row;
      });
      var rows = all.filter(function (row) { return !row.classList.contains("detail"); });
      function value(row) {
        var cell = row.cells[index], given = cell.dataset.value;
        return given === undefined ? cell.textContent : given;
      }
      rows.sort(function (a, b) {
        var x = value(a), y = value(b);
        if (x === "" || y === "") return (x === "") - (y === "");
        if (numeric) { x = Number(x); y = Number(y); }
        var order = x < y ? -1 : x > y ? 1 : 0;
        return ascending ? order : -order;
      });
      rows.forEach(function (row) {
        body.appendChild(row);
        var detail = details[row.dataset.key];
        if (detail) body.appendChild(detail);
      });
    });
  });
});
"""


def text(value) -> str:
    """Escape a value for HTML text and attribute values alike (& < > " ')."""
    value = value if type(value) is str else str(value)
    # Most texts hold none of the five characters: five scans for them cost a seventh
    # of escape()'s five replacements, and the site escapes ~3 million texts at size L.
    if "&" in value or "<" in value or ">" in value or '"' in value or "'" in value:
        return escape(value, quote=True)
    return value


def number(value, t: Language) -> str:
    """A published number, escaped, with the language's decimal mark."""
    return text(t.number(value))


def cell(content: str, value, *, numeric: bool = False, css: str = "") -> str:
    css = "num" if numeric else css
    attribute = f' class="{css}"' if css else ""
    return f'<td{attribute} data-value="{text(value)}">{content}</td>'


def header(label: str, kind: str, *, numeric: bool = False, title: str = "") -> str:
    css = ' class="num"' if numeric else ""
    hint = f' title="{text(title)}"' if title else ""
    return (
        f'<th scope="col"{css} data-type="{kind}"{hint}><button type="button">{label}</button></th>'
    )


def critical_fails_text(n: int, t: Language) -> str:
    return t("critical_fail_one" if n == 1 else "critical_fail_many", n=n)


def status_badge(row: dict, t: Language) -> str:
    if row["leaderboard_status"] == ELIGIBLE:
        return f'<span class="badge eligible">{t("status_eligible")}</span>'
    n = int(row["n_critical_fails"])
    return (
        f'<span class="badge disqualified">{t("status_disqualified")}</span> '
        f'<span class="muted count">{critical_fails_text(n, t)}</span>'
    )


def interval_text(entry, t: Language) -> str:
    """ "95 % CI low–high" of a row of uncertainty.csv (empty if it has no interval)."""
    if not entry or not entry["ci_low"]:
        return ""
    low, high = (number(entry[name], t) for name in ("ci_low", "ci_high"))
    return f'<span class="ci">{t("score_interval", low=low, high=high)}</span>'


def evidence_html(fail: dict, t: Language, *, long: bool = False) -> str:
    """A row of critical_fails.csv as the reader sees it: the model's quote with its
    field and kind of match, or, without a quote, the reviewer's words labelled so.
    long: also the reviewer's justification next to a quote (the fails tables)."""
    reviewer_words = (
        f'<span class="reviewer-words"><span class="reviewer-label">{t("reviewer_words")}'
        f"</span> {text(fail['reviewer_justification'])}</span>"
    )
    match = fail["match"]
    if match == "none":
        return f'<span class="match none">{t("match_none")}</span> {reviewer_words}'
    mark = (
        f'<span class="match exact" title="{t("match_exact_title")}">{t("match_exact")}</span>'
        if match == "exact"
        else f'<span class="match close" title="{t("match_close_title")}">{t("match_close")}</span>'
    )
    shown = (
        f'<q class="quote">{text(fail["quote"])}</q> '
        f'<span class="field">{text(fail["response_field"])}</span> {mark}'
    )
    if long:
        shown += f"<br>{reviewer_words}"
    return shown


def fails_list(fails: list[dict], run_href: Callable[[dict], str | None], t: Language) -> str:
    """The critical fails of one subject version, one line each (under its ranking row)."""
    items = []
    for fail in fails:
        href = run_href(fail)
        where = f"{text(fail['case_id'])} · {text(fail['run_id'])}"
        if href:
            where = f'<a href="{text(href)}">{where}</a>'
        items.append(f"<li><strong>{where}</strong> — {evidence_html(fail, t)}</li>")
    return f'<ul class="fails">{"".join(items)}</ul>'


def ranking_table(
    rows,
    tie_groups,
    uncertainty,
    tracks,
    providers: dict[str, str],
    fails_of: dict[tuple[str, str], list[dict]],
    subject_href: Callable[[int, dict], str],
    run_href: Callable[[dict], str | None],
    t: Language,
) -> str:
    """The ranking: one row per subject version, each Disqualified row followed by a
    detail row listing its critical fails (it moves with its row when sorted)."""
    head = "".join(
        [
            header(t("col_rank"), "number", numeric=True, title=t("col_rank_title")),
            header(t("col_subject_version"), "text"),
            header(t("col_provider"), "text"),
            header(t("col_track"), "text"),
            header(t("col_status"), "text"),
            header(t("col_q_final"), "number", numeric=True, title=t("col_q_final_title")),
            header(t("col_pass_rate"), "number", numeric=True),
            header(
                t("col_mean_clipped_score"),
                "number",
                numeric=True,
                title=t("col_mean_clipped_score_title"),
            ),
            header(t("col_brier"), "number", numeric=True, title=t("col_brier_title")),
            header(t("col_ece"), "number", numeric=True, title=t("col_ece_title")),
            header(t("col_runs"), "number", numeric=True),
            header(t("col_pass"), "number", numeric=True, title=t("col_pass_title")),
            header(t("col_conditional"), "number", numeric=True, title=t("col_conditional_title")),
            header(t("col_fail"), "number", numeric=True, title=t("col_fail_title")),
            header(t("col_critical_fails"), "number", numeric=True),
        ]
    )
    body = []
    previous_group = None
    for index, (row, group) in enumerate(zip(rows, tie_groups, strict=True)):
        key = (row["subject_id"], row["subject_version"])
        eligible = row["leaderboard_status"] == ELIGIBLE
        of = {
            name: uncertainty.get((*key, name))
            for name in ("q_final", "pass_rate", "critical_fail_rate")
        }
        rank_interval = (
            '<span class="ci">'
            + t("rank_interval", low=text(row["rank_low"]), high=text(row["rank_high"]))
            + "</span>"
            if row["rank_low"]
            else ""
        )
        critical_bound = of["critical_fail_rate"]
        group_label = (
            f'<span class="group-label">{t("tie_group", group=group)}</span>' if group else ""
        )
        bound = (
            '<span class="ci">'
            + t("critical_rate_bound", high=number(critical_bound["ci_high"], t))
            + "</span>"
            if critical_bound
            else ""
        )
        provider = providers.get(row["subject_id"], "")
        cells = [
            cell(
                (text(row["rank"]) + rank_interval + group_label) if eligible else t("unknown"),
                row["rank"],
                numeric=True,
            ),
            cell(
                f'<a href="{text(subject_href(index, row))}">{text(row["subject_id"])}</a>'
                f'<span class="ci">{text(row["subject_version"])}</span>',
                f"{row['subject_id']}\t{row['subject_version']}",
                css="name",
            ),
            cell(text(provider), provider),
            cell(f'<span class="badge track">{text(tracks[key])}</span>', tracks[key]),
            cell(status_badge(row, t), row["leaderboard_status"]),
            *(
                cell(number(row[name], t) + interval_text(of.get(name), t), row[name], numeric=True)
                for name in ("q_final", "pass_rate", "mean_clipped_score", "brier", "ece")
            ),
            *(
                cell(text(row[name]), row[name], numeric=True)
                for name in ("n_runs", "n_pass", "n_conditional", "n_fail")
            ),
            cell(text(row["n_critical_fails"]) + bound, row["n_critical_fails"], numeric=True),
        ]
        css = ["eligible" if eligible else "disqualified"]
        if group:
            css.append("group-even" if group % 2 == 0 else "group-odd")
            if group != previous_group:
                css.append("group-start")
        previous_group = group
        body.append(f'<tr class="{" ".join(css)}" data-key="{index}">{"".join(cells)}</tr>')
        if not eligible and fails_of.get(key):
            body.append(
                f'<tr class="detail" data-follows="{index}"><td colspan="{len(cells)}">'
                f"{fails_list(fails_of[key], run_href, t)}</td></tr>"
            )
    return (
        '<div class="table-wrap"><table class="sortable" id="leaderboard">'
        f"<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table></div>"
    )


def disqualified_section(
    rows,
    providers: dict[str, str],
    fails_of: dict[tuple[str, str], list[dict]],
    run_href: Callable[[dict], str | None],
    subject_href: Callable[[int, dict], str],
    t: Language,
) -> str:
    """The section of Disqualified versions: each with every critical fail and its evidence."""
    parts = [
        f'<h2 id="disqualified">{t("disqualified_heading")}</h2>',
        f'<p class="note">{t("disqualified_note")} {t("evidence_note")}</p>',
    ]
    disqualified = [
        (index, row) for index, row in enumerate(rows) if row["leaderboard_status"] != ELIGIBLE
    ]
    if not disqualified:
        parts.append(f"<p>{t('disqualified_none')}</p>")
    for index, row in disqualified:
        key = (row["subject_id"], row["subject_version"])
        fails = fails_of.get(key, [])
        body = []
        for fail in fails:
            href = run_href(fail)
            case = text(fail["case_id"])
            if href:
                case = f'<a href="{text(href)}">{case}</a>'
            reviewer = t("reviewer_id", reviewer=text(fail["reviewer_id"]))
            body.append(
                f'<tr><td>{case}</td><td>{text(fail["run_id"])}<span class="ci">{reviewer}'
                f"</span></td><td>{text(fail['fail_type'])}</td>"
                f"<td>{evidence_html(fail, t, long=fail['match'] != 'none')}</td></tr>"
            )
        provider = providers.get(row["subject_id"], "")
        counts = t(
            "disqualified_counts",
            fails=critical_fails_text(len(fails), t),
            n_critical=int(row["n_critical_fails"]),
            n_runs=text(row["n_runs"]),
        )
        parts.append(
            f'<section class="disqualified-version">'
            f'<h3><a href="{text(subject_href(index, row))}">{text(row["subject_id"])}</a> '
            f'<span class="version">{text(row["subject_version"])}</span></h3>'
            f'<p class="meta">{text(provider)} · {counts}</p>'
            f'<div class="table-wrap"><table class="fails"><thead><tr><th>{t("fails_col_case")}'
            f"</th><th>{t('fails_col_run')}</th><th>{t('fails_col_type')}</th>"
            f"<th>{t('fails_col_evidence')}</th></tr></thead><tbody>{''.join(body)}</tbody>"
            "</table></div></section>"
        )
    return "\n".join(parts)


def fails_by_version(critical_fails: list[dict]) -> dict[tuple[str, str], list[dict]]:
    """Rows of critical_fails.csv per (subject_id, subject_version), in the file's order."""
    grouped = {}
    for fail in critical_fails:
        grouped.setdefault((fail["subject_id"], fail["subject_version"]), []).append(fail)
    return grouped


def per_million_tokens(price: str) -> str:
    """A unit price per token (10 decimals) as USD per million tokens, exactly: at least
    two decimals, no trailing zeros beyond (0.0000010000 → 1.00, 0.0000000750 → 0.075)."""
    value = (Decimal(price) * 10**6).quantize(Decimal("0.0001"))
    shown = f"{value:f}".rstrip("0")
    whole, _, decimals = shown.partition(".")
    return f"{whole}.{decimals.ljust(2, '0')}"


COST_STEP = Decimal("0.0001")  # the cost per case is shown to 1/100 of a cent


def cost_text(row: dict, t: Language) -> str:
    """Cost per case (formulas.operational.cost_per_case) in USD to 4 decimals, or "—"."""
    cost = cost_per_case(
        row["mean_input_tokens"],
        row["price_per_input_token_usd"],
        row["mean_output_tokens"],
        row["price_per_output_token_usd"],
    )
    if cost is None:
        return t("unknown")
    shown = cost.quantize(COST_STEP, rounding=ROUND_HALF_EVEN)
    if shown == 0 and cost > 0:
        return t("below_cost_resolution", value=t.number(f"{COST_STEP:f}"))
    return t.number(f"{shown:f}")


OPERATIONAL_NUMBERS = [
    "mean_input_tokens",
    "mean_output_tokens",
    "output_to_input_ratio",
    "median_latency_s",
    "p95_latency_s",
]


def operational_cells(row: dict | None, t: Language) -> list[str]:
    """The operational columns of one subject version ("no telemetry" when it has none)."""
    if row is None:
        return [f'<td class="none" colspan="10">{t("no_telemetry")}</td>']
    prices = [
        per_million_tokens(row[name]) if row[name] else t("unknown")
        for name in ("price_per_input_token_usd", "price_per_output_token_usd")
    ]
    values = [
        row["n_runs"],
        *(row[name] for name in OPERATIONAL_NUMBERS),
        *prices,
        cost_text(row, t),
    ]
    return [f'<td class="num">{text(t.number(value))}</td>' for value in values]


def operational_table(
    rows, operational, subject_href: Callable[[int, dict], str], t: Language
) -> str:
    """The operational table beside the ranking: one row per ranked subject version, in
    the ranking's order, joined by (subject_id, subject_version)."""
    by_version = {(row["subject_id"], row["subject_version"]): row for row in operational}
    columns = [
        ("col_operational_runs", "col_operational_runs_title"),
        ("col_mean_input_tokens", ""),
        ("col_mean_output_tokens", ""),
        ("col_output_to_input", ""),
        ("col_median_latency", ""),
        ("col_p95_latency", ""),
        ("col_price_in", ""),
        ("col_price_out", ""),
        ("col_cost_per_case", "col_cost_per_case_title"),
    ]
    head = "".join(
        f'<th class="num"{f" title={chr(34)}{text(t(hint))}{chr(34)}" if hint else ""}>'
        f"{t(label)}</th>"
        for label, hint in columns
    )
    body = "".join(
        "<tr>"
        f'<td class="name"><a href="{text(subject_href(index, row))}">{text(row["subject_id"])}</a>'
        f'<span class="ci">{text(row["subject_version"])}</span></td>'
        + "".join(operational_cells(by_version.get((row["subject_id"], row["subject_version"])), t))
        + "</tr>"
        for index, row in enumerate(rows)
    )
    ranked = {(row["subject_id"], row["subject_version"]) for row in rows}
    others = [
        f"{text(row['subject_id'])} · {text(row['subject_version'])}"
        for row in operational
        if (row["subject_id"], row["subject_version"]) not in ranked
    ]
    note = (
        f'<p class="note">{t("operational_not_ranked", versions=", ".join(others))}</p>\n'
        if others
        else ""
    )
    return (
        f'<h2 id="operational">{t("operational_heading")}</h2>\n'
        f'<p class="note">{t("operational_note")}</p>\n'
        '<div class="table-wrap"><table class="operational"><thead><tr>'
        f"<th>{t('col_subject_version')}</th>{head}</tr></thead>"
        f"<tbody>{body}</tbody></table></div>\n{note}"
    )


def family_table(families, version: str, t: Language) -> str:
    body = "".join(
        "<tr>"
        f'<td>{text(row["family"])} <span class="muted">'
        f"{text(t.labels.get('family_' + row['family'], ''))}</span></td>"
        f'<td class="num">{text(row["n_runs"])}</td>'
        f'<td class="num">{text(row["n_pass"])}</td>'
        f'<td class="num">{text(row["n_conditional"])}</td>'
        f'<td class="num">{text(row["n_fail"])}</td>'
        f'<td class="num">{number(row["pass_rate_family"], t)}</td>'
        f'<td class="num">{number(row["mean_clipped_score_family"], t)}</td>'
        "</tr>"
        for row in families
    )
    return (
        '<div class="table-wrap"><table class="families"><thead><tr>'
        f"<th>{t('family_col_family')}</th>"
        f'<th class="num">{t("family_col_runs")}</th>'
        f'<th class="num">{t("family_col_pass")}</th>'
        f'<th class="num">{t("family_col_conditional")}</th>'
        f'<th class="num">{t("family_col_fail")}</th>'
        f'<th class="num">{t("family_col_pass_rate")}</th>'
        f'<th class="num">{t("family_col_mean_clipped_score")}</th></tr></thead>'
        f"<tbody>{body}</tbody></table></div>"
    )


def bins_table(bins, t: Language) -> str:
    body = "".join(
        f"<tr><td>{t.number(f'{(m - 1) / 10:.1f}')}–{t.number(f'{m / 10:.1f}')}</td>"
        f'<td class="num">{n}</td>'
        f'<td class="num">{t.number(f"{float(conf):.3f}")}</td>'
        f'<td class="num">{t.number(f"{float(acc):.3f}")}</td></tr>'
        for m, n, conf, acc in bins
    )
    return (
        f'<div class="table-wrap"><table class="bins"><thead><tr><th>{t("bins_col_bin")}</th>'
        f'<th class="num">{t("bins_col_runs")}</th>'
        f'<th class="num">{t("bins_col_mean_confidence")}</th>'
        f'<th class="num">{t("bins_col_soft_accuracy")}</th></tr></thead>'
        f"<tbody>{body}</tbody></table></div>"
    )


def subject_section(index, row, track, registry_entry, families, diagram, version, t) -> str:
    svg, bins = diagram
    registry_entry = registry_entry or {}
    description = registry_entry.get("description")
    details = [
        (t("detail_kind"), text(registry_entry.get("kind"))),
        (t("detail_provider"), text(registry_entry.get("provider"))),
        (t("detail_track"), text(track)),
        (t("detail_status"), status_badge(row, t)),
    ]
    present = [
        registry_entry.get("kind") is not None,
        registry_entry.get("provider") is not None,
        track is not None,
        True,
    ]
    listing = "".join(
        f"<dt>{label}</dt><dd>{value}</dd>"
        for (label, value), shown in zip(details, present, strict=True)
        if shown
    )
    largest_family = max(int(family["n_runs"]) for family in families)
    fullest_bin = max(n for _, n, _, _ in bins)
    rank = t("subject_rank", rank=text(row["rank"])) if row["rank"] else t("subject_unranked")
    summary = t(
        "subject_summary",
        **{
            name: number(row[name], t)
            for name in ("q_final", "pass_rate", "mean_clipped_score", "brier", "ece")
        },
        **{name: text(row[name]) for name in ("n_runs", "n_pass", "n_conditional", "n_fail")},
    )
    family_note = t("family_note", version=text(version), largest_family=largest_family)
    caption = t(
        "diagram_caption",
        ece=number(row["ece"], t),
        n_runs=text(row["n_runs"]),
        fullest_bin=fullest_bin,
    )
    return f"""
<section class="subject" id="subject-{index}">
<h3>{text(row["subject_id"])} <span class="version">{text(row["subject_version"])}</span>
 <span class="muted">· {rank}</span></h3>
<div class="subject-grid"><div>
<dl>{listing}</dl>
{f'<p class="description">{text(description)}</p>' if description else ""}
<p>{summary}</p>
<h4>{t("by_family_heading")}</h4>
{family_table(families, version, t)}
<p class="note">{family_note}</p>
</div>
<figure>
{svg}
<figcaption>{caption}</figcaption>
{bins_table(bins, t)}
</figure>
</div>
</section>"""


def snapshot_links(dates, t: Language) -> str:
    if not dates:
        return f'<p class="meta">{t("no_snapshot")}</p>'
    links = " ".join(
        f'<a {SNAPSHOT_HREF_PREFIX}{text(date)}/{t("page_file")}">{text(date)}</a>'
        for date in dates
    )
    return f'<nav class="snapshots meta">{t("snapshots", links=links)}</nav>'


def header_meta(version, alpha, last_update, rows, t: Language) -> str:
    """The page header's line: the benchmark version (once for every number), α, the
    newest scoring and the counts."""
    meta = t(
        "meta",
        version=text(version),
        alpha=number(repr(float(alpha)), t),
        last_update=text(last_update),
        n_versions=len(rows),
        n_ranked=sum(row["leaderboard_status"] == ELIGIBLE for row in rows),
    )
    return f'<p class="meta">{meta}</p>'


def uncertainty_note(version, t: Language) -> str:
    return (
        f'<p class="note">{t("uncertainty_note")}</p>\n'
        f'<p class="note">{t("ece_note", version=text(version))}</p>'
    )


def language_link(t: Language, target: str) -> str:
    """A link to the same page in the other language, at target (escaped)."""
    code = t("other_language_code")
    return f'<a href="{target}" hreflang="{code}" lang="{code}">{t("other_language_name")}</a>'


def language_switch(t: Language) -> str:
    """The link to the same page in the other language (its file sits beside this one)."""
    return f'<p class="meta">{language_link(t, t("other_language_page"))}</p>'


def render_page(
    *,
    benchmark_version,
    alpha,
    last_update,
    rows,
    tie_groups,
    uncertainty,
    tracks,
    families,
    registry,
    diagrams,
    snapshots,
    critical_fails,
    operational=None,
    t: Language | None = None,
) -> str:
    """The whole page in language t, English by default (see the module docstring);
    `operational` holds the rows of operational_per_subject.csv, or None when the corpus
    has no telemetry (then the page has no operational section)."""
    t = t or language(ENGLISH)
    version = benchmark_version
    families_of = {}
    for family in families:
        families_of.setdefault((family["subject_id"], family["subject_version"]), []).append(family)
    providers = {subject_id: entry.get("provider") or "" for subject_id, entry in registry.items()}
    fails_of = fails_by_version(critical_fails)

    def subject_href(index, _row):
        return f"#subject-{index}"

    def run_href(_fail):
        return None

    sections = "".join(
        subject_section(
            index,
            row,
            tracks[(row["subject_id"], row["subject_version"])],
            registry.get(row["subject_id"]),
            families_of[(row["subject_id"], row["subject_version"])],
            diagrams[(row["subject_id"], row["subject_version"])],
            version,
            t,
        )
        for index, row in enumerate(rows)
    )
    table = ranking_table(
        rows, tie_groups, uncertainty, tracks, providers, fails_of, subject_href, run_href, t
    )
    style = STYLE if operational is None else STYLE + OPERATIONAL_STYLE
    operational_section = (
        "" if operational is None else operational_table(rows, operational, subject_href, t)
    )
    return f"""<!DOCTYPE html>
<html lang="{t.code}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{t("title", version=text(version))}</title>
<style>{style}</style>
</head>
<body>
<header>
<h1>{t("heading")}</h1>
{header_meta(version, alpha, last_update, rows, t)}
{snapshot_links(snapshots, t)}
{language_switch(t)}
</header>
<main>
<h2>{t("ranking_heading")}</h2>
<p class="note">{t("ranking_note")}</p>
{table}
{uncertainty_note(version, t)}
{disqualified_section(rows, providers, fails_of, run_href, subject_href, t)}
{CHANGES_PLACEHOLDER}
{operational_section}<h2>{t("subjects_heading")}</h2>
{sections}
</main>
<footer class="meta"><p>{t("footer")}</p></footer>
<script>{SCRIPT}</script>
</body>
</html>
"""


def with_changes_section(page: str, section: str) -> str:
    """The page with the changes section in its place (exactly one placeholder)."""
    if page.count(CHANGES_PLACEHOLDER) != 1:
        raise ValueError("the leaderboard page has no single place for the changes section")
    return page.replace(CHANGES_PLACEHOLDER, section)
