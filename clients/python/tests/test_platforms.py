"""The phone the daemon plays (docs/platforms.md PF1): said at hello and in status, chosen with
``Daemon(platform=..., android_api=...)``; the rules are tested in Swift."""

import sextant


def test_pf1_a_daemon_plays_ios_unless_told_android():
    with sextant.Daemon() as daemon:
        with daemon.app("com.example.maps") as app:
            assert app.hello_result["platform"] == "ios"
            assert "androidApi" not in app.hello_result
    with sextant.Daemon(platform="android", android_api=31) as daemon:
        with daemon.app("com.example.maps") as app:
            assert (app.hello_result["platform"], app.hello_result["androidApi"]) == ("android", 31)
        with daemon.control() as control:
            assert control.status().raw["platform"] == {"name": "android", "androidApi": 31}


def test_pf3_explain_shows_an_allow_once_grant_and_its_timer():
    with sextant.Daemon(allow_once_timeout=30) as daemon:
        with daemon.control() as control, daemon.app("com.example.maps") as app:
            control.set_prompt_policy("allowOnce")
            assert app.request_authorization("whenInUse").status == "authorizedWhenInUse"
            app.update(state="background")
            explained = control.explain_permissions("com.example.maps")
            assert explained["stored"] is None and explained["status"] == "authorizedWhenInUse"
            assert explained["sessions"][0]["allowOnce"] == "full"
            timers = explained["timers"]
            assert [t["name"] for t in timers] == ["allowOnceExpiry"] and 0 < timers[0]["inSeconds"] <= 30


def test_i13_diagnostics_say_why_an_app_gets_nothing():
    with sextant.Daemon() as daemon:
        with daemon.control() as control, daemon.app("com.example.maps") as app:
            control.set_permission("com.example.maps", "authorizedWhenInUse")
            app.start_diagnostics()
            assert app.next_diagnostics(lambda d: not d.raised).flags["serviceSessionRequired"] is False
            app.update(state="background")
            assert app.next_diagnostics().raised == {"insufficientlyInUse"}
            control.set_services(False)
            assert app.next_diagnostics().raised == {"authorizationDeniedGlobally"}
