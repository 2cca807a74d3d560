"""A web app's user story, in a real Chromium driven by Selenium (issue 26.3): the demo walk
is replayed into a small page that shows its position and a compass; the app's permission
is revoked at t = 30 s of the walk (a control line of the scenario), and the page sees
nothing after it. The page's geolocation and deviceorientation come from Sextant through
``sextantctl browser`` (the ``sextant_browser`` fixture); what the test checks is what the
page itself recorded."""

import http.server
import os
import threading

import pytest

webdriver = pytest.importorskip("selenium.webdriver", reason="python3-selenium (Tools/setup.sh)")
from selenium.webdriver.chrome.service import Service as ChromeService  # noqa: E402 (Debian's Selenium 4.8 has no webdriver.ChromeService)

WEB_APP = "org.example.webwalk"
CHROMEDRIVER = "/usr/bin/chromedriver"
REVOKE_AT = 30.0

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
    if not os.access(CHROMEDRIVER, os.X_OK):
        pytest.skip("chromium-driver (Tools/setup.sh)")
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    # The bridge's WebSocket client says Origin: ws://127.0.0.1 (docs/browsers.md).
    arguments = ("--headless", "--disable-gpu", "--remote-allow-origins=ws://127.0.0.1", "--user-data-dir=%s" % (tmp_path / "profile"))
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


def test_a_web_page_follows_the_walk_and_sees_nothing_after_a_revoke(
    sextant_control, sextant_browser, chrome, page_url, walk, tmp_path
):
    path, locations = walk
    sextant_control.grant(WEB_APP)
    sextant_browser(WEB_APP, chrome)
    chrome.get(page_url)
    assert wait_until(chrome, "return window.permission === 'granted'")

    scenario = tmp_path / "revoke.jsonl"
    scenario.write_text(
        '{"t":%s,"control":{"method":"permissions.set","params":{"app":"%s","status":"denied"}}}\n' % (REVOKE_AT, WEB_APP))
    sextant_control.replay_start(path, speed=10, scenario=str(scenario))
    sextant_control.replay_wait(timeout=60)

    assert wait_until(chrome, "return window.permission === 'denied'")
    seen = chrome.execute_script("return window.seen")
    before = [(lat, lon) for t, lat, lon in locations if t < REVOKE_AT]
    at = [(lat, lon) for t, lat, lon in locations if t == REVOKE_AT]
    after = [(lat, lon) for t, lat, lon in locations if t > REVOKE_AT]
    got = [(p["lat"], p["lon"]) for p in seen]
    # The walk up to the revoke, every fix in order; the one at the revoke's own time may
    # come before it; none after it (L9).
    assert got in (before, before + at), "the page saw %d positions, the walk had %d before t = %s" % (len(got), len(before), REVOKE_AT)
    assert not set(got) & set(after)
    assert chrome.find_element("id", "position").text == "%.6f, %.6f" % got[-1]
