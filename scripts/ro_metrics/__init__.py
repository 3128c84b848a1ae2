"""The library of the RO benchmark metrics workflow, in four layers.

    contracts   the spec's vocabulary, the published tables' columns and format, the
                records passed between steps, file output
    formulas    aggregated_metrics.md's formulas, the rows of the published tables,
                the ranking and the uncertainty methods
    corpus      reading and validating corpus files, the manifests, the cross-check
    publishing  the leaderboard page, diagrams, snapshots, verify

A module imports only from its own layer or the layers listed above it, never a
rule script (scripts/*.py); tests/unit/test_architecture.py enforces both, and
docs/architecture.md is the map.
"""

LAYERS = ("contracts", "formulas", "corpus", "publishing")
