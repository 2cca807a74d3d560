"""motion.start through the client: typed motion events from a replayed accelerometer and
from one held by hand (sextant-rules(7) M1–M3; the background rule M3 is tested in process,
Tests/SextantServerTests/MotionHubTests.swift)."""

import pytest

import sextant


def accel_trace(path, samples, step):
    """One accelerometer reading every ``step`` seconds."""
    lines = ['{"sextant":"trace","version":1,"start":"2026-03-01T08:00:00.000Z"}']
    for i, (x, y, z) in enumerate(samples):
        lines.append('{"t":%r,"accel":{"x":%r,"y":%r,"z":%r}}' % (i * step, x, y, z))
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def test_start_motion_gives_typed_readings_without_location_authorization(sextant_control, sextant_app, tmp_path):
    app = sextant_app("com.example.level")
    app.start_motion(interval=0)
    samples = [(0.0, 9.81, 0.0), (0.5, 9.5, 2.25), (0.0, 0.0, 9.81)]
    sextant_control.replay_start(accel_trace(tmp_path / "accel.jsonl", samples, 0.5), speed="max")
    seen = [app.next_motion() for _ in samples]
    assert all(isinstance(m, sextant.Motion) for m in seen)
    assert [(m.x, m.y, m.z) for m in seen] == samples
    assert [m.time for m in seen] == ["2026-03-01T08:00:00.000Z", "2026-03-01T08:00:00.500Z", "2026-03-01T08:00:01.000Z"]
    app.stop_motion()


def test_motion_held_by_hand(sextant_control, sextant_app):
    """O4a: an acceleration held by hand is heard as motion, as a replayed one is."""
    app = sextant_app("com.example.level")
    app.start_motion()
    sextant_control.set_acceleration(1, 2, 9)
    held = app.next_motion()
    assert (held.x, held.y, held.z) == (1, 2, 9)


def test_motion_interval_out_of_range_is_refused(sextant_app):
    app = sextant_app("com.example.level")
    with pytest.raises(sextant.ProtocolError) as refused:
        app.start_motion(interval=-1)
    assert refused.value.code == -32602
    assert "interval" in str(refused.value)
