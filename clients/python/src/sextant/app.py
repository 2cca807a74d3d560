"""An app's side of the protocol: the app socket (sextant-protocol(7), "App socket")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple

from . import _protocol as wire
from .activity import ActivityMethods
from .connection import DEFAULT_TIMEOUT, Connection, Event, default_runtime_dir
from .timezone import AppTimeZone
from .environment import AppEnvironment
from .diagnostics import AppDiagnostics


@dataclass(frozen=True)
class Authorization:
    """An app's authorization: ``status`` (``notDetermined``, ``restricted``, ``denied``,
    ``authorizedWhenInUse``, ``authorizedAlways``) and ``accuracy`` (``full``/``reduced``).
    On an Android phone also ``grants`` (``{"coarse": "granted", "fine": "denied",
    "background": ...}``) and ``one_time`` ("Only this time"); None on an iPhone."""

    status: str
    accuracy: str
    grants: Optional[Dict[str, str]] = None
    one_time: Optional[bool] = None

    @property
    def authorized(self) -> bool:
        """Whether the status lets the app receive locations at all."""
        return self.status in ("authorizedWhenInUse", "authorizedAlways")

    @classmethod
    def from_json(cls, value: Dict[str, Any]) -> "Authorization":
        return cls(value.get("status", ""), value.get("accuracy", ""), value.get("grants"), value.get("oneTime"))


@dataclass(frozen=True)
class Visit:
    """A ``visit`` event (sextant-rules(7) V1–V5), as ``CLVisit``: where the device stayed
    (``latitude``, ``longitude``, ``horizontal_accuracy`` in metres; reduced when
    ``accuracy`` is ``reduced``), ``arrival`` and ``departure`` (RFC 3339 times;
    ``departure`` is None while the device is still there)."""

    latitude: float
    longitude: float
    horizontal_accuracy: float
    arrival: str
    departure: Optional[str]
    accuracy: str

    @property
    def is_arrival(self) -> bool:
        """Whether this is an arrival (no departure yet)."""
        return self.departure is None

    @classmethod
    def from_event(cls, event: Event) -> "Visit":
        """The visit a ``visit`` event carries; ValueError for any other event."""
        if event.method != wire.EVENT_VISIT:
            raise ValueError("not a visit event: %s" % event)
        p = event.params
        return cls(p["lat"], p["lon"], p["hAcc"], p["arrival"], p.get("departure"), p.get("accuracy", ""))


@dataclass(frozen=True)
class Heading:
    """A ``heading`` event (sextant-rules(7) H1–H8), as Core Location's ``CLHeading``:
    degrees clockwise from north of the top of the app's interface."""

    magnetic: float
    true: Optional[float]
    """Absent (None) while the app may not have locations (H8)."""
    accuracy: Optional[float]
    field: Optional[Dict[str, float]]
    """µT in the device frame, when the heading came from a magnetometer."""
    time: str

    @classmethod
    def from_event(cls, event: Event) -> "Heading":
        if event.method != wire.EVENT_HEADING:
            raise ValueError("not a heading event: %s" % event)
        p = event.params
        return cls(p["magnetic"], p.get("true"), p.get("accuracy"), p.get("field"), p["time"])


@dataclass(frozen=True)
class Motion:
    """A ``motion`` event (sextant-rules(7) M1–M3): the accelerometer's reading, gravity
    included, in m/s² in the device frame (x to the right of the screen, y to its top, z out
    of it; face up at rest (0, 0, +9.81)), as W3C's ``accelerationIncludingGravity``."""

    x: float
    y: float
    z: float
    time: str

    @classmethod
    def from_event(cls, event: Event) -> "Motion":
        if event.method != wire.EVENT_MOTION:
            raise ValueError("not a motion event: %s" % event)
        p = event.params
        return cls(p["x"], p["y"], p["z"], p["time"])


@dataclass(frozen=True)
class DeviceMotion:
    """A ``deviceMotion`` event (sextant-rules(7) D1–D6): the fused attitude as a unit
    quaternion ``(w, x, y, z)`` rotating device-frame vectors into ``reference_frame``; the
    gyroscope's rate (rad/s, None without a gyroscope); gravity and user acceleration (m/s²,
    device frame, Android's signs: gravity face up at rest is (0, 0, +9.81))."""

    attitude: Tuple[float, float, float, float]
    reference_frame: str
    rotation_rate: Optional[Tuple[float, float, float]]
    gravity: Tuple[float, float, float]
    user_acceleration: Tuple[float, float, float]
    time: str

    @classmethod
    def from_event(cls, event: Event) -> "DeviceMotion":
        if event.method != wire.EVENT_DEVICE_MOTION:
            raise ValueError("not a deviceMotion event: %s" % event)
        p = event.params
        q = p["attitude"]

        def vector(v: Optional[Dict[str, float]]) -> Optional[Tuple[float, float, float]]:
            return None if v is None else (v["x"], v["y"], v["z"])

        return cls(
            (q["w"], q["x"], q["y"], q["z"]), p["referenceFrame"], vector(p.get("rotationRate")),
            vector(p["gravity"]), vector(p["userAcceleration"]), p["time"],  # type: ignore[arg-type]
        )


class PendingAuthorization:
    """An ``authorization.request`` sent and not yet decided (a prompt may be waiting)."""

    def __init__(self, app: "App", request_id: int):
        self._app = app
        self._id = request_id

    def done(self) -> bool:
        """Whether the daemon has decided."""
        return self._app.connection.has_response(self._id)

    def result(self, timeout: Optional[float] = DEFAULT_TIMEOUT) -> Authorization:
        """Waits for the decision."""
        return Authorization.from_json(self._app.connection.response(self._id, wire.METHOD_AUTHORIZATION_REQUEST, timeout))


class App(AppTimeZone, ActivityMethods, AppEnvironment, AppDiagnostics):
    """An app connected to ``RUNTIME-DIR/app.sock``, saying hello as ``app_id``.

    ``orientations`` lists the interface orientations it supports (all by default);
    ``state`` is ``foreground`` (default) or ``background``. The hello's result is in
    :attr:`hello_result`; ``hello=False`` connects only (call :meth:`hello` later).
    Every event the app receives is kept, in order, in :attr:`received`."""

    def __init__(
        self,
        app_id: str,
        runtime_dir: Optional[str] = None,
        orientations: Optional[Sequence[str]] = None,
        state: Optional[str] = None,
        hello: bool = True,
        declarations: Optional[Dict[str, Any]] = None,
    ):
        self.app_id = app_id
        self.runtime_dir = runtime_dir or default_runtime_dir()
        self.connection = Connection(self.runtime_dir + "/app.sock")
        self._orientations = orientations
        self._state = state
        self._declarations = dict(declarations or {})
        self.hello_result: Dict[str, Any] = {}
        if hello:
            self.hello()

    def __enter__(self) -> "App":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def close(self) -> None:
        """Ends the session."""
        self.connection.close()

    def __repr__(self) -> str:
        return "App(%r, session=%s)" % (self.app_id, self.hello_result.get("session"))

    # Requests

    def hello(self) -> Dict[str, Any]:
        """Opens the session: ``protocol``, ``session``, ``profile``, ``servicesEnabled``,
        ``authorization``, ``interfaceOrientation``, ``deviceOrientation``, ``posture``,
        ``platform`` (``ios`` or ``android``, with ``androidApi``). The app's ``declarations``
        go with it: on an iPhone its Info.plist keys as hello takes them
        (``temporaryUsageDescriptions``, ``defaultAccuracyReduced``, ``backgroundModes``;
        docs/platforms.md I9, I11, I12)."""
        params: Dict[str, Any] = dict(self._declarations)
        params["app"] = self.app_id
        if self._orientations is not None:
            params["orientations"] = list(self._orientations)
        if self._state is not None:
            params["state"] = self._state
        self.hello_result = self.connection.call(wire.METHOD_HELLO, params)
        return self.hello_result

    @property
    def session(self) -> Optional[int]:
        """The session number the daemon gave at hello."""
        return self.hello_result.get("session")

    def authorization(self) -> Authorization:
        """``authorization.get``: the app's status and accuracy now."""
        return Authorization.from_json(self.connection.call(wire.METHOD_AUTHORIZATION_GET))

    def request_authorization(
        self, level: str = "whenInUse", timeout: Optional[float] = DEFAULT_TIMEOUT, permissions: Optional[Sequence[str]] = None
    ) -> Authorization:
        """``authorization.request``; returns once decided (a pending prompt must be
        answered meanwhile, by a policy or another process; see
        :meth:`request_authorization_async` to answer it from the same test). On an Android
        phone ``permissions`` (``["coarse", "fine"]``, ``["background"]``) asks for those."""
        return self.request_authorization_async(level, permissions=permissions).result(timeout)

    def request_authorization_async(self, level: str = "whenInUse", permissions: Optional[Sequence[str]] = None) -> PendingAuthorization:
        """Sends ``authorization.request`` and returns at once; ``.result()`` waits."""
        params: Dict[str, Any] = {"permissions": list(permissions)} if permissions is not None else {"level": level}
        return PendingAuthorization(self, self.connection.send(wire.METHOD_AUTHORIZATION_REQUEST, params))

    def request_temporary_full_accuracy(self, purpose_key: str, timeout: Optional[float] = DEFAULT_TIMEOUT) -> Authorization:
        """iOS: ``authorization.requestTemporaryFullAccuracy`` for a purpose key declared at
        hello; returns once its prompt is answered (docs/platforms.md I9). Fails with
        :class:`~sextant.SextantError` 1014 ``promptDeclined`` as I10 says."""
        return self.request_temporary_full_accuracy_async(purpose_key).result(timeout)

    def request_temporary_full_accuracy_async(self, purpose_key: str) -> PendingAuthorization:
        """The same, returning at once; ``.result()`` waits."""
        request = self.connection.send(wire.METHOD_AUTHORIZATION_REQUEST_TEMPORARY_FULL_ACCURACY, {"purposeKey": purpose_key})
        return PendingAuthorization(self, request)

    def start_location(self, desired_accuracy: Optional[float] = None, distance_filter: Optional[float] = None, **request: Any) -> None:
        """``location.start``: ``location`` events from the next fix on. Other members go as
        given: on an iPhone ``allowsBackgroundLocationUpdates`` and
        ``showsBackgroundLocationIndicator`` (I8); on an Android phone the fused provider's
        request, ``priority``, ``intervalMillis``, ``minUpdateIntervalMillis``,
        ``minUpdateDistanceMeters``, ``maxUpdateDelayMillis``, ``durationMillis``,
        ``maxUpdates``, ``foregroundServiceType`` (AN34), whose batches arrive as
        ``locations`` events."""
        params: Dict[str, Any] = dict(request)
        if desired_accuracy is not None:
            params["desiredAccuracy"] = desired_accuracy
        if distance_filter is not None:
            params["distanceFilter"] = distance_filter
        self.connection.call(wire.METHOD_LOCATION_START, params)

    def stop_location(self) -> None:
        """``location.stop``."""
        self.connection.call(wire.METHOD_LOCATION_STOP)

    def location_once(self, timeout: Optional[float] = DEFAULT_TIMEOUT) -> Optional[Dict[str, Any]]:
        """``location.once``: the next fix (``lat``, ``lon``, ``time``, ``hAcc``, ...). On an
        Android phone None when no fix came within the daemon's time-out, as
        ``getCurrentLocation`` hands its consumer null (docs/platforms.md AN35); an iPhone's
        fails with error 1006 instead."""
        return self.connection.call(wire.METHOD_LOCATION_ONCE, timeout=timeout)

    def last_known_location(self) -> Optional[Dict[str, Any]]:
        """``location.lastKnown`` (Android phones only): ``getLastLocation``, the last fix the
        app may have now (coarse for an approximate grant), or None (docs/platforms.md AN33,
        AN36, AN37)."""
        return self.connection.call(wire.METHOD_LOCATION_LAST_KNOWN)

    def start_orientation(self) -> None:
        """``orientation.start``: ``deviceOrientation`` and ``interfaceOrientation`` events."""
        self.connection.call(wire.METHOD_ORIENTATION_START)

    def stop_orientation(self) -> None:
        """``orientation.stop``."""
        self.connection.call(wire.METHOD_ORIENTATION_STOP)

    def start_posture(self) -> None:
        """``posture.start``: ``posture`` events."""
        self.connection.call(wire.METHOD_POSTURE_START)

    def stop_posture(self) -> None:
        """``posture.stop``."""
        self.connection.call(wire.METHOD_POSTURE_STOP)

    def start_satellites(self) -> None:
        """``satellites.start``: ``satellites`` events (``satellites``, each with
        ``constellation``, ``svid``, ``prn``, ``el``, ``az``, ``cn0``, ``used``; ``inView``,
        ``used``, ``time``), one a second of fixes while the app may have full-accuracy
        locations (sextant-rules(7) N8)."""
        self.connection.call(wire.METHOD_SATELLITES_START)

    def stop_satellites(self) -> None:
        """``satellites.stop``."""
        self.connection.call(wire.METHOD_SATELLITES_STOP)

    def start_significant_changes(self) -> None:
        """``significantChanges.start``: a ``significantChange`` event (a location) from the
        next fix on, then each time the device has moved 500 m and 5 minutes have passed
        (sextant-rules(7) S1–S3)."""
        self.connection.call(wire.METHOD_SIGNIFICANT_CHANGES_START)

    def stop_significant_changes(self) -> None:
        """``significantChanges.stop``."""
        self.connection.call(wire.METHOD_SIGNIFICANT_CHANGES_STOP)

    def start_visits(self) -> None:
        """``visits.start``: ``visit`` events, an arrival after a stay of 5 minutes within
        100 m and a departure when the device leaves (V1–V5). :meth:`wait_for_visit` waits
        for one, typed."""
        self.connection.call(wire.METHOD_VISITS_START)

    def stop_visits(self) -> None:
        """``visits.stop``."""
        self.connection.call(wire.METHOD_VISITS_STOP)

    def wait_for_visit(self, arrival: Optional[bool] = None, timeout: Optional[float] = DEFAULT_TIMEOUT) -> Visit:
        """The next ``visit`` event as a :class:`Visit`: an arrival (``arrival=True``), a
        departure (``False``) or either (None)."""
        event = self.wait_for(
            wire.EVENT_VISIT, lambda e: arrival is None or (e.params.get("departure") is None) == arrival, timeout)
        return Visit.from_event(event)

    def monitor_region(
        self,
        identifier: str,
        lat: float,
        lon: float,
        radius: float,
        notify_on_entry: bool = True,
        notify_on_exit: bool = True,
        loitering_delay: Optional[float] = None,
        notify_initial_state: bool = False,
        hysteresis: Optional[float] = None,
    ) -> None:
        """``region.monitor``: ``region`` events (``enter``, ``exit``, ``dwell``, ``state``) for a
        circle of ``radius`` metres; the same ``identifier`` replaces the region. Answered once
        stored; needs full accuracy (a ``ProtocolError`` with code 1012 otherwise)."""
        params: Dict[str, Any] = region_params(
            identifier, lat, lon, radius, notify_on_entry, notify_on_exit, loitering_delay, notify_initial_state, hysteresis
        )
        self.connection.call(wire.METHOD_REGION_MONITOR, params)

    def stop_monitoring_region(self, identifier: str) -> bool:
        """``region.stop``: whether the app monitored such a region."""
        return bool(self.connection.call(wire.METHOD_REGION_STOP, {"identifier": identifier})["removed"])

    def regions(self) -> List[Dict[str, Any]]:
        """``region.list``: the app's regions, each with its ``state``."""
        return list(self.connection.call(wire.METHOD_REGION_LIST)["regions"])

    def region_state(self, identifier: str) -> str:
        """``region.state``: ``inside``, ``outside`` or ``unknown``."""
        return str(self.connection.call(wire.METHOD_REGION_STATE, {"identifier": identifier})["state"])

    def start_heading(self, filter: Optional[float] = None) -> None:
        """``heading.start``: ``heading`` and ``headingCalibration`` events; ``filter`` in
        degrees (iOS ``headingFilter``: 1 when None, 0 for every reading)."""
        self.connection.call(wire.METHOD_HEADING_START, {} if filter is None else {"filter": filter})

    def stop_heading(self) -> None:
        """``heading.stop``."""
        self.connection.call(wire.METHOD_HEADING_STOP)

    def next_heading(
        self, predicate: Optional[Callable[[Heading], bool]] = None, timeout: Optional[float] = DEFAULT_TIMEOUT
    ) -> Heading:
        """The next ``heading`` event (for which ``predicate`` holds), typed."""
        event = self.wait_for(
            wire.EVENT_HEADING, None if predicate is None else (lambda e: predicate(Heading.from_event(e))), timeout
        )
        return Heading.from_event(event)

    def start_motion(self, interval: Optional[float] = None) -> None:
        """``motion.start``: ``motion`` events, at most one per ``interval`` seconds of the
        readings' clock (0.1 when None, 0 for every reading), while the app is in the
        foreground (M3); no location authorization needed."""
        self.connection.call(wire.METHOD_MOTION_START, {} if interval is None else {"interval": interval})

    def stop_motion(self) -> None:
        """``motion.stop``."""
        self.connection.call(wire.METHOD_MOTION_STOP)

    def next_motion(
        self, predicate: Optional[Callable[[Motion], bool]] = None, timeout: Optional[float] = DEFAULT_TIMEOUT
    ) -> Motion:
        """The next ``motion`` event (for which ``predicate`` holds), typed."""
        event = self.wait_for(
            wire.EVENT_MOTION, None if predicate is None else (lambda e: predicate(Motion.from_event(e))), timeout
        )
        return Motion.from_event(event)

    def start_device_motion(self, interval: Optional[float] = None, reference_frame: Optional[str] = None) -> None:
        """``deviceMotion.start``: ``deviceMotion`` events, at most one per ``interval`` seconds
        (0.1 when None), in ``reference_frame`` (``xArbitraryZVertical`` when None; also
        ``xArbitraryCorrectedZVertical``, ``xMagneticNorthZVertical``, ``xTrueNorthZVertical``,
        ``rotationVector``, ``gameRotationVector``), while the app is in the foreground (D5)."""
        params: Dict[str, Any] = {}
        if interval is not None:
            params["interval"] = interval
        if reference_frame is not None:
            params["referenceFrame"] = reference_frame
        self.connection.call(wire.METHOD_DEVICE_MOTION_START, params)

    def stop_device_motion(self) -> None:
        """``deviceMotion.stop``."""
        self.connection.call(wire.METHOD_DEVICE_MOTION_STOP)

    def next_device_motion(
        self, predicate: Optional[Callable[[DeviceMotion], bool]] = None, timeout: Optional[float] = DEFAULT_TIMEOUT
    ) -> DeviceMotion:
        """The next ``deviceMotion`` event (for which ``predicate`` holds), typed."""
        event = self.wait_for(
            wire.EVENT_DEVICE_MOTION, None if predicate is None else (lambda e: predicate(DeviceMotion.from_event(e))), timeout
        )
        return DeviceMotion.from_event(event)

    def update(
        self,
        state: Optional[str] = None,
        orientations: Optional[Sequence[str]] = None,
        interface_locked: Optional[bool] = None,
    ) -> Dict[str, Any]:
        """``app.update``: the app's own ``state``, ``orientations`` or ``interfaceLocked``
        (a game freezing its rotation). Returns ``state`` and ``interfaceOrientation``."""
        params: Dict[str, Any] = {}
        if state is not None:
            params["state"] = state
        if orientations is not None:
            params["orientations"] = list(orientations)
        if interface_locked is not None:
            params["interfaceLocked"] = interface_locked
        return self.connection.call(wire.METHOD_APP_UPDATE, params)

    # Events

    @property
    def received(self) -> List[Event]:
        """Every event this app has read so far (the last 1000), oldest first."""
        return list(self.connection.history)

    def events(self, idle_timeout: Optional[float] = None) -> Iterator[Event]:
        """Yields events as they come, until none comes for ``idle_timeout`` seconds."""
        return self.connection.events(idle_timeout)

    def next_event(self, timeout: Optional[float] = DEFAULT_TIMEOUT) -> Event:
        """The next event."""
        return self.connection.next_event(timeout)

    def wait_for(
        self,
        method: Optional[str],
        predicate: Optional[Callable[[Event], bool]] = None,
        timeout: Optional[float] = DEFAULT_TIMEOUT,
    ) -> Event:
        """The first event named ``method`` for which ``predicate`` holds; raises
        :class:`~sextant.EventTimeout` listing the events seen if none comes in time."""
        return self.connection.wait_for(method, predicate, timeout)

    def pending_events(self) -> List[Event]:
        """Events that have arrived and were not read yet, without waiting."""
        return self.connection.pending_events()


def region_params(
    identifier: str,
    lat: float,
    lon: float,
    radius: float,
    notify_on_entry: bool = True,
    notify_on_exit: bool = True,
    loitering_delay: Optional[float] = None,
    notify_initial_state: bool = False,
    hysteresis: Optional[float] = None,
) -> Dict[str, Any]:
    """A region's params as ``region.monitor`` and ``regions.add`` take them."""
    params: Dict[str, Any] = {
        "identifier": identifier,
        "lat": lat,
        "lon": lon,
        "radius": radius,
        "notifyOnEntry": notify_on_entry,
        "notifyOnExit": notify_on_exit,
        "notifyInitialState": notify_initial_state,
    }
    if loitering_delay is not None:
        params["loiteringDelay"] = loitering_delay
    if hysteresis is not None:
        params["hysteresis"] = hysteresis
    return params
