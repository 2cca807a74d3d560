"""The browser fixture's pieces that need no browser: the DevTools address of a WebDriver or
of an address given as one, and a bridge that cannot start says why."""

import pytest

from sextant import BrowserBridge
from sextant.browser import devtools_address
from sextant.errors import SextantError


class FakeDriver:
    def __init__(self, capabilities):
        self.capabilities = capabilities


def test_the_address_of_a_selenium_chromium_driver():
    driver = FakeDriver({"goog:chromeOptions": {"debuggerAddress": "localhost:40123"}})
    assert devtools_address(driver) == "http://127.0.0.1:40123"


def test_an_address_given_as_one():
    assert devtools_address("127.0.0.1:9222") == "http://127.0.0.1:9222"
    assert devtools_address("ws://127.0.0.1:9222/devtools/browser/x") == "ws://127.0.0.1:9222/devtools/browser/x"


def test_a_driver_without_devtools_is_refused_by_name():
    with pytest.raises(SextantError, match="names no DevTools address"):
        devtools_address(FakeDriver({"browserName": "firefox"}))


def test_a_bridge_that_ends_says_why(tmp_path):
    # A "sextantctl" that fails at once, as the real one does without sextant-browser.
    fake = tmp_path / "sextantctl"
    fake.write_text("#!/bin/sh\necho 'sextantctl browser: sextant-browser is neither beside sextantctl nor on PATH' >&2\nexit 69\n")
    fake.chmod(0o755)
    bridge = BrowserBridge("org.example.web", str(tmp_path), "127.0.0.1:9", sextantctl=str(fake))
    with pytest.raises(SextantError, match="neither beside sextantctl nor on PATH"):
        bridge.start(timeout=10)
