"""satellites.start through the client: the sky a replayed trace carries, and the one the
daemon makes up beside fixes without one (sextant-rules(7) N8)."""


def sky_walk(path):
    """Two fixes a second apart; a sky of two satellites between them."""
    lines = [
        '{"sextant":"trace","version":1,"start":"2026-03-01T08:00:00.000Z"}',
        '{"t":0,"location":{"lat":48.85,"lon":2.29}}',
        '{"t":0.5,"sky":{"satellites":[{"constellation":"gps","svid":5,"el":41.5,"az":130,"cn0":38.5,"used":true},'
        '{"constellation":"galileo","svid":11,"el":12,"az":300,"cn0":27,"used":false}]}}',
        '{"t":1,"location":{"lat":48.8501,"lon":2.29}}',
    ]
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def test_start_satellites_hears_the_traces_sky_only_while_authorized_with_full_accuracy(sextant_control, sextant_app, tmp_path):
    app = sextant_app("com.example.sky")
    app.start_satellites()
    sextant_control.grant("com.example.sky")
    sextant_control.replay_start(sky_walk(tmp_path / "sky.jsonl"), speed="max")
    # The first fix's second has a made-up sky (the trace's own comes after it); then the trace's.
    own = app.wait_for("satellites", lambda e: e.params["inView"] == 2)
    assert own.params["used"] == 1
    assert own.params["satellites"][0] == {
        "constellation": "gps", "svid": 5, "prn": 5, "el": 41.5, "az": 130, "cn0": 38.5, "used": True,
    }
    assert own.params["time"] == "2026-03-01T08:00:00.500Z"
    app.stop_satellites()
