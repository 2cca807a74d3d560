"""A web app's user story, in a real Chromium driven by Selenium (issue 26.3): the demo walk
is replayed into a small page that shows its position and a compass; the app's permission
is revoked at t = 30 s of the walk (a control line of the scenario), and the page sees
nothing after it. The page's geolocation and deviceorientation come from Sextant through
``sextantctl browser`` (the ``sextant_browser`` fixture); what the test checks is what the
page itself recorded."""

from web_page import chrome, page_url, wait_until  # noqa: F401 (fixtures)

WEB_APP = "org.example.webwalk"
REVOKE_AT = 30.0


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
