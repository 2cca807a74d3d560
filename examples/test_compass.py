"""A compass app's user story (sextant-rules(7) H1–H8): a walk whose magnetometer turns the
phone's top through known headings is replayed; the app sees each one, magnetic and true,
and loses the true heading at once when its location permission is revoked, while the
magnetic heading goes on."""

import pytest

from sextant.traces import compass_turns, write_trace

COMPASS = "com.example.compass"


def test_a_compass_app_sees_each_heading_and_loses_true_north_at_a_revoke(sextant_control, sextant_app, tmp_path):
    sextant_control.grant(COMPASS)
    app = sextant_app(COMPASS)
    app.start_heading(filter=0)

    # Paris, where a field of 20 µT north and 40 µT down is near the real one.
    walk = write_trace(tmp_path / "walk.jsonl", compass_turns([0, 45, 90, 135], lat=48.8556, lon=2.2986))
    sextant_control.replay_start(walk, speed=1, until=2)
    seen = [app.next_heading(), app.next_heading()]
    assert [h.magnetic for h in seen] == [pytest.approx(0, abs=0.01), pytest.approx(45, abs=0.01)]
    # True north is east of magnetic north in Paris in 2026 (WMM2025: +1.98°).
    assert all(h.true == pytest.approx((h.magnetic + 1.98) % 360, abs=0.02) for h in seen)
    assert sextant_control.status().raw["heading"]["source"] == "replay"

    sextant_control.revoke(COMPASS)
    assert app.wait_for("authorization")["status"] == "denied"
    sextant_control.replay_resume()
    after = [app.next_heading(), app.next_heading()]
    assert [h.magnetic for h in after] == [pytest.approx(90, abs=0.01), pytest.approx(135, abs=0.01)]
    assert [h.true for h in after] == [None, None]  # H8, L9: the very next heading already
