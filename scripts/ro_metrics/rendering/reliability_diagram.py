"""The reliability diagram of one subject version, as SVG text.

Confidence bins of the ECE (aggregated_metrics.md §3.4) against the soft accuracy of
each bin, the count of every bin written above it and the diagonal of perfect
calibration, drawn by reliability_svg (plain SVG, text kept as text): the same data
and words give the same bytes on every machine. Diagrams are kept in a
content-addressed folder: a rerun writes only the ones whose data changed.
"""

import hashlib
import re
from pathlib import Path
from typing import NamedTuple

from ro_metrics.contracts.files import write_bytes_atomic
from ro_metrics.rendering import reliability_svg, svg
from ro_metrics.rendering.reliability_svg import reliability_svg_text

# Every input of the drawing is in the key: the data, the title, the code that draws.
_CODE_DIGEST = hashlib.sha256(
    b"".join(Path(module.__file__).read_bytes() for module in (reliability_svg, svg))
).hexdigest()
# A subject_version is free text; a diagram file name uses it only when it is tame.
TAME_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")


class DiagramText(NamedTuple):
    """The axis labels and the decimal mark of a diagram: the page language's own (its
    labels, rendering/labels.json)."""

    xlabel: str
    ylabel: str
    decimal_mark: str


def diagram_name(subject_id: str, subject_version: str) -> str:
    """File name of a diagram: readable when the version allows it, unique always."""
    if TAME_NAME.fullmatch(subject_version):
        return f"{subject_id}__{subject_version}.svg"
    digest = hashlib.sha256(subject_version.encode("utf-8")).hexdigest()[:16]
    return f"{subject_id}__version-{digest}.svg"


def diagram_key(bins, title: str, words: DiagramText) -> str:
    """Content address of a diagram (bins as (m, n, conf, acc) with exact values)."""
    cells = [(m, n, str(conf), str(acc)) for m, n, conf, acc in bins]
    text = repr((cells, title, tuple(words)))
    return hashlib.sha256(f"{_CODE_DIGEST}\n{text}".encode()).hexdigest()


def reliability_svg(bins, title: str, cache_dir, words: DiagramText) -> str:
    """The diagram's SVG text, from the cache folder or drawn (and then kept there)."""
    cached = Path(cache_dir) / f"{diagram_key(bins, title, words)}.svg"
    if cached.exists():
        return cached.read_text("utf-8")
    text = reliability_svg_text(bins, title, words)
    write_bytes_atomic(cached, text.encode("utf-8"))
    return text


class DiagramRequest(NamedTuple):
    """What reliability_svg draws: a subject version's bins, title and words."""

    bins: tuple
    title: str
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
        write_bytes_atomic(cache_dir / f"{key}.svg", reliability_svg_text(*request).encode("utf-8"))
    return len(missing)


def prune_diagrams(cache_dir, keep: set[str]) -> None:
    """Drop the cached diagrams no subject uses any more: the cache stays the size of a page."""
    for path in Path(cache_dir).glob("*.svg"):
        if path.stem not in keep:
            path.unlink(missing_ok=True)


def inline(text: str) -> str:
    """The <svg> element alone, for embedding in an HTML page: no XML declaration. The
    diagram has no element ids, so several on one page cannot clash."""
    return text[text.index("<svg") :].strip()
