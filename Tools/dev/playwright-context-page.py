#!/usr/bin/env python3
"""Opens a page in a browser context of Playwright's own, as a Playwright test does:
`chromium.connect_over_cdp(DEVTOOLS)`, `browser.new_context()`, `context.new_page()`,
`page.goto(URL)`. Runs under the Python that has Playwright from PyPI
(Tools/ci/setup-pypi-web-clients.sh: no browser downloaded, Debian's Chromium is the one
given). Prints `{"opened": URL}` once the page has loaded, then keeps the context open
until it is stopped.

    .build/pypi-web-clients/bin/python Tools/dev/playwright-context-page.py http://127.0.0.1:9222 http://127.0.0.1:8000/sensors
"""

import json
import sys

from playwright.sync_api import sync_playwright


def main():
    devtools, url = sys.argv[1], sys.argv[2]
    with sync_playwright() as playwright:
        browser = playwright.chromium.connect_over_cdp(devtools)
        context = browser.new_context()
        page = context.new_page()
        page.goto(url)
        print(json.dumps({"opened": url, "contexts": len(browser.contexts)}), flush=True)
        while True:
            page.wait_for_timeout(1000)


if __name__ == "__main__":
    main()
