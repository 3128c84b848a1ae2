"""The reliability diagram's SVG written directly: the bytes matplotlib writes for it
(reliability_diagram.draw_with_matplotlib), without importing matplotlib (~0.85 s of
every job that draws one, when a diagram takes ~1 ms to write).

Every part of the figure that does not depend on the data is matplotlib's own output,
kept below as text (_HEAD, _AXES, _SPINES, _TAIL): the frame, the ticks and their
labels, the axis labels (only their words and the decimal mark change with the page's
language), the diagonal, the spines. The parts that do (one bar, one dot and one count
per bin, the title) are written here the way matplotlib computes them:

- a point (x, y) of the data goes to the SVG's (x·D00 + D02, (H − D12) − y·D11): D is
  the axes' data-to-display matrix (fixed margins and limits, 72 dpi), H the figure's
  height; each step rounded as matplotlib's own arithmetic rounds it (the products and
  sums of its affine transforms, in their order), so that every coordinate is the same
  double and prints the same;
- a bar of bin m is the unit square through the bin's box: its left edge as a point,
  its right edge the left one plus the box's width times D00, its top (H − D12) minus
  the bin's accuracy times D11;
- a count sits at the bin's middle, 0.02 above its bar, bottom-aligned: matplotlib
  places its baseline the text's descent (_COUNT_DESCENT, the same for "n=" and
  digits) above that point, then moves the anchor there;
- element ids: matplotlib's (a counter per kind; markers and the clip path named by
  sha256 of the salt and what they hold).

Numbers are printed as matplotlib prints them (`%f` without trailing zeros); the title
goes in as text, escaped as matplotlib escapes it (&, <, >); a title of several lines (a newline in a
subject version) is laid out by matplotlib itself (reliability_diagram.draw).
tests/unit/test_reliability_svg.py holds every byte equal to matplotlib's output.
"""

import hashlib

from ro_metrics.contracts.vocabulary import N_BINS

# The axes' data-to-display matrix (its non-zero entries) and the figure's height, as
# matplotlib computes them for Figure(figsize=(4.0, 3.3)), subplots_adjust(left=0.15,
# right=0.97, bottom=0.14, top=0.91), xlim (0, 1), ylim (0, 1.12), at the SVG's 72 dpi.
_D00 = 236.16000000000003
_D02 = 43.199999999999996
_D11 = 163.35
_D12 = 33.264
_HEIGHT = 237.6
_BOTTOM = _HEIGHT - _D12  # 204.336: the x axis
# A 7-px count's baseline above its anchor (bottom alignment: the descent of "lp").
_COUNT_DESCENT = 1.681640625
_BAR_WIDTH = 1 / N_BINS

# What matplotlib names an element after (its _make_id): the marker of the x ticks, of
# the y ticks and of the dots, each with its style, and the axes' clip box.
_TICK_STYLE = "stroke: #000000; stroke-width: 0.8"
_X_TICK_KEY = str(("M 0 0 \nL 0 3.5 \n", _TICK_STYLE))
_Y_TICK_KEY = str(("M 0 0 \nL -3.5 0 \n", _TICK_STYLE))
_DOT_PATH = (
    "M 0 1.5 \n"
    "C 0.397805 1.5 0.77937 1.341951 1.06066 1.06066 \n"
    "C 1.341951 0.77937 1.5 0.397805 1.5 0 \n"
    "C 1.5 -0.397805 1.341951 -0.77937 1.06066 -1.06066 \n"
    "C 0.77937 -1.341951 0.397805 -1.5 0 -1.5 \n"
    "C -0.397805 -1.5 -0.77937 -1.341951 -1.06066 -1.06066 \n"
    "C -1.341951 -0.77937 -1.5 -0.397805 -1.5 0 \n"
    "C -1.5 0.397805 -1.341951 0.77937 -1.06066 1.06066 \n"
    "C -0.77937 1.341951 -0.397805 1.5 0 1.5 \n"
    "z\n"
)
_DOT_KEY = str((_DOT_PATH, "fill: #e45756; stroke: #e45756"))
_CLIP_KEY = (
    "(np.float64(43.199999999999996), np.float64(21.383999999999986), "
    "np.float64(236.16000000000003), np.float64(182.952))"
)


def _id(kind: str, salt: str, key: str) -> str:
    digest = hashlib.sha256()
    digest.update(salt.encode("utf-8"))
    digest.update(key.encode("utf-8"))
    return f"{kind}{digest.hexdigest()[:10]}"


def _number(value: float) -> str:
    return f"{value:f}".rstrip("0").rstrip(".")


def _text(value: str) -> str:
    return value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _x(value: float) -> float:
    return value * _D00 + _D02


def _y(value: float) -> float:
    return _BOTTOM - value * _D11


def reliability_svg_text(bins, title: str, salt: str, words) -> str:
    """The SVG text of a diagram: bins as (m, n, conf, acc), words a DiagramText.
    Byte for byte what reliability_diagram.draw_with_matplotlib writes for a title
    of one line."""
    clip = _id("p", salt, _CLIP_KEY)
    dot = _id("m", salt, _DOT_KEY)
    parts = [_HEAD]
    lefts = [(m - 1) * _BAR_WIDTH for m, _, _, _ in bins]
    accuracies = [float(acc) for _, _, _, acc in bins]
    for number, (left, accuracy) in enumerate(zip(lefts, accuracies, strict=True), 3):
        x0 = _x(left)
        x1 = (left + _BAR_WIDTH - left) * _D00 + x0
        bottom, top = _number(_BOTTOM), _number(_y(accuracy))
        x0, x1 = _number(x0), _number(x1)
        parts.append(
            f'   <g id="patch_{number}">\n'
            f'    <path d="M {x0} {bottom} \nL {x1} {bottom} \nL {x1} {top} \nL {x0} {top} \nz\n'
            f'" clip-path="url(#{clip})" style="fill: #4c78a8; stroke: #1f3b5a; '
            'stroke-width: 0.6; stroke-linejoin: miter"/>\n'
            "   </g>\n"
        )
    mark = words.decimal_mark
    axes = _AXES
    replacements = {
        "@XTICK@": _id("m", salt, _X_TICK_KEY),
        "@YTICK@": _id("m", salt, _Y_TICK_KEY),
        "@CLIP@": clip,
        "@XLABEL@": _text(words.xlabel),
        "@YLABEL@": _text(words.ylabel),
    }
    for i, tick in enumerate(range(0, N_BINS + 1, 2)):
        replacements[f"@X{i}@"] = _text(f"{tick / N_BINS:.1f}".replace(".", mark))
    for i, tick in enumerate((0, 0.25, 0.5, 0.75, 1)):
        replacements[f"@Y{i}@"] = _text(f"{tick:.2f}".replace(".", mark))
    for token, value in replacements.items():
        axes = axes.replace(token, value)
    parts.append(axes)
    if bins:
        parts.append(
            '   <g id="line2d_13">\n    <defs>\n'
            f'     <path id="{dot}" d="{_DOT_PATH}" style="stroke: #e45756"/>\n'
            f'    </defs>\n    <g clip-path="url(#{clip})">\n'
        )
        for (_, _, conf, _), accuracy in zip(bins, accuracies, strict=True):
            x, y = _number(_x(float(conf))), _number(_y(accuracy))
            parts.append(
                f'     <use xlink:href="#{dot}" x="{x}" y="{y}" '
                'style="fill: #e45756; stroke: #e45756"/>\n'
            )
        parts.append("    </g>\n   </g>\n")
    else:
        parts.append('   <g id="line2d_13"/>\n')
    spines = _SPINES
    for i in range(4):
        spines = spines.replace(f"@S{i}@", str(3 + len(bins) + i))
    parts.append(spines)
    for number, (left, accuracy, (_, n, _, _)) in enumerate(
        zip(lefts, accuracies, bins, strict=True), 14
    ):
        anchor = _x(left + _BAR_WIDTH / 2)
        display = (accuracy + 0.02) * _D11 + _D12
        anchor_y = _HEIGHT - display
        baseline = _HEIGHT - (_COUNT_DESCENT + display)
        x, y = _number(anchor), _number(anchor_y + (baseline - anchor_y))
        parts.append(
            f'   <g id="text_{number}">\n'
            "    <text style=\"font-size: 7px; font-family: 'DejaVu Sans'; text-anchor: middle\""
            f' x="{x}" y="{y}" transform="rotate(-0 {x} {y})">n={n}</text>\n'
            "   </g>\n"
        )
    if title:  # matplotlib draws no text for an empty one
        parts.append(_title(14 + len(bins), title))
    parts.append(_TAIL.replace("@CLIP@", clip))
    return "".join(parts)


def _title(number: int, title: str) -> str:
    return (
        f'   <g id="text_{number}">\n'
        "    <text style=\"font-size: 9px; font-family: 'DejaVu Sans'; text-anchor: middle\""
        f' x="161.28" y="15.384" transform="rotate(-0 161.28 15.384)">{_text(title)}</text>\n'
        "   </g>\n"
    )


# matplotlib's output for every part that does not depend on the data (module docstring).
_HEAD = (
    '<?xml version="1.0" encoding="utf-8" standalone="no"?>\n'
    '<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN"\n'
    '  "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">\n'
    '<svg xmlns:xlink="http://www.w3.org/1999/xlink" width="288pt" height="237.6pt" viewBox="0 0 288 237.6" xmlns="http://www.w3.org/2000/svg" version="1.1">\n'
    " <metadata>\n"
    '  <rdf:RDF xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:cc="http://creativecommons.org/ns#" xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\n'
    "   <cc:Work>\n"
    '    <dc:type rdf:resource="http://purl.org/dc/dcmitype/StillImage"/>\n'
    "    <dc:format>image/svg+xml</dc:format>\n"
    "    <dc:creator>\n"
    "     <cc:Agent>\n"
    "      <dc:title>Matplotlib v3.11.2, https://matplotlib.org/</dc:title>\n"
    "     </cc:Agent>\n"
    "    </dc:creator>\n"
    "   </cc:Work>\n"
    "  </rdf:RDF>\n"
    " </metadata>\n"
    " <defs>\n"
    '  <style type="text/css">*{stroke-linejoin: round; stroke-linecap: butt}</style>\n'
    " </defs>\n"
    ' <g id="figure_1">\n'
    '  <g id="patch_1">\n'
    '   <path d="M 0 237.6 \n'
    "L 288 237.6 \n"
    "L 288 0 \n"
    "L 0 0 \n"
    "z\n"
    '" style="fill: #ffffff"/>\n'
    "  </g>\n"
    '  <g id="axes_1">\n'
    '   <g id="patch_2">\n'
    '    <path d="M 43.2 204.336 \n'
    "L 279.36 204.336 \n"
    "L 279.36 21.384 \n"
    "L 43.2 21.384 \n"
    "z\n"
    '" style="fill: #ffffff"/>\n'
    "   </g>\n"
)

_AXES = (
    '   <g id="matplotlib.axis_1">\n'
    '    <g id="xtick_1">\n'
    '     <g id="line2d_1">\n'
    "      <defs>\n"
    '       <path id="@XTICK@" d="M 0 0 \n'
    "L 0 3.5 \n"
    '" style="stroke: #000000; stroke-width: 0.8"/>\n'
    "      </defs>\n"
    "      <g>\n"
    '       <use xlink:href="#@XTICK@" x="43.2" y="204.336" style="stroke: #000000; stroke-width: 0.8"/>\n'
    "      </g>\n"
    "     </g>\n"
    '     <g id="text_1">\n'
    '      <text style="font-size: 8px; font-family: \'DejaVu Sans\'; text-anchor: middle" x="43.2" y="217.414125" transform="rotate(-0 43.2 217.414125)">@X0@</text>\n'
    "     </g>\n"
    "    </g>\n"
    '    <g id="xtick_2">\n'
    '     <g id="line2d_2">\n'
    "      <g>\n"
    '       <use xlink:href="#@XTICK@" x="90.432" y="204.336" style="stroke: #000000; stroke-width: 0.8"/>\n'
    "      </g>\n"
    "     </g>\n"
    '     <g id="text_2">\n'
    '      <text style="font-size: 8px; font-family: \'DejaVu Sans\'; text-anchor: middle" x="90.432" y="217.414125" transform="rotate(-0 90.432 217.414125)">@X1@</text>\n'
    "     </g>\n"
    "    </g>\n"
    '    <g id="xtick_3">\n'
    '     <g id="line2d_3">\n'
    "      <g>\n"
    '       <use xlink:href="#@XTICK@" x="137.664" y="204.336" style="stroke: #000000; stroke-width: 0.8"/>\n'
    "      </g>\n"
    "     </g>\n"
    '     <g id="text_3">\n'
    '      <text style="font-size: 8px; font-family: \'DejaVu Sans\'; text-anchor: middle" x="137.664" y="217.414125" transform="rotate(-0 137.664 217.414125)">@X2@</text>\n'
    "     </g>\n"
    "    </g>\n"
    '    <g id="xtick_4">\n'
    '     <g id="line2d_4">\n'
    "      <g>\n"
    '       <use xlink:href="#@XTICK@" x="184.896" y="204.336" style="stroke: #000000; stroke-width: 0.8"/>\n'
    "      </g>\n"
    "     </g>\n"
    '     <g id="text_4">\n'
    '      <text style="font-size: 8px; font-family: \'DejaVu Sans\'; text-anchor: middle" x="184.896" y="217.414125" transform="rotate(-0 184.896 217.414125)">@X3@</text>\n'
    "     </g>\n"
    "    </g>\n"
    '    <g id="xtick_5">\n'
    '     <g id="line2d_5">\n'
    "      <g>\n"
    '       <use xlink:href="#@XTICK@" x="232.128" y="204.336" style="stroke: #000000; stroke-width: 0.8"/>\n'
    "      </g>\n"
    "     </g>\n"
    '     <g id="text_5">\n'
    '      <text style="font-size: 8px; font-family: \'DejaVu Sans\'; text-anchor: middle" x="232.128" y="217.414125" transform="rotate(-0 232.128 217.414125)">@X4@</text>\n'
    "     </g>\n"
    "    </g>\n"
    '    <g id="xtick_6">\n'
    '     <g id="line2d_6">\n'
    "      <g>\n"
    '       <use xlink:href="#@XTICK@" x="279.36" y="204.336" style="stroke: #000000; stroke-width: 0.8"/>\n'
    "      </g>\n"
    "     </g>\n"
    '     <g id="text_6">\n'
    '      <text style="font-size: 8px; font-family: \'DejaVu Sans\'; text-anchor: middle" x="279.36" y="217.414125" transform="rotate(-0 279.36 217.414125)">@X5@</text>\n'
    "     </g>\n"
    "    </g>\n"
    '    <g id="text_7">\n'
    '     <text style="font-size: 8px; font-family: \'DejaVu Sans\'; text-anchor: middle" x="161.28" y="229.41475" transform="rotate(-0 161.28 229.41475)">@XLABEL@</text>\n'
    "    </g>\n"
    "   </g>\n"
    '   <g id="matplotlib.axis_2">\n'
    '    <g id="ytick_1">\n'
    '     <g id="line2d_7">\n'
    "      <defs>\n"
    '       <path id="@YTICK@" d="M 0 0 \n'
    "L -3.5 0 \n"
    '" style="stroke: #000000; stroke-width: 0.8"/>\n'
    "      </defs>\n"
    "      <g>\n"
    '       <use xlink:href="#@YTICK@" x="43.2" y="204.336" style="stroke: #000000; stroke-width: 0.8"/>\n'
    "      </g>\n"
    "     </g>\n"
    '     <g id="text_8">\n'
    '      <text style="font-size: 8px; font-family: \'DejaVu Sans\'; text-anchor: end" x="36.2" y="207.375062" transform="rotate(-0 36.2 207.375062)">@Y0@</text>\n'
    "     </g>\n"
    "    </g>\n"
    '    <g id="ytick_2">\n'
    '     <g id="line2d_8">\n'
    "      <g>\n"
    '       <use xlink:href="#@YTICK@" x="43.2" y="163.4985" style="stroke: #000000; stroke-width: 0.8"/>\n'
    "      </g>\n"
    "     </g>\n"
    '     <g id="text_9">\n'
    '      <text style="font-size: 8px; font-family: \'DejaVu Sans\'; text-anchor: end" x="36.2" y="166.537562" transform="rotate(-0 36.2 166.537562)">@Y1@</text>\n'
    "     </g>\n"
    "    </g>\n"
    '    <g id="ytick_3">\n'
    '     <g id="line2d_9">\n'
    "      <g>\n"
    '       <use xlink:href="#@YTICK@" x="43.2" y="122.661" style="stroke: #000000; stroke-width: 0.8"/>\n'
    "      </g>\n"
    "     </g>\n"
    '     <g id="text_10">\n'
    '      <text style="font-size: 8px; font-family: \'DejaVu Sans\'; text-anchor: end" x="36.2" y="125.700063" transform="rotate(-0 36.2 125.700063)">@Y2@</text>\n'
    "     </g>\n"
    "    </g>\n"
    '    <g id="ytick_4">\n'
    '     <g id="line2d_10">\n'
    "      <g>\n"
    '       <use xlink:href="#@YTICK@" x="43.2" y="81.8235" style="stroke: #000000; stroke-width: 0.8"/>\n'
    "      </g>\n"
    "     </g>\n"
    '     <g id="text_11">\n'
    '      <text style="font-size: 8px; font-family: \'DejaVu Sans\'; text-anchor: end" x="36.2" y="84.862562" transform="rotate(-0 36.2 84.862562)">@Y3@</text>\n'
    "     </g>\n"
    "    </g>\n"
    '    <g id="ytick_5">\n'
    '     <g id="line2d_11">\n'
    "      <g>\n"
    '       <use xlink:href="#@YTICK@" x="43.2" y="40.986" style="stroke: #000000; stroke-width: 0.8"/>\n'
    "      </g>\n"
    "     </g>\n"
    '     <g id="text_12">\n'
    '      <text style="font-size: 8px; font-family: \'DejaVu Sans\'; text-anchor: end" x="36.2" y="44.025062" transform="rotate(-0 36.2 44.025062)">@Y4@</text>\n'
    "     </g>\n"
    "    </g>\n"
    '    <g id="text_13">\n'
    '     <text style="font-size: 8px; font-family: \'DejaVu Sans\'; text-anchor: middle" x="12.465625" y="112.86" transform="rotate(-90 12.465625 112.86)">@YLABEL@</text>\n'
    "    </g>\n"
    "   </g>\n"
    '   <g id="line2d_12">\n'
    '    <path d="M 43.2 204.336 \n'
    "L 279.36 40.986 \n"
    '" clip-path="url(#@CLIP@)" style="fill: none; stroke-dasharray: 3.7,1.6; stroke-dashoffset: 0; stroke: #888888"/>\n'
    "   </g>\n"
)

_SPINES = (
    '   <g id="patch_@S0@">\n'
    '    <path d="M 43.2 204.336 \n'
    "L 43.2 21.384 \n"
    '" style="fill: none; stroke: #000000; stroke-width: 0.8; stroke-linejoin: miter; stroke-linecap: square"/>\n'
    "   </g>\n"
    '   <g id="patch_@S1@">\n'
    '    <path d="M 279.36 204.336 \n'
    "L 279.36 21.384 \n"
    '" style="fill: none; stroke: #000000; stroke-width: 0.8; stroke-linejoin: miter; stroke-linecap: square"/>\n'
    "   </g>\n"
    '   <g id="patch_@S2@">\n'
    '    <path d="M 43.2 204.336 \n'
    "L 279.36 204.336 \n"
    '" style="fill: none; stroke: #000000; stroke-width: 0.8; stroke-linejoin: miter; stroke-linecap: square"/>\n'
    "   </g>\n"
    '   <g id="patch_@S3@">\n'
    '    <path d="M 43.2 21.384 \n'
    "L 279.36 21.384 \n"
    '" style="fill: none; stroke: #000000; stroke-width: 0.8; stroke-linejoin: miter; stroke-linecap: square"/>\n'
    "   </g>\n"
)

_TAIL = (
    "  </g>\n"
    " </g>\n"
    " <defs>\n"
    '  <clipPath id="@CLIP@">\n'
    '   <rect x="43.2" y="21.384" width="236.16" height="182.952"/>\n'
    "  </clipPath>\n"
    " </defs>\n"
    "</svg>\n"
)
