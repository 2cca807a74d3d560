"""Replay control (pause, resume, seek, step, until) and `watch` by app, through the client."""

import pytest

import sextant


def test_pause_resume_seek_and_step(sextant_control, trace_file):
    path = trace_file(count=100, step=1.0)
    sextant_control.replay_start(path, speed=1)
    paused = sextant_control.replay_pause()
    assert paused.state == "paused"
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
        if status.position < 30:
            watch.wait_for("replay", lambda e: e.get("position", 0) >= 30, timeout=20)
    status = sextant_control.replay_status()
    assert (status.state, status.position) == ("paused", pytest.approx(30, abs=0.001))


def test_watch_by_app_sees_only_what_that_app_received(sextant_control, sextant_app):
    with pytest.raises(sextant.ProtocolError) as unknown:
        sextant_control.watch(["no-such-topic"])
    assert unknown.value.code == -32602
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
