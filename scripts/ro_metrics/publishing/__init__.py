"""Layer 4: the leaderboard page and diagrams, snapshots, verify."""
