"""Visits and the significant-change service (sextant-rules(7) S1–S3, V1–V5): what a QA
engineer writes to check an app that logs the places its user stops at.

The walk is made here: 5 minutes north at 1.4 m/s, a stop of 6 minutes at a café 420 m on,
then 10 minutes on north, one fix a second. Replayed at `max`, it gives the same events
with the same times as at 1×: the rules read the fixes' own times."""

import json
import math
from datetime import datetime

import pytest

from sextant import Visit

DIARY = "com.example.diary"
START = "2026-03-01T08:00:00.000Z"
METRES_PER_DEGREE = 6_371_008.8 * math.pi / 180


def write_cafe_walk(path):
    lines = [json.dumps({"sextant": "trace", "version": 1, "start": START})]
    for t in range(1260):
        north = 1.4 * t if t < 300 else 420 if t < 660 else 420 + 1.4 * (t - 660)
        east = t % 7 if 300 <= t < 660 else 0  # a few metres of scatter at the café
        lat = 48.8566 + north / METRES_PER_DEGREE
        lon = 2.3522 + east / (METRES_PER_DEGREE * math.cos(math.radians(48.8566)))
        lines.append(json.dumps({"t": t, "location": {"lat": lat, "lon": lon, "hAcc": 5}}))
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def seconds_into_walk(rfc3339):
    def parse(text):
        return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").timestamp()

    return round(parse(rfc3339) - parse(START))


def test_a_six_minute_stop_at_a_cafe_is_one_arrival_and_one_departure(sextant_control, sextant_app, tmp_path):
    walk = write_cafe_walk(tmp_path / "cafe-walk.jsonl")
    sextant_control.grant(DIARY, always=True)  # the diary logs in the background too
    app = sextant_app(DIARY, state="background")
    app.start_visits()
    app.start_significant_changes()

    sextant_control.replay_start(walk, speed="max")
    assert sextant_control.replay_wait(timeout=60).state == "finished"

    arrival = app.wait_for_visit(arrival=True)
    departure = app.wait_for_visit(arrival=False)
    assert isinstance(arrival, Visit) and arrival.departure is None
    # The stay began on the way in (within 100 m of the café) and lasted until the last fix
    # within 100 m on the way out.
    assert 230 <= seconds_into_walk(arrival.arrival) <= 300
    assert departure.arrival == arrival.arrival
    assert 660 <= seconds_into_walk(departure.departure) <= 732
    cafe_lat = 48.8566 + 420 / METRES_PER_DEGREE
    assert abs(arrival.latitude - cafe_lat) * METRES_PER_DEGREE < 25
    # Exactly one of each: nothing more came.
    later = app.pending_events()
    assert [e.method for e in later if e.method == "visit"] == []
    # Significant changes: the first fix, then every 500 m and 5 minutes.
    changes = [e for e in app.received if e.method == "significantChange"]
    assert [seconds_into_walk(e["time"]) for e in changes] == [0, 718, 1076]


def test_a_revoke_at_the_cafe_stops_visits_before_the_departure(sextant_control, sextant_app, tmp_path):
    walk = write_cafe_walk(tmp_path / "cafe-walk.jsonl")
    sextant_control.grant(DIARY, always=True)
    app = sextant_app(DIARY)
    app.start_visits()

    sextant_control.replay_start(walk, speed="max", until=650)  # at the café, after the arrival
    assert sextant_control.replay_wait(timeout=60).position == pytest.approx(650, abs=0.001)
    assert app.wait_for_visit(arrival=True).departure is None
    sextant_control.revoke(DIARY)
    sextant_control.replay_resume()
    assert sextant_control.replay_wait(timeout=60).state == "finished"

    app.wait_for("authorization", lambda e: e["status"] == "denied")
    assert [e.method for e in app.pending_events() if e.method == "visit"] == []
