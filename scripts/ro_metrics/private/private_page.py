"""A private report as a self-contained page in each language (report.html,
report.es.html), and the same page printed to PDF (report.pdf).

The page prints the report's view (private_view.py) with
rendering/templates/private_report.html, which takes the leaderboard's components
(status badge, score intervals, the ranking table for the comparison, the family and
bins tables) from components.html, and the site's classification badges
(site_pages.classification_badge): one renderer for the leaderboard, the site and the
reports. Every label comes from rendering/labels.json; corpus texts are escaped. The
page holds no clock, so the same inputs give the same bytes.

The PDF is the page printed by headless Chromium (docs/publishing.md says why
Chromium): A4, its footer (the version, the inputs digest, "page n of N") drawn from
the page's own @page rules. A PDF carries its creation date, so two prints differ in
those bytes only.
"""

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from markupsafe import Markup

from ro_metrics.leaderboard.leaderboard_page import diagram
from ro_metrics.private.packet_files import REPORT_PAGES, zip_name
from ro_metrics.private.private_view import PrivateReport
from ro_metrics.rendering.page_templates import Labels, render
from ro_metrics.rendering.translations import Language
from ro_metrics.site.site_pages import classification_badge

# Debian's package, as .ci/run installs it; chromium-browser elsewhere.
CHROMIUM_NAMES = ("chromium", "chromium-browser")
PRINT_SECONDS = 180


class PdfError(RuntimeError):
    """The PDF could not be printed; the message says why, in one line."""


def render_report(report: PrivateReport, t: Language, *, diagram_svg: str, bins: list) -> str:
    """The whole page in language t; diagram_svg: the version's reliability diagram in
    language t (rendering/reliability_svg), bins: its ECE bins."""
    other = REPORT_PAGES["es" if t.code == "en" else "en"]

    def badge(run) -> Markup:
        # Labels only (this project's data): trusted markup.
        return Markup(classification_badge(run.classification, t, run.critical))  # noqa: S704

    return render(
        "private_report.html",
        report=report,
        row=report.row,
        t=Labels(t),
        diagram=diagram(diagram_svg, bins),
        badge=badge,
        other_page=other,
        zip_name=zip_name(report.row.subject_version),
        # A packet holds no other version's page: the comparison's names lead to the
        # version's own result, or stay in the comparison.
        subject_href=lambda shown: "#overall" if shown == report.row else "#comparison",
        run_href=lambda _fail: None,
    )


def chromium() -> str:
    """The path of the browser that prints the PDF."""
    for name in CHROMIUM_NAMES:
        if found := shutil.which(name):
            return found
    raise PdfError(
        "report.pdf needs Chromium (`apt-get install chromium`, as .ci/run does); "
        f"none of {', '.join(CHROMIUM_NAMES)} is on the PATH"
    )


def print_pdf(page: Path, target: Path, log) -> None:
    """Print the page (an HTML file) to target with headless Chromium: no header or
    footer of the browser's own (the page's @page rules draw them), a profile of its
    own in a scratch folder, so that parallel prints never share one."""
    browser = chromium()
    with tempfile.TemporaryDirectory(prefix="private-report-") as scratch:
        printed = Path(scratch) / "report.pdf"
        command = [
            browser,
            "--headless",
            "--no-sandbox",  # as root (CI, containers) Chromium refuses its sandbox
            "--disable-gpu",
            "--no-pdf-header-footer",
            f"--user-data-dir={scratch}/profile",
            f"--print-to-pdf={printed}",
            page.resolve().as_uri(),
        ]
        try:
            done = subprocess.run(
                command,
                capture_output=True,
                text=True,
                timeout=PRINT_SECONDS,
                check=False,
                env={**os.environ, "TZ": "UTC"},
            )
        except subprocess.TimeoutExpired as error:
            raise PdfError(f"{page}: Chromium did not print it in {PRINT_SECONDS} s") from error
        log.debug("chromium: %s", done.stderr.strip())
        if done.returncode != 0 or not printed.is_file() or printed.stat().st_size == 0:
            last = (done.stderr.strip().splitlines() or ["no message"])[-1]
            raise PdfError(f"{page}: Chromium could not print it ({last})")
        target.parent.mkdir(parents=True, exist_ok=True)
        staging = target.with_name(f".{target.name}.{os.getpid()}.tmp")
        shutil.move(printed, staging)
        os.replace(staging, target)
