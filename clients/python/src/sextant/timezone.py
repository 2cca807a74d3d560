"""The device's time zone (sextant-rules(7) Z1-Z10; sextant-protocol(7), "Time zone"):
the :class:`TimeZone` value and the methods :class:`~sextant.App` and
:class:`~sextant.Control` get for it. No location authorization is needed (Z7)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Dict, Optional

from . import _protocol as wire
from .connection import DEFAULT_TIMEOUT, Event


@dataclass(frozen=True)
class TimeZone:
    """The device's zone: ``zone`` an IANA id (``Europe/Lisbon``; ``Etc/GMT+2`` at sea), None
    while none is known (no fix yet, no table); ``utc_offset`` seconds east of UTC and
    ``is_dst`` at ``time`` (the deciding fix's time); ``automatic`` False while a zone set by
    hand wins (Z9). ``previous`` and ``reason`` (``first``, ``zoneChanged``, ``offsetChanged``,
    ``manual``, ``automatic``) only in events."""

    zone: Optional[str]
    utc_offset: Optional[int]
    is_dst: Optional[bool]
    time: Optional[str]
    automatic: bool
    previous: Optional[str] = None
    reason: Optional[str] = None

    @classmethod
    def from_json(cls, p: Dict[str, Any]) -> "TimeZone":
        return cls(p.get("zone"), p.get("utcOffset"), p.get("isDST"), p.get("time"), bool(p.get("automatic")),
                   p.get("previous"), p.get("reason"))

    @classmethod
    def from_event(cls, event: Event) -> "TimeZone":
        if event.method != wire.EVENT_TIME_ZONE:
            raise ValueError("not a timeZone event: %s" % event)
        return cls.from_json(event.params)


class AppTimeZone:
    """:class:`~sextant.App`'s time-zone methods (``self.connection``, ``self.wait_for``)."""

    connection: Any
    wait_for: Callable[..., Event]

    def time_zone(self) -> TimeZone:
        """``timeZone.get``: the zone now."""
        return TimeZone.from_json(self.connection.call(wire.METHOD_TIME_ZONE_GET))

    def start_time_zone(self) -> TimeZone:
        """``timeZone.start``: ``timeZone`` events from now on; answers the zone now."""
        return TimeZone.from_json(self.connection.call(wire.METHOD_TIME_ZONE_START))

    def stop_time_zone(self) -> None:
        """``timeZone.stop``."""
        self.connection.call(wire.METHOD_TIME_ZONE_STOP)

    def next_time_zone(
        self, predicate: Optional[Callable[[TimeZone], bool]] = None, timeout: Optional[float] = DEFAULT_TIMEOUT
    ) -> TimeZone:
        """The next ``timeZone`` event (for which ``predicate`` holds), typed."""
        event = self.wait_for(
            wire.EVENT_TIME_ZONE, None if predicate is None else (lambda e: predicate(TimeZone.from_event(e))), timeout
        )
        return TimeZone.from_event(event)


class ControlTimeZone:
    """:class:`~sextant.Control`'s time-zone methods (``self.call``)."""

    call: Callable[..., Any]

    def set_time_zone(self, zone: Optional[str]) -> TimeZone:
        """``timeZone.set``: a zone by hand, stored, which wins over the position's (Z9);
        None follows the position again. An unknown zone is ProtocolError -32602."""
        return TimeZone.from_json(self.call(wire.METHOD_TIME_ZONE_SET, {"zone": zone}))

    def time_zone(self) -> Dict[str, Any]:
        """The zone as ``status`` gives it, with ``table`` (path, data version) or None."""
        return self.call(wire.METHOD_STATUS).get("timeZone", {})
