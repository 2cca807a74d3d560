"""A Chromium page bound to a Sextant app id: ``sextantctl browser`` (the DevTools bridge,
docs/browsers.md) run for one browser, stopped with the test.

The browser is a Selenium WebDriver of Chromium (its ``goog:chromeOptions`` name the
DevTools address), or a DevTools address itself (``http://127.0.0.1:9222``,
``127.0.0.1:9222`` or ``ws://…/devtools/browser/…``; Playwright's
``chromium.launch(args=["--remote-debugging-port=9222"])`` gives one)."""

from __future__ import annotations

import os
import shutil
import subprocess
import threading
import time
from typing import Any, List, Optional

from .errors import DaemonStartError, SextantError

ATTACHED = "sextant-browser: attached to a page"


def find_sextantctl(sextantd: Optional[str] = None) -> str:
    """``sextantctl`` beside the sextantd in use (``$SEXTANT_BIN``), else on ``PATH``."""
    for candidate in (sextantd, os.environ.get("SEXTANT_BIN")):
        if candidate:
            beside = os.path.join(os.path.dirname(candidate), "sextantctl")
            if os.access(beside, os.X_OK):
                return beside
    found = shutil.which("sextantctl")
    if not found:
        raise DaemonStartError("cannot find sextantctl: put it beside sextantd ($SEXTANT_BIN) or on PATH")
    return found


def devtools_address(browser: Any) -> str:
    """The DevTools address of a Selenium Chromium WebDriver, or of an address given as one."""
    if isinstance(browser, str):
        address = browser
    else:
        capabilities = getattr(browser, "capabilities", None) or {}
        address = (capabilities.get("goog:chromeOptions") or {}).get("debuggerAddress")
        if not address:
            raise SextantError("%r names no DevTools address: give a Chromium WebDriver or an address" % (browser,))
    if "://" not in address:
        address = "http://" + address
    return address.replace("://localhost:", "://127.0.0.1:")


class BrowserBridge:
    """``sextantctl browser --app APP_ID --cdp ADDRESS`` on the daemon at ``runtime_dir``."""

    def __init__(self, app_id: str, runtime_dir: str, browser: Any, sextantctl: Optional[str] = None):
        self.app_id = app_id
        self.address = devtools_address(browser)
        self.command = [
            sextantctl or find_sextantctl(), "browser", "--runtime-dir", runtime_dir, "--app", app_id, "--cdp", self.address,
        ]
        self.lines: List[str] = []
        self._errors: List[str] = []
        self._changed = threading.Condition()
        self._process: Optional[subprocess.Popen] = None
        self._readers: List[threading.Thread] = []

    def start(self, timeout: float = 60) -> "BrowserBridge":
        """Starts the bridge and returns once it has set up the browser's first page."""
        self._process = subprocess.Popen(
            self.command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for stream, sink in ((self._process.stdout, self.lines), (self._process.stderr, self._errors)):
            reader = threading.Thread(target=self._read, args=(stream, sink), daemon=True)
            reader.start()
            self._readers.append(reader)
        self.wait_for_line(ATTACHED, timeout)
        return self

    def _read(self, stream: Any, sink: List[str]) -> None:
        for line in stream:
            with self._changed:
                sink.append(line.rstrip("\n"))
                self._changed.notify_all()
        with self._changed:
            self._changed.notify_all()

    def wait_for_line(self, line: str, timeout: float = 60) -> None:
        """Waits until the bridge printed ``line``; fails with what it said if it ends first."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while line not in self.lines:
                remaining = deadline - time.monotonic()
                if self._process is not None and self._process.poll() is not None:
                    self._changed.release()
                    try:
                        for reader in self._readers:
                            reader.join(timeout=5)
                    finally:
                        self._changed.acquire()
                    raise SextantError("sextantctl browser ended (%s): %s" % (self._process.returncode, "\n".join(self._errors)))
                if remaining <= 0:
                    raise SextantError("sextantctl browser did not print %r within %s s: %s" % (line, timeout, "\n".join(self.lines + self._errors)))
                self._changed.wait(min(remaining, 0.2))

    @property
    def errors(self) -> str:
        with self._changed:
            return "\n".join(self._errors)

    def stop(self) -> None:
        if self._process is None or self._process.poll() is not None:
            return
        self._process.terminate()
        try:
            self._process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()

    def __enter__(self) -> "BrowserBridge":
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()
