"""A small web page that shows its position and a compass and records what it was given,
served on loopback, and a Selenium Chromium to open it in: the examples' web apps
(test_web_walk.py, test_web_background.py). Import the fixtures into a test module."""

import http.server
import os
import threading

import pytest

CHROMEDRIVER = "/usr/bin/chromedriver"

PAGE = b"""<!doctype html>
<meta charset="utf-8">
<title>Walk</title>
<p>Position: <span id="position">none yet</span></p>
<p>Compass: <span id="compass">-</span></p>
<script>
window.seen = [];
window.errors = [];
navigator.geolocation.watchPosition(
  (p) => {
    window.seen.push({lat: p.coords.latitude, lon: p.coords.longitude, accuracy: p.coords.accuracy});
    document.getElementById("position").textContent = p.coords.latitude.toFixed(6) + ", " + p.coords.longitude.toFixed(6);
  },
  (e) => window.errors.push(e.code),
  {enableHighAccuracy: true, maximumAge: 0});
window.addEventListener("deviceorientation", (e) => {
  if (e.alpha !== null) document.getElementById("compass").textContent = Math.round((360 - e.alpha) % 360) + "\\u00b0";
});
window.permission = "unknown";
navigator.permissions.query({name: "geolocation"}).then((s) => {
  window.permission = s.state;
  s.onchange = () => { window.permission = s.state; };
});
</script>
"""


class PageHandler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(PAGE)))
        self.end_headers()
        self.wfile.write(PAGE)

    def log_message(self, *arguments):
        pass


@pytest.fixture
def page_url():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), PageHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield "http://127.0.0.1:%d/" % server.server_address[1]
    server.shutdown()
    server.server_close()


@pytest.fixture
def chrome(tmp_path):
    """A headless Chromium driven by Selenium (chromium-driver), on a profile of its own."""
    webdriver = pytest.importorskip("selenium.webdriver", reason="python3-selenium (Tools/ci/setup.sh)")
    # Debian's Selenium 4.8 has no webdriver.ChromeService.
    from selenium.webdriver.chrome.service import Service as ChromeService

    if not os.access(CHROMEDRIVER, os.X_OK):
        pytest.skip("chromium-driver (Tools/ci/setup.sh)")
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    # No --remote-allow-origins: the bridge's WebSocket client sends no Origin (docs/browsers.md).
    arguments = ("--headless", "--disable-gpu", "--user-data-dir=%s" % (tmp_path / "profile"))
    for argument in arguments:
        options.add_argument(argument)
    if os.getuid() == 0:
        options.add_argument("--no-sandbox")
    driver = webdriver.Chrome(service=ChromeService(executable_path=CHROMEDRIVER), options=options)
    yield driver
    driver.quit()


def wait_until(driver, script, timeout=60):
    """What ``script`` returns, once it is truthy (WebDriverWait polls the page)."""
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout, poll_frequency=0.05).until(lambda d: d.execute_script(script))


