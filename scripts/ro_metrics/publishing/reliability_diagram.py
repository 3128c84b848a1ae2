"""The reliability diagram of one subject version, as SVG text.

Confidence bins of the ECE (aggregated_metrics.md §3.4) against the soft accuracy of
each bin, the count of every bin written above it and the diagonal of perfect
calibration. The SVG is byte-identical for identical input: no date in its metadata,
element ids salted with the subject's key (unique within a page holding several
diagrams) and text kept as text (svg.fonttype "none"), so no font outlines depend
on the machine's FreeType.

The figure is matplotlib's (draw_with_matplotlib says how it is drawn), written
without matplotlib by reliability_svg.reliability_svg_text: the same bytes in ~1 ms,
where importing matplotlib took ~0.85 s of every job that drew one and each drawing
~50 ms. Only a title of several lines (a newline in a subject version), whose layout
depends on the font's metrics, is drawn by matplotlib itself. Diagrams are kept in a
content-addressed folder: a rerun writes only the ones whose data changed.
"""

import hashlib
import io
import os
import re
from pathlib import Path
from typing import NamedTuple

from ro_metrics.contracts.files import write_bytes_atomic
from ro_metrics.contracts.vocabulary import N_BINS
from ro_metrics.publishing import reliability_svg
from ro_metrics.publishing.reliability_svg import reliability_svg_text

# Every input of the drawing is in the key: the data, the title, the code that draws.
_CODE_DIGEST = hashlib.sha256(
    Path(__file__).read_bytes() + Path(reliability_svg.__file__).read_bytes()
).hexdigest()
# A subject_version is free text; a diagram file name uses it only when it is tame.
TAME_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")


class DiagramText(NamedTuple):
    """The axis labels and the decimal mark of a diagram: the page language's own (its
    data file, publishing/i18n/<code>.json)."""

    xlabel: str
    ylabel: str
    decimal_mark: str


def diagram_name(subject_id: str, subject_version: str) -> str:
    """File name of a diagram: readable when the version allows it, unique always."""
    if TAME_NAME.fullmatch(subject_version):
        return f"{subject_id}__{subject_version}.svg"
    digest = hashlib.sha256(subject_version.encode("utf-8")).hexdigest()[:16]
    return f"{subject_id}__version-{digest}.svg"


def diagram_key(bins, title: str, salt: str, words: DiagramText) -> str:
    """Content address of a diagram (bins as (m, n, conf, acc) with exact values)."""
    cells = [(m, n, str(conf), str(acc)) for m, n, conf, acc in bins]
    text = repr((cells, title, salt, tuple(words)))
    return hashlib.sha256(f"{_CODE_DIGEST}\n{text}".encode()).hexdigest()


def reliability_svg(bins, title: str, salt: str, cache_dir, words: DiagramText) -> str:
    """The diagram's SVG text, from the cache folder or drawn (and then kept there)."""
    cache_dir = Path(cache_dir)
    cached = cache_dir / f"{diagram_key(bins, title, salt, words)}.svg"
    if cached.exists():
        return cached.read_text("utf-8")
    svg = draw(bins, title, salt, cache_dir, words)
    write_bytes_atomic(cached, svg.encode("utf-8"))
    return svg


class DiagramRequest(NamedTuple):
    """What reliability_svg draws: a subject version's bins, title, id salt, words."""

    bins: tuple
    title: str
    salt: str
    words: DiagramText


def draw_missing(requests: list[DiagramRequest], cache_dir) -> int:
    """Draw the diagrams the cache folder lacks into it; how many were drawn. A full run
    draws one per subject version and language (200 at size L, ~1 ms each)."""
    cache_dir = Path(cache_dir)
    missing = {}
    for request in requests:
        key = diagram_key(*request)
        if key not in missing and not (cache_dir / f"{key}.svg").exists():
            missing[key] = request
    for key, request in missing.items():
        svg = _draw_request(request, cache_dir)
        write_bytes_atomic(cache_dir / f"{key}.svg", svg.encode("utf-8"))
    return len(missing)


def _draw_request(request: DiagramRequest, cache_dir: Path) -> str:
    return draw(request.bins, request.title, request.salt, cache_dir, request.words)


def prune_diagrams(cache_dir, keep: set[str]) -> None:
    """Drop the cached diagrams no subject uses any more: the cache stays the size of a page."""
    for path in Path(cache_dir).glob("*.svg"):
        if path.stem not in keep:
            path.unlink(missing_ok=True)


def _import_matplotlib(cache_dir):
    # matplotlib keeps a font cache in its config folder: inside our cache, never
    # in the user's home (the workflow writes nowhere else).
    os.environ.setdefault("MPLCONFIGDIR", str(Path(cache_dir) / "matplotlib-config"))
    import matplotlib

    matplotlib.use("svg")
    import matplotlib.figure

    return matplotlib


def draw(bins, title: str, salt: str, cache_dir, words: DiagramText) -> str:
    """The diagram's SVG text: written directly, or by matplotlib for a title of
    several lines (module docstring)."""
    if "\n" in title:
        return draw_with_matplotlib(bins, title, salt, cache_dir, words)
    return reliability_svg_text(bins, title, salt, words)


def draw_with_matplotlib(bins, title: str, salt: str, cache_dir, words: DiagramText) -> str:
    """The diagram as matplotlib draws it; reliability_svg writes the same bytes."""
    matplotlib = _import_matplotlib(cache_dir)
    Figure = matplotlib.figure.Figure

    style = {
        "svg.hashsalt": salt,
        "svg.fonttype": "none",
        "font.family": "DejaVu Sans",
        "font.size": 8,
        "axes.titlesize": 9,
    }
    with matplotlib.rc_context(style):
        # Fixed margins instead of a layout engine: the engine measures every text
        # and draws the figure twice, half the cost of a diagram.
        figure = Figure(figsize=(4.0, 3.3))
        figure.subplots_adjust(left=0.15, right=0.97, bottom=0.14, top=0.91)
        axes = figure.add_subplot()
        width = 1 / N_BINS
        axes.plot([0, 1], [0, 1], linestyle="--", color="#888888", linewidth=1)
        lefts = [(m - 1) * width for m, _, _, _ in bins]
        accuracies = [float(acc) for _, _, _, acc in bins]
        axes.bar(
            lefts,
            accuracies,
            width=width,
            align="edge",
            color="#4c78a8",
            edgecolor="#1f3b5a",
            linewidth=0.6,
        )
        axes.plot(
            [float(conf) for _, _, conf, _ in bins],
            accuracies,
            linestyle="none",
            marker="o",
            markersize=3,
            color="#e45756",
        )
        for left, accuracy, (_, n, _, _) in zip(lefts, accuracies, bins, strict=True):
            axes.text(
                left + width / 2,
                accuracy + 0.02,
                f"n={n}",
                ha="center",
                va="bottom",
                fontsize=7,
                parse_math=False,
            )
        axes.set_xlim(0, 1)
        axes.set_ylim(0, 1.12)
        axes.set_xticks([i / N_BINS for i in range(0, N_BINS + 1, 2)])
        axes.set_yticks([0, 0.25, 0.5, 0.75, 1])
        if words.decimal_mark != ".":
            # The tick texts matplotlib writes (0.0 … 1.0, 0.00 … 1.00), with the mark.
            axes.set_xticklabels(
                [f"{i / N_BINS:.1f}".replace(".", words.decimal_mark) for i in range(0, 11, 2)]
            )
            axes.set_yticklabels(
                [f"{y:.2f}".replace(".", words.decimal_mark) for y in (0, 0.25, 0.5, 0.75, 1)]
            )
        axes.set_xlabel(words.xlabel)
        axes.set_ylabel(words.ylabel)
        axes.set_title(title, parse_math=False)
        buffer = io.StringIO()
        figure.savefig(buffer, format="svg", metadata={"Date": None})
    return buffer.getvalue()


# An id="..." attribute inside a tag; text nodes cannot match (their "<" is escaped).
_ID_ATTRIBUTE = re.compile(r'(<[^<>]*?\sid=")([^"]+)(")')
_ID_REFERENCE = re.compile(r'(url\(#|xlink:href="#|href="#)([^)"]+)')


def inline(svg: str, prefix: str) -> str:
    """The <svg> element alone, for embedding in an HTML page: no XML prolog, and
    matplotlib's element ids (figure_1, patch_1, ...) prefixed so that several
    diagrams on one page keep every id unique."""
    element = svg[svg.index("<svg") :].strip()
    element = _ID_ATTRIBUTE.sub(lambda m: f"{m[1]}{prefix}-{m[2]}{m[3]}", element)
    return _ID_REFERENCE.sub(lambda m: f"{m[1]}{prefix}-{m[2]}", element)
