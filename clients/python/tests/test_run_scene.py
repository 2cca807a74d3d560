"""A trace that waits for the test (sextant-rules(7) T1) and the daemon `sextantctl run`
made, as the client and its pytest plugin use them (issue 24.2)."""

import json
import time

import pytest

import sextant
from sextant import Daemon, RunDaemon
from sextant.daemon import parse_grant

MAPS = "com.example.maps"


def test_a_daemons_trace_waits_for_the_first_location_request(trace_file):
    with Daemon(trace=trace_file(count=50), speed="max", grants=[MAPS + ":always"]) as daemon:
        with daemon.control() as control:
            waiting = control.replay_status()
            assert (waiting.state, waiting.events, waiting.raw.get("waitingForRequest")) == ("paused", 0, True)
            assert control.permissions()[0].status == "authorizedAlways"
        with daemon.app(MAPS) as app:
            app.start_location()  # the trace starts here, at max, paced by this app
            fixes = [app.wait_for("location") for _ in range(50)]
    assert fixes[0]["lat"] == 48.0 and fixes[-1]["lat"] == pytest.approx(48.0049)


def test_run_daemon_sets_back_runs_scene(monkeypatch, tmp_path, trace_file, sextant_daemon, sextant_control):
    scenario = tmp_path / "scenario.jsonl"
    scenario.write_text('{"t":1,"control":{"method":"services.set","params":{"enabled":false}}}\n')
    scene = {"trace": trace_file(count=10), "speed": "max", "loop": False, "services": True, "promptPolicy": None,
             "grants": [{"app": MAPS, "always": False, "approximate": True}], "scenario": str(scenario)}
    monkeypatch.setenv("SEXTANT_RUNTIME_DIR", sextant_daemon.runtime_dir)
    monkeypatch.setenv("SEXTANT_RUN_SCENE", json.dumps(scene))
    sextant_control.grant("com.example.other")
    sextant_control.set_services(False)
    sextant_control.rotate("landscapeLeft")
    sextant_control.set_heading(45)

    shared = RunDaemon.from_environment()
    shared.restore_scene()

    assert [(p.app, p.accuracy) for p in sextant_control.permissions()] == [(MAPS, "reduced")]
    status = sextant_control.status()
    assert status.services_enabled and status.raw["replay"]["waitingForRequest"] is True
    assert status.raw["replay"]["path"] == scene["trace"]
    assert status.raw["held"] == [], "nothing held by hand"
    sextant_control.replay_resume(until=2)
    deadline = time.monotonic() + 10
    while sextant_control.replay_status().state != "paused" and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not sextant_control.status().services_enabled, "run's scenario played with run's trace"


def test_a_bad_scene_or_grant_is_named(monkeypatch, tmp_path):
    monkeypatch.setenv("SEXTANT_RUNTIME_DIR", str(tmp_path))
    monkeypatch.setenv("SEXTANT_RUN_SCENE", "{not json")
    with pytest.raises(sextant.DaemonStartError) as caught:
        RunDaemon.from_environment()
    assert "SEXTANT_RUN_SCENE" in str(caught.value)
    with pytest.raises(ValueError) as refused:
        parse_grant(MAPS + ":sometimes")
    assert "com.example.maps:sometimes" in str(refused.value)
