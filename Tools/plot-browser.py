#!/usr/bin/python3
"""Opens a `sextantctl trace plot` HTML page in headless Chromium and uses it as a person would.

Talks to Chromium over the DevTools protocol on a pipe (--remote-debugging-pipe: fds 3 and 4,
NUL-terminated JSON), with no network and a private profile. It hovers the start of the track
(Input.dispatchMouseEvent) and reads the tooltip, hovers an event on an app's lane when there
is one, hovers a region crossing on the regions lane when there is one, zooms the map with the wheel and reads the map's transform, clicks a row of the event
list, and records every Content-Security-Policy violation, console error and request that is
not the page itself. Prints one JSON object; with --screenshot, also writes a PNG of the page
(docs/images/ is made this way: Tools/plot-screenshots.sh).

Usage: Tools/plot-browser.py PAGE.html [--screenshot OUT.png [--hover SELECTOR]] [--width 1000] [--height 1400]
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import base64
import fcntl

CHROMIUM = os.environ.get("SEXTANT_CHROMIUM", "/usr/bin/chromium")
DEADLINE = 60.0


class Browser:
    """Chromium with a DevTools pipe: `call` sends a command and waits for its answer,
    keeping the events that arrive meanwhile."""

    def __init__(self, width, height):
        self.profile = tempfile.mkdtemp(prefix="sextant-plot-browser-")
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

    def wait_for(self, method, deadline):
        """The first event `method`, kept or arriving before `deadline`."""
        while True:
            for event in self.events:
                if event.get("method") == method:
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


def hover(browser, session, point):
    browser.call("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": point[0], "y": point[1]}, session)
    return evaluate(browser, session, "(() => { const t = document.getElementById('tip'); return t.hidden ? null : t.textContent; })()")


def exercise(browser, session):
    """What a person sees doing each thing on the page."""
    report = {}
    start = centre_of(browser, session, "#map-pins g.start circle")
    report["startTooltip"] = hover(browser, session, start) if start else None
    prompt = centre_of(browser, session, "polygon.prompt")
    report["promptTooltip"] = hover(browser, session, prompt) if prompt else None
    crossing = centre_of(browser, session, "line.region-crossing")
    report["regionTooltip"] = hover(browser, session, crossing) if crossing else None
    before = evaluate(browser, session, "document.getElementById('map-view').getAttribute('transform')")
    for _ in range(3):
        browser.call("Input.dispatchMouseEvent", {"type": "mouseWheel", "x": start[0], "y": start[1], "deltaX": 0, "deltaY": -120}, session)
    report["mapTransform"] = [before, evaluate(browser, session, "document.getElementById('map-view').getAttribute('transform')")]
    report["scaleLabel"] = evaluate(browser, session, "document.querySelector('#scale-bar text').textContent")
    row = evaluate(browser, session, "document.querySelectorAll('#events tbody tr').length")
    report["eventRows"] = row
    if row:
        evaluate(browser, session, "document.querySelector('#events tbody tr').scrollIntoView()")
        point = centre_of(browser, session, "#events tbody tr")
        for kind in ("mousePressed", "mouseReleased"):
            browser.call("Input.dispatchMouseEvent", {"type": kind, "x": point[0], "y": point[1], "button": "left", "clickCount": 1}, session)
        report["chosenRow"] = evaluate(browser, session, "(document.querySelector('#events tr.chosen') || {}).textContent || null")
        evaluate(browser, session, "window.scrollTo(0, 0)")
    return report


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("page")
    parser.add_argument("--screenshot")
    parser.add_argument("--width", type=int, default=1000)
    parser.add_argument("--height", type=int, default=1400)
    parser.add_argument("--hover", help="CSS selector of what the screenshot hovers (default: a time tick on the map)")
    args = parser.parse_args()
    browser = Browser(args.width, args.height)
    try:
        target = browser.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = browser.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            browser.call(domain + ".enable", {}, session)
        browser.call("Emulation.setDeviceMetricsOverride", {"width": args.width, "height": args.height, "deviceScaleFactor": 1, "mobile": False}, session)
        browser.call("Page.navigate", {"url": "file://" + os.path.abspath(args.page)}, session)
        browser.wait_for("Page.loadEventFired", time.monotonic() + DEADLINE)
        report = exercise(browser, session)
        if args.screenshot:
            # The picture for the docs: the whole map, a fix hovered with its tooltip.
            evaluate(browser, session, "document.getElementById('zoom-reset').click()")
            tick = (args.hover and centre_of(browser, session, args.hover)) or centre_of(browser, session, "#map-pins g.time-tick circle", 2) \
                or centre_of(browser, session, "#map-pins g.end circle")
            hover(browser, session, tick)
            shot = browser.call("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": False}, session)
            with open(args.screenshot, "wb") as f:
                f.write(base64.b64decode(shot["data"]))
        events = browser.events
        report["requests"] = [e["params"]["request"]["url"] for e in events if e.get("method") == "Network.requestWillBeSent"
                              and not e["params"]["request"]["url"].startswith("file://")]
        report["problems"] = [e["params"]["entry"]["text"] for e in events if e.get("method") == "Log.entryAdded"
                              and e["params"]["entry"]["level"] in ("error", "warning")]
        report["problems"] += [str(e["params"]["exceptionDetails"].get("exception", {}).get("description"))
                               for e in events if e.get("method") == "Runtime.exceptionThrown"]
        report["problems"] += [" ".join(str(a.get("value")) for a in e["params"]["args"]) for e in events
                               if e.get("method") == "Runtime.consoleAPICalled" and e["params"]["type"] in ("error", "warning")]
        print(json.dumps(report))
    finally:
        browser.close()


if __name__ == "__main__":
    sys.exit(main())
