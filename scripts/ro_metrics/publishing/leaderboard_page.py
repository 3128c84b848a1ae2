"""The leaderboard as one self-contained HTML page (no network: no CDN, no web font).

Every text that comes from the corpus or the registry goes through `text()`
(HTML escaping, quotes included); numbers are the published CSV texts. The page
holds no clock: "Last update" is the newest scoring timestamp, so the same inputs
give the same bytes.
"""

from html import escape

from ro_metrics.contracts.vocabulary import ELIGIBLE, FAMILY_NAMES

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


def score(value: str, version: str) -> str:
    """A published metric with the benchmark version it belongs to: 0.705 [v1.0]."""
    return f'{text(value)} <span class="version">[{text(version)}]</span>'


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
        f'<span class="muted">{n} critical fail{"s" if n != 1 else ""}</span>'
    )


def interval_text(entry, *, percent: bool = False) -> str:
    """ "95 % CI low–high" of a row of uncertainty.csv (empty if it has no interval)."""
    if not entry or not entry["ci_low"]:
        return ""
    return f'<span class="ci">95 % CI {text(entry["ci_low"])}–{text(entry["ci_high"])}</span>'


def ranking_table(rows, tie_groups, uncertainty, tracks, version: str) -> str:
    head = "".join(
        [
            header("Rank", "number", numeric=True, title="rank; 95 % bootstrap interval"),
            header("Subject · version", "text"),
            header("Track", "text"),
            header("Status", "text"),
            header("Q<sub>final</sub>", "number", numeric=True, title="α·P + (1−α)·s̄/12"),
            header("Pass rate", "number", numeric=True),
            header("Mean clipped score", "number", numeric=True, title="0-12"),
            header("Brier", "number", numeric=True, title="lower is better"),
            header("ECE*", "number", numeric=True, title="indicative; lower is better"),
            header("Runs", "number", numeric=True),
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
            f'<span class="ci">95 % {text(row["rank_low"])}–{text(row["rank_high"])}</span>'
            if row["rank_low"]
            else ""
        )
        critical_bound = of["critical_fail_rate"]
        group_label = f'<span class="group-label">tie group {group}</span>' if group else ""
        cells = [
            cell(
                (text(row["rank"]) + rank_interval + group_label) if eligible else "—",
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
            cell(status_badge(row), row["leaderboard_status"]),
            *(
                cell(
                    score(row[name], version) + interval_text(of.get(name)), row[name], numeric=True
                )
                for name in ("q_final", "pass_rate", "mean_clipped_score", "brier", "ece")
            ),
            cell(text(row["n_runs"]), row["n_runs"], numeric=True),
            cell(
                text(row["n_critical_fails"])
                + (
                    f'<span class="ci">rate ≤ {text(critical_bound["ci_high"])} (95 %)</span>'
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
    return (
        '<div class="table-wrap"><table class="sortable" id="leaderboard">'
        f"<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table></div>"
    )


def family_table(families, version: str) -> str:
    body = "".join(
        "<tr>"
        f'<td>{text(row["family"])} <span class="muted">'
        f"{text(FAMILY_NAMES.get(row['family'], ''))}</span></td>"
        f'<td class="num">{text(row["n_runs"])}</td>'
        f'<td class="num">{text(row["n_pass"])}</td>'
        f'<td class="num">{text(row["n_conditional"])}</td>'
        f'<td class="num">{text(row["n_fail"])}</td>'
        f'<td class="num">{score(row["pass_rate_family"], version)}</td>'
        f'<td class="num">{score(row["mean_clipped_score_family"], version)}</td>'
        "</tr>"
        for row in families
    )
    return (
        '<table class="families"><thead><tr><th>Family</th><th class="num">Runs</th>'
        '<th class="num">Pass</th><th class="num">Conditional</th><th class="num">Fail</th>'
        '<th class="num">Pass rate*</th><th class="num">Mean clipped score*</th></tr></thead>'
        f"<tbody>{body}</tbody></table>"
    )


def bins_table(bins) -> str:
    body = "".join(
        f'<tr><td>{(m - 1) / 10:.1f}–{m / 10:.1f}</td><td class="num">{n}</td>'
        f'<td class="num">{float(conf):.3f}</td><td class="num">{float(acc):.3f}</td></tr>'
        for m, n, conf, acc in bins
    )
    return (
        '<table class="bins"><thead><tr><th>Confidence bin</th><th class="num">Runs</th>'
        '<th class="num">Mean confidence</th><th class="num">Soft accuracy</th></tr></thead>'
        f"<tbody>{body}</tbody></table>"
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
<p>Q<sub>final</sub> {score(row["q_final"], version)} · pass rate {score(row["pass_rate"], version)}
 · mean clipped score {score(row["mean_clipped_score"], version)} · Brier
 {score(row["brier"], version)} · ECE* {score(row["ece"], version)} over
 {text(row["n_runs"])} scored runs.</p>
<h4>By fault family</h4>
{family_table(families, version)}
<p class="note">* Indicative: a family holds few cases in {text(version)} (at most
 {largest_family} runs here), too few for a stable pass rate or mean (aggregated_metrics.md
 §5).</p>
</div>
<figure>
{svg}
<figcaption>Reliability diagram: runs binned by reported confidence (10 bins of 0.1);
 bar height = soft accuracy of the bin, dot = its mean confidence, n = runs in the bin,
 dashed line = perfect calibration. ECE* {score(row["ece"], version)} is indicative:
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
) -> str:
    """The whole page (see the module docstring)."""
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
        )
        for index, row in enumerate(rows)
    )
    alpha_text = text(repr(float(alpha)))
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
<p class="meta">Benchmark version <strong>{text(version)}</strong> · α = {alpha_text}
 (Q<sub>final</sub> = α·P + (1 − α)·s̄/12) · Last update
 <time datetime="{text(last_update)}">{text(last_update)}</time> (newest scoring)
 · {len(rows)} subject versions, {n_eligible} ranked</p>
{snapshot_links(snapshots)}
</header>
<main>
<h2>Ranking</h2>
<p class="note">Ranked by Q<sub>final</sub>; equal published values share a rank. A
 single critical fail (a recommendation that would destroy membranes) disqualifies a
 subject version: it is listed below the ranked rows, unranked, with all its metrics
 and the count of critical fails. Click a column header to sort.</p>
{ranking_table(rows, tie_groups, uncertainty, tracks, version)}
<p class="note">How sure is the ranking? Under each score, its 95 % interval: Wilson
 for the pass rate, a paired bootstrap over cases for the others; under each rank, the
 95 % interval of the rank in the same bootstrap; under the critical-fail count, the
 exact upper bound of the critical-fail rate it is compatible with. Consecutive ranked
 rows whose rank intervals overlap form one <em>tie group</em>: the data do not order
 them. Methods: uncertainty_methods.md, an addition to the committee's metrics;
 all intervals are in uncertainty.csv.</p>
<p class="note">* ECE is indicative in {text(version)}: with about 30 cases spread
 over 10 confidence bins a bin holds only a few observations, so ECE moves a lot with
 one run (aggregated_metrics.md §5). Brier and Q<sub>final</sub> are indicative too at
 this size; P and the mean clipped score are reasonable.</p>
{CHANGES_PLACEHOLDER}
<h2>Subjects</h2>
{sections}
</main>
<footer class="meta"><p>Computed by the benchmark's metrics workflow from the
 scored runs; the same numbers are in leaderboard.csv, metrics_per_subject.csv and
 metrics_per_family.csv beside this page.</p></footer>
<script>{SCRIPT}</script>
</body>
</html>
"""


def with_changes_section(page: str, section: str) -> str:
    """The page with the changes section in its place (exactly one placeholder)."""
    if page.count(CHANGES_PLACEHOLDER) != 1:
        raise ValueError("the leaderboard page has no single place for the changes section")
    return page.replace(CHANGES_PLACEHOLDER, section)
