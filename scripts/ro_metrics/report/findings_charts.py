"""The three charts of the findings (spec findings.md §§ 2, 3, 6), drawn as plain SVG
(rendering/svg.py) from results/findings.json (docs/findings-json.md), in a language.

- family_heatmap: a row per subject version (leaderboard order, the disqualified after
  the ranked, marked † and below a dashed line), a column per family (hardest first:
  `families.order`); each cell coloured by its pass rate on a five-step viridis scale
  (colour-blind safe, dark = low) with the pass rate and its n printed in it; a legend.
- quality_calibration: Q_final (y) against Brier (x), one labelled point per version,
  the disqualified drawn as × instead of a dot; a legend.
- cost_quality: Q_final (y) against cost per case (x, log scale, one tick per decade),
  the Pareto frontier of `cost.pareto.all` as a step line (and the eligible versions'
  one, dashed, when it differs); without telemetry, or with no priced version, a chart
  that says why in words and holds no number.

Every text is a label of rendering/labels.json (keys findings_chart_*), numbers
with the language's decimal mark; a version name is data, escaped by svg.text. Each
chart has role="img", a <title> and a <desc>, no element id (several can be inlined
in one page) and a viewBox (it scales to a phone's width). Coordinates are exact
fractions of the data but for the log scale's, floats printed by svg.number at three
decimals, so the same findings give the same bytes.
"""

import math
from fractions import Fraction
from functools import cache
from typing import NamedTuple

from ro_metrics.contracts.tables import decimal_text, exact_fraction
from ro_metrics.rendering import svg
from ro_metrics.rendering.translations import Language, language

FONT = 11
TITLE_SIZE = 13
SMALL = 9
CHAR_WIDTH = Fraction(62, 10)  # an 11 px sans-serif character, on average, for layout
LABEL_CHARS = 28  # a version name longer than this is cut, with "…" (whole in its <title>)
# Viridis at five steps (dark = low pass rate), and the text colour readable on each.
HEATMAP_COLOURS = ("#440154", "#3b528b", "#21918c", "#5ec962", "#fde725")
HEATMAP_INK = ("#ffffff", "#ffffff", "#ffffff", "#000000", "#000000")
EMPTY_FILL = "#f2f2f2"
ELIGIBLE_COLOUR, DISQUALIFIED_COLOUR, FRONTIER_COLOUR = "#0b5394", "#b42318", "#1e6b34"
AXIS_COLOUR, GRID_COLOUR = "#000000", "#d0d7de"

# The heatmap's cells and margins.
CELL_WIDTH, CELL_HEIGHT = 60, 32
HEATMAP_TOP = 44  # the title, then the families' codes above the columns
# The scatter plots' frame: the plot, and room for the points' labels at its right.
PLOT_LEFT, PLOT_TOP, PLOT_WIDTH, PLOT_HEIGHT = 56, 36, 330, 270
SCATTER_WIDTH = 520
LABEL_LINE = 12  # the height a point's label takes
LOG_PAD = 0.25  # decades of the log axis beyond the outer ticks


@cache
def _labels(code: str) -> Language:
    return language(code)


def short_name(name: str) -> str:
    return name if len(name) <= LABEL_CHARS else name[: LABEL_CHARS - 1] + "…"


def text_width(value: str, size=FONT) -> Fraction:
    return len(value) * CHAR_WIDTH * Fraction(size, FONT)


def leaderboard_order(findings: dict) -> list[str]:
    """The versions in the leaderboard's order: the eligible (ranked), then the disqualified."""
    safety = findings["safety"]
    return [*safety["eligible"]["versions"], *safety["disqualified"]["versions"]]


def q_final_of(findings: dict) -> dict[str, Fraction | None]:
    return {
        entry["subject_version"]: exact_fraction(entry["q_final"])
        for entry in findings["safety"]["ungated_ranking"]
    }


def _document(width, height, title: str, description: str, children: list[str]) -> str:
    """A standalone, accessible SVG file: role="img", its <title> and <desc> first."""
    root = svg.element(
        "svg",
        {
            "xmlns": "http://www.w3.org/2000/svg",
            "width": width,
            "height": height,
            "viewBox": f"0 0 {svg.number(width)} {svg.number(height)}",
            "role": "img",
        },
        "\n"
        + svg.element("title", {}, svg.escape(title))
        + "\n"
        + svg.element("desc", {}, svg.escape(description))
        + "\n"
        + svg.group(children, font_family="sans-serif", font_size=FONT)
        + "\n",
    )
    return f'<?xml version="1.0" encoding="utf-8"?>\n{root}\n'


def _named_text(x, y, name: str, **presentation) -> str:
    """A version's name as a label (cut when long), the whole name as its tooltip."""
    return svg.element(
        "text",
        {"x": x, "y": y, **presentation},
        svg.element("title", {}, svg.escape(name)) + svg.escape(short_name(name)),
    )


def _title(width, value: str) -> str:
    return svg.text(
        Fraction(width, 2),
        20,
        value,
        font_size=TITLE_SIZE,
        font_weight="bold",
        text_anchor="middle",
    )


# --- the heatmap -----------------------------------------------------------------------


def colour_step(pass_rate: Fraction) -> int:
    """The scale's step of a pass rate: [0, 0.2) → 0, …, [0.8, 1] → 4."""
    return min(4, math.floor(pass_rate * 5))


def family_heatmap_svg(findings: dict, t: Language) -> str:
    mark = t("decimal_mark")
    families = list(findings["families"]["order"])
    versions = leaderboard_order(findings)
    disqualified = set(findings["safety"]["disqualified"]["versions"])
    cells = {(row["subject_version"], row["family"]): row for row in findings["heatmap"]}
    names = [f"{short_name(sv)} †" if sv in disqualified else short_name(sv) for sv in versions]
    left = 12 + max(
        [text_width(name) for name in names] + [text_width(t("findings_chart_version"))]
    )
    left = math.ceil(left)
    legend_width = 12 + 5 * 52 + 64 + text_width(t("findings_chart_no_runs"), SMALL)
    # A bold title's characters are wider than the layout's average: a tenth more.
    title_width = text_width(t("findings_chart_heatmap_title"), TITLE_SIZE) * Fraction(11, 10) + 24
    width = math.ceil(max(left + CELL_WIDTH * len(families) + 12, legend_width + 24, title_width))
    grid_bottom = HEATMAP_TOP + CELL_HEIGHT * len(versions)
    height = grid_bottom + 78

    marks = [svg.rect(0, 0, width, height, fill="#ffffff")]
    marks.append(_title(width, t("findings_chart_heatmap_title")))
    marks.append(
        svg.text(left - 8, HEATMAP_TOP - 8, t("findings_chart_version"), text_anchor="end")
    )
    for column, family in enumerate(families):
        marks.append(
            svg.text(
                left + CELL_WIDTH * column + Fraction(CELL_WIDTH, 2),
                HEATMAP_TOP - 8,
                family,
                text_anchor="middle",
                font_weight="bold",
            )
        )
    for row_index, sv in enumerate(versions):
        top = HEATMAP_TOP + CELL_HEIGHT * row_index
        name = f"{short_name(sv)} †" if sv in disqualified else short_name(sv)
        marks.append(
            svg.element(
                "text",
                {
                    "x": left - 8,
                    "y": top + Fraction(CELL_HEIGHT, 2) + 4,
                    "text-anchor": "end",
                    "fill": DISQUALIFIED_COLOUR if sv in disqualified else "#000000",
                },
                svg.element("title", {}, svg.escape(sv)) + svg.escape(name),
            )
        )
        for column, family in enumerate(families):
            marks.append(
                _heatmap_cell(cells.get((sv, family)), left + CELL_WIDTH * column, top, mark)
            )
    first_disqualified = next((i for i, sv in enumerate(versions) if sv in disqualified), None)
    if first_disqualified:
        y = HEATMAP_TOP + CELL_HEIGHT * first_disqualified
        marks.append(
            svg.line(
                4,
                y,
                width - 4,
                y,
                stroke=DISQUALIFIED_COLOUR,
                stroke_width=1.5,
                stroke_dasharray="5 3",
            )
        )
    marks += _heatmap_legend(12, grid_bottom + 16, t)
    description = t(
        "findings_chart_heatmap_desc", n_versions=len(versions), n_families=len(families)
    )
    return _document(width, height, t("findings_chart_heatmap_title"), description, marks)


def _heatmap_cell(row: dict | None, x, y, mark: str) -> str:
    n_runs = int(row["n_runs"]) if row else 0
    if not n_runs:
        return svg.group(
            [
                svg.rect(x + 1, y + 1, CELL_WIDTH - 2, CELL_HEIGHT - 2, fill=EMPTY_FILL),
                svg.text(x + Fraction(CELL_WIDTH, 2), y + 20, "—", fill="#57606a"),
            ],
            text_anchor="middle",
        )
    rate = Fraction(int(row["n_pass"]), n_runs)
    step = colour_step(rate)
    return svg.group(
        [
            svg.rect(x + 1, y + 1, CELL_WIDTH - 2, CELL_HEIGHT - 2, fill=HEATMAP_COLOURS[step]),
            svg.text(
                x + Fraction(CELL_WIDTH, 2), y + 15, decimal_text(rate, 2, mark), font_weight="bold"
            ),
            svg.text(x + Fraction(CELL_WIDTH, 2), y + 27, f"n={n_runs}", font_size=SMALL),
        ],
        text_anchor="middle",
        fill=HEATMAP_INK[step],
    )


def _heatmap_legend(x, y, t: Language) -> list[str]:
    mark = t("decimal_mark")
    marks = [svg.text(x, y, t("findings_chart_heatmap_legend"))]
    for step, colour in enumerate(HEATMAP_COLOURS):
        low, high = Fraction(step, 5), Fraction(step + 1, 5)
        marks.append(svg.rect(x + 52 * step, y + 6, 50, 14, fill=colour))
        marks.append(
            svg.text(
                x + 52 * step + 25,
                y + 32,
                f"{decimal_text(low, 1, mark)}–{decimal_text(high, 1, mark)}",
                font_size=SMALL,
                text_anchor="middle",
            )
        )
    marks.append(svg.rect(x + 52 * 5 + 8, y + 6, 30, 14, fill=EMPTY_FILL))
    marks.append(svg.text(x + 52 * 5 + 42, y + 17, t("findings_chart_no_runs"), font_size=SMALL))
    marks.append(
        svg.text(x, y + 50, t("findings_chart_heatmap_disqualified"), fill=DISQUALIFIED_COLOUR)
    )
    return marks


# --- the scatter plots -----------------------------------------------------------------


def nice_range(values: list[Fraction]) -> tuple[Fraction, Fraction, Fraction, int]:
    """An axis over the values: (low, high, step, decimals), low and high multiples of a
    step of 1, 2 or 5 × 10^k, at most six steps apart; never below 0 for values ≥ 0."""
    low, high = min(values), max(values)
    if low == high:
        low, high = low - Fraction(1, 20), high + Fraction(1, 20)
        if min(values) >= 0:
            low = max(low, Fraction(0))
    for power in range(-6, 7):
        for multiple in (1, 2, 5):
            step = multiple * Fraction(10) ** power
            first, last = math.floor(low / step), math.ceil(high / step)
            if last - first <= 6:
                return first * step, last * step, step, max(0, -power)
    raise ValueError(f"no axis for {low}..{high}")


def decade_of(value: Fraction) -> int:
    """k with 10^k ≤ value < 10^(k+1), exactly."""
    k = math.floor(math.log10(value))
    while Fraction(10) ** k > value:
        k -= 1
    while Fraction(10) ** (k + 1) <= value:
        k += 1
    return k


class LinearAxis:
    """An axis of nice_range over the values widened by a twentieth of their span on
    each side (never below 0 for values ≥ 0), so no point sits on the frame."""

    def __init__(self, values: list[Fraction], start, length, reverse: bool):
        margin = (max(values) - min(values)) / 20
        low = min(values) - margin
        if min(values) >= 0:
            low = max(low, Fraction(0))
        self.low, self.high, self.step, self.decimals = nice_range([low, max(values) + margin])
        self.start, self.length, self.reverse = start, length, reverse

    def position(self, value) -> Fraction:
        share = (Fraction(value) - self.low) / (self.high - self.low)
        return self.start + self.length * (1 - share if self.reverse else share)

    def ticks(self, mark: str) -> list[tuple[Fraction, str]]:
        count = round((self.high - self.low) / self.step)
        values = [self.low + self.step * i for i in range(count + 1)]
        return [(self.position(v), decimal_text(v, self.decimals, mark)) for v in values]


class LogAxis:
    """x = start + length · (log10 v − k_low + 1/4) / (k_high − k_low + 1/2): the decades
    k_low to k_high around the values, a quarter decade more on each side so no point
    sits on the frame; one tick per decade."""

    def __init__(self, values: list[Fraction], start, length):
        self.k_low = decade_of(min(values))
        self.k_high = max(decade_of(max(values)) + 1, self.k_low + 1)
        if Fraction(10) ** (self.k_high - 1) == max(values) and self.k_high - 1 > self.k_low:
            self.k_high -= 1
        self.start, self.length = start, length

    def position(self, value) -> float:
        share = (math.log10(Fraction(value)) - self.k_low + LOG_PAD) / self.span
        return self.start + self.length * share

    @property
    def span(self) -> float:
        return self.k_high - self.k_low + 2 * LOG_PAD

    def ticks(self, mark: str) -> list[tuple[Fraction, str]]:
        return [
            (
                self.start + self.length * (k - self.k_low + LOG_PAD) / self.span,
                decimal_text(Fraction(10) ** k, max(0, -k), mark),
            )
            for k in range(self.k_low, self.k_high + 1)
        ]


class Point:
    def __init__(self, name: str, x, y, disqualified: bool):
        self.name, self.x, self.y, self.disqualified = name, x, y, disqualified


def _glyph(point: Point) -> str:
    if point.disqualified:
        return svg.element(
            "path",
            {
                "d": f"M{svg.number(point.x - 4)} {svg.number(point.y - 4)}l8 8"
                f"M{svg.number(point.x - 4)} {svg.number(point.y + 4)}l8 -8",
                "stroke": DISQUALIFIED_COLOUR,
                "stroke-width": 2,
                "fill": "none",
            },
        )
    return svg.circle(point.x, point.y, 4, fill=ELIGIBLE_COLOUR)


class _Boxes:
    """Placed boxes (x, y, width, height), indexed by horizontal bands of the chart, so
    a candidate is checked against the boxes near its height only: with every box
    checked, placing ~100 labels (size L) was most of the findings step's time."""

    BAND = 16  # px: taller than any box, so a box touches at most two bands

    def __init__(self, boxes=()):
        self.bands: dict[int, list] = {}
        for box in boxes:
            self.add(box)

    def _bands(self, y, height) -> range:
        return range(math.floor(y / self.BAND), math.floor((y + height) / self.BAND) + 1)

    def add(self, box) -> None:
        for band in self._bands(box[1], box[3]):
            self.bands.setdefault(band, []).append(box)

    def overlaps(self, box) -> bool:
        x, y, w, h = box
        return any(
            x < bx + bw and bx < x + w and y < by + bh and by < y + h
            for band in self._bands(y, h)
            for bx, by, bw, bh in self.bands.get(band, ())
        )


def place_labels(points: list[Point], width) -> list[tuple[Point, Fraction, Fraction, str]]:
    """(point, x, baseline, anchor) of each point's label: right of it, or to its left,
    or moved up or down a line at a time, until it overlaps no label placed before and
    no point, and stays in the plot or the room at its right (LabelArea): never on an
    axis' tick labels, the title or the legend; where nothing near the point is free,
    in the first free line of the room right of the plot, nearest the point's height
    (its leader line drawn); where no line is free either, the point has no label (its
    name is its tooltip: _point_labels), so that no two labels ever overlap. Placed in
    the order of the points' y then x, so the result depends on the data alone."""
    area = LabelArea(PLOT_LEFT + 2, PLOT_TOP, width - 2, PLOT_TOP + PLOT_HEIGHT)
    boxes = _Boxes((p.x - 5, p.y - 5, 10, 10) for p in points)
    lines = range(-(PLOT_HEIGHT // LABEL_LINE), PLOT_HEIGHT // LABEL_LINE + 1)
    placed = []
    for point in sorted(points, key=lambda p: (p.y, p.x, p.name)):
        label_width = text_width(short_name(point.name))
        candidates = []
        for shift in sorted(lines, key=lambda shift: (abs(shift), shift < 0)):
            if abs(shift) > 3:
                break
            baseline = point.y + 4 + LABEL_LINE * shift
            candidates.append((point.x + 7, baseline, "start", point.x + 7))
            candidates.append((point.x - 7, baseline, "end", point.x - 7 - label_width))
        # The room right of the plot, or as far right as the label fits.
        margin = min(PLOT_LEFT + PLOT_WIDTH + 8, width - 2 - label_width)
        for shift in sorted(lines, key=lambda shift: (abs(shift), shift < 0)):
            candidates.append((margin, point.y + 4 + LABEL_LINE * shift, "start", margin))
        for x, baseline, anchor, box_left in candidates:
            box = (box_left, baseline - 9, label_width, LABEL_LINE - 1)
            if area.holds(box) and not boxes.overlaps(box):
                boxes.add(box)
                placed.append((point, x, baseline, anchor))
                break
    return placed


class LabelArea(NamedTuple):
    """Where a point's label may go: the plot and the room at its right, between the
    title and the x axis' tick labels, right of the y axis' tick labels."""

    left: Fraction
    top: Fraction
    right: Fraction
    bottom: Fraction

    def holds(self, box) -> bool:
        x, y, w, h = box
        return self.left <= x and x + w <= self.right and self.top <= y and y + h <= self.bottom


def _point_labels(points: list[Point], width) -> list[str]:
    """Each point's label (place_labels); a point left without one (no free place) has
    its name as the tooltip of a transparent disc over it."""
    marks, labelled = [], set()
    for point, x, baseline, anchor in place_labels(points, width):
        labelled.add(id(point))
        # A label away from its point (a line or more up or down, or in the room right
        # of the plot) is tied to it by a thin line.
        if abs(baseline - 4 - point.y) > LABEL_LINE / 2 or abs(x - point.x) > 7:
            marks.append(
                svg.line(point.x, point.y, x, baseline - 4, stroke="#8c959f", stroke_width=0.6)
            )
        marks.append(_named_text(x, baseline, point.name, text_anchor=anchor))
    for point in points:
        if id(point) not in labelled:
            title = svg.element("title", {}, svg.escape(point.name))
            disc = {"cx": point.x, "cy": point.y, "r": 5, "fill": "#ffffff", "fill-opacity": 0}
            marks.append(svg.element("circle", disc, title))
    return marks


def _frame(x_axis, y_axis, x_label: str, y_label: str, mark: str) -> list[str]:
    bottom = PLOT_TOP + PLOT_HEIGHT
    marks = []
    for y, _ in y_axis.ticks(mark):
        marks.append(svg.line(PLOT_LEFT, y, PLOT_LEFT + PLOT_WIDTH, y, stroke=GRID_COLOUR))
    for x, _ in x_axis.ticks(mark):
        marks.append(svg.line(x, PLOT_TOP, x, bottom, stroke=GRID_COLOUR))
    marks.append(
        svg.rect(PLOT_LEFT, PLOT_TOP, PLOT_WIDTH, PLOT_HEIGHT, fill="none", stroke=AXIS_COLOUR)
    )
    labels = [
        svg.text(x, bottom + 15, label, text_anchor="middle") for x, label in x_axis.ticks(mark)
    ]
    labels += [
        svg.text(PLOT_LEFT - 5, y + 4, label, text_anchor="end") for y, label in y_axis.ticks(mark)
    ]
    marks.append(svg.group(labels, font_size=10))
    marks.append(
        svg.text(PLOT_LEFT + Fraction(PLOT_WIDTH, 2), bottom + 32, x_label, text_anchor="middle")
    )
    middle = PLOT_TOP + Fraction(PLOT_HEIGHT, 2)
    marks.append(
        svg.text(
            14,
            middle,
            y_label,
            text_anchor="middle",
            transform=f"rotate(-90 14 {svg.number(middle)})",
        )
    )
    return marks


def _legend(entries: list[tuple], y) -> list[str]:
    """One line of (glyph, label) entries from the plot's left edge; a glyph is a
    function of the point (x, y) it is centred on."""
    marks, x = [], Fraction(PLOT_LEFT + 6)
    for glyph, label in entries:
        marks.append(glyph(x, y - 4))
        marks.append(svg.text(x + 10, y, label))
        x += 28 + text_width(label)
    return marks


def _dot(x, y) -> str:
    return _glyph(Point("", x, y, False))


def _cross(x, y) -> str:
    return _glyph(Point("", x, y, True))


def _frontier_mark(x, y, dashed=False) -> str:
    return svg.line(
        x - 6,
        y,
        x + 6,
        y,
        stroke=FRONTIER_COLOUR,
        stroke_width=2,
        stroke_dasharray="5 3" if dashed else None,
    )


def _dashed_frontier_mark(x, y) -> str:
    return _frontier_mark(x, y, dashed=True)


def _glyph_entries(t: Language) -> list[tuple]:
    return [(_dot, t("findings_chart_eligible")), (_cross, t("findings_chart_disqualified"))]


def quality_calibration_svg(findings: dict, t: Language) -> str:
    mark = t("decimal_mark")
    disqualified = set(findings["safety"]["disqualified"]["versions"])
    q_final = q_final_of(findings)
    calibration = findings["calibration"]["versions"]
    data = [
        (sv, exact_fraction(calibration.get(sv, {}).get("brier")), q_final.get(sv))
        for sv in leaderboard_order(findings)
    ]
    data = [(sv, brier, q) for sv, brier, q in data if brier is not None and q is not None]
    title = t("findings_chart_calibration_title")
    if not data:
        return _message_chart(title, t("findings_chart_no_versions"))
    x_axis = LinearAxis([brier for _, brier, _ in data], PLOT_LEFT, PLOT_WIDTH, reverse=False)
    y_axis = LinearAxis([q for _, _, q in data], PLOT_TOP, PLOT_HEIGHT, reverse=True)
    points = [
        Point(sv, x_axis.position(brier), y_axis.position(q), sv in disqualified)
        for sv, brier, q in data
    ]
    height = PLOT_TOP + PLOT_HEIGHT + 64
    marks = [svg.rect(0, 0, SCATTER_WIDTH, height, fill="#ffffff"), _title(SCATTER_WIDTH, title)]
    marks += _frame(x_axis, y_axis, t("findings_chart_brier"), t("findings_chart_q_final"), mark)
    marks += [_glyph(point) for point in points]
    marks += _point_labels(points, SCATTER_WIDTH)
    marks += _legend(_glyph_entries(t), PLOT_TOP + PLOT_HEIGHT + 54)
    description = t("findings_chart_calibration_desc", n_versions=len(points))
    return _document(SCATTER_WIDTH, height, title, description, marks)


def frontier_vertices(points: list[tuple]) -> list[tuple]:
    """The step line through frontier points (x, y) sorted by cost: from each point
    level to the next one's x, then up to it."""
    vertices = []
    for i, (x, y) in enumerate(points):
        if i:
            vertices.append((x, points[i - 1][1]))
        vertices.append((x, y))
    return vertices


def _step_line(points: list[tuple], **presentation) -> str:
    vertices = " ".join(f"{svg.number(x)},{svg.number(y)}" for x, y in frontier_vertices(points))
    return svg.element("polyline", {"points": vertices, "fill": "none", **presentation})


def cost_quality_svg(findings: dict, t: Language) -> str:
    mark = t("decimal_mark")
    title = t("findings_chart_cost_title")
    cost = findings["cost"]
    if not cost.get("has_telemetry"):
        return _message_chart(title, t("findings_chart_no_telemetry"))
    disqualified = set(findings["safety"]["disqualified"]["versions"])
    q_final = q_final_of(findings)
    costs = {
        sv: exact_fraction(facts.get("cost_per_case_usd"))
        for sv, facts in cost.get("versions", {}).items()
    }
    order = leaderboard_order(findings)
    data = [
        (sv, costs[sv], q_final[sv])
        for sv in order
        if costs.get(sv) is not None and costs[sv] > 0 and q_final.get(sv) is not None
    ]
    if not data:
        return _message_chart(title, t("findings_chart_no_prices"))
    x_axis = LogAxis([c for _, c, _ in data], PLOT_LEFT, PLOT_WIDTH)
    y_axis = LinearAxis([q for _, _, q in data], PLOT_TOP, PLOT_HEIGHT, reverse=True)
    where = {sv: (x_axis.position(c), y_axis.position(q)) for sv, c, q in data}
    points = [Point(sv, *where[sv], sv in disqualified) for sv, _, _ in data]
    pareto = cost.get("pareto", {})
    frontier_all = [where[sv] for sv in pareto.get("all", []) if sv in where]
    frontier_eligible = [where[sv] for sv in pareto.get("eligible", []) if sv in where]
    unpriced = len(order) - len(data)
    height = PLOT_TOP + PLOT_HEIGHT + 80 + (16 if unpriced else 0)
    marks = [svg.rect(0, 0, SCATTER_WIDTH, height, fill="#ffffff"), _title(SCATTER_WIDTH, title)]
    marks += _frame(x_axis, y_axis, t("findings_chart_cost"), t("findings_chart_q_final"), mark)
    if frontier_eligible and frontier_eligible != frontier_all:
        marks.append(
            _step_line(
                frontier_eligible, stroke=FRONTIER_COLOUR, stroke_width=1.5, stroke_dasharray="5 3"
            )
        )
    if frontier_all:
        marks.append(_step_line(frontier_all, stroke=FRONTIER_COLOUR, stroke_width=2))
    marks += [_glyph(point) for point in points]
    marks += _point_labels(points, SCATTER_WIDTH)
    marks += _legend(_glyph_entries(t), PLOT_TOP + PLOT_HEIGHT + 54)
    lines = [(_frontier_mark, t("findings_chart_frontier"))]
    if frontier_eligible and frontier_eligible != frontier_all:
        lines.append((_dashed_frontier_mark, t("findings_chart_frontier_eligible")))
    marks += _legend(lines, PLOT_TOP + PLOT_HEIGHT + 70)
    if unpriced:
        marks.append(
            svg.text(
                PLOT_LEFT, PLOT_TOP + PLOT_HEIGHT + 88, t("findings_chart_unpriced", n=unpriced)
            )
        )
    description = t(
        "findings_chart_cost_desc", n_versions=len(points), n_frontier=len(frontier_all)
    )
    return _document(SCATTER_WIDTH, height, title, description, marks)


def _message_chart(title: str, message: str) -> str:
    """A chart with nothing to draw: its title and the reason, in words."""
    lines, line = [], ""
    for word in message.split():
        if line and len(line) + 1 + len(word) > 70:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    height = 60 + LABEL_LINE * 2 * len(lines)
    marks = [
        svg.rect(0, 0, SCATTER_WIDTH, height, fill="#ffffff"),
        svg.rect(4, 4, SCATTER_WIDTH - 8, height - 8, fill="none", stroke=GRID_COLOUR),
        _title(SCATTER_WIDTH, title),
        svg.text_lines(
            Fraction(SCATTER_WIDTH, 2), 52, 18, lines, text_anchor="middle", font_size=12
        ),
    ]
    return _document(SCATTER_WIDTH, height, title, message, marks)


def findings_charts(findings: dict, language: str) -> dict[str, str]:
    """The three charts of the findings in a language (its code): file stem → SVG text."""
    t = _labels(language)
    return {
        "family_heatmap": family_heatmap_svg(findings, t),
        "quality_calibration": quality_calibration_svg(findings, t),
        "cost_quality": cost_quality_svg(findings, t),
    }
