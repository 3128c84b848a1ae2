"""What the tests share: running the real workflow, a headless browser, a naive metrics oracle.

Workflow runs: each run in its own copy of the workflow. A copy per run keeps
`.snakemake/` (its lock and metadata) and the cache of one test away from every other
test and from the developer's own runs.

Browser: Debian's headless Chromium for the tests that look at a page. No Selenium or
Playwright: one Chromium per test process (shared_browser), driven over its DevTools
pipe, loads each page in a tab of its own and gives the DOM after the page's scripts
ran, a screenshot, or what an expression over the page evaluates to; `chromium()` runs
it once from the command line (`--dump-dom`, `--screenshot`). The flags keep it off the
(closed) network. A minimal DOM (html.parser) reads what it rendered.

Naive oracle: an independent reading of aggregated_metrics.md and the hypothesis
strategies of small corpora, shared by the in-process and the end-to-end property
tests (last section of this file).
"""

import atexit
import base64
import csv
import fcntl
import hashlib
import io
import json
import math
import os
import re
import select
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
from collections import defaultdict
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from ro_metrics.contracts.records import (
    PublicAnswer,
    PublicFail,
    PublicGold,
    PublicScoring,
    PublishedRun,
    ScoredRun,
    VersionParts,
)
from ro_metrics.contracts.tables import TELEMETRY_COLUMNS
from ro_metrics.formulas.evidence import evidence
from ro_metrics.formulas.per_run import per_run_row
from ro_metrics.publishing.site_pages import (
    VersionRun,
    render_case_page,
    render_version_page,
    version_parts,
)
from ro_metrics.publishing.translations import Language

REPO = Path(__file__).resolve().parents[1]
DEMO_CORPUS = REPO / "demo" / "corpus"
# Copies of the spec's sample files (response, scoring, gold, registry).
SAMPLES = REPO / "tests" / "data" / "samples"
COMMITTED_RESULTS = REPO / "results"
WORKFLOW_PARTS = ["Snakefile", "workflow", "scripts", "config", "system", "profiles"]
PUBLISHED = [
    "per_run.csv",
    "metrics_per_subject.csv",
    "metrics_per_family.csv",
    "coverage.csv",
    "uncertainty.csv",
    "criterion_scores.csv",
    "input_files.csv",
    "changes.csv",
    "changes.md",
    "critical_fails.csv",
    "leaderboard.csv",
    "leaderboard.html",
    "leaderboard.es.html",
    "leaderboard.md",
    "metadata.json",
    # Published because the demo corpus has telemetry (a corpus without has neither).
    "operational_per_subject.csv",
    "operational_per_family.csv",
]
# What a corpus without telemetry (the scaled sizes S, M, L) publishes.
PUBLISHED_WITHOUT_TELEMETRY = [name for name in PUBLISHED if not name.startswith("operational_")]
SNAKEMAKE = str(Path(sys.executable).parent / "snakemake")
SNAKEMAKE_SERVER = Path(__file__).resolve().parent / "snakemake_server.py"
# The SLURM executor plugin, installed apart by `make test` (requirements-slurm.txt says
# why): on Snakemake's path only in the runs given `plugins=SLURM_PLUGIN`.
SLURM_PLUGIN = Path(sys.prefix) / "slurm-plugin"


@dataclass
class Run:
    returncode: int
    output: str


# For a run whose checks do not depend on how the corpus is split for loading: one load
# job (what `partitions: auto` gives the demo corpus too, whatever its default becomes).
ONE_PARTITION = {"partitions": 1}
# For the tests of the partitioning itself (a change re-runs its partition only, every
# load job is submitted, problems come from several load jobs): the demo's subjects
# spread over 4 of 8 partitions.
EIGHT_PARTITIONS = {"partitions": 8}


def workflow_copy(destination: Path) -> Path:
    """A copy of the workflow, the library's bytecode included (`make test` compiles it
    first): without it every process of a run on the copy compiles the library again.
    A copied .pyc is used only while its source keeps its size and mtime (copy2 keeps
    them), so a test that edits a module in its copy runs the edited source."""
    destination.mkdir(parents=True, exist_ok=True)
    for part in WORKFLOW_PARTS:
        source = REPO / part
        if source.is_dir():
            shutil.copytree(source, destination / part)
        else:
            shutil.copy2(source, destination / part)
    return destination


def corpus_copy(destination: Path) -> Path:
    shutil.copytree(DEMO_CORPUS, destination)
    return destination


def run_workflow(workdir: Path, *args: str, plugins: Path | None = None, **config) -> Run:
    """Snakemake in workdir with args and config; `plugins`: a folder of executor plugins
    put on its path (PYTHONPATH) for this run.

    Forked from this test process's Snakemake server (snakemake_server.py says what it
    is: `snakemake` on the command line, less ~1 s of imports per run, its jobs forked
    from a job server too); a run with plugins starts the command line itself
    (Snakemake collects plugins at import)."""
    command = [SNAKEMAKE, "--cores", "4", *args]
    if config:
        command += ["--config", *(f"{key}={value}" for key, value in config.items())]
    if plugins is None:
        return _snakemake_server().run(command, workdir, dict(os.environ), timeout=600)
    assert plugins.is_dir(), f"{plugins} is missing: `make test` installs it"
    completed = subprocess.run(
        command,
        cwd=workdir,
        env={**os.environ, "PYTHONPATH": str(plugins)},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    return Run(completed.returncode, completed.stdout + completed.stderr)


class SnakemakeServer:
    """The client of one snakemake_server.py process (one per test process)."""

    def __init__(self):
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.process = subprocess.Popen(
            [sys.executable, "-P", str(SNAKEMAKE_SERVER), str(theirs.fileno())],
            pass_fds=[theirs.fileno()],
            stdin=subprocess.DEVNULL,
            cwd=tempfile.gettempdir(),
        )
        theirs.close()
        self.connection = ours

    def alive(self) -> bool:
        return self.process.poll() is None

    def run(self, command: list[str], cwd: Path, env: dict, timeout: float) -> Run:
        request = json.dumps({"argv": command, "cwd": str(cwd), "env": env}).encode()
        with tempfile.TemporaryFile() as stdout, tempfile.TemporaryFile() as stderr:
            self.connection.settimeout(timeout)
            socket.send_fds(self.connection, [request], [stdout.fileno(), stderr.fileno()])
            pid = json.loads(self.connection.recv(4096))["pid"]
            try:
                answer = self.connection.recv(4096)
            except TimeoutError:
                os.kill(pid, signal.SIGKILL)
                self.connection.settimeout(None)
                self.connection.recv(4096)
                raise subprocess.TimeoutExpired(command, timeout) from None
            returncode = json.loads(answer)["returncode"]
            # What subprocess.run(text=True) gives: the locale's encoding, universal newlines.
            texts = []
            for stream in (stdout, stderr):
                stream.seek(0)
                texts.append(io.TextIOWrapper(stream, newline=None).read())
        return Run(returncode, "".join(texts))

    def close(self) -> None:
        self.connection.close()
        with suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=10)


_server: SnakemakeServer | None = None


def _snakemake_server() -> SnakemakeServer:
    """This test process's server, started on first use (again if it died)."""
    global _server
    if _server is None or not _server.alive():
        _server = SnakemakeServer()
        atexit.register(_server.close)
    return _server


@contextmanager
def exclusive(lock: Path):
    """Hold an exclusive lock on a file: one process at a time (pytest-xdist workers too)."""
    with open(lock, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


@dataclass
class DemoRun:
    """A run of the workflow on a copy of the demo corpus, and what it changed around it."""

    workdir: Path  # the copy of the workflow it ran in; results in workdir / "out"
    corpus: Path  # the copy of the demo corpus it read
    run: Run
    workdir_before: set[str]  # names in workdir before the run
    workdir_after: set[str]  # ... and right after it
    beside_after: set[str]  # names in the folder holding corpus and workdir, right after
    corpus_before: dict[str, str]  # tree_digest of the corpus before the run

    @property
    def results(self) -> Path:
        return self.workdir / "out"

    @property
    def config(self) -> dict:
        return {"corpus": self.corpus, "results": self.results}

    def exclusive(self):
        """Held around any later Snakemake in workdir (its lock would refuse a second)."""
        return exclusive(self.workdir.parent.parent / "demo-run-snakemake.lock")

    def save(self, path: Path) -> None:
        record = {
            "workdir": str(self.workdir),
            "corpus": str(self.corpus),
            "run": [self.run.returncode, self.run.output],
            "workdir_before": sorted(self.workdir_before),
            "workdir_after": sorted(self.workdir_after),
            "beside_after": sorted(self.beside_after),
            "corpus_before": self.corpus_before,
        }
        path.write_text(json.dumps(record), "utf-8")

    @classmethod
    def load(cls, path: Path) -> "DemoRun":
        record = json.loads(path.read_text("utf-8"))
        return cls(
            Path(record["workdir"]),
            Path(record["corpus"]),
            Run(*record["run"]),
            set(record["workdir_before"]),
            set(record["workdir_after"]),
            set(record["beside_after"]),
            record["corpus_before"],
        )


def run_on_demo_copy(root: Path) -> DemoRun:
    """Run the workflow once on a copy of the demo corpus, in root/workflow.

    The tests that only read what a run on the demo corpus wrote share one such run
    (the session fixture `demo_run` of conftest.py, made once for all pytest-xdist
    workers); a test that changes the corpus, the workflow or the results runs its own
    copy.
    """
    root.mkdir()
    corpus = corpus_copy(root / "corpus")
    workdir = workflow_copy(root / "workflow")
    corpus_before = tree_digest(corpus)
    workdir_before = {path.name for path in workdir.iterdir()}
    run = run_workflow(workdir, corpus=corpus, results=workdir / "out")
    return DemoRun(
        workdir,
        corpus,
        run,
        workdir_before,
        {path.name for path in workdir.iterdir()},
        {path.name for path in root.iterdir()},
        corpus_before,
    )


def start_workflow(workdir: Path, *, capture: bool = False, **config) -> subprocess.Popen:
    """A run in the background (its own process group, so a test can kill all of it)."""
    command = [SNAKEMAKE, "--cores", "2", "--config"]
    command += [f"{key}={value}" for key, value in config.items()]
    output = subprocess.PIPE if capture else subprocess.DEVNULL
    return subprocess.Popen(
        command,
        cwd=workdir,
        stdout=output,
        stderr=subprocess.STDOUT if capture else subprocess.DEVNULL,
        text=capture,
        start_new_session=True,
    )


_PLANNED_JOB = re.compile(r"^(?:local)?rule (\w+):\n(?:    .*\n)*?    wildcards: (.*)$", re.M)
_JOB_STATS_ROW = re.compile(r"^(\w+)\s+(\d+)$", re.M)


# What a run prints when it removes the lock of a killed run (ro_metrics.publishing.stale_lock).
STALE_LOCK_REMOVED = re.compile(
    r"^Removed the stale lock of a run that was killed \(pid (\d+), started "
    r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d\); continuing\.$",
    re.M,
)


@dataclass
class Plan:
    """What a dry run would do."""

    output: str

    def jobs(self) -> dict[str, int]:
        """Rule name → number of jobs (empty if nothing to do)."""
        if "Nothing to be done" in self.output:
            return {}
        stats = self.output.split("Job stats:", 1)[1].split("\n\n", 1)[0]
        rows = _JOB_STATS_ROW.findall(stats)
        return {rule: int(count) for rule, count in rows if rule != "total"}

    def wildcards(self, rule: str) -> list[str]:
        return sorted(w for name, w in _PLANNED_JOB.findall(self.output) if name == rule)


def plan(workdir: Path, *targets: str, **config) -> Plan:
    run = run_workflow(workdir, "--dry-run", *targets, **config)
    assert run.returncode == 0, run.output
    return Plan(run.output)


def planned_jobs(workdir: Path, *targets: str, **config) -> dict[str, int]:
    """Rule name → number of jobs in a dry run's plan (empty if nothing to do)."""
    return plan(workdir, *targets, **config).jobs()


def planned_wildcards(workdir: Path, rule: str, *targets: str, **config) -> list[str]:
    return plan(workdir, *targets, **config).wildcards(rule)


def tree_digest(root: Path) -> dict[str, str]:
    """Relative path → SHA-256 of every file below root."""
    return {
        str(path.relative_to(root)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }


CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
CHROMIUM_TIMEOUT = 90


# Markup a probe puts into corpus or registry text: it must show escaped everywhere.
PROBE = "<script>alert(1)</script><img src=x onerror=alert(2)>"
# Put first into a page, it records any alert() on <html data-alerted>.
ALERT_TRAP = (
    "<script>window.alert = function (m) {"
    " document.documentElement.setAttribute('data-alerted', String(m)); };</script>"
)


def with_alert_trap(html: str, destination: Path) -> Path:
    """A copy of a page whose first script records any alert() on <html data-alerted>."""
    before, head, after = html.partition("<head>")
    assert head
    destination.write_text(f"{before}{head}\n{ALERT_TRAP}{after}", "utf-8")
    return destination


def require_chromium(*, module_level: bool = False) -> None:
    """Skip without Chromium on a developer's machine; in CI (CI set) it must be there."""
    if CHROMIUM.exists():
        return
    if os.environ.get("CI"):
        pytest.fail(f"{CHROMIUM} is missing: CI must install chromium (apt)", pytrace=False)
    pytest.skip(
        f"{CHROMIUM} is not installed (apt install chromium)", allow_module_level=module_level
    )


def chromium(tmp: Path, *args: str, timeout: int = CHROMIUM_TIMEOUT) -> bytes:
    """Run headless Chromium with a fresh profile; its stdout. Killed (whole group) on timeout."""
    profile = tempfile.mkdtemp(prefix="chromium-profile-", dir=tmp)
    command = [str(CHROMIUM), *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *args]
    scratch = _chromium_scratch()
    with subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        env={**os.environ, "TMPDIR": scratch},
    ) as process:
        try:
            out, err = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            raise AssertionError(f"chromium took more than {timeout} s: {args}") from None
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
    assert process.returncode == 0, err.decode("utf-8", "replace")[-3000:]
    return out


def _chromium_scratch() -> str:
    """A folder for Chromium's TMPDIR, removed by the caller once Chromium ended: Chromium
    makes its scratch folders there (org.chromium.Chromium.*) and leaves them behind
    when killed. Under the system's temporary folder, not a test's: the path of the
    singleton socket Chromium puts in it must stay within a Unix socket's 108 bytes."""
    return tempfile.mkdtemp(prefix="chromium-tmp-")


def _moved_up(fd: int) -> int:
    """The same open file on the lowest free fd of 10 and up (fd closed)."""
    moved = fcntl.fcntl(fd, fcntl.F_DUPFD, 10)
    os.close(fd)
    return moved


class Browser:
    """One headless Chromium for many pages, driven over the DevTools protocol on a pipe
    (`--remote-debugging-pipe`: commands on its fd 3, answers and events on its fd 4, each
    a JSON text ended by NUL). Starting Chromium takes most of a `chromium()` call: a test
    module that looks at many pages opens one Browser (a context manager) and loads each
    page in a tab of its own. Every wait is bounded by CHROMIUM_TIMEOUT."""

    _DOM = (
        '(document.doctype ? new XMLSerializer().serializeToString(document.doctype) + "\\n"'
        ' : "") + document.documentElement.outerHTML + "\\n"'
    )

    def __init__(self, tmp: Path):
        profile = tempfile.mkdtemp(prefix="chromium-profile-", dir=tmp)
        self._scratch = _chromium_scratch()
        commands_read, self._commands = os.pipe()
        self._answers, answers_write = os.pipe()
        # Chromium's ends moved to fds of 10 and up, so that neither is 3 or 4 itself;
        # bash (dash takes one-digit fds only) puts them on 3 and 4, then becomes Chromium.
        commands_read, answers_write = (_moved_up(fd) for fd in (commands_read, answers_write))
        redirect = f'exec "$0" "$@" 3<&{commands_read} 4>&{answers_write}'
        self.process = subprocess.Popen(
            ["/bin/bash", "-c", redirect, str(CHROMIUM), *CHROMIUM_FLAGS,
             f"--user-data-dir={profile}", "--remote-debugging-pipe", "about:blank"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            pass_fds=(commands_read, answers_write),
            start_new_session=True,
            env={**os.environ, "TMPDIR": self._scratch},
        )  # fmt: skip
        os.close(commands_read)
        os.close(answers_write)
        self._buffer, self._next_id, self._events = b"", 0, []

    def __enter__(self) -> "Browser":
        return self

    def __exit__(self, *exc) -> None:
        with suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()
        os.close(self._commands)
        os.close(self._answers)
        shutil.rmtree(self._scratch, ignore_errors=True)

    def _message(self) -> dict:
        while b"\0" not in self._buffer:
            ready, _, _ = select.select([self._answers], [], [], CHROMIUM_TIMEOUT)
            assert ready, f"chromium did not answer in {CHROMIUM_TIMEOUT} s"
            chunk = os.read(self._answers, 1 << 20)
            assert chunk, "chromium closed its DevTools pipe"
            self._buffer += chunk
        text, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(text)

    def send(self, method: str, session: str | None = None, **params) -> dict:
        """The result of one DevTools command (events that arrive meanwhile are kept)."""
        self._next_id += 1
        command = {"id": self._next_id, "method": method, "params": params}
        if session:
            command["sessionId"] = session
        os.write(self._commands, json.dumps(command).encode() + b"\0")
        while True:
            message = self._message()
            if message.get("id") == self._next_id:
                assert "error" not in message, (method, message["error"])
                return message["result"]
            self._events.append(message)

    def _wait_for(self, event: str, session: str) -> None:
        def matches(message):
            return message.get("method") == event and message.get("sessionId") == session

        while not any(matches(message) for message in self._events):
            self._events.append(self._message())
        self._events = [message for message in self._events if not matches(message)]

    @contextmanager
    def tab(self, page: Path, width: int = 1280, height: int = 900):
        """A new tab of `width` × `height` px with `page` loaded (its load event fired);
        yields its session id, for send()."""
        target = self.send("Target.createTarget", url="about:blank")["targetId"]
        session = self.send("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        try:
            self.send(
                "Emulation.setDeviceMetricsOverride",
                session,
                width=width,
                height=height,
                deviceScaleFactor=1,
                mobile=False,
            )
            self.send("Page.enable", session)
            self.send("Page.navigate", session, url=page.as_uri())
            self._wait_for("Page.loadEventFired", session)
            yield session
        finally:
            self.send("Target.closeTarget", targetId=target)
            self._events = [event for event in self._events if event.get("sessionId") != session]

    def _value(self, session: str, expression: str):
        found = self.send("Runtime.evaluate", session, expression=expression, returnByValue=True)
        assert "exceptionDetails" not in found, found["exceptionDetails"]
        return found["result"]["value"]

    def dom(self, page: Path) -> str:
        """What `chromium --dump-dom` prints: the doctype and the DOM after load."""
        with self.tab(page) as session:
            return self._value(session, self._DOM)

    def evaluate(self, page: Path, expression: str, width: int = 1280, height: int = 900):
        """What a JavaScript expression over the page's `doc` and `root` (its element)
        gives, as JSON values, with the page loaded in a window `width` × `height` px."""
        with self.tab(page, width, height) as session:
            return self._value(
                session,
                f"(function (doc, root) {{ return ({expression}); }})"
                "(document, document.documentElement)",
            )

    def screenshot(self, page: Path, png: Path, width: int, height: int) -> None:
        """What `chromium --screenshot --window-size=W,H --hide-scrollbars` writes."""
        with self.tab(page, width, height) as session:
            self.send("Emulation.setScrollbarsHidden", session, hidden=True)
            data = self.send("Page.captureScreenshot", session, format="png")["data"]
        png.write_bytes(base64.b64decode(data))


_SHARED_BROWSER: Browser | None = None


def shared_browser() -> Browser:
    """This test process's Browser: started at the first call, ended when it exits."""
    global _SHARED_BROWSER
    if _SHARED_BROWSER is None or _SHARED_BROWSER.process.poll() is not None:
        profiles = tempfile.TemporaryDirectory(prefix="browser-")
        _SHARED_BROWSER = Browser(Path(profiles.name))
        atexit.register(profiles.cleanup)
        atexit.register(_SHARED_BROWSER.__exit__)
    return _SHARED_BROWSER


def dump_dom(page: Path) -> "Element":
    """The DOM of a page after its scripts ran, parsed."""
    dom = shared_browser().dom(page)
    assert "</html>" in dom, dom[-2000:]
    return parse_html(dom)


# A minimal DOM from html.parser, enough to read a page Chromium rendered.

# Secondary annotations a cell may carry after its published value (uncertainty
# intervals, tie groups, the version under the subject); not part of the value.
ANNOTATIONS = {"ci", "group-label"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}  # fmt: skip


class Element:
    def __init__(self, tag: str, attrs: dict, parent: "Element | None"):
        self.tag, self.attrs, self.parent = tag, attrs, parent
        self.children: list[Element | str] = []

    @property
    def classes(self) -> set[str]:
        return set((self.attrs.get("class") or "").split())

    def iter(self):
        yield self
        for child in self.children:
            if isinstance(child, Element):
                yield from child.iter()

    def find_all(self, tag: str, css: str | None = None) -> list["Element"]:
        return [e for e in self.iter() if e.tag == tag and (css is None or css in e.classes)]

    def one(self, tag: str, css: str | None = None) -> "Element":
        found = self.find_all(tag, css)
        assert len(found) == 1, (tag, css, len(found))
        return found[0]

    def element_children(self, tag: str) -> list["Element"]:
        return [c for c in self.children if isinstance(c, Element) and c.tag == tag]

    def raw_text(self) -> str:
        return "".join(c if isinstance(c, str) else c.raw_text() for c in self.children)

    def text(self) -> str:
        return " ".join(self.raw_text().split())

    def value_text(self) -> str:
        """The text without the secondary annotations (see ANNOTATIONS)."""
        parts = [
            c if isinstance(c, str) else c.value_text()
            for c in self.children
            if isinstance(c, str) or not c.classes & ANNOTATIONS
        ]
        return " ".join("".join(parts).split())


class TreeBuilder(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = self.current = Element("#document", {}, None)

    def handle_starttag(self, tag, attrs):
        element = Element(tag, dict(attrs), self.current)
        self.current.children.append(element)
        if tag not in VOID:
            self.current = element

    def handle_startendtag(self, tag, attrs):
        self.current.children.append(Element(tag, dict(attrs), self.current))

    def handle_endtag(self, tag):
        node = self.current
        while node.parent is not None and node.tag != tag:
            node = node.parent
        if node.parent is not None:
            self.current = node.parent

    def handle_data(self, data):
        self.current.children.append(data)


def parse_html(html: str) -> Element:
    builder = TreeBuilder()
    builder.feed(html)
    builder.close()
    return builder.root


def subject_sections(dom: Element) -> list[Element]:
    """The leaderboard page's sections, one per subject version."""
    return [s for s in dom.find_all("section", "subject")]


def published_run(subject_version: str, text: str) -> PublishedRun:
    """A scored run of atlas (subject_version) on RO-FOUL-001 as the site's pages get it:
    every text of its answer and scoring is `text`, its one fail critical and generic,
    the reviewer quoting "<text> now" from its recommended action; scores 10 (2, 2, 2,
    0, 2, 2), confidence 80, correctness 1.0."""
    run = ScoredRun(
        "atlas",
        subject_version,
        "RO-FOUL-001",
        "run-2026-05-12-001",
        "R01",
        "2026-05-13T10:38:10Z",
        [2, 2, 2, 0, 2, 2],
        ["critical"],
        80,
        1.0,
    )
    answer = PublicAnswer(
        "2026-05-12T14:23:55Z",
        text,
        "classic",
        80,
        text,
        [text],
        [[text, text, text]],
        text,
        f"Shock it: {text} now",
        text,
    )
    scoring = PublicScoring([text] * 6, [PublicFail("generic", "critical", f"'{text} now'")])
    return PublishedRun(run, answer, scoring)


# The case of published_run: RO-FOUL-001, floor 4, ceiling 12.
SITE_GOLD = PublicGold("FOUL", "Closed", 4, 12)


def version_run(subject_version: str, text: str) -> VersionRun:
    """published_run as its version's page gets it: with its per-run row (raw and
    clipped score 10, Fail with a critical fail) and its fail's evidence."""
    published = published_run(subject_version, text)
    row = per_run_row(published.run, SITE_GOLD, "FOUL")
    found = evidence(published.scoring.fails[0].justification, published.answer)
    return VersionRun.of(published, row, [found])


def site_pages(subject_version: str, text: str, summary: list, t: Language):
    """The site's pages of version_run(subject_version, text) in language t: its
    version's page, its VersionParts (in t's language only) and its case's page."""
    entry = version_run(subject_version, text)
    page = render_version_page(
        subject_id="atlas",
        subject_version=subject_version,
        runs=[entry],
        summary=summary,
        golds={"RO-FOUL-001": SITE_GOLD},
        benchmark_version="v1.0",
        t=t,
    )
    parts: VersionParts = version_parts(
        "atlas", subject_version, "d", [entry], ["RO-FOUL-001"], editions={t.code: t}
    )
    case = render_case_page(
        case_id="RO-FOUL-001",
        gold=SITE_GOLD,
        parts=[parts.cases["RO-FOUL-001"]],
        benchmark_version="v1.0",
        t=t,
    )
    return page, parts, case


def read_csv(path: Path) -> list[dict[str, str]]:
    with open(path, encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


# --------------------------------------------------------------------------------------
# An independent, naive reading of the metrics spec, for the property tests
# (tests/unit/test_metrics_property.py, tests/workflow/test_metrics_property_workflow.py).
#
# Written straight from aggregated_metrics.md with plain Python floats and literal
# comparisons (the ECE bins as the spec writes them, ``(m-1)/10 <= confidence_unit <
# m/10``); it imports nothing from scripts/.
#
# Rounding rule. The workflow computes every aggregate exactly (rationals) and rounds
# the nearest float once; the naive side accumulates float errors of a few ulps. The
# two published texts can therefore only differ when a 4-decimal rounding half-way
# point lies between the exact value and the naive float, i.e. when the naive float is
# within a hair of such a point. So each published metric must be
# ``repr(round(naive, 4))``, or, only when ``naive`` is within 1e-12 of a half-way
# point, one of the two neighbouring 4-decimal values (within 1e-4 of ``naive``).
# --------------------------------------------------------------------------------------


# Deterministic in CI: the same examples on every run, and no example database.
settings.register_profile(
    "metrics-property",
    derandomize=True,
    database=None,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
METRICS_PROFILE = settings.get_profile("metrics-property")

PER_RUN_HEADER = [
    "subject_id",
    "subject_version",
    "case_id",
    "family",
    "run_id",
    "reviewer_id",
    "scoring_timestamp_utc",
    "rubric_floor",
    "rubric_ceiling",
    "raw_score",
    "clipped_score",
    "has_critical_fail",
    "has_recoverable_fail",
    "classification",
    "reported_confidence",
    "confidence_unit",
    "correctness",
]
SUBJECT_HEADER = [
    "subject_id",
    "subject_version",
    "n_runs",
    "n_pass",
    "n_conditional",
    "n_fail",
    "n_critical_fails",
    "n_recoverable_fails",
    "pass_rate",
    "mean_clipped_score",
    "brier",
    "ece",
    "alpha",
    "q_final",
    "leaderboard_status",
]
FAMILY_HEADER = [
    "subject_id",
    "subject_version",
    "family",
    "n_runs",
    "n_pass",
    "n_conditional",
    "n_fail",
    "pass_rate_family",
    "mean_clipped_score_family",
]


# --------------------------------------------------------------------------------------
# The naive implementation, straight from aggregated_metrics.md.
# --------------------------------------------------------------------------------------


class Metric:
    """An expected non-integer metric: the naive float, compared by the rounding rule."""

    def __init__(self, value: float):
        self.value = value

    def __repr__(self) -> str:
        return f"Metric({self.value!r})"


def naive_classification(clipped, floor, critical, recoverable) -> str:
    if critical:
        return "Fail"
    if recoverable:
        return "Conditional"
    if clipped < floor:
        return "Fail"
    if clipped >= 10:
        return "Pass"
    if clipped >= 7:
        return "Conditional"
    return "Fail"


def naive_per_run(run: dict) -> dict:
    raw = 0
    for score in run["criterion_scores"]:
        raw += score
    clipped = raw if raw < run["rubric_ceiling"] else run["rubric_ceiling"]
    critical = False
    recoverable = False
    for severity in run["fail_severities"]:
        critical = critical or severity == "critical"
        recoverable = recoverable or severity == "recoverable"
    return {
        "subject_id": run["subject_id"],
        "subject_version": run["subject_version"],
        "case_id": run["case_id"],
        "family": run["case_id"][3:7],
        "run_id": run["run_id"],
        "reviewer_id": run["reviewer_id"],
        "scoring_timestamp_utc": run["scoring_timestamp_utc"],
        "rubric_floor": run["rubric_floor"],
        "rubric_ceiling": run["rubric_ceiling"],
        "raw_score": raw,
        "clipped_score": clipped,
        "has_critical_fail": critical,
        "has_recoverable_fail": recoverable,
        "classification": naive_classification(clipped, run["rubric_floor"], critical, recoverable),
        "reported_confidence": run["confidence"],
        "confidence_unit": run["confidence"] / 100,
        "correctness": float(run["correctness"]),
    }


def in_bin(m: int, confidence_unit: float) -> bool:
    if m <= 9:
        return (m - 1) / 10 <= confidence_unit < m / 10
    return 0.9 <= confidence_unit <= 1.0


def naive_ece(rows: list[dict]) -> float:
    n = len(rows)
    bins = {m: [] for m in range(1, 11)}
    for row in rows:
        members = [m for m in range(1, 11) if in_bin(m, row["confidence_unit"])]
        assert len(members) == 1, (row["confidence_unit"], members)
        bins[members[0]].append(row)
    ece = 0.0
    for members in bins.values():
        if not members:
            continue
        conf = sum(r["confidence_unit"] for r in members) / len(members)
        acc = sum(r["correctness"] for r in members) / len(members)
        ece += len(members) / n * abs(conf - acc)
    return ece


def naive_counts(rows: list[dict]) -> list[int]:
    classes = [r["classification"] for r in rows]
    return [len(rows), classes.count("Pass"), classes.count("Conditional"), classes.count("Fail")]


def naive_subject_row(subject_id, version, rows, alpha) -> list:
    n = len(rows)
    pass_rate = sum(1 for r in rows if r["classification"] == "Pass") / n
    mean_clipped = sum(r["clipped_score"] for r in rows) / n
    brier = sum((r["confidence_unit"] - r["correctness"]) ** 2 for r in rows) / n
    n_critical = sum(1 for r in rows if r["has_critical_fail"])
    return [
        subject_id,
        version,
        *naive_counts(rows),
        n_critical,
        sum(1 for r in rows if r["has_recoverable_fail"]),
        Metric(pass_rate),
        Metric(mean_clipped),
        Metric(brier),
        Metric(naive_ece(rows)),
        Metric(float(alpha)),
        Metric(alpha * pass_rate + (1 - alpha) * (mean_clipped / 12)),
        "Disqualified" if n_critical > 0 else "Eligible",
    ]


def naive_family_row(subject_id, version, family, rows) -> list:
    n = len(rows)
    return [
        subject_id,
        version,
        family,
        *naive_counts(rows),
        Metric(sum(1 for r in rows if r["classification"] == "Pass") / n),
        Metric(sum(r["clipped_score"] for r in rows) / n),
    ]


def naive_tables(runs: list[dict], alpha):
    """(per-run rows, subject rows, family rows) in the published order."""
    per_run = sorted(
        (naive_per_run(run) for run in runs),
        key=lambda r: (r["subject_id"], r["case_id"], r["run_id"], r["reviewer_id"]),
    )
    by_version = defaultdict(list)
    by_family = defaultdict(list)
    for row in per_run:
        by_version[(row["subject_id"], row["subject_version"])].append(row)
        by_family[(row["subject_id"], row["family"], row["subject_version"])].append(row)
    subjects = [
        naive_subject_row(subject_id, version, by_version[(subject_id, version)], alpha)
        for subject_id, version in sorted(by_version)
    ]
    families = [
        naive_family_row(subject_id, version, family, by_family[(subject_id, family, version)])
        for subject_id, family, version in sorted(by_family)
    ]
    return per_run, subjects, families


def per_run_cells(row: dict) -> list:
    return [
        row[column] if column not in ("confidence_unit", "correctness") else Metric(row[column])
        for column in PER_RUN_HEADER
    ]


# --------------------------------------------------------------------------------------
# Comparison.
# --------------------------------------------------------------------------------------


def near_half_way(value: float) -> bool:
    half_way = (math.floor(value * 10_000) + 0.5) / 10_000
    return abs(value - half_way) <= 1e-12


def assert_metric(published: str, naive: float, where: str) -> None:
    assert isinstance(published, str), (where, published)
    if published == repr(round(naive, 4)):
        return
    # Exact rational (workflow) and float accumulation (naive) may sit on either side of a
    # half-way point; only then may the rounded texts differ, by one unit of 1e-4.
    assert near_half_way(naive), (where, published, naive)
    assert abs(float(published) - naive) <= 1e-4, (where, published, naive)
    assert published == repr(round(float(published), 4)), (where, published)


def assert_rows(actual: list, expected: list, *, as_text: bool, table: str) -> None:
    assert len(actual) == len(expected), (table, len(actual), len(expected))
    for index, (got, want) in enumerate(zip(actual, expected, strict=True)):
        assert len(got) == len(want), (table, index, got)
        for column, (cell, wanted) in enumerate(zip(got, want, strict=True)):
            where = f"{table} row {index} column {column}: {want[:3]}"
            if isinstance(wanted, Metric):
                # Published 4-decimal metrics are text already; per-run floats are floats.
                text = cell if isinstance(cell, str) else repr(cell)
                if not as_text and not isinstance(cell, str):
                    assert type(cell) is float, (where, cell)
                if table == "per_run":
                    assert text == repr(wanted.value), (where, text, wanted)
                else:
                    assert_metric(text, wanted.value, where)
            elif as_text:
                text = ("True" if wanted else "False") if isinstance(wanted, bool) else str(wanted)
                assert cell == text, (where, cell, wanted)
            else:
                assert type(cell) is type(wanted), (where, cell, wanted)
                assert cell == wanted, (where, cell, wanted)


def assert_existence(runs, subject_rows, family_rows) -> None:
    """A version row iff it has a run; a (version, family) row iff it has a run there."""
    with_runs = {(r["subject_id"], r["subject_version"]) for r in runs}
    family_with_runs = {(r["subject_id"], r["subject_version"], r["case_id"][3:7]) for r in runs}
    assert {(row[0], row[1]) for row in subject_rows} == with_runs
    assert {(row[0], row[1], row[2]) for row in family_rows} == family_with_runs
    assert len(subject_rows) == len(with_runs)
    assert len(family_rows) == len(family_with_runs)


# --------------------------------------------------------------------------------------
# Strategies.
# --------------------------------------------------------------------------------------

FAMILIES = ("OXID", "SCAL", "FOUL", "MECH", "NOWE")
# Slugs whose order exercises '-' < digits < '_' < letters.
SUBJECT_IDS = ("ab", "ab-c", "ab2", "ab_c", "zeta-13b")
# subject_version is free text: values a CSV reader could take for numbers, missing
# values or separators must come back as the same text.
VERSIONS = ("v1", "v2-20251001", "NA", "1.0", "null", "v,comma", 'q"uote', "snap shot", "é-1")
TIMESTAMPS = ("2026-05-13T10:38:10Z", "2026-05-14T00:00:00.25Z")
BIN_EDGES = (0, 9, 10, 30, 90, 99, 100)

case_ids = st.builds(
    "RO-{}-{:03d}".format, st.sampled_from(FAMILIES), st.integers(min_value=1, max_value=12)
)


@st.composite
def gold_bounds(draw, floor_below_ceiling=False):
    floor = draw(st.integers(min_value=0, max_value=11))
    lowest = floor + 1 if floor_below_ceiling else max(floor, 1)
    ceiling = draw(st.integers(min_value=lowest, max_value=12))
    return floor, ceiling


confidences = st.one_of(st.sampled_from(BIN_EDGES), st.integers(min_value=0, max_value=100))
# Three runs in four without automatic fail, so that not every version is disqualified.
severities = st.one_of(
    st.just([]),
    st.just([]),
    st.just([]),
    st.lists(st.sampled_from(["critical", "recoverable"]), min_size=1, max_size=3),
)
# Mostly high scores, so that Pass, Conditional and the floor all show up.
criterion_scores = st.lists(st.sampled_from([0, 1, 2, 2, 2]), min_size=6, max_size=6)
alphas = st.one_of(
    st.sampled_from([0, 1, 0.0, 1.0, 0.5]),
    st.floats(min_value=0, max_value=1, allow_nan=False),
)


@st.composite
def corpora(
    draw,
    max_subjects=3,
    min_runs_per_subject=1,
    max_runs_per_subject=30,
    with_unscored=False,
    floor_below_ceiling=False,
):
    """Scored runs (see step_one_output for the shape step 2 consumes), plus the registry.

    Returns (runs, registry, golds, unscored): registry maps subject_id to its versions
    (some may have no run), golds case_id to (floor, ceiling), unscored lists responses
    without a scoring as (subject_id, version, case_id, run_id, confidence).
    floor_below_ceiling: only golds a corpus may hold (the benchmark's validators refuse
    rubric_floor >= rubric_ceiling); the formulas alone take floor == ceiling too.
    """
    bounds = gold_bounds(floor_below_ceiling=floor_below_ceiling)
    golds = draw(st.dictionaries(case_ids, bounds, min_size=1, max_size=8))
    case_list = sorted(golds)
    subject_ids = draw(
        st.lists(st.sampled_from(SUBJECT_IDS), min_size=1, max_size=max_subjects, unique=True)
    )
    registry, runs, unscored = {}, [], []
    for subject_id in subject_ids:
        versions = draw(st.lists(st.sampled_from(VERSIONS), min_size=1, max_size=3, unique=True))
        registry[subject_id] = versions
        specs = draw(
            st.lists(
                st.tuples(
                    st.sampled_from(case_list),
                    st.integers(min_value=12, max_value=13),  # day of the run
                    st.integers(min_value=1, max_value=5),  # run number
                    st.booleans() if with_unscored else st.just(True),
                ),
                min_size=min_runs_per_subject,
                max_size=max_runs_per_subject,
                unique_by=lambda spec: spec[:3],
            )
        )
        for case_id, day, number, scored in specs:
            version = draw(st.sampled_from(versions))
            run_id = f"run-2026-05-{day:02d}-{number:03d}"
            confidence = draw(confidences)
            if not (scored or draw(st.booleans())):
                unscored.append((subject_id, version, case_id, run_id, confidence))
                continue
            floor, ceiling = golds[case_id]
            runs.append(
                {
                    "subject_id": subject_id,
                    "subject_version": version,
                    "case_id": case_id,
                    "run_id": run_id,
                    "reviewer_id": draw(st.sampled_from(["R01", "R02"])),
                    "scoring_timestamp_utc": draw(st.sampled_from(TIMESTAMPS)),
                    "rubric_floor": floor,
                    "rubric_ceiling": ceiling,
                    "criterion_scores": draw(criterion_scores),
                    "fail_severities": draw(severities),
                    "confidence": confidence,
                    "correctness": draw(st.sampled_from([0, 0.5, 1, 0.0, 1.0])),
                }
            )
    return runs, registry, golds, unscored


def edge_corpus():
    """A fixed corpus through every bin edge and every classification branch.

    Every confidence of BIN_EDGES with every correctness; the classification order
    (critical before recoverable before floor before the thresholds 10 and 7), the
    clipping by a ceiling below 10, an eligible and a disqualified version, a version
    registered without runs, unscored responses, and versions that look like a number
    or a missing value.
    """
    golds = {"RO-OXID-001": (0, 12), "RO-SCAL-002": (8, 12), "RO-NOWE-003": (3, 9)}
    registry = {"ab": ["v1", "NA", "never-run"], "ab-c": ["1.0"]}
    shapes = [
        # (case_id, criterion scores, fail severities), classification in the comment
        ("RO-OXID-001", [2, 2, 2, 2, 2, 2], []),  # 12: Pass
        ("RO-OXID-001", [2, 2, 2, 2, 2, 0], []),  # 10: Pass
        ("RO-OXID-001", [2, 2, 2, 2, 1, 0], []),  # 9: Conditional
        ("RO-OXID-001", [2, 2, 2, 1, 0, 0], []),  # 7: Conditional
        ("RO-OXID-001", [2, 2, 2, 0, 0, 0], []),  # 6: Fail
        ("RO-SCAL-002", [2, 2, 2, 1, 0, 0], []),  # 7 < floor 8: Fail
        ("RO-SCAL-002", [2, 2, 2, 2, 2, 2], ["recoverable"]),  # Conditional
        ("RO-NOWE-003", [2, 2, 2, 2, 2, 2], []),  # clipped to 9: Conditional
        ("RO-NOWE-003", [1, 1, 0, 0, 0, 0], ["recoverable"]),  # below floor: Conditional
    ]
    runs, unscored = [], []
    for index, confidence in enumerate(BIN_EDGES):
        for offset, correctness in enumerate([0, 0.5, 1]):
            case_id, scores, fails = shapes[(index + offset) % len(shapes)]
            subject_id, version = [("ab", "v1"), ("ab", "NA"), ("ab-c", "1.0")][offset]
            if subject_id == "ab-c" and index == 0:
                fails = ["recoverable", "critical"]  # critical wins: Fail, disqualified
            runs.append(
                {
                    "subject_id": subject_id,
                    "subject_version": version,
                    "case_id": case_id,
                    "run_id": f"run-2026-05-12-{index * 3 + offset + 1:03d}",
                    "reviewer_id": "R01",
                    "scoring_timestamp_utc": TIMESTAMPS[0],
                    "rubric_floor": golds[case_id][0],
                    "rubric_ceiling": golds[case_id][1],
                    "criterion_scores": scores,
                    "fail_severities": fails,
                    "confidence": confidence,
                    "correctness": correctness,
                }
            )
    unscored.append(("ab", "v1", "RO-OXID-001", "run-2026-05-13-001", 100))
    unscored.append(("ab-c", "1.0", "RO-SCAL-002", "run-2026-05-13-001", 0))
    return runs, registry, golds, unscored


def read_csv_rows(path: Path) -> tuple[list[str], list[list[str]]]:
    raw = path.read_bytes()
    assert not raw.startswith(b"\xef\xbb\xbf")
    with open(path, encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle))
    return rows[0], rows[1:]


# The benchmark's operational tables (telemetry.md), implemented independently of
# ro_metrics: what the tests compare the workflow's operational_*.csv with.


def benchmark_tables(batch_logs: list[str]) -> dict[str, list[list[str]]]:
    """telemetry.md's computation as the benchmark does it today: every passing row whose
    prompt_tokens, completion_tokens and latency_ms are integers counts; no corpus."""
    rows = [row for text in batch_logs for row in csv.DictReader(io.StringIO(text, newline=""))]
    counted = [
        row
        for row in rows
        if row["status"] == "pass"
        and all(
            row[name].isdigit() for name in ("prompt_tokens", "completion_tokens", "latency_ms")
        )
    ]
    tables = {}
    for name, with_family in (("per_subject", False), ("per_family", True)):
        groups = defaultdict(list)
        for row in counted:
            key = (row["subject_id"], row["subject_version"])
            groups[key + ((row["case_id"].split("-")[1],) if with_family else ())].append(row)
        table = []
        for key in sorted(groups):
            members = groups[key]
            mean_in = statistics.fmean(int(row["prompt_tokens"]) for row in members)
            mean_out = statistics.fmean(int(row["completion_tokens"]) for row in members)
            latency = sorted(int(row["latency_ms"]) for row in members)
            if len(latency) == 1:
                p95 = latency[0]
            else:
                p95 = statistics.quantiles(latency, n=20, method="inclusive")[18]
            prices = []
            for column in ("price_per_input_token_usd", "price_per_output_token_usd"):
                known = [float(row[column]) for row in members if row[column]]
                prices.append(f"{statistics.fmean(known):.10f}" if known else "")
            table.append(
                [
                    *key,
                    str(len(members)),
                    f"{mean_in:.1f}",
                    f"{mean_out:.1f}",
                    f"{(mean_out / mean_in if mean_in else 0.0):.3f}",
                    f"{statistics.median(latency) / 1000:.2f}",
                    f"{p95 / 1000:.2f}",
                    *prices,
                ]
            )
        tables[name] = table
    return tables


# Unit prices per subject version of the generated telemetry: known, unknown, one known.
GENERATED_PRICES = [("1e-06", "5e-06"), ("", ""), ("2.5e-06", "1e-05"), ("3e-07", "")]


def one_call_per_response(rng, responses, *, batches: int = 3) -> list[str]:
    """Batch logs (CSV texts, telemetry.md's format) holding exactly one passing call per
    response (subject_id, subject_version, case_id, run_id), with random tokens, latency
    and per-version prices, some preceded by a failed attempt; spread over batches."""
    versions = sorted({(subject, version) for subject, version, _, _ in responses})
    prices = {key: GENERATED_PRICES[i % len(GENERATED_PRICES)] for i, key in enumerate(versions)}
    buffers = [io.StringIO() for _ in range(batches)]
    writers = [csv.writer(buffer, lineterminator="\r\n") for buffer in buffers]
    for writer in writers:
        writer.writerow(TELEMETRY_COLUMNS)
    for index, (subject, version, case, run) in enumerate(responses):
        price_in, price_out = prices[(subject, version)]
        prompt, completion = rng.randint(0, 6000), rng.randint(0, 9000)
        latency = rng.choice([rng.randint(100, 90000), 1000 * rng.randint(1, 90)])
        when = f"2026-05-12T{index // 3600 % 24:02d}:{index // 60 % 60:02d}:{index % 60:02d}Z"
        base = [when, case, subject, version, run, "classic", f"p/{version}", version]
        writer = rng.choice(writers)
        if rng.random() < 0.3:  # a failed attempt first: no number of it counts
            writer.writerow([*base, "", "", "", "", price_in, price_out, 60000, "fail", "Timeout"])
        cells = [prompt, completion, prompt + completion, "", price_in, price_out, latency]
        writer.writerow([*base, *cells, "pass", ""])
    return [buffer.getvalue() for buffer in buffers]
