"""The reliability diagram of one subject version drawn as plain SVG (rendering/svg.py).

What it shows: one bar per non-empty confidence bin of the ECE, as tall as the bin's
soft accuracy, with the bin's count (n=…) above it and a dot at the bin's mean
confidence; the dashed diagonal of perfect calibration; the axes' frame, ticks and
tick labels (confidence 0 to 1 in steps of 0.2, accuracy 0 to 1 in steps of 0.25,
with the page language's decimal mark) and the axis labels; the title above, one line
per line of the title.

The layout is fixed, in pixels: x from 0 to 1 spans 300 px (30 per bin), accuracy 1 is
200 px tall and the plot reaches 1.125 so a count above a full bar stays inside it.
Only the title's lines move the plot down. Coordinates are exact fractions of the data
(svg.number prints them), so a diagram's bytes depend on its data and words alone.
"""

from fractions import Fraction

from ro_metrics.contracts.vocabulary import N_BINS
from ro_metrics.rendering import svg

WIDTH = 384
PLOT_LEFT = 64
PLOT_WIDTH = 300
BIN_WIDTH = Fraction(PLOT_WIDTH, N_BINS)
ACCURACY_HEIGHT = 200  # pixels from accuracy 0 to accuracy 1
PLOT_HEIGHT = ACCURACY_HEIGHT * Fraction(9, 8)  # the plot's top is accuracy 1.125
# The plot's top without a title, and what each line of a title adds above it.
TOP_MARGIN = 20
TITLE_LINE_HEIGHT = 15
TITLE_FIRST_BASELINE = 20
BOTTOM_MARGIN = 44  # under the plot: the x ticks, their labels and the axis label
TICK_LENGTH = 4
X_TICKS = tuple(Fraction(i, N_BINS) for i in range(0, N_BINS + 1, 2))
Y_TICKS = tuple(Fraction(i, 4) for i in range(5))

TITLE_SIZE = 12
LABEL_SIZE = 10
COUNT_SIZE = 9
BAR_FILL, BAR_EDGE, DOT_FILL, DIAGONAL = "#4c78a8", "#1f3b5a", "#e45756", "#888888"


def plot_top(title_lines: int) -> int:
    return TOP_MARGIN + TITLE_LINE_HEIGHT * title_lines


def x_of(confidence) -> Fraction:
    """The x coordinate of a confidence (or a bin's edge) in [0, 1]."""
    return PLOT_LEFT + PLOT_WIDTH * Fraction(confidence)


def y_of(accuracy, bottom) -> Fraction:
    """The y coordinate of an accuracy in [0, 1.125], the plot's bottom at `bottom`."""
    return bottom - ACCURACY_HEIGHT * Fraction(accuracy)


def tick_label(value: Fraction, decimals: int, decimal_mark: str) -> str:
    return f"{float(value):.{decimals}f}".replace(".", decimal_mark)


def reliability_svg_text(bins, title: str, words) -> str:
    """The diagram as an SVG file: bins as (m, n, conf, acc) (m the bin 1…N_BINS, n its
    runs, conf and acc exact or float means), words a reliability_diagram.DiagramText."""
    title_lines = title.splitlines()
    top = plot_top(len(title_lines))
    bottom = top + PLOT_HEIGHT
    height = bottom + BOTTOM_MARGIN
    middle = PLOT_LEFT + Fraction(PLOT_WIDTH, 2)

    marks = [svg.rect(0, 0, WIDTH, height, fill="#ffffff")]
    for m, _, _, accuracy in bins:
        marks.append(
            svg.rect(
                x_of(Fraction(m - 1, N_BINS)),
                y_of(accuracy, bottom),
                BIN_WIDTH,
                ACCURACY_HEIGHT * Fraction(accuracy),
                fill=BAR_FILL,
                stroke=BAR_EDGE,
                stroke_width=0.6,
            )
        )
    marks.append(
        svg.line(
            x_of(0),
            y_of(0, bottom),
            x_of(1),
            y_of(1, bottom),
            stroke=DIAGONAL,
            stroke_width=1,
            stroke_dasharray="4 2",
        )
    )
    marks += [
        svg.circle(x_of(confidence), y_of(accuracy, bottom), 2.5, fill=DOT_FILL)
        for _, _, confidence, accuracy in bins
    ]
    marks.append(svg.rect(PLOT_LEFT, top, PLOT_WIDTH, PLOT_HEIGHT, fill="none", stroke="#000000"))
    ticks = [svg.line(x_of(x), bottom, x_of(x), bottom + TICK_LENGTH) for x in X_TICKS]
    ticks += [
        svg.line(PLOT_LEFT - TICK_LENGTH, y_of(y, bottom), PLOT_LEFT, y_of(y, bottom))
        for y in Y_TICKS
    ]
    marks.append(svg.group(ticks, stroke="#000000", stroke_width=0.8))

    mark = words.decimal_mark
    labels = [
        svg.text(x_of(x), bottom + 16, tick_label(x, 1, mark), text_anchor="middle")
        for x in X_TICKS
    ]
    # The baseline 3.5 px below the tick centres a 10 px figure on it.
    labels += [
        svg.text(PLOT_LEFT - 7, y_of(y, bottom) + 3.5, tick_label(y, 2, mark), text_anchor="end")
        for y in Y_TICKS
    ]
    labels.append(svg.text(middle, bottom + 34, words.xlabel, text_anchor="middle"))
    label_x, label_y = 18, top + PLOT_HEIGHT / 2
    labels.append(
        svg.text(
            label_x,
            label_y,
            words.ylabel,
            text_anchor="middle",
            transform=f"rotate(-90 {svg.number(label_x)} {svg.number(label_y)})",
        )
    )
    marks.append(svg.group(labels, font_size=LABEL_SIZE))
    counts = [
        svg.text(x_of(Fraction(2 * m - 1, 2 * N_BINS)), y_of(accuracy, bottom) - 4, f"n={n}")
        for m, n, _, accuracy in bins
    ]
    if counts:
        marks.append(svg.group(counts, font_size=COUNT_SIZE, text_anchor="middle"))
    if title_lines:
        marks.append(
            svg.text_lines(
                middle,
                TITLE_FIRST_BASELINE,
                TITLE_LINE_HEIGHT,
                title_lines,
                font_size=TITLE_SIZE,
                text_anchor="middle",
            )
        )
    return svg.document(WIDTH, height, [svg.group(marks, font_family="sans-serif")])
