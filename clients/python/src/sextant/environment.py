"""The ambient light and proximity sensors (sextant-rules(7) E1–E4): typed events for apps,
and values held by hand for the control side."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Optional

from . import _protocol as wire
from .connection import DEFAULT_TIMEOUT, Event


@dataclass(frozen=True)
class Light:
    """A ``light`` event (E1, E2): the illuminance in lux, sent on change."""

    lux: float
    time: str

    @classmethod
    def from_event(cls, event: Event) -> "Light":
        if event.method != wire.EVENT_LIGHT:
            raise ValueError("not a light event: %s" % event)
        return cls(event.params["lux"], event.params["time"])


@dataclass(frozen=True)
class Proximity:
    """A ``proximity`` event (E1, E2): whether something is near the screen, sent on change."""

    near: bool
    time: str

    @classmethod
    def from_event(cls, event: Event) -> "Proximity":
        if event.method != wire.EVENT_PROXIMITY:
            raise ValueError("not a proximity event: %s" % event)
        return cls(event.params["near"], event.params["time"])


@dataclass(frozen=True)
class Altitude:
    """An ``altitude`` event (B1–B3): ``relative_altitude`` (m since the stream's first
    event) and ``pressure`` (kPa) as CMAltitudeData; ``altitude`` and ``accuracy`` (m) as
    CMAbsoluteAltitudeData, None without location authorization; ``derived`` when the
    pressure came from the fix's altitude."""

    relative_altitude: float
    pressure: float
    altitude: Optional[float]
    accuracy: Optional[float]
    derived: bool
    time: str

    @classmethod
    def from_event(cls, event: Event) -> "Altitude":
        if event.method != wire.EVENT_ALTITUDE:
            raise ValueError("not an altitude event: %s" % event)
        p = event.params
        return cls(p["relativeAltitude"], p["pressure"], p.get("altitude"), p.get("accuracy"), p["derived"], p["time"])


class AppEnvironment:
    """An app's light and proximity streams; mixed into :class:`sextant.App`."""

    connection: Any
    wait_for: Callable[..., Event]

    def start_light(self) -> None:
        """``light.start``: ``light`` events on change, in the foreground (E3)."""
        self.connection.call(wire.METHOD_LIGHT_START)

    def stop_light(self) -> None:
        """``light.stop``."""
        self.connection.call(wire.METHOD_LIGHT_STOP)

    def next_light(self, predicate: Optional[Callable[[Light], bool]] = None, timeout: Optional[float] = DEFAULT_TIMEOUT) -> Light:
        """The next ``light`` event (for which ``predicate`` holds), typed."""
        test = None if predicate is None else (lambda e: predicate(Light.from_event(e)))
        return Light.from_event(self.wait_for(wire.EVENT_LIGHT, test, timeout))

    def start_proximity(self) -> None:
        """``proximity.start``: ``proximity`` events on change, in the foreground (E3)."""
        self.connection.call(wire.METHOD_PROXIMITY_START)

    def stop_proximity(self) -> None:
        """``proximity.stop``."""
        self.connection.call(wire.METHOD_PROXIMITY_STOP)

    def next_proximity(
        self, predicate: Optional[Callable[[Proximity], bool]] = None, timeout: Optional[float] = DEFAULT_TIMEOUT
    ) -> Proximity:
        """The next ``proximity`` event (for which ``predicate`` holds), typed."""
        test = None if predicate is None else (lambda e: predicate(Proximity.from_event(e)))
        return Proximity.from_event(self.wait_for(wire.EVENT_PROXIMITY, test, timeout))


    def start_altimeter(self) -> None:
        """``altimeter.start``: ``altitude`` events about once a second, in the foreground."""
        self.connection.call(wire.METHOD_ALTIMETER_START)

    def stop_altimeter(self) -> None:
        """``altimeter.stop``."""
        self.connection.call(wire.METHOD_ALTIMETER_STOP)

    def next_altitude(self, timeout: Optional[float] = DEFAULT_TIMEOUT) -> Altitude:
        """The next ``altitude`` event, typed."""
        return Altitude.from_event(self.wait_for(wire.EVENT_ALTITUDE, None, timeout))


class ControlEnvironment:
    """Light and proximity held by hand; mixed into :class:`sextant.Control`."""

    call: Callable[..., Any]

    def set_light(self, lux: float) -> None:
        """Hold the ambient light sensor at ``lux``."""
        self.call(wire.METHOD_DEVICE_SET, {"light": lux})

    def release_light(self) -> None:
        """Give the light sensor back to a replay or the live sensor."""
        self.call(wire.METHOD_DEVICE_SET, {"light": None})

    def set_proximity(self, near: bool) -> None:
        """Hold the proximity sensor near (True) or far."""
        self.call(wire.METHOD_DEVICE_SET, {"proximity": near})

    def release_proximity(self) -> None:
        """Give the proximity sensor back to a replay or the live sensor."""
        self.call(wire.METHOD_DEVICE_SET, {"proximity": None})
