"""deviceMotion.start through the client (sextant-rules(7) D1–D6; the rules themselves are
tested in process, Tests/SextantServerTests/DeviceMotionHubTests.swift): the fused attitude
of a phone held by hand, and a gyroscope held by hand heard as its rate."""

import math

import pytest

import sextant


def test_device_motion_from_held_readings(sextant_control, sextant_app):
    """Face up, top to magnetic north (a Paris field), turning left at 1 rad/s by hand: the
    rotation vector starts at north, the rate is the held one, gravity is up."""
    app = sextant_app("com.example.skymap")
    app.start_device_motion(interval=0, reference_frame="rotationVector")
    sextant_control.set_acceleration(0, 0, 9.80665)
    sextant_control.set_magnetic_field(0, 21, -42)
    sextant_control.set_rotation_rate(0, 0, 1)
    motion = app.next_device_motion(lambda m: m.rotation_rate is not None)
    assert isinstance(motion, sextant.DeviceMotion)
    assert motion.reference_frame == "rotationVector"
    assert motion.rotation_rate == (0, 0, 1)
    assert math.isclose(motion.gravity[2], 9.80665, abs_tol=1e-6)
    w, x, y, z = motion.attitude
    assert math.isclose(w * w + x * x + y * y + z * z, 1, abs_tol=1e-9)
    sextant_control.release_rotation_rate()
    app.stop_device_motion()


def test_device_motion_unknown_frame_is_refused(sextant_app):
    app = sextant_app("com.example.skymap")
    with pytest.raises(sextant.ProtocolError) as refused:
        app.start_device_motion(reference_frame="xUpZNorth")
    assert refused.value.code == -32602
    assert "referenceFrame" in str(refused.value)
