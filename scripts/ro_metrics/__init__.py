"""The library of the RO benchmark metrics workflow, in eight layers of packages.

    1 contracts    the spec's vocabulary, the published tables' columns and format, the
                   registry of published files, the records passed between steps,
                   file output
    2 formulas     aggregated_metrics.md's formulas, the rows of the published tables,
                   the ranking and the uncertainty methods
    3 corpus       reading and validating corpus files, the corpus scan and its
                   partitions, the review policy, the telemetry, the cross-check
    4 rendering    languages and labels, Markdown, the HTML templates, SVG
    5 leaderboard  the leaderboard's view, its page and leaderboard.md, the review view
      report       the findings report, its claims lint, the findings' charts
    6 history      metadata.json, snapshots, the changes report, verify
    7 site         the static site's pages
    8 private      the private reports: one packet per subject version (HTML, PDF, ZIP)

A package imports only from itself and the packages of the layers listed above it
(two packages of one layer never import each other), never a rule script
(scripts/*.py); tests/unit/test_architecture.py enforces both, and
docs/architecture.md is the map.
"""

# The packages of each layer, lowest first.
LAYERS = (
    ("contracts",),
    ("formulas",),
    ("corpus",),
    ("rendering",),
    ("leaderboard", "report"),
    ("history",),
    ("site",),
    ("private",),
)
