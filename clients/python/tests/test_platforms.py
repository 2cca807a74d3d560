"""The phone the daemon plays (docs/platforms.md PF1): said at hello and in status, chosen with
``Daemon(platform=..., android_api=...)``; the rules are tested in Swift."""

import pytest

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


def test_i9_i10_temporary_full_accuracy_through_the_client():
    declared = {"temporaryUsageDescriptions": {"nav": "Turn-by-turn directions need your precise location."}}
    with sextant.Daemon() as daemon:
        with daemon.control() as control, daemon.app("com.example.maps", declarations=declared) as app:
            control.set_permission("com.example.maps", "authorizedWhenInUse", "reduced")
            pending = app.request_temporary_full_accuracy_async("nav")
            prompt = control.wait_for_prompt("com.example.maps", kind="temporaryFullAccuracy")
            control.answer_prompt(prompt, "allow")
            granted = pending.result()
            assert (granted.status, granted.accuracy) == ("authorizedWhenInUse", "full")
            with pytest.raises(sextant.SextantError) as declined:
                app.request_temporary_full_accuracy("undeclared")
            assert declined.value.code == 1014


def test_an30_a_fused_request_batches_fixes_into_one_locations_event():
    with sextant.Daemon(platform="android") as daemon:
        with daemon.control() as control, daemon.app("com.example.run") as app:
            control.set_permission("com.example.run", "authorizedWhenInUse")
            app.start_location(priority="highAccuracy", intervalMillis=1000, maxUpdateDelayMillis=3000)
            for n in range(4):
                control.call("device.set", {"location": {"lat": 48.0 + n * 0.0001, "lon": 2.0, "hAcc": 5}})
                control.time_advance(1)
            batch = app.wait_for("locations", timeout=10)
            assert len(batch.params["locations"]) >= 2
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


def test_l5_i9_session_grants_set_mid_flow_through_the_client():
    declared = {"temporaryUsageDescriptions": {"nav": "Turn-by-turn directions need your precise location."}}
    with sextant.Daemon() as daemon:
        with daemon.control() as control, daemon.app("com.example.maps", declarations=declared) as app:
            entry = control.set_ios_session_grant("com.example.maps", once=True, temporary_full_accuracy="nav", accuracy="reduced")
            assert entry["allowOnce"] is True and entry["temporaryFullAccuracy"] == ["nav"]
            assert (app.authorization().status, app.authorization().accuracy) == ("authorizedWhenInUse", "full")
            listed = [a for a in control.call("apps.list") if a["app"] == "com.example.maps"][0]
            assert listed["allowOnce"] is True and listed["temporaryFullAccuracy"] == ["nav"]
            app.update(state="background")
            control.time_advance(11)
            assert app.authorization().status == "notDetermined"
