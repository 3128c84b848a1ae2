"""A registry description holding markup, run through the real workflow, is shown as text.

The leaderboard page the workflow writes escapes it in the HTML; in headless Chromium
the browser creates no element from it and runs no script: an alert trap installed
before anything else stays silent, and the same trap does fire on a control copy where
the markup is left unescaped. (The committed page in a browser:
tests/unit/test_leaderboard_browser.py.)
"""

import re

import pytest
import yaml

from browser import PROBE, dump_dom, require_chromium, subject_sections, with_alert_trap
from workflow_runs import ONE_PARTITION, corpus_copy, read_csv, run_workflow, workflow_copy

require_chromium(module_level=True)

PROBE_SUBJECT = "atlas-7b"


def with_description(registry: str, subject_id: str, description: str) -> str:
    """The registry text with the folded description block of a subject replaced."""
    lines = registry.splitlines(keepends=True)
    start = lines.index(f"  - subject_id: {subject_id}\n")
    key = next(i for i in range(start, len(lines)) if lines[i].strip() == "description: >")
    indent = " " * (lines[key].index("description") + 2)
    end = key + 1
    while end < len(lines) and lines[end].startswith(indent):
        end += 1
    assert end > key + 1
    lines[key + 1 : end] = [f"{indent}{description}\n"]
    return "".join(lines)


@pytest.fixture(scope="module")
def probed_page(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("xss")
    corpus = corpus_copy(tmp / "corpus")
    registry = corpus / "subjects" / "registry.yaml"
    text = with_description(registry.read_text("utf-8"), PROBE_SUBJECT, PROBE)
    registry.write_text(text, "utf-8")
    subjects = {s["subject_id"]: s for s in yaml.safe_load(text)["subjects"]}
    assert subjects[PROBE_SUBJECT]["description"] == PROBE + "\n"
    assert subjects["borealis-xl"]["description"].startswith("SYNTHETIC frontier-style")

    workdir = workflow_copy(tmp / "workflow")
    run = run_workflow(workdir, corpus=corpus, results=workdir / "out", **ONE_PARTITION)
    assert run.returncode == 0, run.output
    published = read_csv(workdir / "out" / "leaderboard.csv")
    assert PROBE_SUBJECT in {row["subject_id"] for row in published}
    return workdir / "out" / "leaderboard.html"


def test_markup_in_a_description_is_escaped(probed_page):
    html = probed_page.read_text("utf-8")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "&lt;img src=x onerror=alert(2)&gt;" in html
    assert "<script>alert" not in html
    assert not re.search(r"<img\b", html, re.I)
    assert "onerror" not in html.replace("onerror=alert(2)&gt;", "")


def test_markup_in_a_description_renders_as_text(probed_page, tmp_path):
    dom = dump_dom(probed_page)
    sections = [
        s for s in subject_sections(dom) if s.one("h3").text().startswith(f"{PROBE_SUBJECT} ")
    ]
    assert len(sections) == 1
    description = sections[0].one("p", "description")
    assert description.raw_text().strip() == PROBE
    assert [e.tag for e in description.iter()] == ["p"]
    assert not [e for e in dom.iter() if e.tag == "img" or "onerror" in e.attrs]
    scripts = dom.find_all("script")
    assert len(scripts) == 1
    assert "alert" not in scripts[0].raw_text()


def test_markup_in_a_description_runs_no_script(probed_page, tmp_path):
    html = probed_page.read_text("utf-8")
    trapped = dump_dom(with_alert_trap(html, tmp_path / "trapped.html"))
    assert "data-alerted" not in trapped.one("html").attrs

    # Control: the same trap catches the probe when it is left unescaped.
    escaped = "&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;"
    assert escaped in html
    raw = html.replace(escaped, PROBE)
    control = dump_dom(with_alert_trap(raw, tmp_path / "control.html"))
    assert control.one("html").attrs.get("data-alerted") in {"1", "2"}
