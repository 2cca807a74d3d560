"""The client against a real sextantd: each call mapped to its protocol method, errors
with the daemon's code and message, and the waits that tests lean on."""

import os
import socket
import time

import pytest

import sextant
from sextant import App, Control, Daemon


def test_hello_and_authorization_through_a_prompt(sextant_daemon, sextant_control):
    app = sextant_daemon.app("com.example.maps")
    assert app.hello_result["protocol"] == 1
    assert app.authorization() == sextant.Authorization("notDetermined", "full")
    pending = app.request_authorization_async("whenInUse")
    prompt = sextant_control.wait_for_prompt(app="com.example.maps")
    assert (prompt.app, prompt.kind, prompt.level) == ("com.example.maps", "authorization", "whenInUse")
    assert not pending.done()
    answer = sextant_control.answer_prompt(prompt, "allowWhileUsing", approximate=True)
    assert answer["status"] == "authorizedWhenInUse"
    assert pending.result() == sextant.Authorization("authorizedWhenInUse", "reduced")
    event = app.wait_for("authorization")
    assert event["status"] == "authorizedWhenInUse"
    assert sextant_control.permissions()[0].accuracy == "reduced"
    app.close()


def test_location_events_and_location_once(sextant_daemon, sextant_control):
    sextant_control.grant("com.example.run")
    app = sextant_daemon.app("com.example.run")
    app.start_location()
    sextant_control.set_location(-33.8568, 151.2153, hAcc=3)
    fix = app.wait_for("location")
    assert (fix["lat"], fix["lon"], fix["hAcc"]) == (-33.8568, 151.2153, 3)
    assert sextant_control.status().location["lat"] == -33.8568


def test_n7_a_hand_set_fix_says_it_is_simulated_and_a_gnss_profile_moves_it(sextant_daemon, sextant_control):
    sextant_control.grant("com.example.mock")
    app = sextant_daemon.app("com.example.mock")
    app.start_location()
    sextant_control.set_location(48.85837, 2.29448, hAcc=3)
    fix = app.wait_for("location")
    assert fix.simulated is True and fix["simulated"] is True
    assert sextant_control.set_gnss_profile("open-sky", seed=7) == {"profile": "open-sky", "seed": 7, "simulatedFlag": "auto"}
    # open-sky's hot start (N4): no fix for the first second of hand-set fixes, then fixes.
    deadline = time.monotonic() + 10
    moved = None
    while moved is None and time.monotonic() < deadline:
        sextant_control.set_location(48.85837, 2.29448, hAcc=3)
        try:
            moved = app.wait_for("location", timeout=0.2)
        except sextant.EventTimeout:
            pass
    assert moved is not None, "no fix within 10 s of hand-set fixes under open-sky"
    assert moved.simulated is True and moved["hAcc"] != 3 and moved["lat"] != 48.85837
    assert sextant_control.status().raw["gnss"]["profile"] == "open-sky"
    assert sextant_control.set_gnss_profile("off")["profile"] is None


def test_protocol_errors_carry_code_and_message(sextant_daemon, sextant_control):
    app = sextant_daemon.app("com.example.denied")
    with pytest.raises(sextant.ProtocolError) as caught:
        app.location_once()
    assert caught.value.code == 1001 and caught.value.name == "notAuthorized"
    assert "location.once" in str(caught.value)
    with pytest.raises(sextant.ProtocolError) as caught:
        sextant_control.answer_prompt("no-such-prompt", "allowOnce")
    assert caught.value.code == 1005
    with pytest.raises(sextant.ProtocolError) as caught:
        sextant_control.set_permission("com.example.x", "sometimes")
    assert caught.value.code == -32602 and caught.value.message


def test_a_missing_socket_names_its_path(tmp_path):
    with pytest.raises(sextant.DaemonNotRunning) as caught:
        Control(str(tmp_path))
    assert str(tmp_path / "control.sock") in str(caught.value)
    assert isinstance(caught.value, ConnectionError)


def test_a_socket_nobody_accepts_on(tmp_path):
    path = tmp_path / "app.sock"
    stale = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    stale.bind(str(path))
    stale.close()  # the file stays, as after a daemon killed with -9
    with pytest.raises(sextant.DaemonNotRunning) as caught:
        App("com.example.app", str(tmp_path))
    assert "nothing accepts" in str(caught.value)


def test_the_daemon_stopping_closes_the_connection_without_a_reason():
    daemon = Daemon().start()
    app = daemon.app("com.example.closing")
    daemon.stop()
    with pytest.raises(sextant.ConnectionClosed) as caught:
        app.next_event(timeout=10)
    assert caught.value.reason is None
    assert "without saying why" in str(caught.value)


def test_wait_for_times_out_listing_the_events_seen(sextant_daemon, sextant_control):
    sextant_control.grant("com.example.waiting")
    app = sextant_daemon.app("com.example.waiting")
    app.start_location()
    sextant_control.set_location(10, 20)
    with pytest.raises(sextant.EventTimeout) as caught:
        app.wait_for("location", lambda e: e["lat"] == 99, timeout=1)
    assert isinstance(caught.value, TimeoutError)
    assert [e.method for e in caught.value.seen] == ["location"]
    assert '"lat": 10' in str(caught.value)


@pytest.mark.sextant(profile="foldable", prompt_policy="allowAlways")
def test_the_marker_configures_the_daemon(sextant_control):
    status = sextant_control.status()
    assert status.raw["profile"] == "foldable"
    assert status.raw["promptPolicy"]["mode"] == "allowAlways"


def test_rotate_waits_for_the_judge(sextant_control):
    sextant_control.rotate("landscapeLeft")
    assert sextant_control.status().device_orientation == "landscapeLeft"
    sextant_control.rotate("landscapeLeft")  # already there: returns at once
    sextant_control.rotate("faceUp")  # 500 ms of settling
    assert sextant_control.status().device_orientation == "faceUp"


def test_replay_at_max_and_replay_wait(sextant_daemon, sextant_control, trace_file):
    path = trace_file(count=50)
    sextant_control.replay_start(path, speed="max")
    done = sextant_control.replay_wait(timeout=30)
    assert (done.state, done.events, done.path) == ("finished", 50, path)


def test_reset_puts_back_the_defaults(sextant_control):
    sextant_control.grant("com.example.a")
    sextant_control.set_services(False)
    sextant_control.set_prompt_policy("dontAllow")
    sextant_control.reset()
    status = sextant_control.status()
    assert sextant_control.permissions() == []
    assert status.services_enabled and status.raw["promptPolicy"]["mode"] == "ask"


def test_a_daemon_that_cannot_start_says_why(tmp_path):
    with pytest.raises(sextant.DaemonStartError) as caught:
        Daemon(trace=str(tmp_path / "missing.jsonl")).start()
    assert "missing.jsonl" in str(caught.value)


def test_runtime_dir_follows_sextant_runtime_dir(monkeypatch, sextant_daemon):
    monkeypatch.setenv("SEXTANT_RUNTIME_DIR", sextant_daemon.runtime_dir)
    with Control() as control:
        assert control.status().sessions == 0


@pytest.mark.skipif(os.getuid() != 0, reason="needs root to serve a socket as another user")
def test_a_socket_served_by_another_user_is_refused():
    import shutil
    import tempfile

    directory = tempfile.mkdtemp(prefix="sextant-planted-")
    os.chmod(directory, 0o777)
    ready_read, ready_write = os.pipe()
    pid = os.fork()
    if pid == 0:  # a socket planted by "nobody", where control.sock is expected
        try:
            os.setgid(65534)
            os.setuid(65534)
            server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            server.bind(directory + "/control.sock")
            server.listen(1)
            os.write(ready_write, b"x")
            server.accept()
        finally:
            os._exit(0)
    try:
        assert os.read(ready_read, 1) == b"x"
        with pytest.raises(sextant.UntrustedDaemon) as caught:
            Control(directory)
        assert caught.value.uid == 65534 and "neither you nor root" in str(caught.value)
    finally:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        shutil.rmtree(directory)


@pytest.mark.skipif(os.getuid() != 0, reason="needs root, to make a socket as systemd does")
def test_a_socket_root_placed_is_trusted_from_another_uid():
    """As under systemd's DynamicUser=: root made the socket in a directory only root may
    change; the daemon listening on it runs as another uid (docs/security.md)."""
    import shutil
    import uuid

    from sextant.connection import _placed_by_root

    directory = "/run/sextant-pytest-" + uuid.uuid4().hex[:8]
    os.mkdir(directory, 0o755)
    os.chmod(directory, 0o755)
    try:
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.bind(directory + "/control.sock")
        assert _placed_by_root(directory + "/control.sock")
        os.chmod(directory, 0o775)  # its group may now swap the socket
        assert not _placed_by_root(directory + "/control.sock")
        os.chmod(directory, 0o755)
        os.chown(directory + "/control.sock", 65534, 65534)  # a file another user could have bound
        assert not _placed_by_root(directory + "/control.sock")
        listener.close()
    finally:
        shutil.rmtree(directory)


def test_no_runtime_dir_to_guess(monkeypatch):
    monkeypatch.delenv("SEXTANT_RUNTIME_DIR", raising=False)
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
    if os.getuid() == 0:
        assert sextant.default_runtime_dir() == "/run/sextant"
    else:
        with pytest.raises(sextant.SextantError, match="no runtime directory"):
            sextant.default_runtime_dir()


def test_regions_monitor_wait_for_stop_and_the_control_side(sextant_daemon, sextant_control):
    sextant_control.grant("com.example.shop", always=True)
    app = sextant_daemon.app("com.example.shop")
    app.monitor_region("shop", 48.0, 2.0, 100, notify_initial_state=True)
    sextant_control.set_location(48.01, 2.0)
    first = app.wait_for("region")
    assert (first["identifier"], first["transition"], first["state"]) == ("shop", "state", "outside")
    sextant_control.set_location(48.0, 2.0)
    assert app.wait_for("region", lambda e: e["transition"] == "enter")["state"] == "inside"
    assert app.region_state("shop") == "inside"
    assert [(r["identifier"], r["state"]) for r in app.regions()] == [("shop", "inside")]
    sextant_control.add_region("com.example.shop", "home", 48.1, 2.0, 50, loitering_delay=60)
    assert [(r["app"], r["identifier"], r.get("loiteringDelay")) for r in sextant_control.regions()] == [
        ("com.example.shop", "shop", None),
        ("com.example.shop", "home", 60),
    ]
    assert app.stop_monitoring_region("shop") is True
    assert sextant_control.remove_region("com.example.shop", "home") is True
    assert app.regions() == []
    with pytest.raises(sextant.ProtocolError) as refused:
        app.monitor_region("tiny", 48.0, 2.0, 0.5)
    assert refused.value.code == -32602 and "radius" in str(refused.value)
    sextant_control.set_permission("com.example.shop", "authorizedAlways", accuracy="reduced")
    with pytest.raises(sextant.ProtocolError) as unavailable:
        app.monitor_region("shop", 48.0, 2.0, 100)
    assert (unavailable.value.code, unavailable.value.name) == (1012, "regionMonitoringUnavailable")
    app.close()
