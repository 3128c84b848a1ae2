"""File output shared by every step: logs, atomic writes, JSON between steps."""

import gc
import json
import logging
import os
import sys
from pathlib import Path

import orjson


def without_cycle_collector() -> None:
    """Turn Python's cyclic garbage collector off for the rest of a step's process.

    A step builds tables of up to 10^5 rows (tuples, lists, dicts) that never refer back
    to each other, so reference counting frees all of them; the collector would only
    walk the growing heap again and again (a full pass visits every live container).
    At size L that was 1.7 s of the per-run step's 3 s and 1 s of the cross-check's
    (docs/performance.md). The process ends with its step, which frees whatever cycle a
    library leaves. Not for a step that makes cyclic objects by the thousand (a
    plotting library's figures).
    """
    gc.disable()


def _interrupt_without_traceback(kind, value, traceback) -> None:
    """sys.excepthook of a rule script's process: an interrupt (Ctrl-C, SIGINT) ends it
    without a Python traceback (Python then ends the process by SIGINT, which Snakemake
    reports); any other uncaught exception is printed as always."""
    if issubclass(kind, KeyboardInterrupt):
        return
    sys.__excepthook__(kind, value, traceback)


def step_logger(name: str, log_path) -> logging.Logger:
    """A logger writing to the rule's log file; warnings and errors also to the terminal.

    Every rule script calls it first, in its own process (never Snakemake's): it also
    has an interrupt end the process without a traceback."""
    sys.excepthook = _interrupt_without_traceback
    logger = logging.getLogger(name)
    # The log file keeps debug lines too (files the step skipped on purpose, say).
    logger.setLevel(logging.DEBUG)
    logger.handlers.clear()
    Path(log_path).parent.mkdir(parents=True, exist_ok=True)
    to_file = logging.FileHandler(log_path, mode="w", encoding="utf-8")
    to_file.setFormatter(logging.Formatter("%(levelname)s %(message)s"))
    logger.addHandler(to_file)
    to_terminal = logging.StreamHandler(sys.stderr)
    to_terminal.setLevel(logging.WARNING)
    to_terminal.setFormatter(logging.Formatter("%(message)s"))
    logger.addHandler(to_terminal)
    logger.propagate = False
    return logger


# The empty file Snakemake writes into a directory() output when its job succeeded,
# to carry the folder's date: not a page nor a published file.
DIRECTORY_MARKER = ".snakemake_timestamp"


def tell(message: str) -> None:
    """One line on the terminal, written at once so parallel jobs never interleave."""
    sys.stderr.write(message + "\n")
    sys.stderr.flush()


def write_bytes_atomic(path, content: bytes) -> None:
    """Write next to the target, flush to the disk, then rename: a reader never sees a
    half-written file, and a crash of the machine cannot leave an empty file under the
    name."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    staging = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(staging, "wb") as handle:
            handle.write(content)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(staging, path)
    finally:
        staging.unlink(missing_ok=True)


def write_json(path, document, *, pretty: bool = False) -> None:
    """Deterministic JSON with sorted keys: indented to be read, compact in between steps."""
    if pretty:
        text = json.dumps(document, sort_keys=True, ensure_ascii=False, indent=1) + "\n"
        write_bytes_atomic(path, text.encode("utf-8"))
    else:
        # The newline by orjson: `+ b"\n"` would copy the whole text (tens of MB at L).
        write_bytes_atomic(path, json_bytes(document, orjson.OPT_APPEND_NEWLINE))


def json_bytes(document, option: int = 0) -> bytes:
    """Compact JSON with sorted keys, records as arrays: the bytes between steps (and
    what a digest of records is taken over). option: more orjson options."""
    return orjson.dumps(document, default=_as_list, option=orjson.OPT_SORT_KEYS | option)


def _as_list(value):
    """Records that are NamedTuples go out as JSON arrays (orjson knows only plain tuples)."""
    if isinstance(value, tuple):
        return list(value)
    raise TypeError(f"not JSON serializable: {type(value).__name__}")


def read_json(path):
    with open(path, "rb") as handle:
        return orjson.loads(handle.read())
