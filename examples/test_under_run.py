"""The README's headline, as written there:

    sextantctl run --trace Traces/demo-walk.jsonl --speed max --grant com.example.maps -- pytest examples/test_under_run.py

Under `run` the tests without options of their own use run's daemon, set back before each
test to what run set up: the grant, and the walk from its start, waiting for the test's
first location request (sextant-rules(7) T1). Outside `run` (`pytest examples`), the
module's marker gives each test a daemon of its own with the same walk and grant, so the
same tests pass both ways. A test with options of its own gets its own daemon in both.
Tools/ci/test.sh runs this file both ways."""

import os
from datetime import datetime

import pytest

from conftest import WALK

MAPS = "com.example.maps"
UNDER_RUN = bool(os.environ.get("SEXTANT_RUN_SCENE"))

# Outside run: what run's options would have set up, on each test's own daemon.
pytestmark = [] if UNDER_RUN else [pytest.mark.sextant(trace=WALK, speed="max", grants=[MAPS])]


def seconds(rfc3339):
    return datetime.strptime(rfc3339, "%Y-%m-%dT%H:%M:%S.%fZ").timestamp()


def test_an_app_that_starts_locations_gets_the_whole_walk_from_its_first_fix(sextant_app, walk):
    _, samples = walk
    app = sextant_app(MAPS)
    app.start_location()  # the walk starts here, not when the daemon did

    fixes = [app.wait_for("location") for _ in samples]

    assert [(f["lat"], f["lon"]) for f in fixes] == [(lat, lon) for _, lat, lon in samples]
    assert seconds(fixes[-1]["time"]) - seconds(fixes[0]["time"]) == pytest.approx(samples[-1][0], abs=0.002)


def test_a_revoke_in_one_test_does_not_reach_the_next(sextant_control, sextant_app, walk):
    _, samples = walk
    assert [p.app for p in sextant_control.permissions()] == [MAPS]  # run's --grant
    app = sextant_app(MAPS)
    assert app.location_once()["lat"] == samples[0][1]  # the walk from its start, again
    sextant_control.revoke(MAPS)
    assert app.wait_for("authorization")["status"] == "denied"


def test_the_next_test_has_the_grant_and_the_walk_again(sextant_control, sextant_app, walk):
    _, samples = walk
    assert sextant_control.permissions()[0].status == "authorizedWhenInUse"
    app = sextant_app(MAPS)
    assert app.location_once()["lat"] == samples[0][1]


@pytest.mark.sextant(profile="foldable")
def test_a_test_with_options_of_its_own_gets_a_daemon_of_its_own(sextant_daemon, sextant_control, sextant_app):
    assert sextant_daemon.runtime_dir != os.environ.get("SEXTANT_RUNTIME_DIR")
    assert sextant_control.replay_status().state == "idle"  # no trace: its options gave none
    app = sextant_app("com.example.reader")
    app.start_posture()
    sextant_control.set_hinge(90)
    assert app.wait_for("posture")["state"] == "halfOpened"
