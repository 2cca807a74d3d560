"""light.start and proximity.start through the client: typed events from a replayed trace
and from values held by hand (sextant-rules(7) E1–E3; the background rule E3 is tested in
process, Tests/SextantServerTests/EnvironmentHubTests.swift)."""

import sextant


def environment_trace(path, samples, step):
    """One light and one proximity reading every ``step`` seconds."""
    lines = ['{"sextant":"trace","version":1,"start":"2026-03-01T08:00:00.000Z"}']
    for i, (lux, near) in enumerate(samples):
        lines.append('{"t":%r,"light":{"lux":%r}}' % (i * step, lux))
        lines.append('{"t":%r,"prox":{"near":%d}}' % (i * step, near))
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def test_light_and_proximity_on_change_from_a_replay(sextant_control, sextant_app, tmp_path):
    # Two apps: waiting for one kind of event passes over the other kind.
    app = sextant_app("com.example.reader")
    pocket = sextant_app("com.example.pocket")
    app.start_light()
    pocket.start_proximity()
    samples = [(100.0, 0), (100.0, 0), (250.0, 1), (0.0, 1)]
    sextant_control.replay_start(environment_trace(tmp_path / "env.jsonl", samples, 0.5), speed="max")
    lights = [app.next_light() for _ in range(3)]
    assert all(isinstance(light, sextant.Light) for light in lights)
    assert [light.lux for light in lights] == [100.0, 250.0, 0.0]
    assert [light.time for light in lights] == ["2026-03-01T08:00:00.000Z", "2026-03-01T08:00:01.000Z", "2026-03-01T08:00:01.500Z"]
    nears = [pocket.next_proximity() for _ in range(2)]
    assert [(p.near, p.time) for p in nears] == [(False, "2026-03-01T08:00:00.000Z"), (True, "2026-03-01T08:00:01.000Z")]
    app.stop_light()
    pocket.stop_proximity()


def test_light_and_proximity_held_by_hand(sextant_control, sextant_app):
    app = sextant_app("com.example.reader")
    app.start_light()
    sextant_control.set_light(320)
    assert app.next_light().lux == 320
    app.start_proximity()
    sextant_control.set_proximity(True)
    assert app.next_proximity().near is True
    status = sextant_control.status()
    assert status.raw["light"]["lux"] == 320 and status.raw["proximity"]["near"] is True
    sextant_control.release_light()
    sextant_control.release_proximity()
    assert sextant_control.status().raw["light"] is None


def test_altimeter_derived_from_a_replayed_climb(sextant_control, sextant_app, tmp_path):
    """B2: no barometer in the trace: the pressure comes from the fixes' altitude."""
    app = sextant_app("com.example.hike")
    app.start_altimeter()
    lines = ['{"sextant":"trace","version":1,"start":"2026-03-01T08:00:00.000Z"}']
    for i in range(4):
        lines.append('{"t":%d,"location":{"lat":48.85,"lon":2.29,"alt":%d,"vAcc":3}}' % (i, 100 + 5 * i))
    (tmp_path / "climb.jsonl").write_text("\n".join(lines) + "\n")
    sextant_control.replay_start(str(tmp_path / "climb.jsonl"), speed="max")
    seen = [app.next_altitude() for _ in range(4)]
    assert all(isinstance(a, sextant.Altitude) and a.derived for a in seen)
    assert [a.relative_altitude for a in seen] == [0, 5, 10, 15]
    assert 100.0 < seen[0].pressure < 101.325
    app.stop_altimeter()
