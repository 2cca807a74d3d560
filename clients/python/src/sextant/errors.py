"""Exceptions raised by the Sextant client.

Every exception derives from :class:`SextantError`. Errors the daemon answers with carry
the protocol's ``code`` and ``message`` (sextant-protocol(7), "Errors")."""

from __future__ import annotations

from typing import Any, Iterable, Optional

from ._protocol import ERROR_NAMES


class SextantError(Exception):
    """Base class of every error of this package."""


class ProtocolError(SextantError):
    """The daemon answered a request with an error.

    Attributes: ``code`` (an int such as 1001), ``name`` (``"notAuthorized"``),
    ``message`` (the daemon's words) and ``data`` (extra detail, or None)."""

    def __init__(self, code: int, message: str, data: Any = None, method: Optional[str] = None):
        self.code = code
        self.name = ERROR_NAMES.get(code, "error")
        self.message = message
        self.data = data
        self.method = method
        where = " to %s" % method if method else ""
        super().__init__("sextantd answered%s with error %d (%s): %s" % (where, code, self.name, message))


class DaemonNotRunning(SextantError, ConnectionError):
    """No daemon listens on the socket (it is missing, or nothing accepts on it)."""

    def __init__(self, path: str, reason: str):
        self.path = path
        self.reason = reason
        super().__init__(
            "cannot connect to %s: %s (is sextantd running? set SEXTANT_RUNTIME_DIR or pass runtime_dir)" % (path, reason)
        )


class UntrustedDaemon(SextantError, ConnectionError):
    """The socket is served by a process of another user (not root): refused, since it may
    have been put where the daemon's was expected."""

    def __init__(self, path: str, uid: int, pid: int):
        self.path = path
        self.uid = uid
        self.pid = pid
        super().__init__("refusing %s: it is served by pid %d of uid %d, neither you nor root, on a socket root did not put there" % (path, pid, uid))


class ConnectionClosed(SextantError, ConnectionError):
    """The daemon closed the connection. ``reason`` is the error it sent first, if it said
    why (for example 1007 forbidden on the control socket), else None."""

    def __init__(self, path: str, reason: Optional[ProtocolError] = None):
        self.path = path
        self.reason = reason
        why = "; it said: %s" % reason.message if reason else " without saying why (did it stop?)"
        super().__init__("sextantd closed the connection on %s%s" % (path, why))


class EventTimeout(SextantError, TimeoutError):
    """An awaited event or answer did not come in time. ``seen`` lists the events that
    did arrive meanwhile, newest last."""

    def __init__(self, what: str, timeout: Optional[float], seen: Iterable[Any] = ()):
        self.what = what
        self.seen = list(seen)
        lines = "\n".join("  %s" % event for event in self.seen[-30:]) or "  (none)"
        super().__init__("waited %ss for %s; events seen meanwhile:\n%s" % (timeout, what, lines))


class DaemonStartError(SextantError):
    """A private daemon (:class:`sextant.Daemon`) did not start. ``log`` is its log."""

    def __init__(self, message: str, log: str = ""):
        self.log = log
        tail = "\n".join(log.splitlines()[-20:])
        super().__init__("%s\nsextantd log (tail):\n%s" % (message, tail) if tail else message)
