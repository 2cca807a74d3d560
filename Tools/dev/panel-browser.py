#!/usr/bin/python3
"""Uses the `sextant-panel` page in headless Chromium as a tester would, one step at a time.

Opens URL (the line sextant-panel printed, its token in the #fragment, or the file
sextant-panel --open writes) in Debian's Chromium driven over
the DevTools protocol on a pipe (Tools/dev/cdp_pipe.py), then reads one JSON command a line on
stdin and answers each with one JSON line on stdout: {"ok": true, ...} or {"ok": false,
"error": "..."}. The clicks are real mouse events at the element's place on the screen
(Input.dispatchMouseEvent), so what a person could not click the test cannot either. The
test that runs this (Tests/IntegrationTests/PanelBrowserTests.swift) checks the outcome on
the app's and the daemon's side, never from the page.

Commands ("do"):
  open                      load the page; answers once it has the daemon's state
  waitFor  expression       waits (up to "timeout" s, default 30) until the page expression is
                            truthy; answers its value
  click    selector         clicks the middle of the first element matching selector
  clickMap dx, dy           clicks the map that far from its middle; answers the lat, lon the
                            map puts there
  clickAt  selector, dx, dy clicks that far from the element's middle
  type     selector, text   focuses the input and types the text, then presses Enter
  choose   selector, value  picks an option of a <select>, as the keyboard does
  slide    selector, fraction  clicks a range input at that fraction of its width; answers
                            the value it took
  lag      [times]          the page's lag behind the daemon for the location events it got
                            (those of these fix times): the fix's time to the frame's
                            receipt and to its drawing (ms), p50 and p99
  visible  selector         for every element matching selector, whether a person can see and
                            click it where it stands, without scrolling: its box inside the
                            viewport and the element at its centre itself (or inside it), not
                            something over it; answers {"count", "hidden": [why...]}
  overflow selector         how far the element's content is wider than its box (px)
  screenshot name           writes DIR/panel-NAME.png when --screenshot DIR was given
  problems                  console errors, CSP violations and uncaught exceptions so far
  close                     closes Chromium and ends

Usage: Tools/dev/panel-browser.py URL [--screenshot DIR] [--width 1500] [--height 1000]
"""

import argparse
import json
import math
import os
import sys
import time

from cdp_pipe import Browser, centre_of, evaluate, open_page, problems, screenshot


def percentile(values, fraction):
    ordered = sorted(values)
    if not ordered:
        return None
    return ordered[min(len(ordered) - 1, max(0, math.ceil(fraction * len(ordered)) - 1))]


class PanelPage:
    def __init__(self, browser, url, width, height, shots):
        self.browser, self.url, self.width, self.height, self.shots = browser, url, width, height, shots
        self.session = None

    def evaluate(self, expression):
        return evaluate(self.browser, self.session, expression)

    def wait_for(self, expression, timeout=30.0):
        deadline = time.monotonic() + timeout
        while True:
            value = self.evaluate(expression)
            if value:
                return value
            if time.monotonic() > deadline:
                raise TimeoutError("waited %.0f s for the page to show %s" % (timeout, expression))
            time.sleep(0.02)

    def mouse_click(self, x, y):
        for kind in ("mousePressed", "mouseReleased"):
            self.browser.call("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1}, self.session)

    def place_of(self, selector):
        self.evaluate("document.querySelector(%s).scrollIntoView({block: 'center'})" % json.dumps(selector))
        point = centre_of(self.browser, self.session, selector)
        if point is None:
            raise LookupError("no element %s on the page" % selector)
        return point

    def do_open(self, command):
        started = time.monotonic()
        self.session = open_page(self.browser, self.url, self.width, self.height)
        loaded = time.monotonic()
        try:
            self.wait_for("window.sextantPanel && window.sextantPanel.ready", command.get("timeout", 30))
        except TimeoutError as error:
            raise TimeoutError("%s (%s loaded in %.1f s; the page's steps, ms: %s; its error bar: %r; problems: %s)" % (
                error, self.evaluate("location.href"), loaded - started, self.evaluate("JSON.stringify(window.sextantPanel && window.sextantPanel.steps)"),
                self.evaluate("(document.getElementById('error-bar') || {}).textContent"), problems(self.browser.events))) from None
        return {"title": self.evaluate("document.title"), "loaded": round(loaded - started, 3), "steps": self.evaluate("window.sextantPanel.steps")}

    def do_waitFor(self, command):
        return {"value": self.wait_for(command["expression"], command.get("timeout", 30))}

    def do_click(self, command):
        selector = command["selector"]
        self.wait_for("(() => { const e = document.querySelector(%s); return e && !e.disabled; })()" % json.dumps(selector), command.get("timeout", 30))
        self.mouse_click(*self.place_of(selector))
        return {}

    def do_clickAt(self, command):
        x, y = self.place_of(command["selector"])
        self.mouse_click(round(x + command.get("dx", 0)), round(y + command.get("dy", 0)))
        return {}

    def do_type(self, command):
        self.mouse_click(*self.place_of(command["selector"]))
        self.evaluate("document.querySelector(%s).value = ''" % json.dumps(command["selector"]))
        self.browser.call("Input.insertText", {"text": command["text"]}, self.session)
        for kind in ("keyDown", "keyUp"):
            self.browser.call("Input.dispatchKeyEvent", {"type": kind, "key": "Enter", "code": "Enter", "windowsVirtualKeyCode": 13,
                                                         **({"text": "\r"} if kind == "keyDown" else {})}, self.session)
        return {}

    def do_clickMap(self, command):
        # Whole pixels, and the place Leaflet makes of a mouse event there (its container's
        # box, border and scale), once the page has laid itself out with the map in view (a
        # map partly scrolled away would be scrolled by Leaflet's focus on the press).
        self.place_of("#map")
        self.browser.call("Runtime.evaluate", {"expression": "new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))",
                                               "awaitPromise": True}, self.session)
        box = self.evaluate("(() => { const r = document.getElementById('map').getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; })()")
        x, y = round(box[0] + box[2] / 2 + command.get("dx", 0)), round(box[1] + box[3] / 2 + command.get("dy", 0))
        where = self.evaluate("""(() => { const p = window.sextantPanel.map.mouseEventToLatLng({clientX: %d, clientY: %d});
            return [p.lat, L.Util.wrapNum(p.lng, [-180, 180], true)]; })()""" % (x, y))
        self.mouse_click(x, y)
        return {"lat": where[0], "lon": where[1]}

    def do_choose(self, command):
        selector, value = json.dumps(command["selector"]), json.dumps(command["value"])
        self.wait_for("(() => { const s = document.querySelector(%s); return s && [...s.options].some((o) => o.value === %s); })()" % (selector, value), command.get("timeout", 30))
        self.evaluate("(() => { const s = document.querySelector(%s); s.focus(); s.value = %s; s.dispatchEvent(new Event('change', {bubbles: true})); })()" % (selector, value))
        return {}

    def do_slide(self, command):
        selector = command["selector"]
        self.wait_for("(() => { const e = document.querySelector(%s); return e && !e.disabled; })()" % json.dumps(selector), command.get("timeout", 30))
        self.place_of(selector)
        box = self.evaluate("(() => { const r = document.querySelector(%s).getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; })()" % json.dumps(selector))
        # The thumb's travel is the width less the thumb (about 16 px in Chromium). The value
        # is the one the slider took under the mouse, before the release sends it.
        x, y = round(box[0] + 8 + (box[2] - 16) * command["fraction"]), round(box[1] + box[3] / 2)
        self.browser.call("Input.dispatchMouseEvent", {"type": "mousePressed", "x": x, "y": y, "button": "left", "clickCount": 1}, self.session)
        value = float(self.evaluate("document.querySelector(%s).value" % json.dumps(selector)))
        self.browser.call("Input.dispatchMouseEvent", {"type": "mouseReleased", "x": x, "y": y, "button": "left", "clickCount": 1}, self.session)
        return {"value": value}

    def do_lag(self, command):
        lags = self.evaluate("window.sextantPanel.lags")
        if "times" in command:
            wanted = set(command["times"])
            lags = [entry for entry in lags if entry["time"] in wanted]
        received = [entry["received"] for entry in lags]
        applied = [entry["applied"] for entry in lags]
        return {"count": len(lags), "receivedP50": percentile(received, 0.5), "receivedP99": percentile(received, 0.99),
                "appliedP50": percentile(applied, 0.5), "appliedP99": percentile(applied, 0.99)}

    def do_visible(self, command):
        return self.evaluate("""(() => {
            const hidden = [];
            const all = [...document.querySelectorAll(%s)];
            for (const e of all) {
                const r = e.getBoundingClientRect();
                const name = (e.closest('[data-app]') ? e.closest('[data-app]').dataset.app + ' ' : '') + (e.className || e.id || e.tagName);
                if (r.width === 0 || r.height === 0) { hidden.push(name + ': no box'); continue; }
                if (r.left < 0 || r.top < 0 || r.right > innerWidth || r.bottom > innerHeight) {
                    hidden.push(name + ': outside the viewport at ' + [r.left, r.top, r.right, r.bottom].map(Math.round).join(','));
                    continue;
                }
                const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
                if (!top || !(top === e || e.contains(top))) hidden.push(name + ': covered by ' + (top ? top.tagName + '#' + top.id + '.' + top.className : 'nothing'));
            }
            return {count: all.length, hidden};
        })()""" % json.dumps(command["selector"]))

    def do_overflow(self, command):
        return {"value": self.evaluate("(() => { const e = document.querySelector(%s); return e.scrollWidth - e.clientWidth; })()" % json.dumps(command["selector"]))}

    def do_screenshot(self, command):
        if not self.shots:
            return {"path": None}
        path = os.path.join(self.shots, "panel-%s.png" % command["name"])
        # The map's tiles and markers settle in the next frames.
        self.browser.call("Runtime.evaluate", {"expression": "new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))",
                                               "awaitPromise": True}, self.session)
        screenshot(self.browser, self.session, path)
        return {"path": path}

    def do_problems(self, command):
        return {"problems": problems(self.browser.events)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("url")
    parser.add_argument("--screenshot", metavar="DIR")
    parser.add_argument("--width", type=int, default=1500)
    parser.add_argument("--height", type=int, default=1000)
    args = parser.parse_args()
    browser = Browser(args.width, args.height)
    page = PanelPage(browser, args.url, args.width, args.height, args.screenshot)
    try:
        for line in sys.stdin:
            if not line.strip():
                continue
            command = json.loads(line)
            if command["do"] == "close":
                print(json.dumps({"ok": True}), flush=True)
                break
            try:
                answer = getattr(page, "do_" + command["do"])(command)
                answer["ok"] = True
            except Exception as error:
                answer = {"ok": False, "error": "%s: %s" % (type(error).__name__, error)}
            print(json.dumps(answer), flush=True)
    finally:
        browser.close()


if __name__ == "__main__":
    sys.exit(main())
