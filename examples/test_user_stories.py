"""Sextant's user stories as tests: what an app developer or QA engineer writes to check an
app's location and rotation behaviour against a private daemon.

Each test gets its own daemon (the `sextant_daemon` fixture, options from the `sextant`
marker); nothing is shared between tests. Rule ids are sextant-rules(7)'s."""

import math
import os
from datetime import datetime

import pytest

from sextant import ProtocolError

MAPS = "com.example.maps"


def seconds(rfc3339):
    return datetime.strptime(rfc3339, "%Y-%m-%dT%H:%M:%S.%fZ").timestamp()


def test_a_walk_replayed_at_max_speed_reaches_a_streaming_app_whole(sextant_control, sextant_app, walk):
    path, samples = walk
    sextant_control.grant(MAPS)
    app = sextant_app(MAPS)
    app.start_location()

    sextant_control.replay_start(path, speed="max")
    fixes = [app.wait_for("location") for _ in samples]

    assert [(f["lat"], f["lon"]) for f in fixes] == [(lat, lon) for _, lat, lon in samples]
    # The trace's own times, whatever the speed (O5): the last fix is 90 s after the first.
    assert seconds(fixes[-1]["time"]) - seconds(fixes[0]["time"]) == pytest.approx(samples[-1][0] - samples[0][0], abs=0.002)
    assert sextant_control.replay_wait(timeout=30).state == "finished"


def test_a_permission_revoked_mid_walk_stops_locations_at_once(sextant_control, sextant_app, walk):
    path, samples = walk
    sextant_control.grant(MAPS)
    app = sextant_app(MAPS)
    app.start_location()

    sextant_control.replay_start(path, speed="max", until=30)  # pauses at exactly t = 30 s
    assert sextant_control.replay_wait(timeout=30).position == pytest.approx(30, abs=0.001)
    before = [app.wait_for("location") for t, _, _ in samples if t <= 30]
    sextant_control.revoke(MAPS)
    sextant_control.replay_resume()

    assert app.wait_for("authorization")["status"] == "denied"
    assert sextant_control.replay_wait(timeout=30).state == "finished"  # the rest of the walk
    app.authorization()  # a round trip: everything sent before its answer has been read
    assert [e for e in app.pending_events() if e.method == "location"] == []  # L9
    assert seconds(before[-1]["time"]) - seconds(before[0]["time"]) <= 30


@pytest.mark.sextant(allow_once_timeout=1)
def test_allow_once_ends_after_the_app_stays_in_the_background(sextant_control, sextant_app):
    app = sextant_app(MAPS)
    request = app.request_authorization_async("whenInUse")
    sextant_control.answer(MAPS, "allowOnce")
    assert request.result().status == "authorizedWhenInUse"
    assert sextant_control.permissions()[0].allow_once
    assert app.wait_for("authorization")["status"] == "authorizedWhenInUse"

    sextant_control.set_app_state(MAPS, "background")
    # L5: back to notDetermined after the time in the background (60 s on a phone; 1 s here).
    app.wait_for("authorization", lambda e: e["status"] == "notDetermined", timeout=20)
    assert sextant_control.permissions() == []


def test_reduced_accuracy_gives_the_centre_of_a_2_km_cell(sextant_control, sextant_app):
    sextant_control.grant(MAPS, approximate=True)
    app = sextant_app(MAPS)
    app.start_location()
    sextant_control.set_location(48.8584, 2.2945, alt=35, speed=1.4, hAcc=5)

    fix = app.wait_for("location")
    assert fix["accuracy"] == "reduced" and fix["hAcc"] >= 2000  # L10
    assert "alt" not in fix.params and "speed" not in fix.params
    north = (fix["lat"] - 48.8584) * 111_320
    east = (fix["lon"] - 2.2945) * 111_320 * math.cos(math.radians(48.8584))
    assert 0 < math.hypot(north, east) <= 1000 * math.sqrt(2) + 1


def test_location_services_off_raises_an_alert_that_never_turns_them_on(sextant_control, sextant_app):
    sextant_control.grant(MAPS)
    sextant_control.set_services(False)
    app = sextant_app(MAPS)

    with pytest.raises(ProtocolError) as refused:
        app.start_location()
    assert refused.value.name == "servicesDisabled"  # L7: at once, not after the alert

    alert = sextant_control.wait_for_prompt(app=MAPS, kind="servicesOff")
    sextant_control.answer_prompt(alert, "settings")
    assert sextant_control.status().services_enabled is False  # only the control side can


def test_rotating_a_phone_turns_apps_and_a_landscape_only_game_stays_landscape(sextant_control, sextant_app):
    phone_app = sextant_app(MAPS)
    game = sextant_app("com.example.racer", orientations=["landscapeLeft", "landscapeRight"])
    assert phone_app.hello_result["interfaceOrientation"] == "portrait"
    assert game.hello_result["interfaceOrientation"] == "landscapeRight"  # O6: Home on the right
    phone_app.start_orientation()
    game.start_orientation()

    sextant_control.rotate("landscapeRight")  # returns once the judge has decided
    assert phone_app.wait_for("interfaceOrientation")["orientation"] == "landscapeLeft"  # iOS naming
    assert game.wait_for("interfaceOrientation")["orientation"] == "landscapeLeft"

    sextant_control.rotate("portrait")
    assert phone_app.wait_for("interfaceOrientation")["orientation"] == "portrait"
    game.wait_for("deviceOrientation", lambda e: e["orientation"] == "portrait")
    game.authorization()  # a round trip: the game has read all it was sent
    assert [e for e in game.pending_events() if e.method == "interfaceOrientation"] == []  # O7


@pytest.mark.sextant(profile="foldable")
def test_folding_a_foldable(sextant_control, sextant_app):
    app = sextant_app(MAPS)
    app.start_posture()
    changes = []
    for angle in (90, 170, 100, 3):
        sextant_control.set_hinge(angle)
        event = app.wait_for("posture")
        changes.append((event["previous"], event["state"], event["fold"]))
    # P3: the first decision has no previous; flat → halfOpened below 125; closed at 5 or less.
    assert changes == [
        (None, "halfOpened", "vertical"),
        ("halfOpened", "flat", "vertical"),
        ("flat", "halfOpened", "vertical"),
        ("halfOpened", "closed", "vertical"),
    ]


SHOP_APP = "com.example.shop"
SHOP_WALK = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "Traces", "shop-walk.jsonl")


def test_a_walk_past_a_shop_enters_dwells_and_leaves_its_region_then_a_revoke_silences_it(sextant_control, sextant_app):
    # A loyalty app watches the shop's door (R1-R7): a 50 m circle, a dwell after 30 s.
    sextant_control.grant(SHOP_APP, always=True)
    app = sextant_app(SHOP_APP)
    app.monitor_region("shop", 48.8566, 2.3522, 50, loitering_delay=30)

    # The walk plays at max speed up to 200 s of trace: in, a stay, and out past the shop.
    sextant_control.replay_start(SHOP_WALK, speed="max", until=200)
    seen = [app.wait_for("region") for _ in range(3)]
    assert [(e["transition"], e["time"]) for e in seen] == [
        ("enter", "2026-03-01T08:01:51.000Z"),
        ("dwell", "2026-03-01T08:02:21.000Z"),
        ("exit", "2026-03-01T08:03:17.000Z"),
    ]
    assert all("lat" not in e.params for e in seen), "region events carry no coordinates"
    assert app.region_state("shop") == "outside"

    # The user revokes the app mid-walk: the jumps back into the shop tell it nothing (L9).
    assert sextant_control.replay_wait(timeout=30).state == "paused"
    sextant_control.revoke(SHOP_APP)
    sextant_control.replay_resume()
    assert sextant_control.replay_wait(timeout=30).state == "finished"
    assert app.region_state("shop") == "unknown"
    assert [e.method for e in app.pending_events() if e.method == "region"] == []
    # The region is kept for when the user allows the app again.
    assert [r["identifier"] for r in sextant_control.regions(SHOP_APP)] == ["shop"]
