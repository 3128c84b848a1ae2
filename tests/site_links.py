"""A built static site: the files it must hold (its pages from the data), each page's
ids, links and text, and the check that every link resolves inside the site (shared by
the site tests on the demo and on the benchmark's real corpus)."""

import csv
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

from ro_metrics.contracts.files import DIRECTORY_MARKER as SNAKEMAKE_MARKER
from ro_metrics.site.site_files import site_page_paths


def expected_site(corpus: Path, results: Path) -> list[str]:
    """Every file the site folder must hold, sorted: a page per case of the corpus's
    golds and per subject version of the published per_run.csv (a version with a scored
    run), the front pages (with the worklist under double review), in every edition
    (site_files.site_page_paths); and Snakemake's marker."""
    case_ids = [path.name.removesuffix("_gold.md") for path in corpus.glob("golds/*/*_gold.md")]
    with open(results / "per_run.csv", encoding="utf-8", newline="") as handle:
        versions = {(row["subject_id"], row["subject_version"]) for row in csv.DictReader(handle)}
    # Under double review (pending_runs.csv is published) the worklist page too.
    double_review = (results / "pending_runs.csv").is_file()
    return sorted([*site_page_paths(case_ids, versions, double_review), SNAKEMAKE_MARKER])


class Page(HTMLParser):
    """The ids, links and text of one page."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.ids, self.links, self.tags, self.texts = set(), [], Counter(), []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags[tag] += 1
        if "id" in attrs:
            self.ids.add(attrs["id"])
        for name in ("href", "src"):
            if attrs.get(name) is not None:
                self.links.append(attrs[name])

    def handle_data(self, data):
        self.texts.append(data)


def parse(path: Path) -> Page:
    page = Page()
    page.feed(path.read_text("utf-8"))
    page.close()
    return page


def link_check(site: Path) -> tuple[list[tuple[str, str]], int]:
    """(page, link) of every link of the site whose file or anchor does not exist, and
    the number of links checked. A link leaving the site or naming a host is broken too."""
    pages = {path.relative_to(site).as_posix(): parse(path) for path in site.rglob("*.html")}
    broken, checked = [], 0
    for name, page in pages.items():
        for link in page.links:
            checked += 1
            parts = urlsplit(link)
            target = (site / name).parent / unquote(parts.path) if parts.path else site / name
            target = target.resolve()
            key = (
                target.relative_to(site.resolve()).as_posix()
                if target.is_relative_to(site.resolve())
                else None
            )
            anchor = unquote(parts.fragment)
            unknown = key not in pages or (anchor and anchor not in pages[key].ids)
            if parts.scheme or parts.netloc or unknown:
                broken.append((name, link))
    return broken, checked
