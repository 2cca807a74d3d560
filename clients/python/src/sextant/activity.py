"""Activity and steps on the app socket (sextant-rules(7) A1–A9): Core Motion's
``CMMotionActivityManager`` and ``CMPedometer``, Android's activity transitions."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Sequence

from . import _protocol as wire
from .connection import DEFAULT_TIMEOUT, Connection, Event


@dataclass(frozen=True)
class Activity:
    """An ``activity`` event (A1–A5, A9), as ``CMMotionActivity``: ``types`` are not
    exclusive (a car at a light is ``["stationary", "automotive"]``; empty is unknown);
    ``confidence`` is ``low``, ``medium`` or ``high``, ``percent`` Android's 0–100;
    ``source`` is ``derived``, ``recorded`` or ``hand``."""

    types: List[str]
    confidence: str
    percent: int
    start_date: str
    source: str

    @classmethod
    def from_json(cls, p: Dict[str, Any]) -> "Activity":
        return cls(list(p["types"]), p["confidence"], p["percent"], p["startDate"], p["source"])

    @classmethod
    def from_event(cls, event: Event) -> "Activity":
        if event.method != wire.EVENT_ACTIVITY:
            raise ValueError("not an activity event: %s" % event)
        return cls.from_json(event.params)


@dataclass(frozen=True)
class ActivityTransition:
    """An ``activityTransition`` event (A6), as Android's ``ActivityTransitionEvent``:
    ``transition`` is ``enter`` or ``exit``; ``time`` may lie before the event (an activity
    is entered after its delay, A3)."""

    activity: str
    transition: str
    time: str
    elapsed_realtime_nanos: int

    @classmethod
    def from_event(cls, event: Event) -> "ActivityTransition":
        if event.method != wire.EVENT_ACTIVITY_TRANSITION:
            raise ValueError("not an activityTransition event: %s" % event)
        p = event.params
        return cls(p["activity"], p["transition"], p["time"], p["elapsedRealtimeNanos"])


@dataclass(frozen=True)
class Pedometer:
    """A ``pedometer`` event or a ``pedometer.query`` answer (A7), as ``CMPedometerData``:
    whole steps, metres, cadence in steps/s and pace in s/m (None in a query, and when
    still)."""

    start_date: str
    end_date: str
    number_of_steps: int
    distance: float
    current_cadence: Optional[float]
    current_pace: Optional[float]

    @classmethod
    def from_json(cls, p: Dict[str, Any]) -> "Pedometer":
        return cls(
            p["startDate"], p["endDate"], p["numberOfSteps"], p["distance"], p.get("currentCadence"), p.get("currentPace")
        )

    @classmethod
    def from_event(cls, event: Event) -> "Pedometer":
        if event.method != wire.EVENT_PEDOMETER:
            raise ValueError("not a pedometer event: %s" % event)
        return cls.from_json(event.params)


class PendingMotionCall:
    """A motion call sent and not yet answered: a Motion & Fitness prompt or an
    ACTIVITY_RECOGNITION dialog may be open (docs/motion.md A13, A15)."""

    def __init__(self, connection: Connection, request_id: int, method: str):
        self._connection, self._id, self._method = connection, request_id, method

    def result(self, timeout: Optional[float] = DEFAULT_TIMEOUT) -> Dict[str, Any]:
        """Waits for the answer; a refusal raises :class:`~sextant.ProtocolError` (1001)."""
        return self._connection.response(self._id, self._method, timeout)


class ActivityMethods:
    """The app's activity and pedometer methods (mixed into ``App``)."""

    connection: Connection

    def activity_authorization(self) -> str:
        """``activity.authorization``: the app's Motion & Fitness status (A11)."""
        return str(self.connection.call(wire.METHOD_ACTIVITY_AUTHORIZATION)["status"])

    def start_activity(self) -> None:
        """``activity.start``: the activity now (when there is one), then each change. On an
        iPhone from ``notDetermined`` it opens the Motion & Fitness prompt and returns once
        it is answered (A13); use :meth:`start_activity_async` to answer it meanwhile."""
        self.connection.call(wire.METHOD_ACTIVITY_START)

    def start_activity_async(self) -> "PendingMotionCall":
        """The same, returning at once; ``.result()`` waits (A13)."""
        return PendingMotionCall(self.connection, self.connection.send(wire.METHOD_ACTIVITY_START), wire.METHOD_ACTIVITY_START)

    def request_motion_authorization(self, timeout: Optional[float] = DEFAULT_TIMEOUT) -> str:
        """``activity.requestAuthorization``: Android's ``requestPermissions(ACTIVITY_RECOGNITION)``
        (A15), on an iPhone what the first start does (A13); the status once decided."""
        return self.request_motion_authorization_async().result(timeout)["status"]

    def request_motion_authorization_async(self) -> "PendingMotionCall":
        """The same, returning at once; ``.result()`` waits for the dialog's answer."""
        method = wire.METHOD_ACTIVITY_REQUEST_AUTHORIZATION
        return PendingMotionCall(self.connection, self.connection.send(method), method)

    def stop_activity(self) -> None:
        """``activity.stop``."""
        self.connection.call(wire.METHOD_ACTIVITY_STOP)

    def next_activity(
        self, predicate: Optional[Callable[[Activity], bool]] = None, timeout: Optional[float] = DEFAULT_TIMEOUT
    ) -> Activity:
        """The next ``activity`` event (for which ``predicate`` holds), typed."""
        test = None if predicate is None else (lambda e: predicate(Activity.from_event(e)))
        return Activity.from_event(self.connection.wait_for(wire.EVENT_ACTIVITY, test, timeout))

    def start_activity_transitions(
        self, types: Optional[Sequence[str]] = None, transitions: Optional[Sequence[str]] = None
    ) -> None:
        """``activity.transitions.start``: ``activityTransition`` events for ``types`` (all
        when None) and ``transitions`` (``enter`` and ``exit`` when None)."""
        params: Dict[str, Any] = {}
        if types is not None:
            params["types"] = list(types)
        if transitions is not None:
            params["transitions"] = list(transitions)
        self.connection.call(wire.METHOD_ACTIVITY_TRANSITIONS_START, params)

    def stop_activity_transitions(self) -> None:
        """``activity.transitions.stop``."""
        self.connection.call(wire.METHOD_ACTIVITY_TRANSITIONS_STOP)

    def next_activity_transition(
        self, predicate: Optional[Callable[[ActivityTransition], bool]] = None, timeout: Optional[float] = DEFAULT_TIMEOUT
    ) -> ActivityTransition:
        """The next ``activityTransition`` event (for which ``predicate`` holds), typed."""
        test = None if predicate is None else (lambda e: predicate(ActivityTransition.from_event(e)))
        return ActivityTransition.from_event(self.connection.wait_for(wire.EVENT_ACTIVITY_TRANSITION, test, timeout))

    def query_activity(self, start: str, end: str) -> List[Activity]:
        """``activity.query``: the activities begun between two RFC 3339 times (7 days kept)."""
        answer = self.connection.call(wire.METHOD_ACTIVITY_QUERY, {"from": start, "to": end})
        return [Activity.from_json(entry) for entry in answer["activities"]]

    def start_pedometer(self) -> None:
        """``pedometer.start``: ``pedometer`` events counted from now."""
        self.connection.call(wire.METHOD_PEDOMETER_START)

    def stop_pedometer(self) -> None:
        """``pedometer.stop``."""
        self.connection.call(wire.METHOD_PEDOMETER_STOP)

    def next_pedometer(
        self, predicate: Optional[Callable[[Pedometer], bool]] = None, timeout: Optional[float] = DEFAULT_TIMEOUT
    ) -> Pedometer:
        """The next ``pedometer`` event (for which ``predicate`` holds), typed."""
        test = None if predicate is None else (lambda e: predicate(Pedometer.from_event(e)))
        return Pedometer.from_event(self.connection.wait_for(wire.EVENT_PEDOMETER, test, timeout))

    def query_pedometer(self, start: str, end: str) -> Pedometer:
        """``pedometer.query``: the steps and distance between two RFC 3339 times."""
        return Pedometer.from_json(self.connection.call(wire.METHOD_PEDOMETER_QUERY, {"from": start, "to": end}))
