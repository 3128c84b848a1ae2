"""Layer 5: the leaderboard. Its page in each language (leaderboard.html,
leaderboard.es.html) and leaderboard.md, and under double review the review view that
they and the site show: the agreement line, the pending counts and a run's scorings
with their roles."""
