"""Android's one-shot location calls through the client against a real sextantd
(docs/platforms.md AN35–AN37): location.once is getCurrentLocation, last_known_location
getLastLocation, both AOSP-fudged for an approximate grant."""

import pytest

import sextant
from sextant import Daemon

APP = "com.example.lastknown"
GRID = 2000.0 / 111_000  # AN21: AOSP's grid step in latitude


def on_aosp_grid(latitude):
    steps = latitude / GRID
    return abs(steps - round(steps)) < 1e-6


def test_an36_last_known_location_is_coarse_for_an_approximate_app():
    with Daemon(args=["--platform", "android"]) as daemon:
        control = daemon.control()
        app = daemon.app(APP)
        control.set_permission(APP, "authorizedWhenInUse", accuracy="reduced")
        assert app.last_known_location() is None
        once = app.connection.send(sextant._protocol.METHOD_LOCATION_ONCE)
        # A call on the same connection is handled after the once: it is waiting by then.
        app.connection.call(sextant._protocol.METHOD_AUTHORIZATION_GET)
        control.set_location(48.85, 2.35, hAcc=5, alt=35)
        current = app.connection.response(once, sextant._protocol.METHOD_LOCATION_ONCE)
        assert current["accuracy"] == "reduced" and current["hAcc"] == 2000 and "alt" not in current
        assert on_aosp_grid(current["lat"])
        assert app.last_known_location() == current
        app.close()


def test_an36_last_known_location_is_android_only():
    with Daemon() as daemon:
        app = daemon.app(APP)
        with pytest.raises(sextant.ProtocolError) as refused:
            app.last_known_location()
        assert refused.value.code == -32601
        app.close()


def test_an38_only_this_time_set_directly_ends_by_the_rules():
    with Daemon(args=["--platform", "android"]) as daemon:
        control = daemon.control()
        entry = control.set_android_grants(APP, ["coarse"], one_time=True)
        assert entry["android"]["oneTime"]["coarse"] == "granted"
        assert entry["android"]["oneTime"]["fine"] == "denied"
        # AN11: no session open, the grant ends 5 s later, on the device's clock.
        control.time_advance(4.9)
        assert control.explain_permissions(APP)["facets"]["oneTime"] is not None
        control.time_advance(0.2)
        assert control.explain_permissions(APP)["facets"]["oneTime"] is None
