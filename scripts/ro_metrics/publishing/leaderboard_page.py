"""The leaderboard as one self-contained HTML page (no network: no CDN, no web font),
in each language of publishing/translations.py (leaderboard.html, leaderboard.es.html).

Every text that comes from the corpus or the registry goes through `text()`
(HTML escaping, quotes included); numbers are the published CSV texts, written with
the language's decimal mark; every label, note and caption comes from the language's
data file (publishing/i18n/<code>.json). The page holds no clock: "Last update" is the
newest scoring timestamp, so the same inputs give the same bytes.
"""

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
  --accent: #0b5394; --bad: #b42318; --bad-bg: #fde8e7; }
* { box-sizing: border-box; }
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial,
  sans-serif; color: var(--ink); margin: 0 auto; max-width: 96rem; padding: 1.5rem; }
h1 { font-size: 1.6rem; margin: 0 0 .25rem; }
h2 { font-size: 1.25rem; margin-top: 2.5rem; border-bottom: 1px solid var(--line); }
h3 { font-size: 1.05rem; margin: 0 0 .5rem; }
.meta, .note, figcaption, .muted { color: var(--muted); font-size: .9rem; }
.note { border-left: 3px solid var(--line); padding: .25rem .75rem; margin: .75rem 0; }
table { border-collapse: collapse; width: 100%; margin: .5rem 0 1rem; }
th, td { padding: .35rem .5rem; border-bottom: 1px solid var(--line); text-align: left;
  vertical-align: top; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
thead th { background: #f6f8fa; }
#leaderboard { font-size: .9rem; }
#leaderboard th, #leaderboard td { padding: .35rem .4rem; }
.table-wrap { overflow-x: auto; }
td.name { white-space: nowrap; }
table.bins { font-size: .75rem; }
table.bins th, table.bins td { padding: .2rem .35rem; }
th button { all: inherit; cursor: pointer; padding: 0; }
th button:focus-visible { outline: 2px solid var(--accent); }
th button::after { content: " \\2195"; color: var(--muted); font-size: .8em; }
th[aria-sort="ascending"] button::after { content: " \\2191"; }
th[aria-sort="descending"] button::after { content: " \\2193"; }
tr.disqualified td { background: #fffafa; }
tr.group-even td { background: #f4f7fb; }
tr.group-start td { border-top: 2px solid #9fb3c8; }
.ci { display: block; color: var(--muted); font-size: .75rem; white-space: nowrap; }
.group-label { display: block; color: var(--accent); font-size: .75rem; white-space: nowrap; }
.badge { display: inline-block; border-radius: 999px; padding: 0 .55rem; font-size: .8rem;
  font-weight: 600; white-space: nowrap; }
.badge.disqualified { background: var(--bad-bg); color: var(--bad); border: 1px solid var(--bad); }
.badge.eligible { background: #e6f4ea; color: #1e6b34; border: 1px solid #1e6b34; }
.badge.track { background: #eef2f8; color: var(--accent); border: 1px solid #b6c6de;
  font-weight: 500; }
.version { color: var(--muted); font-size: .8em; }
.subject { border: 1px solid var(--line); border-radius: 8px; padding: 1rem 1.25rem;
  margin: 1.25rem 0; }
.subject-grid { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 400px);
  gap: 1.5rem; }
@media (max-width: 760px) { .subject-grid { grid-template-columns: 1fr; } }
figure { margin: 0; }
figure svg { width: 100%; height: auto; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: .15rem .75rem;
  margin: 0 0 .75rem; }
dt { color: var(--muted); }
dd { margin: 0; }
nav.snapshots a { margin-right: .75rem; }
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

# Sorts a table by the clicked column; cells carry their sort value in data-value,
# and rows without a value (an unranked Disqualified row) stay at the bottom.
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
      var rows = Array.prototype.slice.call(body.rows);
      rows.sort(function (a, b) {
        var x = a.cells[index].dataset.value, y = b.cells[index].dataset.value;
        if (x === "" || y === "") return (x === "") - (y === "");
        if (numeric) { x = Number(x); y = Number(y); }
        var order = x < y ? -1 : x > y ? 1 : 0;
        return ascending ? order : -order;
      });
      rows.forEach(function (row) { body.appendChild(row); });
    });
  });
});
"""


def text(value) -> str:
    """Escape a value for HTML text and attribute values alike."""
    return escape(str(value), quote=True)


def score(value: str, version: str, t: Language) -> str:
    """A published metric with the benchmark version it belongs to: 0.705 [v1.0]."""
    return f'{text(t.number(value))} <span class="version">[{text(version)}]</span>'


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
        f'<span class="muted">{critical_fails_text(n, t)}</span>'
    )


def interval_text(entry, t: Language) -> str:
    """ "95 % CI low–high" of a row of uncertainty.csv (empty if it has no interval)."""
    if not entry or not entry["ci_low"]:
        return ""
    low, high = (text(t.number(entry[name])) for name in ("ci_low", "ci_high"))
    return f'<span class="ci">{t("score_interval", low=low, high=high)}</span>'


def ranking_table(rows, tie_groups, uncertainty, tracks, version: str, t: Language) -> str:
    head = "".join(
        [
            header(t("col_rank"), "number", numeric=True, title=t("col_rank_title")),
            header(t("col_subject_version"), "text"),
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
            + t("critical_rate_bound", high=text(t.number(critical_bound["ci_high"])))
            + "</span>"
            if critical_bound
            else ""
        )
        cells = [
            cell(
                (text(row["rank"]) + rank_interval + group_label) if eligible else t("unknown"),
                row["rank"],
                numeric=True,
            ),
            cell(
                f'<a href="#subject-{index}">{text(row["subject_id"])}</a>'
                f'<span class="ci">{text(row["subject_version"])}</span>',
                f"{row['subject_id']}\t{row['subject_version']}",
                css="name",
            ),
            cell(f'<span class="badge track">{text(tracks[key])}</span>', tracks[key]),
            cell(status_badge(row, t), row["leaderboard_status"]),
            *(
                cell(
                    score(row[name], version, t) + interval_text(of.get(name), t),
                    row[name],
                    numeric=True,
                )
                for name in ("q_final", "pass_rate", "mean_clipped_score", "brier", "ece")
            ),
            cell(text(row["n_runs"]), row["n_runs"], numeric=True),
            cell(text(row["n_critical_fails"]) + bound, row["n_critical_fails"], numeric=True),
        ]
        css = ["eligible" if eligible else "disqualified"]
        if group:
            css.append("group-even" if group % 2 == 0 else "group-odd")
            if group != previous_group:
                css.append("group-start")
        previous_group = group
        body.append(f'<tr class="{" ".join(css)}" data-key="{index}">{"".join(cells)}</tr>')
    return (
        '<div class="table-wrap"><table class="sortable" id="leaderboard">'
        f"<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table></div>"
    )


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


def operational_table(rows, operational, t: Language) -> str:
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
        f'<td class="name"><a href="#subject-{index}">{text(row["subject_id"])}</a>'
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
        f'<td class="num">{score(row["pass_rate_family"], version, t)}</td>'
        f'<td class="num">{score(row["mean_clipped_score_family"], version, t)}</td>'
        "</tr>"
        for row in families
    )
    return (
        f'<table class="families"><thead><tr><th>{t("family_col_family")}</th>'
        f'<th class="num">{t("family_col_runs")}</th>'
        f'<th class="num">{t("family_col_pass")}</th>'
        f'<th class="num">{t("family_col_conditional")}</th>'
        f'<th class="num">{t("family_col_fail")}</th>'
        f'<th class="num">{t("family_col_pass_rate")}</th>'
        f'<th class="num">{t("family_col_mean_clipped_score")}</th></tr></thead>'
        f"<tbody>{body}</tbody></table>"
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
        f'<table class="bins"><thead><tr><th>{t("bins_col_bin")}</th>'
        f'<th class="num">{t("bins_col_runs")}</th>'
        f'<th class="num">{t("bins_col_mean_confidence")}</th>'
        f'<th class="num">{t("bins_col_soft_accuracy")}</th></tr></thead>'
        f"<tbody>{body}</tbody></table>"
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
            name: score(row[name], version, t)
            for name in ("q_final", "pass_rate", "mean_clipped_score", "brier", "ece")
        },
        n_runs=text(row["n_runs"]),
    )
    family_note = t("family_note", version=text(version), largest_family=largest_family)
    caption = t(
        "diagram_caption",
        ece=score(row["ece"], version, t),
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


def language_switch(t: Language) -> str:
    """The link to the same page in the other language (its file sits beside this one)."""
    code = t("other_language_code")
    return (
        f'<p class="meta"><a href="{t("other_language_page")}" hreflang="{code}" '
        f'lang="{code}">{t("other_language_name")}</a></p>'
    )


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
    n_eligible = sum(row["leaderboard_status"] == ELIGIBLE for row in rows)
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
    alpha_text = text(t.number(repr(float(alpha))))
    meta = t(
        "meta",
        version=text(version),
        alpha=alpha_text,
        last_update=text(last_update),
        n_versions=len(rows),
        n_ranked=n_eligible,
    )
    style = STYLE if operational is None else STYLE + OPERATIONAL_STYLE
    operational_section = "" if operational is None else operational_table(rows, operational, t)
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
<p class="meta">{meta}</p>
{snapshot_links(snapshots, t)}
{language_switch(t)}
</header>
<main>
<h2>{t("ranking_heading")}</h2>
<p class="note">{t("ranking_note")}</p>
{ranking_table(rows, tie_groups, uncertainty, tracks, version, t)}
<p class="note">{t("uncertainty_note")}</p>
<p class="note">{t("ece_note", version=text(version))}</p>
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
