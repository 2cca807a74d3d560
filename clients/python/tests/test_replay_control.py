"""Replay control (pause, resume, seek, step, until) and `watch` by app: the client's side
of methods the daemon gains in issue 11. Each test asks the daemon first and is skipped,
saying so, while the daemon answers -32601 (method not found) or ignores the parameter."""

import pytest

import sextant


def needs(control, method, params=None):
    try:
        control.call(method, params)
    except sextant.ProtocolError as error:
        if error.code == -32601:
            pytest.skip("this sextantd has no %s yet" % method)


def test_pause_resume_seek_and_step(sextant_control, trace_file):
    path = trace_file(count=100, step=1.0)
    sextant_control.replay_start(path, speed=1)
    needs(sextant_control, "replay.pause")
    paused = sextant_control.replay_status()
    sought = sextant_control.replay_seek(50)
    assert sought.position == pytest.approx(50, abs=0.001)
    stepped = sextant_control.replay_step(3)
    assert stepped.events >= paused.events + 3
    assert sextant_control.replay_resume().state == "running"


def test_start_until_pauses_there(sextant_control, trace_file):
    path = trace_file(count=100, step=1.0)
    sextant_control.replay_start(path, speed="max", until=30)
    with sextant_control.watch(["replay"]) as watch:
        status = sextant_control.replay_status()
        if status.state == "finished":
            pytest.skip("this sextantd ignores replay.start's until")
        if status.position < 30:
            watch.wait_for("replay", lambda e: e.get("position", 0) >= 30, timeout=20)
    assert sextant_control.replay_status().position == pytest.approx(30, abs=0.001)


def test_watch_by_app_sees_only_what_that_app_received(sextant_control, sextant_app):
    # The same change makes an unknown topic an error: that tells this daemon has it.
    try:
        sextant_control.watch(["no-such-topic"]).close()
        pytest.skip("this sextantd does not check watch's topics, nor filter by app, yet")
    except sextant.ProtocolError as error:
        assert error.code == -32602
    sextant_control.grant("com.example.a")
    sextant_control.grant("com.example.b")
    a = sextant_app("com.example.a")
    b = sextant_app("com.example.b")
    a.start_location()
    b.start_location()
    with sextant_control.watch(["location"], app="com.example.a") as watch:
        sextant_control.set_location(1, 2)
        b.wait_for("location")
        sextant_control.set_location(3, 4)
        b.wait_for("location")
        a.wait_for("location", lambda e: e["lat"] == 3)
        seen = [watch.wait_for("location"), watch.wait_for("location")]
        assert [e.get("app") for e in seen] == ["com.example.a", "com.example.a"]
        watch.connection.call("status")  # a round trip on the watching connection: all sent is read
        assert watch.connection.pending_events() == []
