"""One connection to a daemon's socket: JSON-RPC 2.0, one JSON object a line.

Requests carry ids and their answers may come in any order; events (notifications) that
arrive while waiting are kept, in order, until read. Every wait takes a deadline."""

from __future__ import annotations

import collections
import json
import os
import select
import socket
import stat
import struct
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Deque, Dict, Iterator, List, Optional

from .errors import ConnectionClosed, DaemonNotRunning, EventTimeout, ProtocolError, SextantError, UntrustedDaemon

#: How long a request waits for its answer unless told otherwise, in seconds.
DEFAULT_TIMEOUT = 10.0


def default_runtime_dir() -> str:
    """The daemon's runtime directory, as sextantd and sextantctl choose it:
    ``$SEXTANT_RUNTIME_DIR``, else ``/run/sextant`` for root, else
    ``$XDG_RUNTIME_DIR/sextant``. Without either variable there is no safe guess (a shared
    directory such as /tmp could hold another user's socket): :class:`SextantError`."""
    chosen = os.environ.get("SEXTANT_RUNTIME_DIR")
    if chosen:
        return chosen
    if os.getuid() == 0:
        return "/run/sextant"
    base = os.environ.get("XDG_RUNTIME_DIR")
    if not base:
        raise SextantError("no runtime directory: set SEXTANT_RUNTIME_DIR or XDG_RUNTIME_DIR, or pass runtime_dir")
    return base + "/sextant"


def _placed_by_root(path: str) -> bool:
    """Whether the socket at path belongs to root and no one but root can change any
    directory on the way to it (docs/security.md): a system daemon that systemd started
    under a user of its own, on sockets systemd made."""
    try:
        info = os.lstat(path)
        if not stat.S_ISSOCK(info.st_mode) or info.st_uid != 0:
            return False
        directory = os.path.realpath(os.path.dirname(os.path.abspath(path)))
        while True:
            info = os.stat(directory)
            if info.st_uid != 0 or info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
                return False
            if directory == "/":
                return True
            directory = os.path.dirname(directory)
    except OSError:
        return False


@dataclass(frozen=True)
class Event:
    """An event (JSON-RPC notification) from the daemon: ``method`` and ``params``."""

    method: str
    params: Dict[str, Any] = field(default_factory=dict)

    def __getitem__(self, key: str) -> Any:
        return self.params[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.params.get(key, default)

    @property
    def simulated(self) -> Optional[bool]:
        """For a ``location`` or ``significantChange`` event, whether software made the fix (sextant-rules(7) N7:
        iOS ``isSimulatedBySoftware``, Android ``isMock``); None for any other event."""
        return self.params.get("simulated") if self.method in ("location", "significantChange") else None

    def __str__(self) -> str:
        return "%s %s" % (self.method, json.dumps(self.params, sort_keys=True))


class Connection:
    """A connection to ``path`` (app.sock or control.sock). Use it from one thread."""

    def __init__(self, path: str):
        self.path = path
        self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            self._socket.connect(path)
        except FileNotFoundError:
            self._socket.close()
            raise DaemonNotRunning(path, "no such socket") from None
        except ConnectionRefusedError:
            self._socket.close()
            raise DaemonNotRunning(path, "nothing accepts connections there") from None
        except OSError as error:
            self._socket.close()
            raise DaemonNotRunning(path, error.strerror or str(error)) from None
        # Only a daemon of this user, or root, or one on a socket root put there (a system
        # service's) is trusted: never a socket someone else planted.
        pid, uid, _ = struct.unpack("3i", self._socket.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i")))
        if uid not in (os.getuid(), 0) and not _placed_by_root(path):
            self._socket.close()
            raise UntrustedDaemon(path, uid, pid)
        self._buffer = b""
        self._next_id = 0
        self._answers: Dict[int, Dict[str, Any]] = {}
        self._events: Deque[Event] = collections.deque()
        #: Every event read so far, newest last (the last 1000), for failure reports.
        self.history: Deque[Event] = collections.deque(maxlen=1000)
        self._farewell: Optional[ProtocolError] = None
        self._closed = False

    def close(self) -> None:
        """Closes the connection (an app's session ends with it)."""
        if not self._closed:
            self._closed = True
            self._socket.close()

    def shutdown(self) -> None:
        """Ends the connection for a reader in another thread: its wait sees the connection
        closed (``close`` from another thread would leave it waiting on a closed descriptor)."""
        try:
            self._socket.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def read_available(self) -> None:
        """Reads what has arrived, without waiting: events land in ``history`` and wait to be read."""
        self._read_available()

    def __enter__(self) -> "Connection":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # Requests

    def send(self, method: str, params: Optional[Dict[str, Any]] = None) -> int:
        """Sends a request without waiting; returns its id."""
        self._next_id += 1
        message: Dict[str, Any] = {"jsonrpc": "2.0", "id": self._next_id, "method": method}
        if params is not None:
            message["params"] = params
        data = (json.dumps(message, separators=(",", ":")) + "\n").encode()
        try:
            self._socket.sendall(data)
        except (BrokenPipeError, ConnectionResetError):
            self._read_available()
            raise ConnectionClosed(self.path, self._farewell) from None
        return self._next_id

    def response(self, request_id: int, method: str = "", timeout: Optional[float] = DEFAULT_TIMEOUT) -> Any:
        """Waits for the answer to request ``request_id``; None as timeout waits as long as
        the connection is open. Raises :class:`ProtocolError` for an error answer."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while request_id not in self._answers:
            if self._farewell is not None:
                raise self._farewell
            self._read(deadline, "the answer to %s" % (method or "request %d" % request_id))
        answer = self._answers.pop(request_id)
        if "error" in answer:
            error = answer["error"]
            raise ProtocolError(error.get("code", 0), error.get("message", ""), error.get("data"), method)
        return answer.get("result")

    def has_response(self, request_id: int) -> bool:
        """Whether the answer to ``request_id`` has arrived (reads what is there, never waits)."""
        self._read_available()
        return request_id in self._answers

    def call(self, method: str, params: Optional[Dict[str, Any]] = None, timeout: Optional[float] = DEFAULT_TIMEOUT) -> Any:
        """Sends a request and returns its result; events meanwhile are kept."""
        return self.response(self.send(method, params), method, timeout)

    # Events

    def next_event(self, timeout: Optional[float] = DEFAULT_TIMEOUT) -> Event:
        """The next event, waiting up to ``timeout`` seconds (None: no limit)."""
        return self.wait_for(None, timeout=timeout)

    def wait_for(
        self,
        method: Optional[str],
        predicate: Optional[Callable[[Event], bool]] = None,
        timeout: Optional[float] = DEFAULT_TIMEOUT,
    ) -> Event:
        """The first event named ``method`` (any, if None) for which ``predicate`` holds.
        Events passed over are dropped (they stay in ``history``). Raises
        :class:`~sextant.EventTimeout`, listing the events seen, when none comes in time."""
        deadline = None if timeout is None else time.monotonic() + timeout
        seen: List[Event] = []
        what = "a %s event" % method if method else "an event"
        while True:
            while self._events:
                event = self._events.popleft()
                seen.append(event)
                if (method is None or event.method == method) and (predicate is None or predicate(event)):
                    return event
            try:
                self._read(deadline, what)
            except EventTimeout:
                raise EventTimeout(what, timeout, seen) from None

    def events(self, idle_timeout: Optional[float] = None) -> Iterator[Event]:
        """Yields events as they come; ends when none arrives for ``idle_timeout`` seconds
        (None: only when the connection closes)."""
        while True:
            try:
                yield self.next_event(timeout=idle_timeout)
            except EventTimeout:
                return
            except ConnectionClosed:
                return

    def pending_events(self) -> List[Event]:
        """The events that have arrived and not been read, without waiting; they are read now."""
        self._read_available()
        events = list(self._events)
        self._events.clear()
        return events

    # Reading

    def _read_available(self) -> None:
        try:
            self._read(time.monotonic(), "")
        except (EventTimeout, ConnectionClosed):
            pass

    def _read(self, deadline: Optional[float], what: str) -> None:
        """Reads at least one line, or what is there at the deadline."""
        if self._take_lines():
            return
        if self._closed:
            raise ConnectionClosed(self.path, self._farewell)
        remaining = None if deadline is None else max(0.0, deadline - time.monotonic())
        readable, _, _ = select.select([self._socket], [], [], remaining)
        if not readable:
            raise EventTimeout(what, None if deadline is None else remaining, [])
        try:
            chunk = self._socket.recv(65536)
        except ConnectionResetError:
            chunk = b""
        if not chunk:
            self.close()
            raise ConnectionClosed(self.path, self._farewell)
        self._buffer += chunk
        self._take_lines()

    def _take_lines(self) -> bool:
        took = False
        while b"\n" in self._buffer:
            line, self._buffer = self._buffer.split(b"\n", 1)
            took = True
            try:
                message = json.loads(line)
            except ValueError:
                continue
            if not isinstance(message, dict):
                continue
            if "method" in message and "id" not in message:
                params = message.get("params")
                event = Event(message["method"], params if isinstance(params, dict) else {})
                self._events.append(event)
                self.history.append(event)
            elif message.get("id") is None and "error" in message:
                # An error about the connection itself (1007 forbidden), before it closes.
                error = message["error"]
                self._farewell = ProtocolError(error.get("code", 0), error.get("message", ""), error.get("data"))
            elif isinstance(message.get("id"), int):
                self._answers[message["id"]] = message
        return took
