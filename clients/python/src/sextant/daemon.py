"""A private sextantd for one test, as ``sextantctl run`` starts it."""

from __future__ import annotations

import json
import os
import select
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from typing import Any, Dict, List, Optional, Sequence, Union

from .app import App
from .control import Control
from .errors import DaemonStartError, SextantError


def find_sextantd(explicit: Optional[str] = None) -> str:
    """The sextantd to run: ``explicit``, else ``$SEXTANT_BIN``, else the first on ``PATH``."""
    chosen = explicit or os.environ.get("SEXTANT_BIN") or shutil.which("sextantd")
    if not chosen:
        raise DaemonStartError("cannot find sextantd: pass its path, set SEXTANT_BIN, or put it on PATH")
    if not os.access(chosen, os.X_OK):
        raise DaemonStartError("%s is not an executable file" % chosen)
    return chosen


def read_log(path: str) -> str:
    """A daemon's log file as it is now; empty before it exists."""
    try:
        with open(path, encoding="utf-8", errors="replace") as log:
            return log.read()
    except FileNotFoundError:
        return ""


class DaemonAccess:
    """What tests use of a daemon, whoever started it: its log, control and app
    connections. A subclass gives ``runtime_dir`` and ``log()``."""

    runtime_dir: str

    def log(self) -> str:
        raise NotImplementedError

    def log_tail(self, lines: int = 30) -> str:
        return "\n".join(self.log().splitlines()[-lines:])

    def control(self) -> Control:
        """A new control connection."""
        return Control(self.runtime_dir)

    def app(
        self, app_id: str, orientations: Optional[Sequence[str]] = None, state: Optional[str] = None, declarations: Optional[Dict[str, Any]] = None
    ) -> App:
        """A new app session (hello said, with the app's ``declarations``: see :meth:`App.hello`)."""
        return App(app_id, self.runtime_dir, orientations=orientations, state=state, declarations=declarations)


class Daemon(DaemonAccess):
    """A private ``sextantd`` on a fresh temporary directory: an ephemeral store, no gpsd,
    no IIO sensors (``iio=True`` reads those udev lists, e.g. a umockdev testbed's).

    Use it as a context manager, or call :meth:`start` and :meth:`stop`. ``start`` returns
    once the daemon has said ``READY=1`` on a ``NOTIFY_SOCKET`` this object owns, or raises
    :class:`~sextant.DaemonStartError` with the daemon's log.

    Options mirror ``sextantd``'s: ``trace`` with ``speed`` (a factor or ``"max"``) and
    ``loop``, replayed as under ``sextantctl run``: paused at its start until the first
    location request of an app (or ``control().replay_resume()``), so that a test's app
    gets it from its first fix; ``profile`` (``phone``, ``tablet``, ``foldable``);
    ``prompt_policy`` with ``approximate``; ``allow_once_timeout`` (seconds an Allow Once
    grant survives in the background, 60 on a phone); ``grants``, each
    ``APP[:always][:approximate]`` as ``sextantctl run --grant`` takes it; ``platform``
    (``ios``, ``android``) with ``android_api`` (docs/platforms.md PF1); ``args`` for
    anything else."""

    def __init__(
        self,
        sextantd: Optional[str] = None,
        trace: Optional[str] = None,
        speed: Union[float, str, None] = None,
        loop: bool = False,
        profile: Optional[str] = None,
        prompt_policy: Optional[str] = None,
        approximate: bool = False,
        allow_once_timeout: Optional[float] = None,
        iio: bool = False,
        grants: Sequence[str] = (),
        env: Optional[Dict[str, str]] = None,
        args: Sequence[str] = (),
        ready_timeout: float = 60.0,
        platform: Optional[str] = None,
        android_api: Optional[int] = None,
    ):
        self.sextantd = find_sextantd(sextantd)
        self.arguments: List[str] = []
        self.trace = os.path.abspath(trace) if trace is not None else None
        self.speed: Union[float, str] = speed if speed is not None else 1
        self.loop = loop
        self.grants = [parse_grant(spec) for spec in grants]
        if profile is not None:
            self.arguments += ["--profile", profile]
        if prompt_policy is not None:
            self.arguments += ["--prompt-policy", prompt_policy]
            if approximate:
                self.arguments.append("--approximate")
        if allow_once_timeout is not None:
            self.arguments += ["--allow-once-timeout", str(allow_once_timeout)]
        if platform is not None:
            self.arguments += ["--platform", platform]
        if android_api is not None:
            self.arguments += ["--android-api", str(android_api)]
        self.arguments.append("--no-gpsd")
        if not iio:
            self.arguments.append("--no-iio")
        self.arguments += list(args)
        self.env = env
        self.ready_timeout = ready_timeout
        self.directory: Optional[str] = None
        self.process: Optional["subprocess.Popen[bytes]"] = None

    # Life

    @property
    def runtime_dir(self) -> str:
        """Where app.sock and control.sock are."""
        if self.directory is None:
            raise RuntimeError("the daemon is not started")
        return self.directory + "/run"

    @property
    def log_path(self) -> str:
        """The daemon's log file (standard output and error), in its directory."""
        if self.directory is None:
            raise RuntimeError("the daemon is not started")
        return self.directory + "/sextantd.log"

    def start(self) -> "Daemon":
        """Starts the daemon and waits for its READY=1."""
        self.directory = tempfile.mkdtemp(prefix="sextant-py-")
        os.mkdir(self.runtime_dir, 0o700)
        notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        notify.bind(self.directory + "/notify.sock")
        env = dict(os.environ if self.env is None else self.env)
        env["NOTIFY_SOCKET"] = self.directory + "/notify.sock"
        env["TMPDIR"] = self.directory  # the ephemeral store goes with the directory
        command = [self.sextantd, "--runtime-dir", self.runtime_dir, "--ephemeral"] + self.arguments
        try:
            with open(self.log_path, "ab") as log:
                self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=log, stderr=log, env=env)
            self._wait_ready(notify)
            self._set_scene()
        except BaseException:
            self.stop()
            raise
        finally:
            notify.close()
        return self

    def _wait_ready(self, notify: socket.socket) -> None:
        assert self.process is not None
        deadline = time.monotonic() + self.ready_timeout
        while time.monotonic() < deadline:
            # Short slices only to notice a daemon that died without a word.
            readable, _, _ = select.select([notify], [], [], 0.1)
            if readable and b"READY=1" in notify.recv(4096).split(b"\n"):
                return
            if self.process.poll() is not None:
                raise DaemonStartError("sextantd exited at start with status %d" % self.process.returncode, self.log())
        raise DaemonStartError("sextantd did not say READY=1 within %ss" % self.ready_timeout, self.log())

    def _set_scene(self) -> None:
        """The grants, then the trace, as ``sextantctl run`` sets them once the daemon is ready."""
        if self.trace is None and not self.grants:
            return
        try:
            with self.control() as control:
                set_scene(control, self.grants, self.trace, self.speed, self.loop)
        except SextantError as error:
            raise DaemonStartError("sextantd refused the grants or the trace %s: %s" % (self.trace, error), self.log())

    def stop(self) -> Optional[int]:
        """SIGTERM, up to 10 s for a clean stop, then SIGKILL; removes the directory.
        Returns the daemon's exit status."""
        status = None
        if self.process is not None:
            if self.process.poll() is None:
                self.process.send_signal(signal.SIGTERM)
                try:
                    self.process.wait(10)
                except subprocess.TimeoutExpired:
                    self.process.kill()
                    self.process.wait()
            status = self.process.returncode
        if self.directory is not None:
            self._last_log = self.log()
            shutil.rmtree(self.directory, ignore_errors=True)
            self.directory = None
        return status

    @property
    def running(self) -> bool:
        """Whether the daemon's process is alive."""
        return self.process is not None and self.process.poll() is None

    def __enter__(self) -> "Daemon":
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    # What tests use

    def log(self) -> str:
        """The daemon's log so far (after :meth:`stop`, as it was at the end)."""
        if self.directory is None:
            return getattr(self, "_last_log", "")
        return read_log(self.log_path)


SCENE_VARIABLE = "SEXTANT_RUN_SCENE"


def parse_grant(spec: str) -> Dict[str, Any]:
    """``APP[:always][:approximate]``, as ``sextantctl run --grant`` takes it."""
    app, *words = spec.split(":")
    unknown = [word for word in words if word not in ("always", "approximate")]
    if not app or unknown:
        raise ValueError("grant %r: APP[:always][:approximate]" % spec)
    return {"app": app, "always": "always" in words, "approximate": "approximate" in words}


def set_scene(
    control: Control, grants: Sequence[Dict[str, Any]], trace: Optional[str], speed: Any, loop: bool, scenario: Optional[str] = None,
) -> None:
    """The grants, then the trace (with its scenario) waiting for the first location request
    (sextant-rules(7) T1): what ``sextantctl run`` sets up before its command starts."""
    for grant in grants:
        control.grant(grant["app"], always=bool(grant.get("always")), approximate=bool(grant.get("approximate")))
    if trace:
        control.replay_start(trace, speed=speed, loop=loop, start_on_request=True, scenario=scenario)


class RunDaemon(DaemonAccess):
    """The daemon ``sextantctl run`` started for this test run, found through
    ``SEXTANT_RUNTIME_DIR``: the same methods as :class:`Daemon`, but it is run's to start
    and stop. ``scene`` is what run set up (``SEXTANT_RUN_SCENE``: its trace with speed and
    loop, its grants, Location Services, the prompt policy), or None for a daemon started
    some other way."""

    def __init__(self, runtime_dir: str, log_path: Optional[str] = None, scene: Optional[Dict[str, Any]] = None):
        self.runtime_dir = runtime_dir
        self.log_path = log_path
        self.scene = scene

    @classmethod
    def from_environment(cls) -> Optional["RunDaemon"]:
        """The daemon ``sextantctl run`` made, if this process runs under it."""
        runtime_dir = os.environ.get("SEXTANT_RUNTIME_DIR")
        if not runtime_dir:
            return None
        scene_text = os.environ.get(SCENE_VARIABLE)
        try:
            scene = json.loads(scene_text) if scene_text else None
        except ValueError as error:
            raise DaemonStartError("%s is not JSON (%s): %r" % (SCENE_VARIABLE, error, scene_text))
        return cls(runtime_dir, os.environ.get("SEXTANT_DAEMON_LOG") or None, scene)

    def start(self) -> "RunDaemon":
        return self

    def stop(self) -> Optional[int]:
        return None

    @property
    def running(self) -> bool:
        """Whether run's daemon still serves its control socket."""
        return os.path.exists(os.path.join(self.runtime_dir, "control.sock"))

    def restore_scene(self) -> None:
        """Sets the daemon back to what run set up, for a test of its own: permissions,
        Location Services and the prompt policy as run left them, nothing held by hand, no
        rotation lock, and run's trace from its start, waiting for the test's first
        location request. Without a scene, nothing is changed."""
        if self.scene is None:
            return
        with self.control() as control:
            control.reset_permissions()
            control.set_services(bool(self.scene.get("services", True)))
            control.set_prompt_policy(self.scene.get("promptPolicy") or "ask")
            control.release_acceleration()
            control.release_hinge()
            control.release_magnetic_field()
            control.release_heading()
            control.set_rotation_lock(False)
            if not self.scene.get("trace"):
                control.replay_stop()
            scene = self.scene
            set_scene(
                control, scene.get("grants") or [], scene.get("trace"), scene.get("speed", 1), bool(scene.get("loop")),
                scene.get("scenario"))

    def log(self) -> str:
        """The daemon's log so far (``SEXTANT_DAEMON_LOG``), or empty when unknown."""
        return read_log(self.log_path) if self.log_path else ""
