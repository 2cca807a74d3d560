"""The device's time zone through the client (sextant-rules(7) Z1-Z10): a replayed drive
from Elvas (Portugal) to Badajoz (Spain) with the tests' boundary table; the rules are
tested in process in Tests/SextantServerTests/TimeZoneHubTests.swift."""

import os

import pytest

import sextant

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
TABLE = os.path.join(ROOT, "Traces", "tz", "test-regions.sxtz")


def drive(path, seconds=1000):
    """Elvas to Badajoz, one fix a second (tzfpy's end-a and end-b, Traces/tz/border-points.tsv)."""
    lines = ['{"sextant":"trace","version":1,"start":"2026-07-01T10:00:00.000Z"}']
    for t in range(seconds + 1):
        f = t / seconds
        lat, lon = 38.8810 + (38.8786 - 38.8810) * f, -7.1631 + (-6.9707 + 7.1631) * f
        lines.append('{"t":%d,"location":{"lat":%r,"lon":%r,"hAcc":5}}' % (t, lat, lon))
    path.write_text("\n".join(lines) + "\n")
    return str(path)


@pytest.mark.sextant(args=["--time-zone-table", TABLE])
def test_z3_the_drive_crosses_into_madrid_without_location_authorization(sextant_control, sextant_app, tmp_path):
    app = sextant_app("com.example.clock")
    assert app.start_time_zone().zone is None  # Z2: no zone before the first fix
    sextant_control.replay_start(drive(tmp_path / "elvas-badajoz.jsonl"), speed="max")
    first = app.next_time_zone()
    assert isinstance(first, sextant.TimeZone)
    assert (first.zone, first.previous, first.utc_offset, first.is_dst, first.reason) == ("Europe/Lisbon", None, 3600, True, "first")
    madrid = app.next_time_zone()
    assert (madrid.zone, madrid.previous, madrid.utc_offset, madrid.reason) == ("Europe/Madrid", "Europe/Lisbon", 7200, "zoneChanged")
    assert app.time_zone().zone == "Europe/Madrid"


@pytest.mark.sextant(args=["--time-zone-table", TABLE])
def test_z9_a_zone_set_by_hand_wins_and_auto_gives_it_back(sextant_control, sextant_app):
    app = sextant_app("com.example.clock")
    app.start_time_zone()
    sextant_control.set_location(38.8794, -7.0346)
    assert app.next_time_zone().zone == "Europe/Lisbon"
    tokyo = sextant_control.set_time_zone("Asia/Tokyo")
    assert (tokyo.zone, tokyo.utc_offset, tokyo.automatic) == ("Asia/Tokyo", 32400, False)
    told = app.next_time_zone()
    assert (told.zone, told.previous, told.reason) == ("Asia/Tokyo", "Europe/Lisbon", "manual")
    assert sextant_control.time_zone()["table"]["path"] == TABLE
    assert sextant_control.set_time_zone(None).zone == "Europe/Lisbon"
    with pytest.raises(sextant.ProtocolError) as refused:
        sextant_control.set_time_zone("Mars/Olympus_Mons")
    assert refused.value.code == -32602
