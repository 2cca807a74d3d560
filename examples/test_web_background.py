"""A web app in the background, in a real Chromium driven by Selenium (issue 26.1, L8): with
its window minimized none of its pages is visible, so the app is in the background, where an
app authorized while in use gets no position; restored, it is in the foreground and the
positions come again. The control side can move it too (``apps.update``), as a window
manager would. What the test checks is what the page itself recorded."""

import time

from web_page import chrome, page_url, wait_until  # noqa: F401 (fixtures)

WEB_APP = "org.example.webbackground"


def wait_for_state(control, state, timeout=30):
    """Waits until the bridge's session (the app's one) is in ``state``."""
    deadline = time.monotonic() + timeout
    while True:
        states = [app["state"] for app in control.apps() if app["app"] == WEB_APP]
        if states == [state]:
            return
        assert time.monotonic() < deadline, "the app is %s, not %s, after %s s" % (states, state, timeout)
        time.sleep(0.05)


def seen(chrome):
    return [(p["lat"], p["lon"]) for p in chrome.execute_script("return window.seen")]


def replay_and_check(control, chrome, path, locations, background):
    """Replays the walk; in the background the page sees none of it, in the foreground its last fix."""
    before = len(seen(chrome))
    control.replay_start(path, speed=30)
    control.replay_wait(timeout=60)
    if background:
        assert len(seen(chrome)) == before, "a background app authorized while in use got positions"
    else:
        last = (locations[-1][1], locations[-1][2])
        wait_until(chrome, "return window.seen.length > 0 && window.seen[window.seen.length - 1].lon === %r" % last[1])
        assert seen(chrome)[-1] == last


def open_page(control, bridge, chrome, page_url):
    """The app authorized while in use, the browser bound to it, the page open and granted."""
    control.grant(WEB_APP)
    bridge(WEB_APP, chrome)
    chrome.get(page_url)
    assert wait_until(chrome, "return window.permission === 'granted'")


def test_a_minimized_window_is_the_background_and_restored_the_foreground(
    sextant_control, sextant_browser, chrome, page_url, walk
):
    path, locations = walk
    open_page(sextant_control, sextant_browser, chrome, page_url)
    wait_for_state(sextant_control, "foreground")

    chrome.minimize_window()
    wait_for_state(sextant_control, "background")
    replay_and_check(sextant_control, chrome, path, locations, background=True)

    chrome.set_window_rect(width=800, height=600)
    wait_for_state(sextant_control, "foreground")
    replay_and_check(sextant_control, chrome, path, locations, background=False)


def test_the_control_side_moves_the_page_to_the_background_and_back(
    sextant_control, sextant_browser, chrome, page_url, walk
):
    path, locations = walk
    open_page(sextant_control, sextant_browser, chrome, page_url)

    sextant_control.set_app_state(WEB_APP, "background")
    wait_for_state(sextant_control, "background")
    replay_and_check(sextant_control, chrome, path, locations, background=True)

    sextant_control.set_app_state(WEB_APP, "foreground")
    replay_and_check(sextant_control, chrome, path, locations, background=False)
