"""The leaderboard as one self-contained HTML page (no network: no CDN, no web font).

Every text that comes from the corpus or the registry goes through `text()`
(HTML escaping, quotes included); numbers are the published CSV texts, and the
benchmark version they belong to is stated once, in the header. The page holds no
clock: "Last update" is the newest scoring timestamp, so the same inputs give the
same bytes. The ranking table, the critical-fail evidence and the "Disqualified
subject versions" section are shared with the site's index (publishing/site_pages.py).
"""

from collections.abc import Callable
from html import escape

from ro_metrics.contracts.vocabulary import ELIGIBLE, FAMILY_NAMES

# Links to snapshots are relative to the results folder; a snapshot's own copy of
# the page lives two levels down and rewrites this prefix (see publishing/snapshot.py).
SNAPSHOT_HREF_PREFIX = 'href="historico/'

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
.reviewer-words::before { content: "Reviewer\\2019s words: "; color: var(--muted);
  font-style: normal; font-weight: 600; }
table.fails { font-size: .85rem; }
table.fails td { white-space: normal; }
table.fails td:nth-child(-n+2) { white-space: nowrap; }
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

# The one sentence that explains the three kinds of evidence, wherever fails are shown.
EVIDENCE_NOTE = (
    "Each quote is the model's own words, checked against its response: "
    '<span class="match exact">exact</span> the reviewer quoted it verbatim; '
    '<span class="match close">≈ close</span> the reviewer\'s quote is not verbatim and '
    "the passage of the response it matches best is shown instead (similarity ≥ 0.75); "
    '<span class="match none">no quote</span> the reviewer quoted nothing the response '
    "says, and the reviewer's justification is shown, as the reviewer's words. Never the "
    "rubric's or the gold's text."
)


def text(value) -> str:
    """Escape a value for HTML text and attribute values alike (& < > " ')."""
    value = value if type(value) is str else str(value)
    # Most texts hold none of the five characters: five scans for them cost a seventh
    # of escape()'s five replacements, and the site escapes ~3 million texts at size L.
    if "&" in value or "<" in value or ">" in value or '"' in value or "'" in value:
        return escape(value, quote=True)
    return value


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


def status_badge(row: dict) -> str:
    if row["leaderboard_status"] == ELIGIBLE:
        return '<span class="badge eligible">Eligible</span>'
    n = int(row["n_critical_fails"])
    return (
        '<span class="badge disqualified">Disqualified</span> '
        f'<span class="muted count">{n} critical fail{"s" if n != 1 else ""}</span>'
    )


def interval_text(entry, *, percent: bool = False) -> str:
    """ "95 % CI low–high" of a row of uncertainty.csv (empty if it has no interval)."""
    if not entry or not entry["ci_low"]:
        return ""
    return (
        '<span class="ci">95 % CI <span class="nowrap">'
        f"{text(entry['ci_low'])}–{text(entry['ci_high'])}</span></span>"
    )


def evidence_html(fail: dict, *, long: bool = False) -> str:
    """A row of critical_fails.csv as the reader sees it: the model's quote with its
    field and kind of match, or, without a quote, the reviewer's words labelled so.
    long: also the reviewer's justification next to a quote (the fails tables)."""
    match = fail["match"]
    if match == "none":
        return (
            '<span class="match none">no quote</span> '
            f'<span class="reviewer-words">{text(fail["reviewer_justification"])}</span>'
        )
    mark = (
        '<span class="match exact" title="quoted verbatim by the reviewer">exact</span>'
        if match == "exact"
        else '<span class="match close" title="the reviewer\'s quote is not verbatim; this is '
        'the closest passage of the response">≈ close</span>'
    )
    shown = (
        f'<q class="quote">{text(fail["quote"])}</q> '
        f'<span class="field">{text(fail["response_field"])}</span> {mark}'
    )
    if long:
        shown += f'<br><span class="reviewer-words">{text(fail["reviewer_justification"])}</span>'
    return shown


def fails_list(fails: list[dict], run_href: Callable[[dict], str | None]) -> str:
    """The critical fails of one subject version, one line each (under its ranking row)."""
    items = []
    for fail in fails:
        href = run_href(fail)
        where = f"{text(fail['case_id'])} · {text(fail['run_id'])}"
        if href:
            where = f'<a href="{text(href)}">{where}</a>'
        items.append(f"<li><strong>{where}</strong> — {evidence_html(fail)}</li>")
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
) -> str:
    """The ranking: one row per subject version, each Disqualified row followed by a
    detail row listing its critical fails (it moves with its row when sorted)."""
    head = "".join(
        [
            header("Rank", "number", numeric=True, title="rank; 95 % bootstrap interval"),
            header("Subject · version", "text"),
            header("Provider", "text"),
            header("Track", "text"),
            header("Status", "text"),
            header("Q<sub>final</sub>", "number", numeric=True, title="α·P + (1−α)·s̄/12"),
            header("Pass rate", "number", numeric=True),
            header("Mean clipped score", "number", numeric=True, title="0-12"),
            header("Brier", "number", numeric=True, title="lower is better"),
            header("ECE*", "number", numeric=True, title="indicative; lower is better"),
            header("Runs", "number", numeric=True),
            header("Pass", "number", numeric=True, title="runs classified Pass"),
            header("Cond.", "number", numeric=True, title="runs classified Conditional"),
            header("Fail", "number", numeric=True, title="runs classified Fail"),
            header("Critical fails", "number", numeric=True),
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
            '<span class="ci">95 % <span class="nowrap">'
            f"{text(row['rank_low'])}–{text(row['rank_high'])}</span></span>"
            if row["rank_low"]
            else ""
        )
        critical_bound = of["critical_fail_rate"]
        group_label = f'<span class="group-label">tie group {group}</span>' if group else ""
        provider = providers.get(row["subject_id"], "")
        cells = [
            cell(
                (text(row["rank"]) + rank_interval + group_label) if eligible else "—",
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
            cell(status_badge(row), row["leaderboard_status"]),
            *(
                cell(text(row[name]) + interval_text(of.get(name)), row[name], numeric=True)
                for name in ("q_final", "pass_rate", "mean_clipped_score", "brier", "ece")
            ),
            *(
                cell(text(row[name]), row[name], numeric=True)
                for name in ("n_runs", "n_pass", "n_conditional", "n_fail")
            ),
            cell(
                text(row["n_critical_fails"])
                + (
                    '<span class="ci">rate <span class="nowrap">'
                    f"≤ {text(critical_bound['ci_high'])}</span> (95 %)</span>"
                    if critical_bound
                    else ""
                ),
                row["n_critical_fails"],
                numeric=True,
            ),
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
                f"{fails_list(fails_of[key], run_href)}</td></tr>"
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
) -> str:
    """The section of Disqualified versions: each with every critical fail and its evidence."""
    parts = [
        '<h2 id="disqualified">Disqualified subject versions</h2>',
        '<p class="note">A single critical fail — a recommendation that would destroy '
        "membranes — disqualifies a subject version: it keeps its metrics but is not "
        f"ranked. {EVIDENCE_NOTE}</p>",
    ]
    disqualified = [
        (index, row) for index, row in enumerate(rows) if row["leaderboard_status"] != ELIGIBLE
    ]
    if not disqualified:
        parts.append("<p>None: no subject version has a critical fail.</p>")
    for index, row in disqualified:
        key = (row["subject_id"], row["subject_version"])
        fails = fails_of.get(key, [])
        body = []
        for fail in fails:
            href = run_href(fail)
            case = text(fail["case_id"])
            if href:
                case = f'<a href="{text(href)}">{case}</a>'
            body.append(
                f'<tr><td>{case}</td><td>{text(fail["run_id"])}<span class="ci">reviewer '
                f"{text(fail['reviewer_id'])}</span></td><td>{text(fail['fail_type'])}</td>"
                f"<td>{evidence_html(fail, long=fail['match'] != 'none')}</td></tr>"
            )
        n_runs = int(row["n_critical_fails"])
        provider = providers.get(row["subject_id"], "")
        parts.append(
            f'<section class="disqualified-version">'
            f'<h3><a href="{text(subject_href(index, row))}">{text(row["subject_id"])}</a> '
            f'<span class="version">{text(row["subject_version"])}</span></h3>'
            f'<p class="meta">{text(provider)} · {len(fails)} critical fail'
            f"{'s' * (len(fails) != 1)} in {n_runs} of {text(row['n_runs'])} scored runs</p>"
            '<div class="table-wrap"><table class="fails"><thead><tr><th>Case</th>'
            "<th>Run</th><th>Fail type</th><th>What the model said, and why it is critical"
            f"</th></tr></thead><tbody>{''.join(body)}</tbody></table></div></section>"
        )
    return "\n".join(parts)


def fails_by_version(critical_fails: list[dict]) -> dict[tuple[str, str], list[dict]]:
    """Rows of critical_fails.csv per (subject_id, subject_version), in the file's order."""
    grouped = {}
    for fail in critical_fails:
        grouped.setdefault((fail["subject_id"], fail["subject_version"]), []).append(fail)
    return grouped


def family_table(families) -> str:
    body = "".join(
        "<tr>"
        f'<td>{text(row["family"])} <span class="muted">'
        f"{text(FAMILY_NAMES.get(row['family'], ''))}</span></td>"
        f'<td class="num">{text(row["n_runs"])}</td>'
        f'<td class="num">{text(row["n_pass"])}</td>'
        f'<td class="num">{text(row["n_conditional"])}</td>'
        f'<td class="num">{text(row["n_fail"])}</td>'
        f'<td class="num">{text(row["pass_rate_family"])}</td>'
        f'<td class="num">{text(row["mean_clipped_score_family"])}</td>'
        "</tr>"
        for row in families
    )
    return (
        '<div class="table-wrap"><table class="families"><thead><tr><th>Family</th>'
        '<th class="num">Runs</th>'
        '<th class="num">Pass</th><th class="num">Conditional</th><th class="num">Fail</th>'
        '<th class="num">Pass rate*</th><th class="num">Mean clipped score*</th></tr></thead>'
        f"<tbody>{body}</tbody></table></div>"
    )


def bins_table(bins) -> str:
    body = "".join(
        f'<tr><td>{(m - 1) / 10:.1f}–{m / 10:.1f}</td><td class="num">{n}</td>'
        f'<td class="num">{float(conf):.3f}</td><td class="num">{float(acc):.3f}</td></tr>'
        for m, n, conf, acc in bins
    )
    return (
        '<div class="table-wrap"><table class="bins"><thead><tr><th>Confidence bin</th>'
        '<th class="num">Runs</th>'
        '<th class="num">Mean confidence</th><th class="num">Soft accuracy</th></tr></thead>'
        f"<tbody>{body}</tbody></table></div>"
    )


def subject_section(index, row, track, registry_entry, families, diagram, version) -> str:
    svg, bins = diagram
    registry_entry = registry_entry or {}
    description = registry_entry.get("description")
    details = [
        ("Kind", registry_entry.get("kind")),
        ("Provider", registry_entry.get("provider")),
        ("Track", track),
        ("Status", None),
    ]
    listing = "".join(
        f"<dt>{label}</dt><dd>{status_badge(row) if label == 'Status' else text(value)}</dd>"
        for label, value in details
        if value is not None or label == "Status"
    )
    largest_family = max(int(family["n_runs"]) for family in families)
    fullest_bin = max(n for _, n, _, _ in bins)
    rank = f"rank {text(row['rank'])}" if row["rank"] else "unranked"
    return f"""
<section class="subject" id="subject-{index}">
<h3>{text(row["subject_id"])} <span class="version">{text(row["subject_version"])}</span>
 <span class="muted">· {rank}</span></h3>
<div class="subject-grid"><div>
<dl>{listing}</dl>
{f'<p class="description">{text(description)}</p>' if description else ""}
<p>Q<sub>final</sub> {text(row["q_final"])} · pass rate {text(row["pass_rate"])}
 · mean clipped score {text(row["mean_clipped_score"])} · Brier
 {text(row["brier"])} · ECE* {text(row["ece"])} over
 {text(row["n_runs"])} scored runs: {text(row["n_pass"])} Pass,
 {text(row["n_conditional"])} Conditional, {text(row["n_fail"])} Fail.</p>
<h4>By fault family</h4>
{family_table(families)}
<p class="note">* Indicative: a family holds few cases in {text(version)} (at most
 {largest_family} runs here), too few for a stable pass rate or mean (aggregated_metrics.md
 §5).</p>
</div>
<figure>
{svg}
<figcaption>Reliability diagram: runs binned by reported confidence (10 bins of 0.1);
 bar height = soft accuracy of the bin, dot = its mean confidence, n = runs in the bin,
 dashed line = perfect calibration. ECE* {text(row["ece"])} is indicative:
 {text(row["n_runs"])} runs over 10 bins, at most {fullest_bin} in a bin.</figcaption>
{bins_table(bins)}
</figure>
</div>
</section>"""


def snapshot_links(dates) -> str:
    if not dates:
        return '<p class="meta">No earlier snapshot yet.</p>'
    links = " ".join(
        f'<a {SNAPSHOT_HREF_PREFIX}{text(date)}/leaderboard.html">{text(date)}</a>'
        for date in dates
    )
    return f'<nav class="snapshots meta">Earlier snapshots: {links}</nav>'


def header_meta(version, alpha, last_update, rows) -> str:
    """The page header's line: the benchmark version (once for every number), α, the
    newest scoring and the counts."""
    n_eligible = sum(row["leaderboard_status"] == ELIGIBLE for row in rows)
    alpha_text = text(repr(float(alpha)))
    return (
        f'<p class="meta">Benchmark version <strong>{text(version)}</strong> (every number '
        f"on this page is of {text(version)}) · α = {alpha_text} (Q<sub>final</sub> = α·P + "
        "(1 − α)·s̄/12) · Last update "
        f'<time datetime="{text(last_update)}">{text(last_update)}</time> (newest scoring)'
        f" · {len(rows)} subject versions, {n_eligible} ranked</p>"
    )


RANKING_NOTE = (
    '<p class="note">Ranked by Q<sub>final</sub>; equal published values share a rank. A '
    "single critical fail (a recommendation that would destroy membranes) disqualifies a "
    "subject version: it is listed below the ranked rows, unranked, with all its metrics, "
    "and its critical fails under it. Pass, Cond. and Fail count its scored runs by "
    "classification. Click a column header to sort.</p>"
)


def uncertainty_note(version) -> str:
    return f"""<p class="note">How sure is the ranking? Under each score, its 95 % interval: Wilson
 for the pass rate, a paired bootstrap over cases for the others; under each rank, the
 95 % interval of the rank in the same bootstrap; under the critical-fail count, the
 exact upper bound of the critical-fail rate it is compatible with. Consecutive ranked
 rows whose rank intervals overlap form one <em>tie group</em>: the data do not order
 them. Methods: uncertainty_methods.md, an addition to the committee's metrics;
 all intervals are in uncertainty.csv.</p>
<p class="note">* ECE is indicative in {text(version)}: with about 30 cases spread
 over 10 confidence bins a bin holds only a few observations, so ECE moves a lot with
 one run (aggregated_metrics.md §5). Brier and Q<sub>final</sub> are indicative too at
 this size; P and the mean clipped score are reasonable.</p>"""


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
) -> str:
    """The whole page (see the module docstring)."""
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
        )
        for index, row in enumerate(rows)
    )
    table = ranking_table(
        rows, tie_groups, uncertainty, tracks, providers, fails_of, subject_href, run_href
    )
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Leaderboard · RO desalination fault-diagnosis benchmark {text(version)}</title>
<style>{STYLE}</style>
</head>
<body>
<header>
<h1>RO desalination fault-diagnosis benchmark — leaderboard</h1>
{header_meta(version, alpha, last_update, rows)}
{snapshot_links(snapshots)}
</header>
<main>
<h2>Ranking</h2>
{RANKING_NOTE}
{table}
{uncertainty_note(version)}
{disqualified_section(rows, providers, fails_of, run_href, subject_href)}
<h2>Subjects</h2>
{sections}
</main>
<footer class="meta"><p>Computed by the benchmark's metrics workflow from the
 scored runs; the same numbers are in leaderboard.csv, metrics_per_subject.csv,
 metrics_per_family.csv and critical_fails.csv beside this page.</p></footer>
<script>{SCRIPT}</script>
</body>
</html>
"""
