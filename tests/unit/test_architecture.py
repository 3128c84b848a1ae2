"""The layout's rules, checked: the library's layers, and every rule's code inputs.

- scripts/ro_metrics is layered (contracts → formulas → corpus → rendering →
  leaderboard, report → history → site): a module imports only from its own package or
  the layers before it (never from the other package of its layer), never a rule script;
- each rule with a script takes as input `code=library("<package>", ...)`, the files of
  the library packages it uses (workflow/rules/common.smk), so that editing one re-runs
  the rule; every library module the script loads, as Python's own import scanner
  (modulefinder) finds them, is among them.
"""

import ast
import re
from modulefinder import ModuleFinder
from pathlib import Path

from ro_metrics import LAYERS

REPO = Path(__file__).resolve().parents[2]
SCRIPTS = REPO / "scripts"
PACKAGE = SCRIPTS / "ro_metrics"
RULE_SCRIPTS = sorted(SCRIPTS.glob("*.py"))
RULE_SCRIPT_NAMES = {path.stem for path in RULE_SCRIPTS}


def imported_modules(path: Path, search_root: Path) -> set[str]:
    """Every module name an import statement of the file names (relative ones resolved
    against the package, so that `from .. import x` cannot slip through)."""
    names = set()
    package = ".".join(path.relative_to(search_root).with_suffix("").parts[:-1])
    for node in ast.walk(ast.parse(path.read_bytes())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, base] if base else parent)
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return names


# The rank of each layer's packages (ro_metrics.LAYERS, lowest first).
LAYER_OF = {package: rank for rank, packages in enumerate(LAYERS) for package in packages}


def package_of(module: str) -> str | None:
    """The layer package of a ro_metrics module; None for the package's layer-free modules."""
    parts = module.split(".")
    if len(parts) > 1 and parts[1] in LAYER_OF:
        return parts[1]
    return None


def layering_violations(package_dir: Path, rule_script_names: set[str]) -> list[str]:
    """Each import of a package module that breaks a rule of the layout."""
    found = []
    for path in sorted(package_dir.rglob("*.py")):
        module = ".".join(path.relative_to(package_dir.parent).with_suffix("").parts)
        module = module.removesuffix(".__init__")
        own = package_of(module)
        for name in sorted(imported_modules(path, package_dir.parent)):
            top = name.split(".")[0]
            if top in rule_script_names:
                found.append(f"{module} imports the rule script {name}")
            if top != package_dir.name or name == package_dir.name:
                continue
            imported = package_of(name)
            if own is None and imported is not None:
                found.append(f"{module} (layer-free) imports {name}")
            elif own is None or imported is None or imported == own:
                continue
            elif LAYER_OF[imported] > LAYER_OF[own]:
                found.append(f"{module} ({own}) imports the higher layer {name}")
            elif LAYER_OF[imported] == LAYER_OF[own]:
                found.append(f"{module} ({own}) imports {name}, of the same layer")
    return found


def test_no_library_module_imports_a_rule_script_or_a_higher_layer():
    assert layering_violations(PACKAGE, RULE_SCRIPT_NAMES) == []


def test_the_layer_check_catches_an_upward_import_and_a_rule_script_import(tmp_path):
    package = tmp_path / "ro_metrics"
    for packages in LAYERS:
        for layer in packages:
            (package / layer).mkdir(parents=True)
            (package / layer / "__init__.py").write_text("")
    (package / "__init__.py").write_text("")
    (package / "formulas" / "good.py").write_text("from ro_metrics.contracts import x\n")
    (package / "site" / "good.py").write_text(
        "from ro_metrics.history import a\nfrom ro_metrics.report import b\n"
        "from ro_metrics.leaderboard import c\nfrom ro_metrics.site import d\n"
    )
    (package / "contracts" / "bad.py").write_text(
        "from ro_metrics.site.page import render\nfrom ..corpus import layout\n"
    )
    (package / "corpus" / "worse.py").write_text("import per_run\n")
    (package / "report" / "sideways.py").write_text("from ro_metrics.leaderboard import page\n")
    assert layering_violations(package, {"per_run"}) == [
        "ro_metrics.contracts.bad (contracts) imports the higher layer ro_metrics.corpus",
        "ro_metrics.contracts.bad (contracts) imports the higher layer ro_metrics.corpus.layout",
        "ro_metrics.contracts.bad (contracts) imports the higher layer ro_metrics.site.page",
        "ro_metrics.contracts.bad (contracts) imports the higher layer ro_metrics.site.page.render",
        "ro_metrics.corpus.worse imports the rule script per_run",
        "ro_metrics.report.sideways (report) imports ro_metrics.leaderboard, of the same layer",
        "ro_metrics.report.sideways (report) imports ro_metrics.leaderboard.page, "
        "of the same layer",
    ]


def modulefinder_files(script: Path) -> set[str]:
    """The package files a script loads, as Python's own import scanner finds them."""
    finder = ModuleFinder(path=[str(script.parent)])
    finder.run_script(str(script))
    return {
        str(Path(module.__file__).resolve())
        for module in finder.modules.values()
        if module.__file__ and Path(module.__file__).resolve().is_relative_to(PACKAGE)
    }


RULE = re.compile(r"^(rule|checkpoint) (\w+):\n(.*?)(?=^rule |^checkpoint |\Z)", re.M | re.S)


def rule_code_packages() -> dict[str, tuple[str, list[str]]]:
    """Each rule script's (rule name, library packages of its code input)."""
    found = {}
    for smk in sorted((REPO / "workflow" / "rules").glob("*.smk")):
        for kind, name, body in RULE.findall(smk.read_text("utf-8")):
            script = re.search(r'script:\s*"\.\./\.\./scripts/(\w+\.py)"', body)
            if script is None:
                continue
            code = re.search(r"code=library\(([^)]*)\)", body)
            assert code is not None, f"{kind} {name} in {smk.name} has no code=library(...)"
            found[script[1]] = (name, re.findall(r'"(\w+)"', code[1]))
    return found


def library_files(packages: list[str]) -> set[str]:
    """What common.smk's library(*packages) lists: every file of the packages and the
    library's __init__.py."""
    files = {
        str(path.resolve())
        for name in packages
        for path in (PACKAGE / name).rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    }
    return files | {str((PACKAGE / "__init__.py").resolve())}


def test_every_rule_script_runs_only_code_of_its_code_inputs():
    code_of = rule_code_packages()
    assert set(code_of) == {path.name for path in RULE_SCRIPTS}
    for script in RULE_SCRIPTS:
        rule, packages = code_of[script.name]
        assert set(packages) <= set(LAYER_OF), f"rule {rule}: {packages}"
        outside = modulefinder_files(script) - library_files(packages)
        assert outside == set(), f"rule {rule}: {sorted(outside)} not in library{packages}"


def test_a_code_input_lists_the_files_of_its_packages_only():
    files = {Path(path).relative_to(PACKAGE).as_posix() for path in library_files(["corpus"])}
    assert "corpus/layout.py" in files and "__init__.py" in files
    assert not any(path.startswith(("contracts/", "formulas/", "site/")) for path in files)
    templates = library_files(["rendering"])
    assert str((PACKAGE / "rendering" / "labels.json").resolve()) in templates


def test_scripts_top_level_holds_only_rule_scripts():
    named = set()
    for smk in (REPO / "workflow" / "rules").glob("*.smk"):
        named |= set(re.findall(r'"\.\./\.\./scripts/(\w+\.py)"', smk.read_text("utf-8")))
    assert {path.name for path in RULE_SCRIPTS} == named
    assert {path.name for path in SCRIPTS.iterdir() if path.is_dir()} - {"__pycache__"} == {
        "ro_metrics",
        "tools",
    }


def test_no_rule_script_shares_its_name_with_a_library_module():
    """`per_run.py` beside `ro_metrics/formulas/per_run.py` reads as one file in a
    traceback, a log or a search; a rule script is named after what it produces."""
    library = {path.stem for path in PACKAGE.rglob("*.py")} - {"__init__"}
    assert RULE_SCRIPT_NAMES & library == set()


# A call that changes sys.path, or an assignment to it or to an item or slice of it.
SYS_PATH_CHANGE = re.compile(r"sys\.path\.(insert|append|extend)|sys\.path(\[[^]]*\])?\s*=(?!=)")


def test_no_sys_path_manipulation_outside_common_smk():
    places = []
    for folder in ("scripts", "tests", "workflow"):
        for path in (REPO / folder).rglob("*"):
            if path.suffix in {".py", ".smk"} and "__pycache__" not in path.parts:
                for line in path.read_text("utf-8").splitlines():
                    if SYS_PATH_CHANGE.search(line):
                        places.append(str(path.relative_to(REPO)))
    assert places == ["workflow/rules/common.smk"]


# Steps that keep Python's cyclic collector: snapshot and verification copy and compare
# files, the site folder links them, metadata writes one small document. (Publish kept
# it while a plotting library drew its diagrams: cyclic objects by the thousand; they
# are text now, reliability_svg.)
KEEP_CYCLE_COLLECTOR = {"snapshot_folder", "snapshot_check", "verify_results", "results_metadata"}
KEEP_CYCLE_COLLECTOR |= {"site_folder"}


def turns_collector_off_first(path: Path) -> bool:
    """Whether the script's main() starts with files.without_cycle_collector()."""
    tree = ast.parse(path.read_text("utf-8"))
    main = next(
        node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name == "main"
    )
    first = main.body[0]
    return (
        isinstance(first, ast.Expr)
        and isinstance(first.value, ast.Call)
        and getattr(first.value.func, "id", None) == "without_cycle_collector"
    )


def test_step_scripts_turn_the_cycle_collector_off_but_the_listed_ones():
    # docs/performance.md: the collector's passes were 1.7 s of the per-run step's 3 s
    # at size L; a new step that builds tables starts the same way.
    keeping = {path.stem for path in RULE_SCRIPTS if not turns_collector_off_first(path)}
    assert keeping == KEEP_CYCLE_COLLECTOR


def test_no_flag_is_put_on_another_rules_file_object():
    """ancient(), protected(), temp() and update() flag the object they are given: given
    `rules.<rule>.output.<name>`, they flag that rule's own output, for every rule that
    reads it (ancient(rules.cross_check.output.verdict) once made every reader of the
    verdict ignore its updates). A flag takes a path of its own."""
    flagged = re.compile(r"\b(ancient|protected|temp|update)\(\s*\[?\s*rules\.")
    offending = [
        f"{smk.name}: {match.group(0)}"
        for smk in sorted((REPO / "workflow" / "rules").glob("*.smk"))
        for match in flagged.finditer(smk.read_text("utf-8"))
    ]
    assert offending == []


def names_missing_from_the_map(map_text: str, rules_dir: Path, scripts: Path) -> list[str]:
    """The rules, rule scripts and library modules docs/architecture.md does not name
    (each as `code`): the map is kept true by naming everything it maps."""
    rules = {
        match.group(1)
        for path in rules_dir.glob("*.smk")
        for match in re.finditer(r"^rule (\w+):", path.read_text("utf-8"), re.M)
    }
    names = {f"`{rule}`" for rule in rules}
    names |= {f"{path.name}" for path in scripts.glob("*.py")}
    names |= {
        f"`{path.stem}`"
        for path in (scripts / "ro_metrics").rglob("*.py")
        if path.stem != "__init__" and "__pycache__" not in path.parts
    }
    return sorted(name for name in names if name not in map_text)


def test_the_map_names_every_rule_rule_script_and_library_module():
    map_text = (REPO / "docs/architecture.md").read_text("utf-8")
    assert names_missing_from_the_map(map_text, REPO / "workflow/rules", SCRIPTS) == []


def test_the_map_check_finds_a_rule_script_and_module_it_does_not_name(tmp_path):
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules/a.smk").write_text("rule load:\n    input: 'x'\n\nrule publish:\n")
    (tmp_path / "scripts/ro_metrics/formulas").mkdir(parents=True)
    (tmp_path / "scripts/loaded.py").write_text("")
    (tmp_path / "scripts/ro_metrics/formulas/metrics.py").write_text("")
    (tmp_path / "scripts/ro_metrics/formulas/__init__.py").write_text("")
    assert names_missing_from_the_map(
        "`load` and loaded.py", tmp_path / "rules", tmp_path / "scripts"
    ) == ["`metrics`", "`publish`"]
