"""Debian's headless Chromium for the tests that look at a page in a real browser.

No Selenium or Playwright: `--dump-dom` prints the DOM after the page's scripts ran,
`--screenshot` writes a PNG. The flags keep it off the (closed) network.
"""

import os
import signal
import subprocess
import tempfile
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
    with subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True
    ) as process:
        try:
            out, err = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            raise AssertionError(f"chromium took more than {timeout} s: {args}") from None
    assert process.returncode == 0, err.decode("utf-8", "replace")[-3000:]
    return out
