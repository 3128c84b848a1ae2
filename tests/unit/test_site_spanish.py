"""The site's Spanish edition, rendered by the library (site/site_pages.py): every
expected string is written out by hand from the Spanish labels (labels.json) and the
run of site_records.version_run (raw and clipped score 10 on a case with floor 4 and
ceiling 12, one critical generic fail, confidence 80, correctness 1.0), so a label, a
decimal comma or a link that moves shows here. The Spanish version page prints the
response's texts as written (the model's own words, not translated), under Spanish
labels, and the case page links each run to it there. The English edition of the same
pages: tests/workflow/test_site.py."""

from fractions import Fraction

from ro_metrics.leaderboard.leaderboard_view import leaderboard_view
from ro_metrics.site.site_pages import (
    EDITIONS,
    classification_badge,
    language_switch,
    letter_mark,
    matrix_row,
    render_case_page,
    render_index,
)
from site_records import SITE_GOLD, published_run, site_pages, version_run

ES, EN = EDITIONS["es"], EDITIONS["en"]
TEXT = "the filter is fouled"
# SUBJECT_COLUMNS: n_runs 1, Pass 0, Conditional 0, Fail 1, 1 critical, 0 recoverable,
# pass rate, mean clipped score, Brier, ECE, α, Q_final, status.
SUMMARY = ["atlas", "zzversion", 1, 0, 0, 1, 1, 0, "0.0", "10.0", "0.04", "0.2", "0.5", "0.4",
           "Disqualified"]  # fmt: skip


def test_labels_of_a_run_in_spanish():
    assert classification_badge("Fail", ES, critical=True) == (
        '<span class="cls critical">Suspenso (fallo crítico)</span>'
    )
    assert classification_badge("Conditional", ES) == (
        '<span class="cls conditional">Condicional</span>'
    )
    assert letter_mark("Pass", ES) == '<i class="pass" title="Aprobado">A</i>'
    assert letter_mark("Fail", ES, True, brief=True) == "<i class=critical>S!</i>"
    assert letter_mark("Fail", EN, True, brief=True) == "<i class=critical>F!</i>"


def test_the_language_switch_leads_to_the_same_page_of_the_other_edition():
    page = "versions/atlas/zzversion.html"
    assert language_switch(page, ES) == (
        '<nav class="language" aria-label="Idioma"><a href="../../../versions/atlas/'
        'zzversion.html" hreflang="en" lang="en">English</a></nav>'
    )
    assert language_switch(page, EN) == (
        '<nav class="language" aria-label="Language"><a href="../../es/versions/atlas/'
        'zzversion.html" hreflang="es" lang="es">Español</a></nav>'
    )
    assert 'href="../index.html" hreflang="en"' in language_switch("index.html", ES)
    assert 'href="es/index.html" hreflang="es"' in language_switch("index.html", EN)


def test_a_version_page_in_spanish():
    page, _, _ = site_pages("zzversion", TEXT, SUMMARY, ES)
    assert page.startswith('<!DOCTYPE html>\n<html lang="es">\n')
    assert '<nav class="crumbs"><a href="../../index.html">Clasificación</a> › atlas</nav>' in page
    assert (
        '<p class="meta">Versión del benchmark <strong>v1.0</strong> ·\n'
        ' <span class="badge disqualified">Descalificada</span> <span class="muted count">'
        "1 fallo crítico</span> · 1 ejecuciones evaluadas:\n 0 aprobado, 0 condicional,\n"
        " 1 suspenso · Q<sub>final</sub> 0,4 · tasa de aprobado 0,0 · puntuación recortada"
        " media 10,0 · Brier 0,04 · ECE 0,2</p>"
    ) in page
    assert (
        '<span><a href="#RO-FOUL-001">RO-FOUL-001</a> <i class="critical" title="Suspenso">'
        "S!</i></span>"
    ) in page
    assert (
        '<span class="muted">FOUL (Ensuciamiento orgánico / biológico) · Cerrado · suelo 4 · '
        "techo 12</span>"
    ) in page
    assert (
        '<h3>run-2026-05-12-001 <span class="cls critical">Suspenso (fallo crítico)</span></h3>'
        '<p class="scores">puntuación bruta <strong>10</strong> · puntuación recortada '
        "<strong>10</strong> (suelo 4, techo 12) · confianza 80 · corrección 1,0</p>"
    ) in page
    # The answer as the model wrote it, under Spanish labels.
    assert (
        '<div class="run-grid"><div class="answer"><h4>Respuesta</h4><dl><dt>Hipótesis '
        f"principal</dt><dd>{TEXT}</dd><dt>Confianza</dt><dd>80 / 100</dd><dt>Señales clave"
        f"</dt><dd><ol><li>{TEXT}</li></ol></dd><dt>Alternativas</dt><dd><ol><li "
        f'class="alternative"><p>{TEXT}</p><p><span class="label">Por qué es plausible:'
        f'</span> {TEXT}</p><p><span class="label">Por qué se puede descartar:</span> {TEXT}'
        f"</p></li></ol></dd><dt>Datos solicitados</dt><dd>{TEXT}</dd><dt>Acción recomendada"
        f"</dt><dd>Shock it: {TEXT} now</dd><dt>Condición de cambio de decisión</dt><dd>"
        f'{TEXT}</dd></dl><p class="meta">Respondida el 2026-05-12T14:23:55Z · modalidad '
        f'classic · modelo servido {TEXT}</p></div><div class="scoring">'
    ) in page
    assert (
        '<p class="note">Cada ejecución evaluada de esta versión, caso por caso: la respuesta'
        " tal como\n la dio el modelo (sus campos públicos), las puntuaciones y "
        "justificaciones del revisor y\n cada fallo automático con su evidencia. Cada cita"
    ) in page
    assert (
        '<h4>Evaluación de R01</h4><div class="table-wrap"><table class="criteria"><thead>'
        '<tr><th>Criterio</th><th class="num">Puntuación</th><th>Justificación</th></tr>'
        f'</thead><tbody><tr><td>Hipótesis principal</td><td class="num">2</td><td>{TEXT}'
        "</td></tr>"
    ) in page
    # The corpus' words stay as written; the labels around them are Spanish.
    assert (
        '<h4>Fallos automáticos</h4><ul class="run-fails"><li>Fallo <span class="severity '
        'critical">crítico</span> (genérico): <q class="quote">the filter is fouled now</q> '
        '<span class="field">recommended_action</span> <span class="match exact" '
        'title="citado literalmente por el revisor">literal</span><br><span '
        'class="reviewer-words"><span class="reviewer-label">Palabras del revisor:</span> '
        "&#x27;the filter is fouled now&#x27;</span></li></ul>"
    ) in page
    assert '<p class="meta">Evaluada el 2026-05-13T10:38:10Z · corrección 1,0</p>' in page


def test_both_editions_print_the_answer_as_written():
    """Every field of site_records.published_run's answer is TEXT but its recommended action
    ("Shock it: TEXT now"): each edition prints them all, the same words."""
    spanish, _, _ = site_pages("zzversion", TEXT, SUMMARY, ES)
    english, _, _ = site_pages("zzversion", TEXT, SUMMARY, EN)
    answer = published_run("zzversion", TEXT).answer
    assert answer.recommended_action == f"Shock it: {TEXT} now"
    assert english.count("Shock it:") == spanish.count("Shock it:") == 1
    assert english.count('<div class="answer">') == spanish.count('<div class="answer">') == 1
    # 7 fields (main hypothesis, confidence, key signals, alternatives, requested data,
    # recommended action, decision change condition), two of them lists.
    assert (english.count("<dt>"), english.count("<ol>")) == (7, 2)
    assert (spanish.count("<dt>"), spanish.count("<ol>")) == (7, 2)
    assert english.count("Why plausible:") == 1 and spanish.count("Por qué es plausible:") == 1
    # Each page holds TEXT 17 times: the answer's 9 (the served model, the main
    # hypothesis, a signal, an alternative's 3, the requested data, the action, the
    # decision change condition), the 6 justifications, the fail's quote ("TEXT now")
    # and its reviewer words.
    assert english.count(TEXT) == spanish.count(TEXT) == 17


def test_a_case_page_and_a_matrix_row_in_spanish():
    runs, cases = [version_run("zzversion", TEXT)], ["RO-FOUL-001", "RO-FOUL-002"]
    row = matrix_row("atlas", "zzversion", runs, cases, ES)
    assert row == (
        '<tr><th scope="row"><a href="versions/atlas/zzversion.html">atlas</a><span class="ci">'
        'zzversion</span></th><td><a href="versions/atlas/zzversion.html#RO-FOUL-001">'
        "<i class=critical>S!</i></a></td><td></td></tr>"
    )
    assert matrix_row("atlas", "zzversion", runs, cases, EN) == row.replace("S!", "F!")
    page = site_pages("zzversion", TEXT, SUMMARY, ES)[2]
    assert page.startswith('<!DOCTYPE html>\n<html lang="es">\n')
    assert (
        '<nav class="language" aria-label="Idioma"><a href="../../cases/RO-FOUL-001.html" '
        'hreflang="en" lang="en">English</a></nav>'
    ) in page
    assert (
        '<p class="meta">Versión del benchmark <strong>v1.0</strong> ·\n FOUL (Ensuciamiento '
        "orgánico / biológico) · Cerrado · suelo 4 · techo 12\n · 1 ejecuciones evaluadas de 1 "
        "versiones de sujeto: 0 aprobado,\n 0 condicional, 1 suspenso (1 con un fallo crítico)</p>"
    ) in page
    assert (
        '<th scope="col" class="num" data-type="number" title="Hipótesis principal"><button '
        'type="button">HP</button></th>'
    ) in page
    assert (
        '<tr><td class="name"><a href="../versions/atlas/zzversion.html">atlas</a><span '
        'class="ci">zzversion</span></td><td class="run">run-2026-05-12-001<span class="ci">'
        'revisor R01</span></td><td><span class="cls critical">Suspenso (fallo crítico)</span>'
        '</td><td class="num">10</td><td class="num">10</td><td class="num">2</td><td '
        'class="num">2</td><td class="num">2</td><td class="num">0</td><td class="num">2</td>'
        f'<td class="num">2</td><td class="num">80</td><td class="text">{TEXT}</td><td '
        'class="answer-link"><a href="../versions/atlas/zzversion.html#RO-FOUL-001__run-'
        '2026-05-12-001">respuesta completa</a></td></tr>'
    ) in page
    assert (
        "ordenar; «respuesta completa» abre la\n ejecución en la página de su versión de "
        "sujeto.</p>"
    ) in page
    empty = render_case_page(
        case_id="RO-FOUL-002", gold=SITE_GOLD, rows=[], benchmark_version="v1.0", t=ES
    )
    assert "<p>Aún no hay ninguna ejecución evaluada de este caso.</p>" in empty


def test_the_index_in_spanish():
    row = {
        "subject_id": "atlas", "subject_version": "zzversion", "q_final": "0.705",
        "pass_rate": "0.5", "mean_clipped_score": "9.25", "brier": "0.1", "ece": "0.12",
        "n_runs": "2", "n_pass": "1", "n_conditional": "1", "n_fail": "0",
        "n_critical_fails": "0", "leaderboard_status": "Eligible",
    }  # fmt: skip
    row_es = matrix_row("atlas", "zzversion", [version_run("zzversion", TEXT)], ["RO-FOUL-001"], ES)
    view = leaderboard_view(
        benchmark_version="v1.0",
        alpha=0.5,
        last_update="2026-05-16T12:43:22Z",
        subjects=[row],
        uncertainty={("atlas", "zzversion", "rank"): {"ci_low": "1", "ci_high": "1"}},
        tracks={("atlas", "zzversion"): "classic"},
        registry={"atlas": {"kind": "llm", "provider": "Atlas Labs", "description": None}},
        families=[],
        critical_fails=[],
    )
    index = render_index(
        view,
        ES,
        case_ids=["RO-FOUL-001"],
        matrix_rows=[row_es],
        diagrams={("atlas", "zzversion"): ("<svg></svg>", [(9, 1, Fraction(4, 5), 1)])},
        changes_section="",
    )
    assert index.startswith('<!DOCTYPE html>\n<html lang="es">\n')
    assert (
        "<title>Clasificación · benchmark de diagnóstico de fallos en desalación por OI v1.0"
        "</title>"
    ) in index
    assert (
        '<header>\n<nav class="language" aria-label="Idioma"><a href="../index.html" '
        'hreflang="en" lang="en">English</a></nav>\n<h1>Benchmark de diagnóstico de fallos '
        "en desalación por ósmosis inversa — clasificación</h1>"
    ) in index
    assert "α = 0,5 (Q<sub>final</sub>" in index
    # The sort value is the published text; the reader sees the decimal comma.
    assert '<td class="num" data-value="0.705">0,705</td>' in index
    assert '<td class="num" data-value="9.25">9,25</td>' in index
    assert (
        '<h2 id="matrix-title">Casos × versiones de sujeto</h2>\n<p class="note">Cada ejecución '
        "evaluada de las 1 versiones de sujeto (1\n clasificadas; filas en el orden de la "
        'clasificación) en los 1 casos (columnas):\n una letra por ejecución, <i class="pass">'
        'A</i> aprobado, <i class="conditional">C</i> condicional,\n <i class="fail">S</i> '
        'suspenso, <i class="critical">S!</i> suspenso con un fallo crítico; una celda vacía'
    ) in index
    assert (
        '<th class="corner" scope="col">Sujeto · versión</th><th class="v" scope="col"><a '
        'href="cases/RO-FOUL-001.html">RO-FOUL-001</a></th>'
    ) in index
    assert '<footer class="meta"><p>Calculado por el flujo de métricas' in index
