"""The device's clock (docs/platforms.md, "Device clock", RULES C1-C10): the
:class:`DeviceClock` value and :class:`~sextant.Control`'s ``time_*`` methods. Only the
control side moves the device's time; timers the daemon decided (an Allow Once grant's
60 s in the background, a ``location.once``'s 30 s) fire at once when it passes them."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable, Dict, Union

from . import _protocol as wire

_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
_DURATION = re.compile(r"^([0-9]+(?:\.[0-9]+)?)([smhd]?)$")


@dataclass(frozen=True)
class DeviceClock:
    """The device's clock: ``wall`` (RFC 3339, like every stamp), ``offset_seconds`` the
    device's wall minus the host's, ``monotonic_seconds`` the device's monotonic clock and
    ``monotonic_offset_seconds`` how far it runs ahead of the host's (never less: C2)."""

    wall: str
    offset_seconds: float
    monotonic_seconds: float
    monotonic_offset_seconds: float

    @classmethod
    def from_json(cls, p: Dict[str, Any]) -> "DeviceClock":
        return cls(p["wall"], p["offsetSeconds"], p["monotonicSeconds"], p["monotonicOffsetSeconds"])


def duration_seconds(duration: Union[int, float, str]) -> float:
    """Seconds from a number, or a duration as sextantctl reads one: ``61s``, ``15m``,
    ``2h``, ``90d`` (a bare number is seconds)."""
    if isinstance(duration, (int, float)) and not isinstance(duration, bool):
        return float(duration)
    match = _DURATION.match(str(duration))
    if not match:
        raise ValueError("a duration is a number with s, m, h or d (61s, 15m, 2h, 90d), not %r" % (duration,))
    return float(match.group(1)) * _UNITS[match.group(2) or "s"]


class ControlClock:
    """:class:`~sextant.Control`'s clock methods (``self.call``)."""

    call: Callable[..., Any]

    def time_get(self) -> DeviceClock:
        """``time.get``: the device's clock."""
        return DeviceClock.from_json(self.call(wire.METHOD_TIME_GET))

    def time_advance(self, seconds: Union[int, float, str]) -> DeviceClock:
        """``time.advance``: both clocks move forward (C3); the timers due fire before it
        returns (C6). ``seconds`` is a number or a duration such as ``"90d"``."""
        return DeviceClock.from_json(self.call(wire.METHOD_TIME_ADVANCE, {"seconds": duration_seconds(seconds)}))

    def time_set(self, wall: str) -> DeviceClock:
        """``time.set``: the wall clock reads ``wall`` (RFC 3339); earlier moves only the wall,
        later the monotonic clock too (C4). A bad time is ProtocolError -32602."""
        return DeviceClock.from_json(self.call(wire.METHOD_TIME_SET, {"wall": wall}))

    def time_reset(self) -> DeviceClock:
        """``time.reset``: the wall clock is the host's again (C5)."""
        return DeviceClock.from_json(self.call(wire.METHOD_TIME_RESET))
