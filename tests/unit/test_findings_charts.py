"""What the findings' three charts say (report/findings_charts.py), parsed as XML and
compared with positions worked out by hand from the layout and the hand-written findings
of tests/findings_example.py.

Layout: the heatmap's cells are 60 × 32 px from y = 44; the scatter plots' frame is
x 56 → 386 (330 px) and y 36 → 306 (270 px). A linear axis is widened by a twentieth
of the data's span on each side, then rounded out to a step of 1, 2 or 5 × 10^k with at
most six steps; the log axis runs from a quarter decade below the lowest decade to a
quarter decade above the highest (so a decade is 330 / (decades + 0.5) px).
"""

import re
import xml.etree.ElementTree as ET

import pytest

from browser import PROBE
from findings_example import example_findings, fraction
from ro_metrics.contracts.published import CHART_STEMS, chart_file
from ro_metrics.rendering.translations import language
from ro_metrics.report.findings_charts import (
    HEATMAP_COLOURS,
    LABEL_LINE,
    PLOT_HEIGHT,
    PLOT_LEFT,
    PLOT_TOP,
    SCATTER_WIDTH,
    Point,
    findings_charts,
    place_labels,
    short_name,
    text_width,
)

SVG = "{http://www.w3.org/2000/svg}"


def parse(text: str) -> ET.Element:
    assert text.startswith('<?xml version="1.0" encoding="utf-8"?>\n')
    return ET.fromstring(text.encode("utf-8"))  # noqa: S314 - our own output


def numbers(element: ET.Element, *names: str) -> tuple:
    return tuple(float(element.get(name)) for name in names)


def own_texts(root: ET.Element) -> list[str]:
    """Every text a reader or a screen reader gets: <title>, <desc>, <text>, <tspan>."""
    return [
        element.text
        for element in root.iter()
        if element.tag in (f"{SVG}title", f"{SVG}desc", f"{SVG}text", f"{SVG}tspan")
        and element.text
    ]


def chart(stem: str, code: str = "en", findings: dict | None = None) -> ET.Element:
    return parse(findings_charts(findings or example_findings(), code)[stem])


def test_three_charts_each_accessible_and_scalable():
    for code in ("en", "es"):
        charts = findings_charts(example_findings(), code)
        assert list(charts) == list(CHART_STEMS)
        for text in charts.values():
            root = parse(text)
            assert root.get("role") == "img"
            assert root.get("viewBox") == f"0 0 {root.get('width')} {root.get('height')}"
            first, second = list(root)[:2]
            assert (first.tag, second.tag) == (f"{SVG}title", f"{SVG}desc")
            assert "id=" not in text  # several charts inline on one page cannot clash
    assert [chart_file(stem, "es") for stem in CHART_STEMS] == [
        "family_heatmap.es.svg",
        "quality_calibration.es.svg",
        "cost_quality.es.svg",
    ]
    assert chart_file("cost_quality", "en") == "cost_quality.svg"


def heatmap_cells(root: ET.Element) -> list[tuple]:
    """(x, y, fill, pass rate text, n text) of each cell with runs, in document order."""
    cells = []
    for group in root.iter(f"{SVG}g"):
        rects = group.findall(f"{SVG}rect")
        texts = group.findall(f"{SVG}text")
        if len(rects) == 1 and len(texts) == 2:
            x, y = numbers(rects[0], "x", "y")
            cells.append((x, y, rects[0].get("fill"), texts[0].text, texts[1].text))
    return cells


def test_heatmap_rows_columns_colours_and_counts():
    root = chart("family_heatmap")
    # Rows: alpha-1, beta-2, gamma-3, then the disqualified probe; columns NOWE, OXID
    # (families.order). Row i's cells start at y = 44 + 32·i + 1, column j's at
    # x = left + 60·j + 1, left being the names' width; pass rates n_pass/n_runs from
    # the example (1/4, 3/4; 0/4, 2/4; 1/2, 4/4; 0/4, 1/4), coloured by fifths:
    # [0, .2) → step 0, [.2, .4) → 1, [.4, .6) → 2, [.6, .8) → 3, [.8, 1] → 4.
    cells = heatmap_cells(root)
    assert len(cells) == 8
    left = cells[0][0] - 1
    expected = [
        (0, 0, 1, "0.25", "n=4"),
        (1, 0, 3, "0.75", "n=4"),
        (0, 1, 0, "0.00", "n=4"),
        (1, 1, 2, "0.50", "n=4"),
        (0, 2, 2, "0.50", "n=2"),
        (1, 2, 4, "1.00", "n=4"),
        (0, 3, 0, "0.00", "n=4"),
        (1, 3, 1, "0.25", "n=4"),
    ]
    assert cells == [
        (left + 60 * column + 1, 44 + 32 * row + 1, HEATMAP_COLOURS[step], rate, n)
        for column, row, step, rate, n in expected
    ]
    names = [
        text.find(f"{SVG}title").text
        for text in root.iter(f"{SVG}text")
        if text.find(f"{SVG}title") is not None
    ]
    assert names == ["alpha-1", "beta-2", "gamma-3", PROBE]
    labels = [text.text for text in root.iter(f"{SVG}text")]
    assert "NOWE" in labels and "OXID" in labels
    assert labels.index("NOWE") < labels.index("OXID")
    # The disqualified row is marked († and a dashed line above it, at y = 44 + 32·3).
    [separator] = [line for line in root.iter(f"{SVG}line") if line.get("stroke-dasharray")]
    assert numbers(separator, "y1", "y2") == (140, 140)
    probe_label = [t for t in root.iter(f"{SVG}text") if t.find(f"{SVG}title") is not None][3]
    assert probe_label.text is None and "".join(probe_label.itertext()).endswith(" †")
    # The legend: five swatches and the empty cell's.
    legend = [rect.get("fill") for rect in root.iter(f"{SVG}rect") if numbers(rect, "y")[0] > 180]
    assert legend == [*HEATMAP_COLOURS, "#f2f2f2"]


def test_a_cell_without_runs_is_grey_and_numberless():
    findings = example_findings()
    findings["heatmap"] = [row for row in findings["heatmap"] if row["subject_version"] != "beta-2"]
    root = chart("family_heatmap", findings=findings)
    assert len(heatmap_cells(root)) == 6
    empty = [
        rect
        for rect in root.iter(f"{SVG}rect")
        if rect.get("fill") == "#f2f2f2" and numbers(rect, "y")[0] < 180
    ]
    # beta-2 is the second row: y = 44 + 32 + 1.
    assert [numbers(rect, "y")[0] for rect in empty] == [77, 77]


def test_quality_calibration_points_and_glyphs():
    root = chart("quality_calibration")
    # Brier .10, .20, .15, .30 → widened to .09–.31 → axis .05–.35 (step .05):
    # x = 56 + 330·(b − .05)/.3. Q_final .8, .6, .65, .7 → .59–.81 → axis .55–.85:
    # y = 36 + 270·(.85 − q)/.3.
    dots = [numbers(circle, "cx", "cy") for circle in root.iter(f"{SVG}circle")]
    legend_dot = dots.pop()  # the legend's, drawn last
    assert legend_dot[1] > 306
    assert dots == [(111, 81), (221, 261), (166, 216)]  # alpha-1, beta-2, gamma-3
    # The disqualified version is a cross centred on (331, 171), and so is its legend's.
    crosses = [path.get("d") for path in root.iter(f"{SVG}path")]
    assert crosses[0] == "M327 167l8 8M327 175l8 -8"
    assert len(crosses) == 2
    ticks = [
        text.text for text in root.iter(f"{SVG}text") if re.fullmatch(r"0\.\d\d", text.text or "")
    ]
    x_ticks = ["0.05", "0.10", "0.15", "0.20", "0.25", "0.30", "0.35"]
    y_ticks = ["0.55", "0.60", "0.65", "0.70", "0.75", "0.80", "0.85"]
    assert ticks == [*x_ticks, *y_ticks]
    legend = [text.text for text in root.iter(f"{SVG}text")][-2:]
    assert legend == ["Eligible (ranked)", "Disqualified"]


def test_cost_quality_log_positions_and_frontier():
    root = chart("cost_quality")
    # Costs .01 (alpha-1), .001 (beta-2), .1 (probe): decades −3 to −1, 2.5 decades
    # with the quarters, 132 px each: x = 56 + 132·(log10 c + 3.25) → 89, 221, 353.
    # Q_final as in the calibration chart: .8 → 81, .6 → 261, .7 → 171.
    dots = [numbers(circle, "cx", "cy") for circle in root.iter(f"{SVG}circle")][:-1]
    assert dots == [(221, 81), (89, 261)]
    crosses = [path.get("d") for path in root.iter(f"{SVG}path")]
    assert crosses[0] == "M349 167l8 8M349 175l8 -8"  # the probe at (353, 171)
    # The frontier beta-2 → alpha-1 as a step: level to alpha-1's cost, then up.
    [frontier] = list(root.iter(f"{SVG}polyline"))
    assert frontier.get("points") == "89,261 221,261 221,81"
    ticks = [(numbers(t, "x")[0], t.text) for t in root.iter(f"{SVG}text") if t.text in
             ("0.001", "0.01", "0.1")]  # fmt: skip
    assert ticks == [(89, "0.001"), (221, "0.01"), (353, "0.1")]
    # gamma-3 has no price: not drawn, and said so.
    assert "1 subject version(s) without both prices in the registry not drawn." in own_texts(root)


def test_cost_quality_between_decades_and_a_distinct_eligible_frontier():
    findings = example_findings()
    cost = findings["cost"]
    cost["versions"]["beta-2"]["cost_per_case_usd"] = fraction(1, 500)
    cost["versions"]["alpha-1"]["cost_per_case_usd"] = fraction(1, 50)
    cost["pareto"] = {"all": ["beta-2", "alpha-1"], "eligible": ["beta-2"]}
    root = chart("cost_quality", "es", findings)
    # log10 .002 = −2.69897, log10 .02 = −1.69897: x = 56 + 132·(0.30103 + 0.25) =
    # 128.736 and 56 + 132·(1.30103 + 0.25) = 260.736; .1 still at 353.
    dots = [numbers(circle, "cx", "cy") for circle in root.iter(f"{SVG}circle")][:-1]
    assert dots == [(260.736, 81), (128.736, 261)]
    lines = [line.get("points") for line in root.iter(f"{SVG}polyline")]
    # The eligible frontier (dashed) first, then all versions'.
    assert lines == ["128.736,261", "128.736,261 260.736,261 260.736,81"]
    ticks = [t.text for t in root.iter(f"{SVG}text") if t.text and t.text.startswith("0,")]
    assert ticks[:3] == ["0,001", "0,01", "0,1"]  # the Spanish decimal comma
    assert "Frontera de Pareto de las versiones elegibles" in own_texts(root)


@pytest.mark.parametrize("case", ["no telemetry", "no price"])
def test_a_cost_chart_without_data_says_why_and_has_no_number(case):
    findings = example_findings()
    if case == "no telemetry":
        findings["cost"] = {"has_telemetry": False, "reason": "no telemetry in 2 batches"}
        reason = "This corpus has no telemetry"
    else:
        for facts in findings["cost"]["versions"].values():
            facts["cost_per_case_usd"] = None
        reason = "No subject version has both token prices"
    root = chart("cost_quality", findings=findings)
    texts = own_texts(root)
    assert any(text.startswith(reason) for text in texts)
    assert not [text for text in texts if re.search(r"\d", text)]
    assert not list(root.iter(f"{SVG}circle")) and not list(root.iter(f"{SVG}polyline"))


def test_the_xss_probe_stays_text():
    for code in ("en", "es"):
        for text in findings_charts(example_findings(), code).values():
            assert "<script>" not in text and "<img" not in text
            assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
            # Parsed, the probe is a tooltip's text, not markup.
            assert PROBE in own_texts(parse(text))


def test_spanish_labels_and_decimal_comma():
    spanish = language("es")
    root = chart("quality_calibration", "es")
    texts = own_texts(root)
    assert texts[0] == spanish("findings_chart_calibration_title") == "Calidad frente a calibración"
    assert spanish("findings_chart_brier") in texts
    assert "0,55" in texts and "0.55" not in texts
    heatmap = own_texts(chart("family_heatmap", "es"))
    assert "0,25" in heatmap and "0,8–1,0" in heatmap


def test_labels_of_points_at_one_place_do_not_overlap():
    # Three points at the same spot: the first label right of it, the next ones a line
    # (12 px) below and above.
    points = [Point(name, 200, 150, False) for name in ("a-1", "b-2", "c-3")]
    placed = [(p.name, x, baseline, anchor) for p, x, baseline, anchor in place_labels(points, 520)]
    assert placed == [
        ("a-1", 207, 154, "start"),
        ("b-2", 193, 154, "end"),
        ("c-3", 207, 166, "start"),
    ]


def test_a_label_never_goes_left_of_the_plot_onto_the_tick_labels():
    # Two points at one spot 3 px right of the plot's left edge (x 59): the second label
    # would go left of the point, onto the y axis' tick labels; it goes a line below.
    points = [Point(name, PLOT_LEFT + 3, 150, False) for name in ("a-1", "b-2")]
    placed = [(p.name, x, baseline, anchor) for p, x, baseline, anchor in place_labels(points, 520)]
    assert placed == [("a-1", 66, 154, "start"), ("b-2", 66, 166, "start")]


def overlap(a, b) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def test_crowded_labels_overlap_no_tick_no_point_and_no_other_label():
    """Twelve long names crowded at the plot's left edge and near its top (as the real
    v1.0 corpus' versions are): each label inside the plot or the room at its right
    (never on a tick label, the title or the legend), on no point and on no other label."""
    points = [
        Point(
            f"version-{i:02d}-2026-05-01-long",
            PLOT_LEFT + 3 + 2 * (i % 3),
            PLOT_TOP + 8 + 5 * i,
            i % 2 == 0,
        )
        for i in range(12)
    ]
    boxes = []
    for point, x, baseline, anchor in place_labels(points, SCATTER_WIDTH):
        width = text_width(short_name(point.name))
        left = x if anchor == "start" else x - width
        box = (left, baseline - 9, width, LABEL_LINE - 1)
        assert left > PLOT_LEFT and left + width <= SCATTER_WIDTH - 2, box
        assert box[1] >= PLOT_TOP and box[1] + box[3] <= PLOT_TOP + PLOT_HEIGHT, box
        assert not any(overlap(box, (p.x - 5, p.y - 5, 10, 10)) for p in points), box
        assert not any(overlap(box, other) for other in boxes), box
        boxes.append(box)
    assert len(boxes) == 12


def test_a_label_with_no_free_place_is_left_out_never_overlapping():
    """Sixty points at one spot: as many labels as there are free places around it and
    in the room right of the plot, none overlapping another; the others are left out."""
    points = [Point(f"v-{i:02d}", 200, 150, False) for i in range(60)]
    placed = place_labels(points, SCATTER_WIDTH)
    boxes = []
    for point, x, baseline, anchor in placed:
        width = text_width(short_name(point.name))
        box = (x if anchor == "start" else x - width, baseline - 9, width, LABEL_LINE - 1)
        assert not any(overlap(box, other) for other in boxes), box
        boxes.append(box)
    # Near the point (y 150): its line and 3 lines up and down, right and left of it:
    # 14 labels. In the room right of the plot (x 394): the baselines 154 + 12 k whose
    # box (baseline - 9 to baseline + 2) stays between the plot's top 36 and bottom 306,
    # k = -9 … 12: 22 labels. The other 24 points have none.
    assert len(placed) == 14 + 22
    assert sorted({(x, anchor) for _, x, _, anchor in placed}) == [
        (193, "end"),
        (207, "start"),
        (394, "start"),
    ]
