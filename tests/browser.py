"""Debian's headless Chromium for the tests that look at a page.

No Selenium or Playwright: one Chromium per test process (shared_browser), driven over
its DevTools pipe, loads each page in a tab of its own and gives the DOM after the
page's scripts ran, a screenshot, or what an expression over the page evaluates to;
`chromium()` runs it once from the command line (`--dump-dom`, `--screenshot`). The
flags keep it off the (closed) network. A minimal DOM (html.parser) reads what it
rendered; the XSS probe and the alert trap that catches it.
"""

import atexit
import base64
import fcntl
import json
import os
import select
import shutil
import signal
import subprocess
import tempfile
from contextlib import contextmanager, suppress
from html.parser import HTMLParser
from pathlib import Path

import pytest

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


# What a reader would find cut or hidden on a page, measured in the browser (an
# expression over `doc` and `root`, for Browser.evaluate), each problem one line:
# - an element that reaches past the page's right edge outside any box that scrolls
#   (the page would scroll sideways, or its text be cut at the edge);
# - a box that hides what overflows it (overflow hidden or clip) and has more than it
#   shows: text cut;
# - a box that scrolls sideways (overflow auto or scroll) and has more than it shows,
#   unless it holds a table whose first column (or, for the leaderboard, its subject
#   column) stays in view while it scrolls (position sticky) and shows a scroll cue (a
#   gradient background: the shadow at its right edge), and the window is a phone's (at
#   most 600 px) or the box is the index's matrix (a column per case: it scrolls at
#   every width, its versions' column sticky).
# Elements are walked once, each knowing whether a scrolling or clipping box holds it.
OVERFLOW_PROBLEMS = """(function () {
  var view = root.clientWidth, win = doc.defaultView, problems = [];
  function name(e) {
    var cls = typeof e.className === "string" ? e.className.trim() : "";
    var label = e.querySelector ? (e.querySelector("caption, th") || {}).textContent || "" : "";
    return e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") +
      (cls ? "." + cls.split(/\\s+/).join(".") : "") +
      (label ? " [" + label.trim().slice(0, 40) + "]" : "");
  }
  function walk(e, inBox) {
    var style = win.getComputedStyle(e), ox = style.overflowX;
    var rect = e.getBoundingClientRect(), shown = rect.width > 0 || rect.height > 0;
    if (shown && !inBox && rect.right > view + 1) {
      problems.push("overflows the page (right edge " + Math.round(rect.right) + " px): " +
        name(e));
    }
    var more = e.scrollWidth > e.clientWidth + 1;
    if ((ox === "hidden" || ox === "clip") && more) problems.push("cut: " + name(e));
    if ((ox === "auto" || ox === "scroll") && more) {
      var cells = e.querySelectorAll("tr > :first-child, #leaderboard tr > :nth-child(2)");
      var sticky = Array.prototype.some.call(cells, function (cell) {
        return win.getComputedStyle(cell).position === "sticky"; });
      var cue = /gradient/.test(style.backgroundImage);
      var allowed = view <= 600 || e.classList.contains("matrix-wrap");
      if (!e.querySelector("table") || !sticky || !cue || !allowed) {
        problems.push("scrolls sideways with a hidden column (" +
          [sticky ? "" : "no sticky first column", cue ? "" : "no scroll cue",
           allowed ? "" : "at a wide width"].filter(Boolean).join(", ") + "): " + name(e));
      }
    }
    var holds = inBox || ox !== "visible";
    for (var child = e.firstElementChild; child; child = child.nextElementSibling) {
      walk(child, holds);
    }
  }
  walk(doc.body, false);
  if (root.scrollWidth > root.clientWidth) problems.push("the page scrolls sideways");
  return problems;
})()"""


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
