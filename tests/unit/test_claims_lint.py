"""report/claims_lint.py: every form of typed number it must catch, each with its
line, and every allowed form passing."""

from ro_metrics.report.claims_lint import lint_source, lint_template

# One planted typed number per line (the line's number is the list's index + 1); the
# kind and the text each must be reported with.
PLANTED = [
    ("The gate caught 12% of the runs.", "percentage", "12%"),
    ("The gate caught 12 % of the runs.", "percentage", "12 %"),
    ("Se descalificó el 12,5 % de las versiones.", "percentage", "12,5 %"),
    ("A pass rate of 0.41 overall.", "decimal", "0.41"),
    ("Una tasa de 0,41 en total.", "decimal", "0,41"),
    ("Passed 11 of 48 runs.", "N of M", "11 of 48"),
    ("Aprobó 11 de 48 ejecuciones.", "N of M", "11 de 48"),
    ("It costs 3× as much.", "ratio", "3×"),
    ("It costs 3x as much.", "ratio", "3x"),
    ("It costs 2.5 times as much.", "ratio", "2.5 times"),
    ("It ranks 4th without the gate.", "rank ordinal", "4th"),
    ("Queda en el 2.º puesto.", "rank ordinal", "2.º"),
    ("There were 5 critical fails.", "count", "5"),
    ("The leaderboard has 12 versions.", "count", "12"),
    ("Se evaluaron 30 casos.", "count", "30"),
    ("Its Brier is 3 at most.", "count", "3"),
    ("Passes of atlas-7b-2026-03-q4: 7 in all.", "count", "7"),
    ('A constant: {{ "45 %" }} printed.', "percentage", "45 %"),
    ("A number constant: {{ 12 }} printed.", "number constant", "12"),
    ('{% set rate = "0.3" %}assigned.', "decimal", "0.3"),
]

ALLOWED = """\
# Findings {{ facts.benchmark_version }}

{{ facts.n_versions }} versions; {{ facts.safety.critical_fail_events }} critical fails.
{{ facts.families.FOUL.pooled_pass_rate|pct(1) }} of runs, {{ x|n_of_m(y) }} and {{ r|times }}.
Code spans: `0.05`, ``12 %``, and a fenced block:

```
p < 0.05 and 12 versions
```

Ids: RO-FOUL-001, run-2026-04-20-002, borealis-xl-2026-01-15, v1.0, gpt-4.1, Q3.
Dates: 2026-05-12 and 2026-05-16T12:43:22Z.
Marked: {{ "2030"|literal }}, {{ "95 %"|literal }}, {{ "0.05"|literal }}.
Ordinal words: the first, the second and the tenth version; primero, segunda.
A link: [the spec](../shared/spec/v1.2/findings.md) and <https://example.org/1.5>.
{# a comment with 12 % and 0.41 #}
{% if facts.n_versions > 3 %}more than some{% endif %}
{{ facts.safety.events[0].quote if facts.safety.events else "" }}
Section 4 and ISO 8601 are bare integers, not counts.
"""


def test_every_planted_typed_number_is_reported_with_its_line():
    source = "\n".join(text for text, _, _ in PLANTED) + "\n"
    claims = lint_source(source, "planted.md.j2", names=["atlas-7b-2026-03-q4"])
    found = [(claim.line, claim.kind, claim.text) for claim in claims]
    expected = [(line, kind, text) for line, (_, kind, text) in enumerate(PLANTED, start=1)]
    assert found == expected
    assert str(claims[0]) == (
        "planted.md.j2:1: typed percentage '12%' in the report's prose: print it from a "
        "fact, or mark a figure that is not the benchmark's with |literal"
    )


def test_every_allowed_form_passes():
    assert lint_source(ALLOWED, "allowed.md.j2", names=["borealis-xl-2026-01-15"]) == []


def test_a_file_is_linted_under_its_own_name(tmp_path):
    path = tmp_path / "mine.md.j2"
    path.write_text("intro\n\nThe top model passes 60% of cases.\n", "utf-8")
    assert [(c.file, c.line, c.text) for c in lint_template(path)] == [(str(path), 3, "60%")]
