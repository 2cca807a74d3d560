"""Headless Chromium driven over its DevTools protocol on a pipe, shared by the browser tools
(Tools/dev/plot-browser.py, Tools/dev/panel-browser.py).

--remote-debugging-pipe: Chromium reads commands on fd 3 and writes answers and events on fd 4,
each a NUL-terminated JSON object; no network port, and a private profile removed on close.
"""

import base64
import fcntl
import json
import os
import shutil
import subprocess
import tempfile
import time

CHROMIUM = os.environ.get("SEXTANT_CHROMIUM", "/usr/bin/chromium")
DEADLINE = 60.0


class Browser:
    """Chromium with a DevTools pipe: `call` sends a command and waits for its answer,
    keeping the events that arrive meanwhile."""

    def __init__(self, width, height):
        self.profile = tempfile.mkdtemp(prefix="sextant-browser-")
        to_browser, self.send_end = os.pipe()
        self.receive_end, from_browser = os.pipe()

        def wire():
            # Copied above 10 first: either end may itself be 3 or 4.
            high = [fcntl.fcntl(fd, fcntl.F_DUPFD, 10) for fd in (to_browser, from_browser)]
            os.dup2(high[0], 3)
            os.dup2(high[1], 4)

        args = [CHROMIUM, "--headless", "--remote-debugging-pipe", "--no-first-run", "--no-default-browser-check",
                "--disable-gpu", "--disable-extensions", "--disable-background-networking", "--disable-sync",
                "--user-data-dir=" + self.profile, "--window-size=%d,%d" % (width, height), "about:blank"]
        if os.geteuid() == 0:
            args.insert(1, "--no-sandbox")
        self.process = subprocess.Popen(args, preexec_fn=wire, close_fds=False, stdin=subprocess.DEVNULL,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_browser)
        os.close(from_browser)
        self.buffer, self.next_id, self.events = b"", 0, []

    def _read_message(self, deadline):
        while b"\0" not in self.buffer:
            if time.monotonic() > deadline:
                raise TimeoutError("Chromium did not answer within %.0f s" % DEADLINE)
            chunk = os.read(self.receive_end, 65536)
            if not chunk:
                raise RuntimeError("Chromium closed its DevTools pipe (exit %s)" % self.process.poll())
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method, params=None, session=None):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.send_end, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + DEADLINE
        while True:
            answer = self._read_message(deadline)
            if answer.get("id") == self.next_id:
                if "error" in answer:
                    raise RuntimeError("%s: %s" % (method, answer["error"]))
                return answer.get("result", {})
            self.events.append(answer)

    def wait_for(self, method, deadline, where=lambda params: True):
        """The first event `method` whose params are `where`, kept or arriving before `deadline`."""
        while True:
            for event in self.events:
                if event.get("method") == method and where(event.get("params", {})):
                    self.events.remove(event)
                    return event
            self.events.append(self._read_message(deadline))

    def close(self):
        try:
            self.call("Browser.close")
        except Exception:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        shutil.rmtree(self.profile, ignore_errors=True)


def evaluate(browser, session, expression):
    result = browser.call("Runtime.evaluate", {"expression": expression, "returnByValue": True}, session)
    if "exceptionDetails" in result:
        raise RuntimeError("page script failed: %s" % result["exceptionDetails"])
    return result["result"].get("value")


def centre_of(browser, session, selector, index=0):
    """The viewport centre of the element `index` of those matching `selector`, or None."""
    return evaluate(browser, session, """(() => { const e = document.querySelectorAll(%s)[%d]; if (!e) return null;
        const r = e.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })()""" % (json.dumps(selector), index))


def open_page(browser, url, width, height):
    """A new tab showing `url`, loaded; its DevTools session."""
    target = browser.call("Target.createTarget", {"url": "about:blank"})["targetId"]
    session = browser.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
    for domain in ("Page", "Runtime", "Log", "Network"):
        browser.call(domain + ".enable", {}, session)
    browser.call("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False}, session)
    browser.call("Page.setLifecycleEventsEnabled", {"enabled": True}, session)
    navigation = browser.call("Page.navigate", {"url": url}, session)
    if navigation.get("errorText"):
        raise RuntimeError("Chromium could not load %s: %s" % (url, navigation["errorText"]))
    # The load of this navigation, not of the blank page the tab was made with (whose own
    # load event may come after Page.enable).
    browser.wait_for("Page.lifecycleEvent", time.monotonic() + DEADLINE,
                     lambda params: params["name"] == "load" and params["loaderId"] == navigation.get("loaderId"))
    return session


def screenshot(browser, session, path):
    shot = browser.call("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": False}, session)
    with open(path, "wb") as f:
        f.write(base64.b64decode(shot["data"]))


def problems(events):
    """Every console error or warning, Content-Security-Policy violation and uncaught exception
    among the DevTools events kept so far."""
    found = [e["params"]["entry"]["text"] for e in events if e.get("method") == "Log.entryAdded"
             and e["params"]["entry"]["level"] in ("error", "warning")]
    found += [str(e["params"]["exceptionDetails"].get("exception", {}).get("description"))
              for e in events if e.get("method") == "Runtime.exceptionThrown"]
    found += [" ".join(str(a.get("value")) for a in e["params"]["args"]) for e in events
              if e.get("method") == "Runtime.consoleAPICalled" and e["params"]["type"] in ("error", "warning")]
    return found
