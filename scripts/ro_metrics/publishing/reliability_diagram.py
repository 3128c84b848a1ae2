"""The reliability diagram of one subject version, drawn with matplotlib as SVG text.

Confidence bins of the ECE (aggregated_metrics.md §3.4) against the soft accuracy of
each bin, the count of every bin written above it and the diagonal of perfect
calibration. The SVG is byte-identical for identical input: no date in its metadata,
element ids salted with the subject's key (unique within a page holding several
diagrams) and text kept as text (svg.fonttype "none"), so no font outlines depend
on the machine's FreeType.

Drawing costs ~50 ms and importing matplotlib ~0.85 s, so diagrams are kept in a
content-addressed folder and matplotlib is imported only when one is missing: a
rerun after one new scoring redraws one diagram (two: one per language). A full run
draws them on the job's processes, forked once matplotlib is imported.
"""

import hashlib
import io
import multiprocessing
import os
import re
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import NamedTuple

from ro_metrics.contracts.files import write_bytes_atomic
from ro_metrics.contracts.vocabulary import N_BINS

# Every input of the drawing is in the key: the data, the title, this module's code.
_CODE_DIGEST = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()
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


# From this many missing diagrams on (a full run: one per subject version and language),
# they are drawn on several processes. Such a run reaches the leaderboard job with
# every other step done but the changes report: the cores are free. A rerun after a
# few new scorings draws its two or four diagrams in the job's own process.
PARALLEL_FROM = 16


def draw_missing(requests: list[DiagramRequest], cache_dir, workers: int) -> int:
    """Draw the diagrams the cache folder lacks into it, on up to `workers` processes
    when there are PARALLEL_FROM of them or more; how many were drawn. A full run draws
    one per subject version and language (~50 ms each, 200 at size L)."""
    cache_dir = Path(cache_dir)
    missing = {}
    for request in requests:
        key = diagram_key(*request)
        if key not in missing and not (cache_dir / f"{key}.svg").exists():
            missing[key] = request
    if workers > 1 and len(missing) >= PARALLEL_FROM:
        # Imported before the fork: each worker starts with matplotlib loaded.
        _import_matplotlib(cache_dir)
        context = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
            drawn = list(pool.map(_draw_request, missing.values(), [cache_dir] * len(missing)))
    else:
        drawn = [_draw_request(request, cache_dir) for request in missing.values()]
    for key, svg in zip(missing, drawn, strict=True):
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
    # Half of the import's cost (~0.5 s), and then in every worker's memory already.
    import matplotlib.figure

    return matplotlib


def draw(bins, title: str, salt: str, cache_dir, words: DiagramText) -> str:
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
