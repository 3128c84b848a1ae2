"""Layer 6: the results over time. metadata.json (what produced the results), the dated
snapshots of the results folder, what changed since a snapshot and why (changes.csv,
changes.md and the leaderboard's changes section), and verify, which recomputes the
results and compares them with the published ones."""
