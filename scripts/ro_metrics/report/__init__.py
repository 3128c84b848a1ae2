"""Layer 5: the findings report. results/findings.md and findings.es.md rendered from
their Markdown templates on the facts of findings.json, the lint of the numbers typed
in their prose, and the findings' three charts (SVG, in each language)."""
