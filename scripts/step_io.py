"""File output shared by the step scripts: logs, atomic writes, the published CSV format."""

import csv
import io
import json
import logging
import os
import sys
from pathlib import Path

import orjson


def step_logger(name: str, log_path) -> logging.Logger:
    """A logger writing to the rule's log file; warnings and errors also to the terminal."""
    logger = logging.getLogger(name)
    logger.setLevel(logging.INFO)
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


def tell(message: str) -> None:
    """One line on the terminal, written at once so parallel jobs never interleave."""
    sys.stderr.write(message + "\n")
    sys.stderr.flush()


def write_bytes_atomic(path, content: bytes) -> None:
    """Write next to the target, then rename: a reader never sees a half-written file."""
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
        write_bytes_atomic(path, orjson.dumps(document, option=orjson.OPT_SORT_KEYS) + b"\n")


def read_json(path):
    with open(path, "rb") as handle:
        return orjson.loads(handle.read())


def format_metric(value: float) -> str:
    """A non-integer metric: round-half-even to 4 decimals, shortest text (0.8065, 1.0)."""
    return repr(round(float(value), 4))


def write_csv(path, header: list[str], rows) -> None:
    """RFC 4180 as published: comma, CRLF, UTF-8 without BOM, minimal quoting.

    Cells are ints, floats (written as repr: the shortest text that reads back as
    the same float), bools (True/False) or text.
    """
    rows = list(rows)
    widths = {len(row) for row in rows}
    if widths - {len(header)}:
        raise ValueError(f"rows of {sorted(widths)} fields under a header of {len(header)}")
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n", quoting=csv.QUOTE_MINIMAL)
    writer.writerow(header)
    writer.writerows(rows)
    write_bytes_atomic(path, buffer.getvalue().encode("utf-8"))
