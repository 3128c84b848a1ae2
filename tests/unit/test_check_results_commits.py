"""scripts/tools/check_results_commits.py on throw-away git repositories built here.

One history (built once for the module) holds a commit for every case of the rule;
each test runs the script on a commit or a range of it and asserts the exact set of
flagged commits and the exit status. Git runs with no global or system configuration
and a fixed identity, so the tests work on a fresh CI machine.
"""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from workflow_runs import REPO

SCRIPT = REPO / "scripts" / "tools" / "check_results_commits.py"

CSV_REASON = (
    "changes published CSV(s) without changing any input of the corpus, "
    "the configuration or the workflow's code"
)
SNAPSHOT_REASON = "modifies or deletes file(s) of an immutable snapshot under results/historico/"
SCORING = "scoring/v1.0/atlas-7b/RO-FOUL-001__run-2026-05-12-001__eval-R01.json"
ODD_SCORING = "scoring/v1.0/sujeto ñ/RO-FOUL-001__run 1__eval-R01 «α».json"
# A CSV in the results folder that is not a published file (not in the registry).
ODD_CSV = "results/leaderboard ü, v2.csv"


def isolated_env() -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("GIT_")}
    env.update(
        GIT_CONFIG_GLOBAL=os.devnull,
        GIT_CONFIG_NOSYSTEM="1",
        GIT_AUTHOR_NAME="Test",
        GIT_AUTHOR_EMAIL="test@example.org",
        GIT_COMMITTER_NAME="Test",
        GIT_COMMITTER_EMAIL="test@example.org",
        PYTHONIOENCODING="utf-8",
    )
    return env


ENV = isolated_env()


def git(repo: Path, *args: str) -> str:
    completed = subprocess.run(
        ["git", "-C", str(repo), *args], env=ENV, capture_output=True, text=True, check=True
    )
    return completed.stdout.strip()


def check(repo: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(SCRIPT), "--repo", str(repo), *args],
        env=ENV,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
        check=False,
    )


class Repo:
    """A throw-away repository; commits are remembered by a short name."""

    def __init__(self, root: Path):
        self.root = root
        self.commits: dict[str, str] = {}
        self.csv_version = 0
        root.mkdir(parents=True, exist_ok=True)
        git(root, "-c", "init.defaultBranch=main", "init", "-q")

    def write(self, path: str, text: str) -> None:
        target = self.root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")

    def remove(self, path: str) -> None:
        (self.root / path).unlink()

    def bump_csvs(self, *paths: str) -> None:
        """Give the CSVs new content, as a run with new numbers would."""
        self.csv_version += 1
        for path in paths or ("results/per_run.csv", "results/metrics_per_subject.csv"):
            self.write(path, f"subject_id,value\natlas-7b,{self.csv_version}\n")

    def commit(self, name: str, message: str) -> str:
        git(self.root, "add", "-A")
        git(self.root, "commit", "-q", "--allow-empty", "-m", message)
        self.commits[name] = git(self.root, "rev-parse", "HEAD")
        return self.commits[name]

    def merge(self, name: str, branch: str, message: str) -> str:
        git(self.root, "merge", "-q", "--no-ff", "-m", message, branch)
        self.commits[name] = git(self.root, "rev-parse", "HEAD")
        return self.commits[name]

    def short(self, name: str) -> str:
        return git(self.root, "rev-parse", "--short", self.commits[name])

    def flagged(self, result: subprocess.CompletedProcess) -> set[str]:
        """The names of the commits whose hashes start a violation line."""
        shorts = re.findall(r'^([0-9a-f]{4,}) "', result.stdout, flags=re.MULTILINE)
        names = {name for name, full in self.commits.items() if full.startswith(tuple(shorts))}
        assert len(names) == len(set(shorts)), result.stdout
        return names


def start_corpus(repo: Repo, corpus: str) -> None:
    repo.write(f"{corpus}/subjects/registry.yaml", "subjects: [atlas-7b]\n")
    repo.write(f"{corpus}/responses/v1.0/atlas-7b/RO-FOUL-001__run-2026-05-12-001.json", "{}\n")
    repo.write(f"{corpus}/{SCORING}", '{"score": 1}\n')
    repo.write(f"{corpus}/golds/v1.0/RO-FOUL-001_gold.md", "gold\n")


def build_history(repo: Repo) -> None:
    """Every case of the rule, one commit each, on main and two merged branches."""
    repo.write("config/config.yaml", "corpus: demo/corpus\nresults: results\nalpha: 0.5\n")
    start_corpus(repo, "demo/corpus")
    repo.write("scripts/ro_metrics/formulas/metrics.py", "ALPHA = 0.5\n")
    repo.write("README.md", "# RO benchmark metrics\n")
    repo.bump_csvs("results/per_run.csv", "results/metrics_per_subject.csv")
    repo.commit("root", "Initial corpus, workflow and results")

    repo.write(f"demo/corpus/{SCORING}", '{"score": 2}\n')
    repo.bump_csvs()
    repo.commit("rescore", "New scoring and recomputed results")

    repo.bump_csvs("results/metrics_per_subject.csv")
    repo.commit("by_hand", "Fix numbers by hand")

    repo.write("scripts/ro_metrics/formulas/metrics.py", "ALPHA = 0.25\n")
    repo.bump_csvs()
    repo.commit("formula", "Fix the Brier formula")

    for name in ("per_run.csv", "metrics_per_subject.csv"):
        repo.write(f"results/historico/2026-05-13/{name}", "frozen\n")
    repo.commit("snapshot", "Snapshot of 2026-05-13")

    repo.write("results/historico/2026-05-13/per_run.csv", "edited\n")
    repo.commit("edit_snapshot", "Correct the snapshot")

    repo.remove("results/historico/2026-05-13/metrics_per_subject.csv")
    repo.commit("delete_snapshot", "Drop a snapshot file")

    repo.write("config/config.yaml", "corpus: data/corpus\nresults: results\nalpha: 0.5\n")
    start_corpus(repo, "data/corpus")
    repo.commit("move_corpus", "Move the corpus to data/corpus")

    repo.write(f"data/corpus/{SCORING}", '{"score": 3}\n')
    repo.bump_csvs()
    repo.commit("new_corpus_scoring", "Rescore in the new corpus")

    repo.write(f"demo/corpus/{SCORING}", '{"score": 4}\n')
    repo.bump_csvs()
    repo.commit("old_corpus_scoring", "Rescore in the old corpus")

    repo.write("README.md", "# RO benchmark metrics\n\nMore words.\n")
    repo.commit("readme", "README only")

    git(repo.root, "checkout", "-q", "-b", "rescore-branch")
    repo.write(f"data/corpus/{SCORING}", '{"score": 5}\n')
    repo.bump_csvs()
    repo.commit("branch_scoring", "Rescore on a branch")
    git(repo.root, "checkout", "-q", "main")
    repo.write("docs/notes.md", "notes\n")
    repo.commit("main_notes", "Notes on main meanwhile")
    repo.merge("merge", "rescore-branch", "Merge the rescoring branch")

    git(repo.root, "checkout", "-q", "-b", "hand-branch")
    repo.bump_csvs("results/per_run.csv")
    repo.commit("branch_by_hand", "Edit numbers on a branch")
    git(repo.root, "checkout", "-q", "main")
    repo.write("docs/notes.md", "more notes\n")
    repo.commit("main_notes_2", "More notes on main")
    repo.merge("hand_merge", "hand-branch", "Merge the hand-edited numbers")

    repo.write(f"data/corpus/{ODD_SCORING}", '{"score": 1}\n')
    repo.bump_csvs()
    repo.commit("odd_names", "Scoring of a subject with an odd name")

    repo.bump_csvs(ODD_CSV)
    repo.commit("odd_csv", "A CSV with an odd name, by hand")

    repo.write("results/leaderboard.md", "# Leaderboard, by hand\n")
    repo.commit("page_by_hand", "A published page, by hand")


@pytest.fixture(scope="module")
def history(tmp_path_factory) -> Repo:
    repo = Repo(tmp_path_factory.mktemp("history") / "repo")
    build_history(repo)
    return repo


def assert_result(repo: Repo, result, *, checked: int, flagged: set[str], violations=None):
    """The exact flagged set, the summary line and the exit status."""
    assert "Traceback" not in result.stderr, result.stderr
    assert repo.flagged(result) == flagged, result.stdout
    count = len(flagged) if violations is None else violations
    summary = result.stdout.splitlines()[-1]
    assert summary == f"{checked} commit(s) checked, {count} violation(s)", result.stdout
    assert result.returncode == (1 if flagged else 0), result.stdout + result.stderr


def violation_lines(result) -> list[str]:
    return result.stdout.splitlines()[:-1]


# --- one commit at a time -------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    ["root", "rescore", "formula", "snapshot", "move_corpus", "new_corpus_scoring", "readme"],
)
def test_justified_commit_is_not_flagged(history, name):
    result = check(history.root, history.commits[name])
    assert_result(history, result, checked=1, flagged=set())


def test_csv_only_commit_is_flagged_with_hash_subject_and_path(history):
    result = check(history.root, history.commits["by_hand"])
    assert_result(history, result, checked=1, flagged={"by_hand"})
    expected = (
        f'{history.short("by_hand")} "Fix numbers by hand": {CSV_REASON}: '
        "results/metrics_per_subject.csv"
    )
    assert violation_lines(result) == [expected]


@pytest.mark.parametrize(
    ("name", "subject", "path"),
    [
        ("edit_snapshot", "Correct the snapshot", "results/historico/2026-05-13/per_run.csv"),
        (
            "delete_snapshot",
            "Drop a snapshot file",
            "results/historico/2026-05-13/metrics_per_subject.csv",
        ),
    ],
)
def test_altered_snapshot_is_flagged_with_its_own_reason(history, name, subject, path):
    result = check(history.root, history.commits[name])
    assert_result(history, result, checked=1, flagged={name})
    expected = f'{history.short(name)} "{subject}": {SNAPSHOT_REASON}: {path}'
    assert violation_lines(result) == [expected]


def test_corpus_follows_the_config_of_each_commit(history):
    result = check(history.root, f"{history.commits['snapshot']}..{history.commits['readme']}")
    assert_result(
        history,
        result,
        checked=6,
        flagged={"edit_snapshot", "delete_snapshot", "old_corpus_scoring"},
    )
    old = [line for line in violation_lines(result) if "Rescore in the old corpus" in line]
    assert old == [
        f'{history.short("old_corpus_scoring")} "Rescore in the old corpus": {CSV_REASON}: '
        "results/metrics_per_subject.csv, results/per_run.csv"
    ]


def test_corpus_option_overrides_the_config(history):
    old = check(history.root, "--corpus", "./demo/corpus/", history.commits["old_corpus_scoring"])
    assert_result(history, old, checked=1, flagged=set())
    new = check(history.root, "--corpus", "demo/corpus", history.commits["new_corpus_scoring"])
    assert_result(history, new, checked=1, flagged={"new_corpus_scoring"})


def test_results_option_overrides_the_config(history):
    result = check(history.root, "--results", "elsewhere", history.commits["by_hand"])
    assert_result(history, result, checked=1, flagged=set())


def test_merge_is_judged_against_its_first_parent(history):
    merged = check(history.root, history.commits["merge"])
    assert_result(history, merged, checked=1, flagged=set())
    by_hand = check(history.root, history.commits["hand_merge"])
    assert_result(history, by_hand, checked=1, flagged={"hand_merge"})


def test_range_over_a_merge_checks_the_branch_commits_too(history):
    result = check(history.root, f"{history.commits['readme']}..{history.commits['hand_merge']}")
    assert_result(history, result, checked=6, flagged={"branch_by_hand", "hand_merge"})


def test_odd_file_names_in_the_corpus(history):
    corpus = check(history.root, history.commits["odd_names"])
    assert_result(history, corpus, checked=1, flagged=set())


def test_only_the_published_csvs_are_checked(history):
    # The published CSVs are the registry's (contracts/published.py): a CSV the
    # workflow does not publish is not one, nor is a published page.
    for name in ("odd_csv", "page_by_hand"):
        result = check(history.root, history.commits[name])
        assert_result(history, result, checked=1, flagged=set())


def test_the_csvs_published_only_with_telemetry_or_double_review_are_checked(tmp_path):
    repo = Repo(tmp_path / "repo")
    start_corpus(repo, "demo/corpus")
    repo.commit("root", "Start")
    repo.bump_csvs("results/operational_per_family.csv", "results/agreement.csv")
    repo.commit("by_hand", "Tables by hand")
    result = check(repo.root, "HEAD")
    assert_result(repo, result, checked=1, flagged={"by_hand"})
    assert violation_lines(result)[0].endswith(
        f"{CSV_REASON}: results/agreement.csv, results/operational_per_family.csv"
    )


def test_odd_results_folder_is_quoted(tmp_path):
    repo = Repo(tmp_path / "repo")
    repo.write("config/config.yaml", "corpus: corpus\nresults: out ü, v2\n")
    start_corpus(repo, "corpus")
    repo.bump_csvs("out ü, v2/per_run.csv")
    repo.commit("root", "Start")
    repo.bump_csvs("out ü, v2/per_run.csv")
    repo.commit("by_hand", "Numbers by hand")
    result = check(repo.root, f"{repo.commits['root']}..HEAD")
    assert_result(repo, result, checked=1, flagged={"by_hand"})
    assert violation_lines(result) == [
        f'{repo.short("by_hand")} "Numbers by hand": {CSV_REASON}: "out ü, v2/per_run.csv"'
    ]


# --- ranges -----------------------------------------------------------------------------


def test_whole_history_flags_exactly_the_bad_commits(history):
    result = check(history.root, f"{history.commits['root']}..HEAD")
    assert_result(
        history,
        result,
        checked=len(history.commits) - 1,
        flagged={
            "by_hand",
            "edit_snapshot",
            "delete_snapshot",
            "old_corpus_scoring",
            "branch_by_hand",
            "hand_merge",
        },
    )


def test_range_excludes_its_start(history):
    commits = history.commits
    with_bad = check(history.root, f"{commits['rescore']}..{commits['formula']}")
    assert_result(history, with_bad, checked=2, flagged={"by_hand"})
    without_bad = check(history.root, f"{commits['by_hand']}..{commits['formula']}")
    assert_result(history, without_bad, checked=1, flagged=set())


def test_single_commit_means_just_that_commit(history):
    bad = check(history.root, history.commits["by_hand"])
    assert_result(history, bad, checked=1, flagged={"by_hand"})
    after_bad = check(history.root, history.commits["formula"])
    assert_result(history, after_bad, checked=1, flagged=set())
    head = check(history.root, "HEAD")
    assert_result(history, head, checked=1, flagged=set())


def test_empty_range_checks_nothing(history):
    result = check(history.root, "HEAD..HEAD")
    assert result.returncode == 0
    assert result.stdout == "0 commit(s) checked, 0 violation(s)\n"


# --- errors -----------------------------------------------------------------------------


def assert_usage_error(result, *words: str) -> None:
    assert result.returncode == 2, result.stdout + result.stderr
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    assert len(result.stderr.splitlines()) == 1, result.stderr
    for word in words:
        assert word in result.stderr


@pytest.mark.parametrize("bad_range", ["no-such-branch..HEAD", "no-such-commit", "HEAD~99..HEAD"])
def test_bad_range_exits_2_with_one_line(history, bad_range):
    assert_usage_error(check(history.root, bad_range), bad_range.partition("..")[0])


def test_option_like_range_is_not_taken_as_an_option(history):
    assert_usage_error(check(history.root, "--", "--output=/tmp/x"), "bad revision")


def test_not_a_git_repository_exits_2(tmp_path):
    assert_usage_error(check(tmp_path, "HEAD"), "not a git repository")


def test_missing_range_exits_2(history):
    assert_usage_error(check(history.root), "RANGE")


# --- where the corpus and results are ---------------------------------------------------


def test_config_paths_are_normalised(tmp_path):
    repo = Repo(tmp_path / "repo")
    repo.write("config/config.yaml", "corpus: ./corpus/\nresults: ./out//\n")
    start_corpus(repo, "corpus")
    repo.bump_csvs("out/per_run.csv", "results/per_run.csv")
    repo.commit("root", "Start")
    repo.write(f"corpus/{SCORING}", '{"score": 9}\n')
    repo.bump_csvs("out/per_run.csv")
    repo.commit("rescore", "Rescore")
    repo.bump_csvs("out/per_run.csv")
    repo.commit("by_hand", "Out by hand")
    repo.bump_csvs("results/per_run.csv")
    repo.commit("not_published", "Not the results folder of this config")
    result = check(repo.root, f"{repo.commits['root']}..HEAD")
    assert_result(repo, result, checked=3, flagged={"by_hand"})
    assert violation_lines(result)[0].endswith(": out/per_run.csv")


def test_missing_or_unreadable_config_means_the_defaults(tmp_path):
    repo = Repo(tmp_path / "repo")
    start_corpus(repo, "demo/corpus")
    start_corpus(repo, "data/corpus")
    repo.bump_csvs()
    repo.commit("root", "No config at all")
    repo.write(f"demo/corpus/{SCORING}", '{"score": 2}\n')
    repo.bump_csvs()
    repo.commit("default_corpus", "Rescore in the default corpus")
    repo.write(f"data/corpus/{SCORING}", '{"score": 2}\n')
    repo.bump_csvs()
    repo.commit("other_corpus", "Rescore elsewhere, no config")
    repo.write("config/config.yaml", "corpus: [data/corpus\n")
    repo.commit("broken_config", "Broken config")
    repo.write(f"data/corpus/{SCORING}", '{"score": 3}\n')
    repo.bump_csvs()
    repo.commit("other_corpus_2", "Rescore elsewhere, broken config")
    repo.write(f"demo/corpus/{SCORING}", '{"score": 3}\n')
    repo.bump_csvs()
    repo.commit("default_corpus_2", "Rescore in the default corpus, broken config")
    result = check(repo.root, f"{repo.commits['root']}..HEAD")
    assert_result(repo, result, checked=5, flagged={"other_corpus", "other_corpus_2"})


def test_pinned_versions_and_workflow_files_are_inputs(tmp_path):
    repo = Repo(tmp_path / "repo")
    start_corpus(repo, "demo/corpus")
    repo.bump_csvs()
    repo.commit("root", "Start")
    inputs = ["requirements.txt", "environment.yml", "Snakefile", "workflow/rules/a.smk"]
    inputs += ["system/rubric/v1.0/aggregated_metrics.md", "demo/corpus/golds/v1.0/X_gold.md"]
    inputs += ["demo/corpus/subjects/registry.yaml", "demo/corpus/responses/v1.0/s/x.json"]
    for index, path in enumerate(inputs):
        repo.write(path, f"{index}\n")
        repo.bump_csvs()
        repo.commit(f"input_{index}", f"Change {path}")
    for index, path in enumerate(["requirements-dev.txt", "demo/corpus/README.md", "docs/x"]):
        repo.write(path, f"{index}\n")
        repo.bump_csvs()
        repo.commit(f"not_input_{index}", f"Change {path}")
    result = check(repo.root, f"{repo.commits['root']}..HEAD")
    assert_result(repo, result, checked=11, flagged={"not_input_0", "not_input_1", "not_input_2"})
