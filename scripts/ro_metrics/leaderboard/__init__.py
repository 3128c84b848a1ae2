"""Layer 5: the leaderboard. Its one view (leaderboard_view: what every rendering of it
shows, decided once), rendered as its page in each language (leaderboard.html,
leaderboard.es.html), leaderboard.md and leaderboard.csv (the site's index renders it
too); under double review the review view that they and the site show: the agreement
line, the pending counts and a run's scorings with their roles."""
