#!/usr/bin/python3
"""Opens a `sextantctl trace plot` HTML page in headless Chromium and uses it as a person would.

Talks to Chromium over the DevTools protocol on a pipe (--remote-debugging-pipe: fds 3 and 4,
NUL-terminated JSON), with no network and a private profile. It hovers the start of the track
(Input.dispatchMouseEvent) and reads the tooltip, hovers an event on an app's lane when there
is one, hovers a region crossing on the regions lane when there is one, zooms the map with the wheel and reads the map's transform, clicks a row of the event
list, and records every Content-Security-Policy violation, console error and request that is
not the page itself. Prints one JSON object; with --screenshot, also writes a PNG of the page
(docs/images/ is made this way: Tools/dev/plot-screenshots.sh).

Usage: Tools/dev/plot-browser.py PAGE.html [--screenshot OUT.png [--hover SELECTOR]] [--width 1000] [--height 1400]
"""

import argparse
import json
import os
import sys

from cdp_pipe import Browser, centre_of, evaluate, open_page, problems, screenshot


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
        session = open_page(browser, "file://" + os.path.abspath(args.page), args.width, args.height)
        report = exercise(browser, session)
        if args.screenshot:
            # The picture for the docs: the whole map, a fix hovered with its tooltip.
            evaluate(browser, session, "document.getElementById('zoom-reset').click()")
            tick = (args.hover and centre_of(browser, session, args.hover)) or centre_of(browser, session, "#map-pins g.time-tick circle", 2) \
                or centre_of(browser, session, "#map-pins g.end circle")
            hover(browser, session, tick)
            screenshot(browser, session, args.screenshot)
        events = browser.events
        report["requests"] = [e["params"]["request"]["url"] for e in events if e.get("method") == "Network.requestWillBeSent"
                              and not e["params"]["request"]["url"].startswith("file://")]
        report["problems"] = problems(events)
        print(json.dumps(report))
    finally:
        browser.close()


if __name__ == "__main__":
    sys.exit(main())
