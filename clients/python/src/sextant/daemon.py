"""A private sextantd for one test, as ``sextantctl run`` starts it."""

from __future__ import annotations

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
from .errors import DaemonStartError


def find_sextantd(explicit: Optional[str] = None) -> str:
    """The sextantd to run: ``explicit``, else ``$SEXTANT_BIN``, else the first on ``PATH``."""
    chosen = explicit or os.environ.get("SEXTANT_BIN") or shutil.which("sextantd")
    if not chosen:
        raise DaemonStartError("cannot find sextantd: pass its path, set SEXTANT_BIN, or put it on PATH")
    if not os.access(chosen, os.X_OK):
        raise DaemonStartError("%s is not an executable file" % chosen)
    return chosen


class Daemon:
    """A private ``sextantd`` on a fresh temporary directory: an ephemeral store, no gpsd,
    no IIO sensors (``iio=True`` reads those udev lists, e.g. a umockdev testbed's).

    Use it as a context manager, or call :meth:`start` and :meth:`stop`. ``start`` returns
    once the daemon has said ``READY=1`` on a ``NOTIFY_SOCKET`` this object owns, or raises
    :class:`~sextant.DaemonStartError` with the daemon's log.

    Options mirror ``sextantd``'s: ``trace`` (replayed from the start) with ``speed``
    (a factor or ``"max"``) and ``loop``; ``profile`` (``phone``, ``tablet``, ``foldable``);
    ``prompt_policy`` with ``approximate``; ``allow_once_timeout`` (seconds an Allow Once
    grant survives in the background, 60 on a phone); ``args`` for anything else."""

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
        env: Optional[Dict[str, str]] = None,
        args: Sequence[str] = (),
        ready_timeout: float = 60.0,
    ):
        self.sextantd = find_sextantd(sextantd)
        self.arguments: List[str] = []
        if trace is not None:
            self.arguments += ["--replay", os.path.abspath(trace)]
            if speed is not None:
                self.arguments += ["--speed", str(speed)]
            if loop:
                self.arguments.append("--loop")
        if profile is not None:
            self.arguments += ["--profile", profile]
        if prompt_policy is not None:
            self.arguments += ["--prompt-policy", prompt_policy]
            if approximate:
                self.arguments.append("--approximate")
        if allow_once_timeout is not None:
            self.arguments += ["--allow-once-timeout", str(allow_once_timeout)]
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
        try:
            with open(self.log_path, encoding="utf-8", errors="replace") as log:
                return log.read()
        except FileNotFoundError:
            return ""

    def log_tail(self, lines: int = 30) -> str:
        return "\n".join(self.log().splitlines()[-lines:])

    def control(self) -> Control:
        """A new control connection."""
        return Control(self.runtime_dir)

    def app(self, app_id: str, orientations: Optional[Sequence[str]] = None, state: Optional[str] = None) -> App:
        """A new app session (hello said)."""
        return App(app_id, self.runtime_dir, orientations=orientations, state=state)
