"""Which files of this package a rule script runs: the rule's code input.

Snakemake re-runs a job when the script named by `script:` changes, but not when a
module that script imports changes. Each rule therefore takes as input a *code stamp*:
one small file listing the script and every package module it imports, directly or
not, each with the sha256 of its content. The list is derived from the import
statements (AST), never kept by hand; the stamp is rewritten only when a digest or the
list changes, so its modification time moves exactly when the rule's code does.

One stamp instead of the ~20 module files themselves: Snakemake checks each input of
each job at every start, and a stamp keeps that to one file per rule. The imports of
each file are kept in an index by content digest, so a start parses only the files
that changed since the last one.

Layer-free: it imports nothing of the package (workflow/rules/common.smk loads it
before any step runs).
"""

import ast
import hashlib
import json
import os
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


def _imported_names(source: bytes, filename: str) -> list[str]:
    """Dotted names of the package a file imports (modules, and from-imported names)."""
    names = set()
    for node in ast.walk(ast.parse(source, filename=filename)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return sorted(name for name in names if name == PACKAGE or name.startswith(PACKAGE + "."))


class CodeGraph:
    """The import graph of the rule scripts under `search_root` (the scripts folder).

    `index_file` (optional) keeps the imported names of each file by the digest of its
    content between runs.
    """

    def __init__(self, search_root: Path, index_file: Path | None = None):
        self.search_root = Path(search_root).resolve()
        self.index_file = index_file
        self.index: dict[str, list[str]] = {}
        if index_file is not None:
            try:
                self.index = json.loads(Path(index_file).read_text("utf-8"))
            except (FileNotFoundError, ValueError):
                self.index = {}
        self.learned = False
        self.used: set[str] = set()
        # Per instance: the files do not change while the workflow is parsed.
        self._facts = cache(self._read_facts)
        self._file_of = cache(lambda name: _module_file(name, self.search_root))

    def _read_facts(self, path: Path) -> tuple[str, frozenset[Path]]:
        """The sha256 of a file and the package files importing it executes (each named
        module and its packages)."""
        source = path.read_bytes()
        digest = hashlib.sha256(source).hexdigest()
        self.used.add(digest)
        names = self.index.get(digest)
        if names is None:
            names = _imported_names(source, str(path))
            self.index[digest] = names
            self.learned = True
        files = set()
        for name in names:
            parts = name.split(".")
            for end in range(1, len(parts) + 1):
                found = self._file_of(".".join(parts[:end]))
                if found is not None:
                    files.add(found)
        return digest, frozenset(files)

    def modules(self, script) -> list[Path]:
        """The script itself and every package file it imports, directly or not, sorted."""
        script = Path(script).resolve()
        seen = {script}
        pending = [script]
        while pending:
            for found in self._facts(pending.pop())[1]:
                if found not in seen:
                    seen.add(found)
                    pending.append(found)
        return sorted(seen)

    def stamp_text(self, script) -> str:
        """One line per file the script runs: its sha256 and its path under the scripts
        folder."""
        return "".join(
            f"{self._facts(path)[0]}  {path.relative_to(self.search_root).as_posix()}\n"
            for path in self.modules(script)
        )

    def stamp(self, script, stamp_file: Path, *, write: bool) -> str:
        """The path of the script's code stamp, (re)written first if `write` and its
        content changed (a job process of a cluster run only reads it)."""
        stamp_file = Path(stamp_file)
        if write:
            _write_if_changed(stamp_file, self.stamp_text(script))
            if self.learned and self.index_file is not None:
                # Only the files of today's code: the index does not grow with each edit.
                kept = {digest: self.index[digest] for digest in self.used}
                _write_if_changed(Path(self.index_file), json.dumps(kept, sort_keys=True, indent=0))
                self.learned = False
        return str(stamp_file)


def _write_if_changed(path: Path, content: str) -> None:
    try:
        if path.read_text("utf-8") == content:
            return
    except FileNotFoundError:
        path.parent.mkdir(parents=True, exist_ok=True)
    # Atomic: runs on other corpora may read the same stamp at the same moment.
    partial = path.with_name(f".{path.name}.{os.getpid()}.partial")
    partial.write_text(content, "utf-8")
    os.replace(partial, path)


def script_modules(script) -> list[str]:
    """The script itself and every package file it imports, directly or not, sorted."""
    script = Path(script).resolve()
    return [str(path) for path in CodeGraph(script.parent).modules(script)]
