"""The static site (`snakemake site`) built from the demo corpus: one build shared by
every test of the module (and a second, independent one for byte-identity).

What is proved, each expectation derived from the published CSVs or the corpus:
- the pages: the index, the findings and report pages, one page per scored subject
  version, one page per case, in English at the root and in Spanish under es/ (the same
  layout), and no other file but Snakemake's marker (site_links.expected_site);
- every link between them resolves (file and anchor), in both editions: 0 broken links;
  no network; each page's language switch leads to the same page in the other edition;
- the Spanish edition shows the same data (the same runs, anchors and links, the
  published metrics with a decimal comma, the responses' texts as written) with its own
  labels;
- a response's answer appears on its version's page in each edition (each of its long
  fields is in the site twice as many times as scored runs have it, once per edition),
  and each scored run there shows its scores, justifications and fails; the case pages
  show the case's statement when the corpus has it, or say it is not public; the matrix
  agree with per_run.csv, the version pages' summaries with metrics_per_subject.csv;
- never shown: a scoring's `reference`, `justification_long`, gold prose (GOLDCANARY);
- a family is named with the taxonomy's words (shared/spec/families.md) and no others;
- two builds from the same inputs are byte-identical; site/ is not committed;
- the site folder is checked before anything runs: never the repository, the corpus,
  the results or the cache, never a folder holding files the workflow did not write.
"""

import csv
import io
import json
import re
from collections import Counter, defaultdict
from pathlib import Path

import pytest

from ro_metrics.contracts.vocabulary import FAMILIES, family_of
from ro_metrics.site.site_files import case_page, edition_page, run_anchor, version_page
from site_links import SNAKEMAKE_MARKER, expected_site, link_check, parse
from taxonomy import misnamed_families, named_families
from workflow_runs import (
    DEMO_CORPUS,
    REPO,
    corpus_copy,
    files_below,
    run_workflow,
    tree_digest,
    workflow_copy,
)


def read_csv(path: Path) -> list[dict]:
    return list(csv.DictReader(io.StringIO(path.read_text("utf-8"), newline="")))


def build(tmp: Path) -> tuple[Path, Path]:
    corpus = corpus_copy(tmp / "corpus")
    workdir = workflow_copy(tmp / "workflow")
    run = run_workflow(workdir, "site", corpus=corpus, results=workdir / "results")
    assert run.returncode == 0, run.output
    assert "Traceback" not in run.output
    return workdir / "site", workdir / "results"


@pytest.fixture(scope="module")
def built(demo_site):
    return demo_site.workdir / "site", demo_site.results


@pytest.fixture(scope="module")
def site(built):
    return built[0]


@pytest.fixture(scope="module")
def results(built):
    return built[1]


@pytest.fixture(scope="module")
def pages(site):
    return {path.relative_to(site).as_posix(): parse(path) for path in site.rglob("*.html")}


def test_one_page_per_scored_version_and_case_and_the_front_pages(site, results):
    assert files_below(site) == expected_site(DEMO_CORPUS, results)
    # fjord-13b has responses but no scoring: no page, as on the leaderboard.
    assert "fjord-13b" in {path.name for path in (DEMO_CORPUS / "responses/v1.0").iterdir()}
    assert not (site / "versions/fjord-13b").exists()
    assert not (site / "es/versions/fjord-13b").exists()


def test_the_link_check_finds_a_missing_page_a_missing_anchor_and_a_remote_link(tmp_path):
    (tmp_path / "cases").mkdir()
    (tmp_path / "index.html").write_text(
        '<a href="cases/A.html#x">ok</a><a href="cases/B.html">no file</a>'
        '<a href="cases/A.html#y">no anchor</a><a href="https://example.org/">remote</a>'
        '<a href="../outside.html">outside</a><a href="#top">own anchor</a><p id="top"></p>'
        '<a href="cases/A.html">a page</a>'
    )
    (tmp_path / "cases/A.html").write_text('<h1 id="x">A</h1><a href="../index.html#top">up</a>')
    broken, checked = link_check(tmp_path)
    assert checked == 8
    assert broken == [
        ("index.html", "cases/B.html"),
        ("index.html", "cases/A.html#y"),
        ("index.html", "https://example.org/"),
        ("index.html", "../outside.html"),
    ]


def test_every_link_resolves_and_nothing_is_fetched(site, results, pages):
    broken, checked = link_check(site)
    assert broken == []
    # At least the matrix's cells and every case page's "full answer" links were checked.
    per_run = read_csv(results / "per_run.csv")
    cells = {(r["case_id"], r["subject_id"], r["subject_version"]) for r in per_run}
    assert checked > len(cells) + len(per_run)
    assert checked > 2 * (len(cells) + len(per_run))  # both editions
    for name, page in pages.items():
        assert page.tags["link"] == 0 and page.tags["img"] == 0, name
        assert page.tags["script"] == 1, name  # the page's own sorting script, inline


def test_every_page_switches_to_the_same_page_in_the_other_language(site, pages):
    english = sorted(name for name in pages if not name.startswith("es/"))
    assert sorted(pages) == sorted(english + [f"es/{n}" for n in english])
    for name in english:
        html = (site / name).read_text("utf-8")
        spanish = (site / "es" / name).read_text("utf-8")
        assert html.startswith('<!DOCTYPE html>\n<html lang="en">'), name
        assert spanish.startswith('<!DOCTYPE html>\n<html lang="es">'), name
        up = "../" * name.count("/")
        assert f'<a href="{up}es/{name}" hreflang="es" lang="es">Español</a>' in html
        assert f'<a href="../{up}{name}" hreflang="en" lang="en">English</a>' in spanish
        # The same data: the same anchors, and the same links but the switch's (a case
        # page's answer links lead to the version page of its own edition).
        en_page, es_page = pages[name], pages[f"es/{name}"]
        assert en_page.ids == es_page.ids, name
        en_links, es_links = list(en_page.links), list(es_page.links)
        en_links.remove(f"{up}es/{name}")
        es_links.remove(f"../{up}{name}")
        if name == "report.html":
            # The report's own line to its other edition (findings.md ↔ findings.es.md).
            en_links.remove(f"{up}es/{name}")
            es_links.remove(f"../{up}{name}")
        assert en_links == es_links, name


def test_each_answer_is_on_its_version_page_once_in_each_edition(site, results):
    per_run = read_csv(results / "per_run.csv")
    answers = Counter()
    for path in site.rglob("*.html"):
        html = path.read_text("utf-8")
        answers[path.relative_to(site).as_posix()] = html.count('<div class="answer">')
    # The full answer on the version page of each edition.
    runs_of = Counter(version_page(r["subject_id"], r["subject_version"]) for r in per_run)
    assert {name: n for name, n in answers.items() if n} == {
        edition_page(name, code): n for name, n in runs_of.items() for code in ("en", "es")
    }
    for row, code in ((row, code) for row in per_run for code in ("en", "es")):
        page = version_page(row["subject_id"], row["subject_version"])
        page = (site / edition_page(page, code)).read_text("utf-8")
        assert page.count(f'id="{run_anchor(row["case_id"], row["run_id"])}"') == 1
        response = json.loads(
            (
                DEMO_CORPUS
                / f"responses/v1.0/{row['subject_id']}/{row['case_id']}__{row['run_id']}.json"
            ).read_text("utf-8")
        )
        article = page.split(f'id="{run_anchor(row["case_id"], row["run_id"])}"', 1)[1]
        article = article.split("</article>", 1)[0]
        for field in ("main_hypothesis", "requested_data", "recommended_action"):
            assert escape(response[field]) in article, (row, field)
        for signal in response["key_signals"]:
            assert escape(signal) in article
        if code == "en":  # the Spanish words: test_a_spanish_version_page_prints_…
            assert f"clipped score <strong>{row['clipped_score']}</strong>" in article
            assert f"(floor {row['rubric_floor']}, ceiling {row['rubric_ceiling']})" in article
            assert f"confidence {row['reported_confidence']}" in article


def response_of(row: dict) -> dict:
    name = f"responses/v1.0/{row['subject_id']}/{row['case_id']}__{row['run_id']}.json"
    return json.loads((DEMO_CORPUS / name).read_text("utf-8"))


# The long fields of a response: only its version's pages show them.
def long_texts(response: dict) -> list[str]:
    texts = [response[name] for name in ("requested_data", "recommended_action")]
    texts += [response["decision_change_condition"], *response["key_signals"]]
    for alternative in response["alternatives"]:
        texts += [alternative["why_plausible"], alternative["why_discardable"]]
    return texts


def test_a_case_page_shows_its_statement_or_says_it_is_not_public(site):
    """The demo's statements (demo/data/statements.json): RO-FOUL-002's on its page in
    both editions, as written, above the runs; RO-MECH-006 has none: not public."""
    statement = (DEMO_CORPUS / "cases/v1.0/RO-FOUL-002.md").read_text("utf-8")
    context = "Planta de reutilización de 12.500 m³/d que trata efluente secundario de una EDAR."
    assert context in statement
    for edition, heading in (("", "The case as posed"), ("es/", "El caso planteado")):
        html = (site / edition / case_page("RO-FOUL-002")).read_text("utf-8")
        assert f'<section class="statement" id="statement"><h2>{heading}</h2>' in html
        assert f"<p>{context}" in html
        assert '<td data-label="Valor actual">0,3 mg/L</td>' in html
        assert html.index('id="statement"') < html.index('id="runs"')
        hidden = (site / edition / case_page("RO-MECH-006")).read_text("utf-8")
        assert "Planta" not in hidden
    assert "The statement of this case is not public" in (
        site / case_page("RO-MECH-006")
    ).read_text("utf-8")
    assert "El enunciado de este caso no es público" in (
        site / "es" / case_page("RO-MECH-006")
    ).read_text("utf-8")


def test_a_spanish_version_page_prints_each_answer_as_written(site, results):
    per_run = read_csv(results / "per_run.csv")
    for row in per_run:
        page = version_page(row["subject_id"], row["subject_version"])
        anchor = run_anchor(row["case_id"], row["run_id"])
        spanish = (site / "es" / page).read_text("utf-8")
        article = spanish.split(f'id="{anchor}"', 1)[1].split("</article>", 1)[0]
        response = response_of(row)
        answer = article.split('<div class="scoring">', 1)[0]
        # The model's words as written, under Spanish labels.
        assert (
            f'<div class="answer"><h4>Respuesta</h4><dl><dt>Hipótesis principal</dt><dd>'
            f"{escape(response['main_hypothesis'])}</dd><dt>Confianza</dt><dd>"
            f"{response['confidence']} / 100</dd>"
        ) in answer, row
        for text in long_texts(response):
            assert escape(text) in answer, row
        assert answer.count("Por qué es plausible:") == len(response["alternatives"])
        assert f"puntuación recortada <strong>{row['clipped_score']}</strong>" in article
        assert f"Respondida el {response['timestamp_utc']} · modalidad" in article
        assert f"Evaluada el {row['scoring_timestamp_utc']}" in article
    # A distinctive answer of the demo corpus (its recommended action, shared by no other
    # run): once on the version's page of each edition.
    action = escape(
        response_of(
            {"subject_id": "borealis-xl", "case_id": "RO-FOUL-001", "run_id": "run-2026-04-20-002"}
        )["recommended_action"]
    )
    assert action.startswith("Shock the RO with 200 mg/L sodium hypochlorite for 1 h")
    page = version_page("borealis-xl", "borealis-xl-2026-01-15")
    assert (site / page).read_text("utf-8").count(action) == 1
    assert (site / "es" / page).read_text("utf-8").count(action) == 1


def test_each_long_field_of_an_answer_is_in_the_site_once_per_run(site, results):
    everything = {
        path.relative_to(site).as_posix(): path.read_text("utf-8")
        for path in site.rglob("*")
        if path.is_file()
    }
    per_run = read_csv(results / "per_run.csv")
    # Several runs of the demo corpus give the same answer texts: each text is in the
    # site twice as many times as the scored runs' answers give it (once per edition),
    # all on version pages.
    expected = Counter(text for row in per_run for text in long_texts(response_of(row)))
    assert len(expected) == 108 and sum(expected.values()) == 2111
    for text, n in expected.items():
        found = {name: html.count(escape(text)) for name, html in everything.items()}
        found = {name: count for name, count in found.items() if count}
        assert sum(found.values()) == 2 * n, text
        assert all(name.startswith(("versions/", "es/versions/")) for name in found), found
    # A recommended action no other run gives: in one file of the site, once.
    action = response_of({"subject_id": "borealis-xl", "case_id": "RO-FOUL-001",
                          "run_id": "run-2026-04-20-002"})["recommended_action"]  # fmt: skip
    found = {name: html.count(escape(action)) for name, html in everything.items()}
    page = version_page("borealis-xl", "borealis-xl-2026-01-15")
    assert {name: n for name, n in found.items() if n} == {page: 1, f"es/{page}": 1}


def escape(value: str) -> str:
    return (
        value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        .replace('"', "&quot;").replace("'", "&#x27;")
    )  # fmt: skip


def test_scorings_are_shown_with_their_public_fields_only(site, results):
    per_run = read_csv(results / "per_run.csv")
    text = {p: p.read_text("utf-8") for p in site.rglob("*.html")}
    everything = "".join(text.values())
    for row in per_run:
        scoring = json.loads(
            (
                DEMO_CORPUS / f"scoring/v1.0/{row['subject_id']}/{row['case_id']}__"
                f"{row['run_id']}__eval-{row['reviewer_id']}.json"
            ).read_text("utf-8")
        )
        page = text[site / version_page(row["subject_id"], row["subject_version"])]
        article = page.split(f'id="{run_anchor(row["case_id"], row["run_id"])}"', 1)[1]
        article = article.split("</article>", 1)[0]
        for criterion in scoring["criterion_scores"].values():
            assert escape(criterion["justification"]) in article
            assert criterion.get("justification_long", "\0") not in everything
        for fail in scoring["automatic_fails_triggered"]:
            assert escape(fail["justification"]) in article
            assert fail["reference"] not in everything
            assert escape(fail["reference"]) not in everything
    assert "GOLDCANARY" not in everything


def test_version_pages_summaries_are_the_published_metrics(site, results):
    for row in read_csv(results / "metrics_per_subject.csv"):
        page = (site / version_page(row["subject_id"], row["subject_version"])).read_text()
        assert (
            f"{row['n_runs']} scored runs:\n {row['n_pass']} Pass, {row['n_conditional']} "
            f"Conditional,\n {row['n_fail']} Fail · Q<sub>final</sub> {row['q_final']} · pass "
            f"rate {row['pass_rate']} · mean clipped score {row['mean_clipped_score']} · Brier "
            f"{row['brier']} · ECE {row['ece']}"
        ) in page, row


def test_the_spanish_version_pages_show_the_published_metrics_with_a_decimal_comma(site, results):
    def comma(value):
        return value.replace(".", ",")

    for row in read_csv(results / "metrics_per_subject.csv"):
        page = (site / "es" / version_page(row["subject_id"], row["subject_version"])).read_text()
        assert (
            f"{row['n_runs']} ejecuciones evaluadas:\n {row['n_pass']} aprobado, "
            f"{row['n_conditional']} condicional,\n {row['n_fail']} suspenso · Q<sub>final</sub> "
            f"{comma(row['q_final'])} · tasa de aprobado {comma(row['pass_rate'])} · puntuación "
            f"recortada media {comma(row['mean_clipped_score'])} · Brier {comma(row['brier'])} "
            f"· ECE {comma(row['ece'])}"
        ) in page, row
        assert "." in row["q_final"] and f"Q<sub>final</sub> {row['q_final']}" not in page


def test_case_pages_and_matrix_agree_with_per_run(site, results):
    per_run = read_csv(results / "per_run.csv")
    by_case = defaultdict(list)
    for row in per_run:
        by_case[row["case_id"]].append(row)
    letter = {"Pass": "P", "Conditional": "C", "Fail": "F"}
    index = (site / "index.html").read_text("utf-8")
    for case_id, rows in by_case.items():
        page = (site / case_page(case_id)).read_text("utf-8")
        # The runs' table, after the case's statement (whose tables have a body too).
        body = page.split('id="runs"', 1)[1].split("<tbody>", 1)[1].split("</tbody>", 1)[0]
        shown = re.findall(
            r'<td class="name"><a href="[^"]+">([^<]+)</a><span class="ci">([^<]+)</span></td>'
            r'<td class="run">([^<]+)<span class="ci">reviewer ([^<]+)</span></td>'
            r'<td><span class="cls [a-z]+">([^<]+)</span></td>'
            r'<td class="num">(\d+)</td><td class="num">(\d+)</td>',
            body,
        )
        order = sorted(rows, key=lambda r: (r["subject_id"], r["subject_version"], r["run_id"]))
        assert shown == [
            (r["subject_id"], r["subject_version"], r["run_id"], r["reviewer_id"],
             r["classification"] + " (critical fail)" * (r["has_critical_fail"] == "True"),
             r["raw_score"], r["clipped_score"])
            for r in order
        ]  # fmt: skip
        # The matrix: each (case, version) cell has one letter per run, in run order.
        cells = defaultdict(list)
        for r in sorted(rows, key=lambda r: r["run_id"]):
            cells[(r["subject_id"], r["subject_version"])].append(
                "F!" if r["has_critical_fail"] == "True" else letter[r["classification"]]
            )
        for (subject_id, version), letters in cells.items():
            link = f'<a href="{version_page(subject_id, version)}#{case_id}">'
            cell = index.split(link, 1)[1].split("</a>", 1)[0]
            assert re.findall(r"<i class=\w+>([^<]+)</i>", cell) == letters


def test_index_shows_the_leaderboard_and_the_critical_fails(site, results):
    index = (site / "index.html").read_text("utf-8")
    board = read_csv(results / "leaderboard.csv")
    linked = r'<a href="versions/([^/"]+)/[^"]+">[^<]+</a><span class="ci">([^<]+)<'
    order = re.findall(linked, index)
    assert order[: len(board)] == [(r["subject_id"], r["subject_version"]) for r in board]
    fails = read_csv(results / "critical_fails.csv")
    assert {f["match"] for f in fails} == {"exact", "close", "none"}
    for fail in fails:
        anchor = f"{version_page(fail['subject_id'], fail['subject_version'])}#" + run_anchor(
            fail["case_id"], fail["run_id"]
        )
        assert f'href="{anchor}"' in index
        if fail["match"] == "none":
            assert (
                '<span class="reviewer-words"><span class="reviewer-label">Reviewer’s words:'
                f"</span> {escape(fail['reviewer_justification'])}"
            ) in index
        else:
            assert f'<q class="quote">{escape(fail["quote"])}</q>' in index
    # The one close fail is marked twice: under its row, and in the section (the third
    # mark is the legend's).
    assert index.count('<span class="match close" title=') == 2
    assert index.count("≈ close</span>") == 3
    assert "Disqualified subject versions" in index


def test_every_page_names_a_family_with_the_taxonomys_words_only(site):
    """shared/spec/families.md: no invented name in either edition (tests/taxonomy.py,
    the spec's table); a case page names its own family, the findings page every one."""
    named_on = defaultdict(set)
    for path in sorted(site.rglob("*.html")):
        page = path.relative_to(site).as_posix()
        text = path.read_text("utf-8")
        code = "es" if page.startswith("es/") else "en"
        assert misnamed_families(text, code) == [], page
        named_on[page] = {family for family, _ in named_families(text)}
    for page, families in named_on.items():
        if "cases/" in page:
            assert family_of(Path(page).stem) in families, page
    assert named_on["findings.html"] == named_on["es/findings.html"] == set(FAMILIES)
    assert named_on["report.html"] == named_on["es/report.html"] == set(FAMILIES)


def test_two_builds_are_byte_identical_and_site_is_not_committed(site, tmp_path):
    # The shared site was built after the results, this one in the same run as them.
    again, _ = build(tmp_path)
    assert tree_digest(again) == tree_digest(site)
    # The default site folder, at the root (ro_metrics/site/ is the library package).
    assert "/site/" in (REPO / ".gitignore").read_text("utf-8").splitlines()


@pytest.mark.parametrize(
    ("site", "problem"),
    [
        (".", "is or holds the repository"),
        ("{tmp}", "is or holds the repository"),
        ("{tmp}/data", "is or holds the corpus"),
        ("{tmp}/data/corpus/site", "is inside the corpus"),
        ("{tmp}/out", "is or holds the results folder"),
        ("{tmp}/out/results/site", "is inside the results folder"),
        (".cache", "is or holds the cache"),
        (".cache/site", "is inside the cache"),
        ("{tmp}/notes.txt", "is not a folder"),
        ("{tmp}/mine", "holds files the workflow did not write"),
    ],
)
def test_a_site_folder_that_is_not_the_workflows_own_is_refused(tmp_path, site, problem):
    """rule site_folder owns the folder whole (Snakemake empties it before it runs): a
    one-line configuration error before anything runs, and nothing removed."""
    workdir = workflow_copy(tmp_path / "workflow")
    corpus = corpus_copy(tmp_path / "data/corpus")
    (tmp_path / "notes.txt").write_text("mine")
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine/letter.txt").write_text("mine")
    site = site.format(tmp=tmp_path)
    results = tmp_path / "out/results"
    run = run_workflow(workdir, "site", corpus=corpus, results=results, site=site)
    assert run.returncode == 1
    lines = [line for line in run.output.splitlines() if line.startswith("Invalid configuration")]
    assert len(lines) == 1 and lines[0].startswith("Invalid configuration: site: "), run.output
    assert problem in lines[0]
    assert (tmp_path / "mine/letter.txt").read_text() == "mine"
    assert (tmp_path / "notes.txt").read_text() == "mine"
    assert not results.exists()


def test_an_empty_folder_or_one_the_workflow_wrote_is_accepted(tmp_path):
    workdir = workflow_copy(tmp_path / "workflow")
    (tmp_path / "empty").mkdir()
    (tmp_path / "built/cases").mkdir(parents=True)
    (tmp_path / "built" / SNAKEMAKE_MARKER).touch()
    for site in ("empty", "built", "new"):
        run = run_workflow(
            workdir,
            "--dry-run",
            "site",
            corpus=DEMO_CORPUS,
            results=tmp_path / "results",
            site=tmp_path / site,
        )
        assert run.returncode == 0, run.output


def test_the_counts_on_the_terminal_are_the_pages_written(demo_site, site):
    # Each job's line counts the pages it wrote; site_folder's, the pages in the site.
    record = demo_site.workdir.parent.parent / "demo-site.json"
    _, output = json.loads(record.read_text("utf-8"))
    written = [path for path in site.rglob("*") if path.is_file() and path.name != SNAKEMAKE_MARKER]
    whole = re.findall(r"^site: (\d+) pages (?:linked|copied) into ", output, re.MULTILINE)
    assert [int(n) for n in whole] == [len(written)]
    parts = re.findall(r"^site(?:, (partition|family) \w+)?: .*?(\d+) pages$", output, re.MULTILINE)
    by_kind = Counter()
    for kind, count in parts:
        by_kind[kind or "front"] += int(count)
    assert by_kind == {
        "partition": sum(1 for path in written if "/versions/" in f"/{path.relative_to(site)}"),
        "family": sum(1 for path in written if "/cases/" in f"/{path.relative_to(site)}"),
        "front": 6,
    }
    assert sum(by_kind.values()) == len(written)
