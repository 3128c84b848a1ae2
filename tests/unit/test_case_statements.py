"""The public case statements (shared/spec/families.md): their parse and checks
(corpus/statements.py) and their rendering on the case page (site/case_statement.py).

- a statement in the benchmark's format parses into its title, note and sections; every
  problem of a statements folder is found in one pass, each one line naming its file
  and field (an unknown, repeated or missing section, a case id other than the file's,
  a file name that is no case of the golds, a file that is not UTF-8, a folder);
- a statement renders with raw HTML off: a script, an HTML tag, a `javascript:` link and
  an image stay text (checked on the markup and in Chromium, an alert trap silent);
  each cell of its table carries its column's header; a case without a statement says
  it is not public, in each edition's words.
"""

from pathlib import Path

import pytest

from browser import ALERT_TRAP, require_chromium, shared_browser
from ro_metrics.contracts.records import Problem
from ro_metrics.corpus.layout import statement_entries
from ro_metrics.corpus.statements import (
    parse_statement,
    statement_files,
    statement_of,
    statement_problems,
)
from ro_metrics.site.case_statement import markdown_html, statement_html
from ro_metrics.site.site_pages import EDITIONS, render_case_page
from site_records import SITE_GOLD

STATEMENT = """# RO-FOUL-001

> [TEACHING EXAMPLE]

## case_id
RO-FOUL-001

## plant_context
Planta SWRO de 30.000 m³/día.

## operational_data

| Variable | Valor actual |
|---|---|
| ΔP 1ª etapa | 3,2 bar |

## recent_history
- Día -21: subida de turbidez.

## reporting_party
Supervisor de turno

## reporting_date
2026-04-22
"""
HOSTILE = (
    "<script>alert(1)</script> <img src=x onerror=alert(2)> [click](javascript:alert(3)) "
    "![pixel](https://example.org/p.png) <b>bold</b>"
)


def test_a_statement_in_the_benchmarks_format_parses_into_its_sections():
    statement, problems = parse_statement(STATEMENT)
    assert problems == []
    assert statement.title == "RO-FOUL-001" and statement.note == "> [TEACHING EXAMPLE]"
    assert statement.sections == {
        "case_id": "RO-FOUL-001",
        "plant_context": "Planta SWRO de 30.000 m³/día.",
        "operational_data": "| Variable | Valor actual |\n|---|---|\n| ΔP 1ª etapa | 3,2 bar |",
        "recent_history": "- Día -21: subida de turbidez.",
        "reporting_party": "Supervisor de turno",
        "reporting_date": "2026-04-22",
    }


def test_a_heading_in_a_code_block_is_text_and_section_problems_are_named():
    text = STATEMENT.replace("## reporting_party", "```\n## not_a_section\n```\n## reporting_party")
    statement, problems = parse_statement(text)
    assert problems == [] and "## not_a_section" in statement.sections["recent_history"]
    text = STATEMENT.replace("## plant_context", "## plant_contxt").replace(
        "## reporting_date", "## recent_history"
    )
    assert parse_statement(text)[1] == [
        "section 'plant_contxt': not a section of a case statement (known: case_id, "
        "plant_context, operational_data, recent_history, reporting_party, reporting_date)",
        "section recent_history: written twice",
        "section plant_context, reporting_date: missing",
    ]


def test_every_problem_of_a_statements_folder_in_one_pass(tmp_path):
    folder = tmp_path / "cases/v1.0"
    folder.mkdir(parents=True)
    (folder / "RO-FOUL-001.md").write_text(STATEMENT, "utf-8")
    (folder / "RO-FOUL-002.md").write_text(STATEMENT, "utf-8")  # RO-FOUL-001's text
    (folder / "RO-FOUL-009.md").write_text(STATEMENT.replace("001", "009"), "utf-8")
    (folder / "RO-SCAL-001.md").write_bytes(b"# RO-SCAL-001\n\xff\n")
    (folder / "notes.txt").write_text("x", "utf-8")
    (folder / "drafts").mkdir()
    (folder / ".gitkeep").write_text("", "utf-8")  # dot-files are ignored
    entries = statement_entries(tmp_path, "v1.0")
    golds = {"RO-FOUL-001", "RO-FOUL-002", "RO-SCAL-001"}
    assert statement_problems(tmp_path, entries, golds, 10_000) == [
        Problem(
            "cases/v1.0/RO-FOUL-002.md",
            "section case_id: 'RO-FOUL-001' is not the file's case id RO-FOUL-002",
        ),
        Problem(
            "cases/v1.0/RO-FOUL-002.md",
            "title: 'RO-FOUL-001' is not the file's case id RO-FOUL-002",
        ),
        Problem("cases/v1.0/RO-FOUL-009.md", "file name: RO-FOUL-009 is not a case with a gold"),
        Problem("cases/v1.0/RO-SCAL-001.md", "not valid UTF-8: byte 0xff at offset 14"),
        Problem("cases/v1.0/notes.txt", "file name: not a case statement's (<case_id>.md)"),
        Problem("cases/v1.0/drafts", "unexpected folder (not part of the corpus layout)"),
    ]
    # Above the corpus' file limit (1 MiB here): not read.
    (folder / "RO-FOUL-001.md").write_text(STATEMENT + "x" * 2**20, "utf-8")
    assert statement_problems(tmp_path, statement_entries(tmp_path, "v1.0"), golds, 2**20)[0] == (
        Problem(
            "cases/v1.0/RO-FOUL-001.md",
            "file is 1.0 MiB, above the limit of 1 MiB (config max_file_mib); not read",
        )
    )
    # The case pages' inputs: each family's files named for a case.
    assert statement_files(tmp_path, "v1.0") == {
        "FOUL": [
            str(folder / name) for name in ("RO-FOUL-001.md", "RO-FOUL-002.md", "RO-FOUL-009.md")
        ],
        "SCAL": [str(folder / "RO-SCAL-001.md")],
    }
    # A corpus without the folder: no statement, no problem.
    assert statement_entries(tmp_path / "none", "v1.0") == []


def test_a_table_cell_carries_its_columns_header():
    html = markdown_html(parse_statement(STATEMENT)[0].sections["operational_data"])
    assert html == (
        '<div class="table-wrap"><table>\n<thead>\n<tr>\n<th>Variable</th>\n'
        "<th>Valor actual</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n"
        '<td data-label="Variable">ΔP 1ª etapa</td>\n'
        '<td data-label="Valor actual">3,2 bar</td>\n</tr>\n</tbody>\n</table></div>\n'
    )


def test_markup_in_a_statement_stays_text():
    html = markdown_html(HOSTILE)
    assert html == (
        "<p>&lt;script&gt;alert(1)&lt;/script&gt; &lt;img src=x onerror=alert(2)&gt; "
        '[click](javascript:alert(3)) !<a href="https://example.org/p.png">pixel</a> '
        "&lt;b&gt;bold&lt;/b&gt;</p>\n"
    )


@pytest.mark.parametrize(
    ("code", "heading", "section", "not_public"),
    [
        ("en", "The case as posed", "Plant context", "The statement of this case is not public"),
        (
            "es",
            "El caso planteado",
            "Contexto de la planta",
            "El enunciado de este caso no es público",
        ),
    ],
)
def test_the_statement_or_its_absence_in_each_edition(code, heading, section, not_public):
    t = EDITIONS[code]
    shown = statement_html(statement_of(STATEMENT.encode()), t)
    assert f"<h2>{heading}</h2>" in shown and f"<h3>{section}</h3>" in shown
    # As written in both editions: the corpus' words are not translated.
    assert "<p>Planta SWRO de 30.000 m³/día.</p>" in shown
    assert "<blockquote>\n<p>[TEACHING EXAMPLE]</p>\n</blockquote>" in shown
    assert "<dd>Supervisor de turno</dd>" in shown and "<dd>2026-04-22</dd>" in shown
    absent = statement_html(None, t)
    assert not_public in absent and "Planta" not in absent


def test_a_hostile_statement_runs_nothing_in_a_browser(tmp_path):
    """The case page with a hostile statement, loaded in Chromium with an alert trap:
    no script runs, no element but the page's own is made, and the reader sees the
    markup as text."""
    require_chromium()
    hostile = STATEMENT.replace("Planta SWRO de 30.000 m³/día.", HOSTILE)
    page = render_case_page(
        case_id="RO-FOUL-001",
        gold=SITE_GOLD,
        rows=[],
        benchmark_version="v1.0",
        t=EDITIONS["en"],
        statement=statement_of(hostile.encode()),
    )
    before, head, after = page.partition("<head>")
    path = tmp_path / "case.html"
    path.write_text(f"{before}{head}\n{ALERT_TRAP}{after}", "utf-8")
    seen = shared_browser().evaluate(
        Path(path),
        """{alerted: root.getAttribute("data-alerted"),
            images: doc.querySelectorAll("img").length,
            bold: doc.querySelectorAll("section.statement b").length,
            links: Array.prototype.map.call(doc.querySelectorAll("section.statement a"),
                                            function (a) { return a.href; }),
            text: doc.querySelector(".statement-plant-context").innerText}""",
    )
    assert seen == {
        "alerted": None,
        "images": 0,
        "bold": 0,
        "links": ["https://example.org/p.png"],
        "text": HOSTILE.replace("![pixel](https://example.org/p.png)", "!pixel"),
    }
