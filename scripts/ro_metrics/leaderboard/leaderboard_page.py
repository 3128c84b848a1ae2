"""The leaderboard as one self-contained HTML page (no network: no CDN, no web font),
in each language of rendering/translations.py (leaderboard.html, leaderboard.es.html):
the page's context (its data), rendered by rendering/templates/leaderboard.html.

The templates escape every text that comes from the corpus or the registry; the
diagrams' SVG is passed in as trusted markup. Numbers are the published CSV texts,
written with the language's decimal mark, and the benchmark version they belong to is
stated once, in the header; every label, note and caption comes from the labels' data
file (rendering/labels.json). The page holds no clock: "Last update" is the
newest scoring timestamp, so the same inputs give the same bytes. The ranking table,
the critical-fail evidence, the "Disqualified subject versions" section and the
operational table are components (templates/components.html) shared with the site's
pages (site/site_pages.py). Between two adjacent ranked rows, a line says whether
the neighbour test separates them (rankings.json's records.NeighbourTest, written by
the uncertainty step: formulas/rank_evidence.py); the site's index shows none. Under
double review the ranking's note is followed by the agreement line (linked to
agreement.csv and divergent_runs.csv), a version's runs pending their review are
counted under its runs, and a pending critical-fail disagreement flags its status
(leaderboard/review_view.py).
"""

from decimal import Decimal
from fractions import Fraction
from typing import NamedTuple

from markupsafe import Markup

from ro_metrics.contracts.records import NeighbourTest
from ro_metrics.contracts.tables import decimal_text, format_metric, rounded_exact
from ro_metrics.formulas.operational import cost_per_case
from ro_metrics.leaderboard.review_view import ReviewSummary
from ro_metrics.rendering.page_templates import Labels, render
from ro_metrics.rendering.translations import ENGLISH, Language, language

# Links to snapshots are relative to the results folder; a snapshot's own copy of
# the page lives two levels down and rewrites this prefix (see history/snapshot.py;
# templates/components.html writes it, in snapshot_links).
SNAPSHOT_HREF_PREFIX = 'href="historico/'
# Where publish puts the changes step's section (that step runs beside this one).
CHANGES_PLACEHOLDER = '<section id="changes"></section>'


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


COST_PLACES = 4  # the cost per case is shown to 1/100 of a cent


def cost_text(row: dict, t: Language) -> str:
    """Cost per case (formulas.operational.cost_per_case) in USD to 4 decimals (rounded
    half-even), or "—"."""
    cost = cost_per_case(row)
    if cost is None:
        return t("unknown")
    if round(cost, COST_PLACES) == 0 and cost > 0:
        step = Fraction(1, 10**COST_PLACES)
        return t("below_cost_resolution", value=t.number(decimal_text(step, COST_PLACES)))
    return t.number(decimal_text(cost, COST_PLACES))


OPERATIONAL_NUMBERS = [
    "mean_input_tokens",
    "mean_output_tokens",
    "output_to_input_ratio",
    "median_latency_s",
    "p95_latency_s",
]


OPERATIONAL_NUMBERS = [
    "mean_input_tokens",
    "mean_output_tokens",
    "output_to_input_ratio",
    "median_latency_s",
    "p95_latency_s",
]


class OperationalLine(NamedTuple):
    """A row of the operational table: the ranking's row (and its index in the
    ranking), its columns' texts, None for a version without telemetry."""

    index: int
    row: dict
    values: list[str] | None


class OperationalTable(NamedTuple):
    lines: list[OperationalLine]
    # The versions with telemetry but no row in the ranking, "" when there is none.
    not_ranked: str


def operational_values(row: dict, t: Language) -> list[str]:
    """The operational columns of one subject version, as shown."""
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
    return [t.number(value) for value in values]


def operational_table(rows, operational, t: Language) -> OperationalTable:
    """The operational table beside the ranking: one row per ranked subject version, in
    the ranking's order, joined by (subject_id, subject_version)."""
    by_version = {(row["subject_id"], row["subject_version"]): row for row in operational}
    lines = []
    for index, row in enumerate(rows):
        found = by_version.get((row["subject_id"], row["subject_version"]))
        values = None if found is None else operational_values(found, t)
        lines.append(OperationalLine(index, row, values))
    ranked = {(row["subject_id"], row["subject_version"]) for row in rows}
    not_ranked = ", ".join(
        f"{row['subject_id']} · {row['subject_version']}"
        for row in operational
        if (row["subject_id"], row["subject_version"]) not in ranked
    )
    return OperationalTable(lines, not_ranked)


class NeighbourLine(NamedTuple):
    """The neighbour test of a ranked row and the ranked row below it, as shown: the
    lower version's name, the verdict and the figures' texts (language's decimal mark)."""

    lower: str  # "subject_id · subject_version"
    separable: bool
    delta: str  # ΔQ_final, upper − lower, 4 decimals; "" when they share no case
    low: str  # its 95 % bootstrap interval, "" when undefined
    high: str
    p_holm: str  # Holm-adjusted p, 4 decimals, or "< 0.0001"
    n_common: int


P_RESOLUTION = Fraction(1, 10_000)  # p-values are shown to 4 decimals


def exact_decimal(text: str) -> str:
    """An exact "num/den" fraction of a record, rounded half-even to 4 decimals and
    written as the published numbers are (shortest text: 0.0812, 0.25)."""
    return repr(rounded_exact(Fraction(text)))


def p_value_text(text: str, t: Language) -> str:
    """A p-value to 4 decimals, or "< 0.0001" when it rounds to 0 (it is never 0 itself:
    p ≥ 1/(R + 1))."""
    if round(Fraction(text), 4) == 0:
        return t("p_below", value=t.number(exact_decimal(str(P_RESOLUTION))))
    return t.number(exact_decimal(text))


def neighbour_lines(rows, neighbours: list[NeighbourTest] | None, t: Language) -> dict:
    """Per index of a ranked row of `rows`, the NeighbourLine of its test with the
    ranked row below it (joined by both versions); {} without tests."""
    index_of = {(row["subject_id"], row["subject_version"]): i for i, row in enumerate(rows)}
    lines = {}
    for test in neighbours or []:
        upper = (test.upper_subject_id, test.upper_subject_version)
        lower = (test.lower_subject_id, test.lower_subject_version)
        if upper not in index_of or lower not in index_of:
            continue
        undefined = test.ci_low is None
        lines[index_of[upper]] = NeighbourLine(
            lower=" · ".join(lower),
            separable=test.separable,
            delta=t.number(exact_decimal(test.delta_q_final)) if test.delta_q_final else "",
            low="" if undefined else t.number(format_metric(test.ci_low)),
            high="" if undefined else t.number(format_metric(test.ci_high)),
            p_holm=p_value_text(test.p_holm, t),
            n_common=test.n_common_cases,
        )
    return lines


class Subject(NamedTuple):
    """A subject version's section: its row of the ranking, registry entry, families
    (rows of metrics_per_family.csv) and reliability diagram (SVG and bins)."""

    index: int
    row: dict
    kind: str | None
    provider: str | None
    track: str | None
    description: str | None
    families: list[dict]
    largest_family: int
    svg: Markup
    bins: list
    fullest_bin: int


def subject(index, row, track, registry_entry, families, diagram) -> Subject:
    svg, bins = diagram
    registry_entry = registry_entry or {}
    return Subject(
        index=index,
        row=row,
        kind=registry_entry.get("kind"),
        provider=registry_entry.get("provider"),
        track=track,
        description=registry_entry.get("description"),
        families=families,
        largest_family=max(int(family["n_runs"]) for family in families),
        # Trusted: the package's own drawing (rendering/reliability_diagram.py).
        svg=Markup(svg),  # noqa: S704
        bins=bins,
        fullest_bin=max(n for _, n, _, _ in bins),
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
    critical_fails,
    operational=None,
    neighbours: list[NeighbourTest] | None = None,
    review: ReviewSummary | None = None,
    t: Language | None = None,
) -> str:
    """The whole page in language t, English by default (see the module docstring);
    `operational` holds the rows of operational_per_subject.csv, or None when the corpus
    has no telemetry (then the page has no operational section); `neighbours` the
    neighbour tests of rankings.json (None: no "separable" lines nor their note);
    `review`, under double review only, the agreement line and each version's pending
    counts (review_view.review_summary)."""
    t = t or language(ENGLISH)
    families_of = {}
    for family in families:
        families_of.setdefault((family["subject_id"], family["subject_version"]), []).append(family)
    subjects = [
        subject(
            index,
            row,
            tracks[(row["subject_id"], row["subject_version"])],
            registry.get(row["subject_id"]),
            families_of[(row["subject_id"], row["subject_version"])],
            diagrams[(row["subject_id"], row["subject_version"])],
        )
        for index, row in enumerate(rows)
    ]
    return render(
        "leaderboard.html",
        t=Labels(t),
        version=benchmark_version,
        alpha=alpha,
        last_update=last_update,
        rows=rows,
        tie_groups=tie_groups,
        uncertainty=uncertainty,
        tracks=tracks,
        providers={
            subject_id: entry.get("provider") or "" for subject_id, entry in registry.items()
        },
        fails_of=fails_by_version(critical_fails),
        # The page's own sections are its anchors; its runs have no page of their own.
        subject_href=lambda index, _row: f"#subject-{index}",
        run_href=lambda _fail: None,
        snapshots=snapshots,
        operational=None if operational is None else operational_table(rows, operational, t),
        neighbours=None if neighbours is None else neighbour_lines(rows, neighbours, t),
        subjects=subjects,
        review=review,
        changes_placeholder=Markup(CHANGES_PLACEHOLDER),  # noqa: S704 - a constant of this module
    )


def with_changes_section(page: str, section: str) -> str:
    """The page with the changes section in its place (exactly one placeholder)."""
    if page.count(CHANGES_PLACEHOLDER) != 1:
        raise ValueError("the leaderboard page has no single place for the changes section")
    return page.replace(CHANGES_PLACEHOLDER, section)
