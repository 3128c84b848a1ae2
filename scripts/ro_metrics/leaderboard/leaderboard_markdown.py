"""The leaderboard in GitHub-flavoured Markdown (results/leaderboard.md): the
leaderboard's view (leaderboard_view.py) printed by rendering/templates/leaderboard.md,
which lists its sections and says how it escapes. Labels come from the labels' data
file (rendering/labels.json, English); numbers are the published CSV texts."""

from ro_metrics.leaderboard.leaderboard_view import LeaderboardView
from ro_metrics.rendering.page_templates import render_markdown_template
from ro_metrics.rendering.translations import Language


def render_markdown(view: LeaderboardView, t: Language) -> str:
    """The whole document in language t."""
    return render_markdown_template("leaderboard.md", view=view, t=t)
