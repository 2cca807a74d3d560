"""What the daemon published during a test, as ``sextantctl watch`` sees it: every event sent
to an app (with ``app`` and ``session``), every published fix, prompts, sessions and the
replay, each with the wall-clock time it arrived, for the report of a failing test."""

from __future__ import annotations

import collections
import threading
import time
from typing import Deque, List, Optional, Tuple

from .connection import Connection, Event
from .errors import SextantError
from . import _protocol as wire

#: The events kept: the newest, so that a long test's record stays bounded.
LIMIT = 5000


class WatchRecorder:
    """A ``watch`` connection read by a thread of its own into a bounded record."""

    def __init__(self, connection: Connection, limit: int = LIMIT):
        self.started = time.time()
        self._connection = connection
        self._events: Deque[Tuple[float, Event]] = collections.deque(maxlen=limit)
        self._changed = threading.Condition()
        self.dropped = 0
        self.ended: Optional[str] = None
        self._thread = threading.Thread(target=self._read, name="sextant-watch-recorder", daemon=True)
        self._thread.start()

    @classmethod
    def start(cls, runtime_dir: str, limit: int = LIMIT) -> "WatchRecorder":
        """Watches every topic of the daemon at ``runtime_dir``; returns once subscribed."""
        connection = Connection(runtime_dir + "/control.sock")
        try:
            connection.call(wire.METHOD_WATCH, {"topics": []})
        except BaseException:
            connection.close()
            raise
        return cls(connection, limit)

    def _read(self) -> None:
        while True:
            try:
                event = self._connection.next_event(timeout=None)
            except (SextantError, OSError, ValueError) as error:
                with self._changed:
                    self.ended = str(error)
                    self._changed.notify_all()
                return
            with self._changed:
                if len(self._events) == self._events.maxlen:
                    self.dropped += 1
                self._events.append((time.time(), event))
                self._changed.notify_all()

    def events(self) -> List[Tuple[float, Event]]:
        """The events recorded so far, oldest first, with the time each arrived."""
        with self._changed:
            return list(self._events)

    @property
    def seen(self) -> int:
        """How many events arrived, those dropped included."""
        with self._changed:
            return len(self._events) + self.dropped

    def wait_until_seen(self, count: int, timeout: float) -> bool:
        """Whether ``count`` events arrived within ``timeout`` seconds (False at once if the watch ended)."""
        with self._changed:
            return self._changed.wait_for(lambda: len(self._events) + self.dropped >= count or self.ended is not None, timeout) \
                and len(self._events) + self.dropped >= count

    def stop(self) -> None:
        """Ends the watch and its thread."""
        self._connection.shutdown()
        self._thread.join(5)
        self._connection.close()
