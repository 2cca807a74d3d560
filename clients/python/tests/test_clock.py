"""The device's clock through the client (docs/platforms.md, "Device clock", C1-C10): time
travel from the control side, against the real sextantd. The rules are tested in process in
Tests/SextantServerTests/DeviceClockHubTests.swift."""

import pytest

import sextant
from sextant.clock import duration_seconds

APP = "com.example.once"


@pytest.mark.sextant(args=["--allow-once-timeout", "60"])  # the mechanism, at L5's old 60 s (iOS's grace is 10 s, I8)
def test_c6_allow_once_lapses_when_the_clock_is_advanced_past_sixty_seconds(sextant_control, sextant_app):
    app = sextant_app(APP)
    pending = app.request_authorization_async("whenInUse")
    sextant_control.answer(APP, "allowOnce")
    assert pending.result().status == "authorizedWhenInUse"
    sextant_control.set_app_state(APP, "background")
    assert sextant_control.time_advance(30).offset_seconds == 30
    assert app.authorization().status == "authorizedWhenInUse"
    clock = sextant_control.time_advance("31s")
    assert isinstance(clock, sextant.DeviceClock)
    assert (clock.offset_seconds, clock.monotonic_offset_seconds) == (61, 61)
    # The timer fired before time.advance answered: the app's status changed already.
    assert app.authorization().status == "notDetermined"


def test_c4_set_earlier_moves_only_the_wall_and_reset_gives_the_host_time_back(sextant_control):
    start = sextant_control.time_get()
    assert start.offset_seconds == 0
    earlier = sextant_control.time_set("2001-01-01T00:00:00Z")
    assert earlier.wall == "2001-01-01T00:00:00.000Z"
    assert earlier.monotonic_offset_seconds == 0 and earlier.monotonic_seconds >= start.monotonic_seconds
    assert sextant_control.time_reset().offset_seconds == 0


def test_c8_bad_input_is_refused_naming_the_param(sextant_control):
    with pytest.raises(sextant.ProtocolError) as refused:
        sextant_control.time_set("next tuesday")
    assert refused.value.code == -32602 and '"wall"' in str(refused.value)
    with pytest.raises(sextant.ProtocolError) as refused:
        sextant_control.time_advance(-5)
    assert refused.value.code == -32602 and '"seconds"' in str(refused.value)
    with pytest.raises(ValueError):
        sextant_control.time_advance("5 weeks")


def test_durations_read_as_sextantctl_reads_them():
    assert [duration_seconds(d) for d in ("90d", "61s", "15m", "2h", "1.5", 7)] == [7776000, 61, 900, 7200, 1.5, 7]
