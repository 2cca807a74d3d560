"""The README's example, run as it is written there, so that the README stays true."""


def test_a_revoke_mid_walk_stops_locations(sextant_control, sextant_app):
    sextant_control.grant("com.example.maps")
    app = sextant_app("com.example.maps")
    app.start_location()
    sextant_control.replay_start("Traces/demo-walk.jsonl", speed="max", until=30)  # pauses at t = 30 s
    sextant_control.replay_wait(timeout=30)
    sextant_control.revoke("com.example.maps")
    assert app.wait_for("authorization")["status"] == "denied"
