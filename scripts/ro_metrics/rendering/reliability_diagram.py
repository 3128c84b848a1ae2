"""The reliability diagram of one subject version, as SVG text.

Confidence bins of the ECE (aggregated_metrics.md §3.4) against the soft accuracy of
each bin, the count of every bin written above it and the diagonal of perfect
calibration, drawn by reliability_svg (plain SVG, text kept as text): the same data
and words give the same bytes on every machine (about 1 ms a diagram).
"""

import hashlib
import re
from typing import NamedTuple

# A subject_version is free text; a diagram file name uses it only when it is tame.
TAME_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")


class DiagramText(NamedTuple):
    """The axis labels and the decimal mark of a diagram: the page language's own (its
    labels, rendering/labels.json)."""

    xlabel: str
    ylabel: str
    decimal_mark: str


def diagram_text(t) -> DiagramText:
    """A diagram's words in the language t (translations.Language)."""
    return DiagramText(t("diagram_xlabel"), t("diagram_ylabel"), t("decimal_mark"))


def diagram_name(subject_id: str, subject_version: str) -> str:
    """File name of a diagram: readable when the version allows it, unique always."""
    if TAME_NAME.fullmatch(subject_version):
        return f"{subject_id}__{subject_version}.svg"
    digest = hashlib.sha256(subject_version.encode("utf-8")).hexdigest()[:16]
    return f"{subject_id}__version-{digest}.svg"


def inline(text: str) -> str:
    """The <svg> element alone, for embedding in an HTML page: no XML declaration. The
    diagram has no element ids, so several on one page cannot clash."""
    return text[text.index("<svg") :].strip()
