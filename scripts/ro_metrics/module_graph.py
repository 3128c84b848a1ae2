"""Which files of this package a rule script runs: the rule's code inputs.

Snakemake re-runs a job when the script named by `script:` changes, but not when a
module that script imports changes. Each rule therefore lists its script and every
package module it imports, directly or not, as inputs; this module derives that list
from the import statements (AST, at parse time), so no list is kept by hand.

Layer-free: it imports nothing of the package (workflow/rules/common.smk loads it
before any step runs).
"""

import ast
from functools import cache
from pathlib import Path

PACKAGE = "ro_metrics"


def _module_file(name: str, search_root: Path) -> Path | None:
    """The file of a dotted module name under search_root, if it is one of ours."""
    base = search_root.joinpath(*name.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _imported_names(path: Path) -> set[str]:
    """Dotted names of the package a file imports (modules, and from-imported names)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_bytes(), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return {name for name in names if name == PACKAGE or name.startswith(PACKAGE + ".")}


@cache
def _direct_imports(path: Path, search_root: Path) -> frozenset[Path]:
    """The package files importing `path` executes: each named module and its packages."""
    files = set()
    for name in _imported_names(path):
        parts = name.split(".")
        for end in range(1, len(parts) + 1):
            found = _module_file(".".join(parts[:end]), search_root)
            if found is not None:
                files.add(found)
    return frozenset(files)


def script_modules(script) -> list[str]:
    """The script itself and every package file it imports, directly or not, sorted."""
    script = Path(script).resolve()
    search_root = script.parent
    seen = {script}
    pending = [script]
    while pending:
        for found in _direct_imports(pending.pop(), search_root):
            if found not in seen:
                seen.add(found)
                pending.append(found)
    return sorted(str(path) for path in seen)
