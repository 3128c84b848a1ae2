"""The public case statements: the optional folder `cases/<version>/` of a corpus, one
Markdown file `<case_id>.md` per public case (shared/spec/families.md, "Case
statements").

A statement is a title line (`# <case_id>`), an optional blockquote note, then its
sections, each a `## <name>` heading among SECTIONS. What is checked here, every problem
of every file at once (rule cross_check reports them with the corpus' other problems,
each naming its file and the field): the file's name is a case id of the benchmark's
golds, with `.md`; it is UTF-8 and no larger than the corpus' file limit; every section
is a known one, none twice, none missing; the `case_id` section is the file's case id;
the title, when there is one, names it too. The statements are data: they are parsed
here (parse_statement) and rendered as Markdown with raw HTML off by the site
(site/case_statement.py), never executed. A case with no file is not public: the site
says so and shows nothing of it.
"""

import re
from pathlib import Path

from ro_metrics.contracts.records import CaseStatement, Problem
from ro_metrics.contracts.vocabulary import FAMILIES, STATEMENT_SECTIONS
from ro_metrics.corpus.decoding import CorpusFileError, decode_utf8, read_whole_file, size_problem
from ro_metrics.corpus.layout import FILE, NOT_A_FILE, Entry, statement_entries

SECTIONS = STATEMENT_SECTIONS
SUFFIX = ".md"
CASE_ID = re.compile(r"RO-[A-Z]{4}-\d{3}")
_SECTION = re.compile(r"## +(.*?)\s*#*\s*$")
_TITLE = re.compile(r"# +(.*?)\s*#*\s*$")
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")


def parse_statement(text: str) -> tuple[CaseStatement, list[str]]:
    """A statement's parts and its problems (each "field: what is wrong"). A heading
    inside a fenced code block is text, not a section."""
    title, preamble, sections, problems = "", [], {}, []
    current, fence = None, None
    for line in text.splitlines():
        opened = _FENCE.match(line)
        if fence is not None:
            if opened and opened[1][0] == fence[0] and len(opened[1]) >= len(fence):
                fence = None
        elif opened:
            fence = opened[1]
        elif (heading := _SECTION.fullmatch(line)) is not None:
            current = heading[1]
            if current not in SECTIONS:
                problems.append(
                    f"section {current!r}: not a section of a case statement "
                    f"(known: {', '.join(SECTIONS)})"
                )
            elif current in sections:
                problems.append(f"section {current}: written twice")
            sections.setdefault(current, [])
            continue
        elif current is None and not title and (heading := _TITLE.fullmatch(line)):
            title = heading[1]
            continue
        (preamble if current is None else sections[current]).append(line)
    missing = [name for name in SECTIONS if name not in sections]
    if missing:
        problems.append(f"section {', '.join(missing)}: missing")
    statement = CaseStatement(
        title,
        "\n".join(preamble).strip(),
        {name: "\n".join(lines).strip() for name, lines in sections.items() if name in SECTIONS},
    )
    return statement, problems


def statement_of(raw: bytes) -> CaseStatement:
    """A statement file's parts, whatever its problems (the site renders what it can;
    rule cross_check stops the run on any problem before the site is put together)."""
    return parse_statement(raw.decode("utf-8", "replace"))[0]


def statement_case_id(path: str) -> str | None:
    """The case id a statement file's name gives, or None if it names none."""
    name = Path(path).name
    stem = name[: -len(SUFFIX)] if name.endswith(SUFFIX) else ""
    return stem if CASE_ID.fullmatch(stem) else None


def statement_files(root: Path, version: str) -> dict[str, list[str]]:
    """The paths of the statement files named for a case of a known family, by the
    family, sorted (any other entry is a problem: statement_problems)."""
    files: dict[str, list[str]] = {}
    for entry in statement_entries(root, version):
        case_id = statement_case_id(entry.path)
        family = case_id.split("-")[1] if case_id else None
        if entry.kind == FILE and family in FAMILIES:
            files.setdefault(family, []).append(str(root / entry.path))
    return files


def statement_problems(
    corpus: Path, entries: list[Entry], case_ids, max_bytes: int
) -> list[Problem]:
    """Every problem of the statements folder (its entries: layout.statement_entries;
    case_ids: the golds')."""
    problems = []
    for entry in entries:
        if entry.kind != FILE:
            problems.append(Problem(entry.path, NOT_A_FILE[entry.kind]))
            continue
        case_id = statement_case_id(entry.path)
        if case_id is None:
            problems.append(Problem(entry.path, "file name: not a case statement's (<case_id>.md)"))
            continue
        if case_id not in case_ids:
            problems.append(Problem(entry.path, f"file name: {case_id} is not a case with a gold"))
        for message in _file_problems(corpus / entry.path, entry.size, case_id, max_bytes):
            problems.append(Problem(entry.path, message))
    return problems


def _file_problems(path: Path, size: int, case_id: str, max_bytes: int) -> list[str]:
    if too_large := size_problem(size, max_bytes):
        return [too_large]
    try:
        text = decode_utf8(read_whole_file(path, size))
    except OSError as error:
        return [f"cannot be read: {error.strerror}"]
    except CorpusFileError as error:
        return [str(error)]
    statement, problems = parse_statement(text)
    written = statement.sections.get("case_id")
    if written is not None and written != case_id:
        problems.append(f"section case_id: {written!r} is not the file's case id {case_id}")
    if statement.title and statement.title != case_id:
        problems.append(f"title: {statement.title!r} is not the file's case id {case_id}")
    return problems
