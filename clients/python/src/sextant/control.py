"""The controller's side: every method of the control socket (sextant-protocol(7),
"Control socket"), served to the daemon's own user and root only."""

from __future__ import annotations

import functools
import os
import warnings
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, TypeVar, Union

from . import _protocol as wire
from .app import region_params
from .connection import DEFAULT_TIMEOUT, Connection, Event, default_runtime_dir
from .timezone import ControlTimeZone
from .environment import ControlEnvironment
from .clock import ControlClock


Method = TypeVar("Method", bound=Callable[..., Any])


def accepts_precise(method: Method) -> Method:
    """Lets ``method`` (which takes ``approximate``, as sextantctl's ``--approximate``) still
    take ``precise``, its old and inverted name, with a DeprecationWarning."""

    @functools.wraps(method)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if "precise" in kwargs:
            precise = kwargs.pop("precise")
            if "approximate" in kwargs:
                raise TypeError("%s: give approximate= only (precise= is its old, inverted name)" % method.__name__)
            warnings.warn(
                "%s(precise=%r) is deprecated: say approximate=%r, as sextantctl's --approximate"
                % (method.__name__, precise, not precise), DeprecationWarning, stacklevel=2)
            kwargs["approximate"] = not precise
        return method(*args, **kwargs)

    return wrapper  # type: ignore[return-value]


@dataclass(frozen=True)
class Permission:
    """A stored decision: ``app``, ``status``, ``accuracy``, ``allow_once``, ``updated``."""

    app: str
    status: str
    accuracy: str
    allow_once: bool = False
    updated: Optional[str] = None

    @classmethod
    def from_json(cls, v: Dict[str, Any]) -> "Permission":
        return cls(v.get("app", ""), v.get("status", ""), v.get("accuracy", ""), bool(v.get("allowOnce")), v.get("updated"))


@dataclass(frozen=True)
class Prompt:
    """A pending prompt (``kind`` ``authorization``) or services-off alert (``servicesOff``)."""

    id: str
    app: str
    kind: str
    level: Optional[str]
    created: Optional[str] = None

    @classmethod
    def from_json(cls, v: Dict[str, Any]) -> "Prompt":
        return cls(str(v.get("id")), v.get("app", ""), v.get("kind", ""), v.get("level"), v.get("created"))


@dataclass(frozen=True)
class ReplayStatus:
    """A replay's progress: ``state`` is ``idle``, ``running``, ``paused``, ``finished`` or
    ``stopped``; ``raw["waitingForRequest"]`` while a replay started with ``start_on_request``
    waits for the first location request."""

    state: str
    path: Optional[str] = None
    position: float = 0.0
    duration: float = 0.0
    events: int = 0
    raw: Dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def from_json(cls, v: Dict[str, Any]) -> "ReplayStatus":
        return cls(v.get("state", "idle"), v.get("path"), float(v.get("position") or 0), float(v.get("duration") or 0), int(v.get("events") or 0), v)


@dataclass(frozen=True)
class Status:
    """What ``status`` says; ``raw`` holds every field the daemon sent."""

    version: str
    services_enabled: bool
    device_orientation: str
    rotation_lock: bool
    sessions: int
    location: Optional[Dict[str, Any]]
    posture: Optional[Dict[str, Any]]
    replay: ReplayStatus
    sources: Dict[str, str]
    raw: Dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def from_json(cls, v: Dict[str, Any]) -> "Status":
        return cls(
            v.get("version", ""), bool(v.get("servicesEnabled")), v.get("deviceOrientation", "unknown"),
            bool(v.get("rotationLock")), int(v.get("sessions") or 0), v.get("location"), v.get("posture"),
            ReplayStatus.from_json(v.get("replay") or {}), {s.get("name"): s.get("state") for s in v.get("sources") or []}, v,
        )


class Watch:
    """A control connection that called ``watch``: every event the daemon publishes."""

    def __init__(self, connection: Connection):
        self.connection = connection

    def wait_for(self, method: Optional[str], predicate: Any = None, timeout: Optional[float] = DEFAULT_TIMEOUT) -> Event:
        """The first event named ``method`` for which ``predicate`` holds (see :meth:`Connection.wait_for`)."""
        return self.connection.wait_for(method, predicate, timeout)

    def events(self, idle_timeout: Optional[float] = None) -> Any:
        return self.connection.events(idle_timeout)

    def close(self) -> None:
        self.connection.close()

    def __enter__(self) -> "Watch":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


class Control(ControlTimeZone, ControlEnvironment, ControlClock):
    """A connection to ``RUNTIME-DIR/control.sock``. Each method is one control call."""

    def __init__(self, runtime_dir: Optional[str] = None):
        self.runtime_dir = runtime_dir or default_runtime_dir()
        self.connection = Connection(self.runtime_dir + "/control.sock")

    def close(self) -> None:
        self.connection.close()

    def __enter__(self) -> "Control":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def call(self, method: str, params: Optional[Dict[str, Any]] = None, timeout: Optional[float] = DEFAULT_TIMEOUT) -> Any:
        """Any control method by name, for what has no method of its own here."""
        return self.connection.call(method, params, timeout)

    def watch(self, topics: Optional[Sequence[str]] = None, app: Optional[str] = None) -> Watch:
        """A new connection that watches ``topics`` (event names; all if None; an unknown
        one is :class:`ProtocolError` -32602), only what went to ``app`` if given."""
        connection = Connection(self.runtime_dir + "/control.sock")
        params: Dict[str, Any] = {"topics": list(topics or [])}
        if app is not None:
            params["app"] = app
        connection.call(wire.METHOD_WATCH, params)
        return Watch(connection)

    # State

    def status(self) -> Status:
        return Status.from_json(self.call(wire.METHOD_STATUS))

    def set_services(self, enabled: bool) -> bool:
        """Location Services on or off for every app (RULES L1)."""
        return bool(self.call(wire.METHOD_SERVICES_SET, {"enabled": enabled}).get("enabled"))

    def reset(self) -> None:
        """Every permission forgotten, Location Services on, the prompt policy ``ask``."""
        self.reset_permissions()
        self.set_services(True)
        self.set_prompt_policy("ask")

    # Permissions

    def permissions(self) -> List[Permission]:
        return [Permission.from_json(p) for p in self.call(wire.METHOD_PERMISSIONS_LIST)]

    def set_permission(self, app: str, status: str, accuracy: Optional[str] = None) -> Permission:
        """Store ``status`` (``authorizedWhenInUse``, ``denied``...) and ``accuracy`` (``full``
        or ``reduced``) for ``app``, as ``sextantctl permissions set``."""
        params = {"app": app, "status": status}
        if accuracy is not None:
            params["accuracy"] = accuracy
        return Permission.from_json(self.call(wire.METHOD_PERMISSIONS_SET, params))

    def grant(self, app: str, always: bool = False, approximate: bool = False) -> Permission:
        """Authorize ``app`` when in use (or ``always``), with full accuracy (or reduced:
        ``approximate``)."""
        return self.set_permission(app, "authorizedAlways" if always else "authorizedWhenInUse", "reduced" if approximate else "full")

    def revoke(self, app: str) -> Permission:
        """Deny ``app``: it stops receiving locations at once."""
        return self.set_permission(app, "denied")

    def set_android_grants(
        self, app: str, grants: Sequence[str], denials: Optional[int] = None, one_time: bool = False
    ) -> Dict[str, Any]:
        """On an Android phone: exactly ``grants`` (``coarse``, ``fine``, ``background``) granted,
        as Settings sets them, and optionally the dialog's ``denials`` (2: don't ask again), as
        ``sextantctl permissions set APP --grant LIST``. ``one_time``: ``grants`` (coarse, and
        fine for precise) given "Only this time" (``--one-time``, docs/platforms.md AN38)."""
        params: Dict[str, Any] = {"app": app, "grants": list(grants)}
        if denials is not None:
            params["denials"] = denials
        if one_time:
            params["oneTime"] = True
        return self.call(wire.METHOD_PERMISSIONS_SET, params)

    def reset_permissions(self, app: Optional[str] = None) -> int:
        """Forget one app's decision, or every app's; returns how many were forgotten."""
        return int(self.call(wire.METHOD_PERMISSIONS_RESET, {"app": app} if app else {}).get("count", 0))

    def explain_permissions(self, app: str) -> Dict[str, Any]:
        """``permissions.explain``: the app's whole authorization state (docs/platforms.md PF3):
        ``status``, ``accuracy``, ``stored``, ``sessions`` with their hidden facets, the
        platform's ``facets``, ``timers`` (``name``, ``firesAt``, ``inSeconds``), ``prompts``,
        ``motion`` (the Motion & Fitness or ACTIVITY_RECOGNITION status; Android's ``denials``,
        ``dontAskAgain``)."""
        return self.call(wire.METHOD_PERMISSIONS_EXPLAIN, {"app": app})

    # Prompts

    def prompts(self) -> List[Prompt]:
        return [Prompt.from_json(p) for p in self.call(wire.METHOD_PROMPTS_LIST)]

    @accepts_precise
    def answer_prompt(self, prompt: Union[Prompt, str], choice: str, *, approximate: bool = False) -> Dict[str, Any]:
        """Answer a prompt (``allowOnce``, ``allowWhileUsing``, ``allowAlways``, ``dontAllow``;
        an Android dialog: ``whileUsing``, ``onlyThisTime``, ``allowAllTheTime``, ``dontAllow``;
        iOS's upgrade prompt: ``keepWhileUsing``, ``changeToAlways``; its temporary
        full-accuracy prompt: ``allow``, ``deny``;
        reduced accuracy with ``approximate``) or an alert (``settings``, ``cancel``)."""
        prompt_id = prompt.id if isinstance(prompt, Prompt) else prompt
        return self.call(wire.METHOD_PROMPTS_ANSWER, {"id": prompt_id, "choice": choice, "precise": not approximate})

    def wait_for_prompt(self, app: Optional[str] = None, kind: Optional[str] = None, timeout: Optional[float] = DEFAULT_TIMEOUT) -> Prompt:
        """The oldest pending prompt (of ``app``, of ``kind``), waiting for one to be raised."""

        def fits(p: Prompt) -> bool:
            return (app is None or p.app == app) and (kind is None or p.kind == kind)

        with self.watch([wire.EVENT_PROMPT]) as watch:  # first subscribe, then look: none is missed
            pending = [p for p in self.prompts() if fits(p)]
            if pending:
                return pending[0]
            event = watch.wait_for(wire.EVENT_PROMPT, lambda e: fits(Prompt.from_json(e.params)), timeout)
            return Prompt.from_json(event.params)

    @accepts_precise
    def answer(
        self, app: str, choice: str, *, approximate: bool = False, timeout: Optional[float] = DEFAULT_TIMEOUT
    ) -> Dict[str, Any]:
        """Waits for ``app``'s prompt and answers it with ``choice`` (reduced accuracy with
        ``approximate``)."""
        return self.answer_prompt(self.wait_for_prompt(app, timeout=timeout), choice, approximate=approximate)

    @accepts_precise
    def set_prompt_policy(self, mode: str, *, approximate: bool = False) -> Dict[str, Any]:
        """Answer every new prompt with ``mode`` (a choice; reduced accuracy with
        ``approximate``), or ``ask``."""
        return self.call(wire.METHOD_PROMPTS_POLICY, {"mode": mode, "precise": not approximate})

    # Apps

    def apps(self) -> List[Dict[str, Any]]:
        """Every session: ``session``, ``app``, ``pid``, ``uid``, ``state``, ``interfaceOrientation``, ..."""
        return list(self.call(wire.METHOD_APPS_LIST))

    def set_app_state(self, app: Union[str, int], state: str) -> List[Dict[str, Any]]:
        """Move an app (every session of it, or one session by number) to ``foreground`` or ``background``."""
        target: Dict[str, Any] = {"session": app} if isinstance(app, int) else {"app": app}
        target["state"] = state
        return list(self.call(wire.METHOD_APPS_UPDATE, target))

    # Regions

    def regions(self, app: Optional[str] = None) -> List[Dict[str, Any]]:
        """``regions.list``: every app's regions (or one app's), each with ``app`` and ``state``."""
        return list(self.call(wire.METHOD_REGIONS_LIST, {"app": app} if app else {}))

    def add_region(self, app: str, identifier: str, lat: float, lon: float, radius: float, **options: Any) -> None:
        """``regions.add``: monitor a region for ``app`` whatever its authorization; ``options``
        as :meth:`App.monitor_region` takes them (``loitering_delay``, ``hysteresis``...)."""
        params = region_params(identifier, lat, lon, radius, **options)
        params["app"] = app
        self.call(wire.METHOD_REGIONS_ADD, params)

    def remove_region(self, app: str, identifier: str) -> bool:
        """``regions.remove``: whether the app monitored such a region."""
        return bool(self.call(wire.METHOD_REGIONS_REMOVE, {"app": app, "identifier": identifier})["removed"])

    # The device

    def set_location(self, lat: float, lon: float, **fields: float) -> None:
        """Publish one fix now; ``fields`` may hold ``alt``, ``hAcc``, ``vAcc``, ``speed``, ``course``."""
        self.call(wire.METHOD_DEVICE_SET, {"location": dict(lat=lat, lon=lon, **fields)})

    def set_acceleration(self, x: float, y: float, z: float) -> None:
        """Hold an accelerometer reading (m/s², device frame)."""
        self.call(wire.METHOD_DEVICE_SET, {"acceleration": {"x": x, "y": y, "z": z}})

    def release_acceleration(self) -> None:
        """Give the accelerometer back to a replay or the live sensor."""
        self.call(wire.METHOD_DEVICE_SET, {"acceleration": None})

    def set_hinge(self, degrees: float) -> None:
        """Hold a foldable's hinge angle: 0 closed, 180 flat."""
        self.call(wire.METHOD_DEVICE_SET, {"hingeAngle": degrees})

    def release_hinge(self) -> None:
        """Give the hinge back to a replay or the live sensor."""
        self.call(wire.METHOD_DEVICE_SET, {"hingeAngle": None})

    def set_magnetic_field(self, x: float, y: float, z: float) -> None:
        """Hold a magnetometer reading (µT, device frame)."""
        self.call(wire.METHOD_DEVICE_SET, {"magneticField": {"x": x, "y": y, "z": z}})

    def set_rotation_rate(self, x: float, y: float, z: float) -> None:
        """Hold a gyroscope reading (rad/s about the device's axes)."""
        self.call(wire.METHOD_DEVICE_SET, {"rotationRate": {"x": x, "y": y, "z": z}})

    def release_rotation_rate(self) -> None:
        """Give the gyroscope back to a replay or the live sensor."""
        self.call(wire.METHOD_DEVICE_SET, {"rotationRate": None})

    def release_magnetic_field(self) -> None:
        """Give the magnetometer back to a replay or the live sensor."""
        self.call(wire.METHOD_DEVICE_SET, {"magneticField": None})

    def set_heading(self, degrees: float, true_north: bool = False, accuracy: Optional[float] = None) -> None:
        """Hold the compass at ``degrees`` (magnetic, or true with ``true_north``)."""
        heading: Dict[str, Any] = {"true" if true_north else "magnetic": degrees}
        if accuracy is not None:
            heading["accuracy"] = accuracy
        self.call(wire.METHOD_DEVICE_SET, {"heading": heading})

    def release_heading(self) -> None:
        """Give the compass back to a replay or the live sensors."""
        self.call(wire.METHOD_DEVICE_SET, {"heading": None})

    def set_motion_permission(self, app: str, status: str) -> Dict[str, Any]:
        """An app's Motion & Fitness status (``authorized``, ``denied``, ``notDetermined``),
        stored; activity and steps are refused to an app not ``authorized`` (A11)."""
        return self.call(wire.METHOD_MOTION_PERMISSIONS_SET, {"app": app, "status": status})

    def set_activity(self, activity: str) -> None:
        """Hold the device's activity (``walking``...), or ``auto`` to give it back (A9)."""
        self.call(wire.METHOD_ACTIVITY_SET, {"activity": activity})

    def rotate(self, orientation: str, wait: bool = True, timeout: Optional[float] = DEFAULT_TIMEOUT) -> None:
        """Hold the device in ``orientation``; with ``wait``, return once the daemon's judge
        has decided it (after its settling time)."""
        if not wait:
            self.call(wire.METHOD_DEVICE_SET, {"orientation": orientation})
            return
        with self.watch([wire.EVENT_DEVICE_ORIENTATION]) as watch:
            self.call(wire.METHOD_DEVICE_SET, {"orientation": orientation})
            if self.status().device_orientation != orientation:
                watch.wait_for(wire.EVENT_DEVICE_ORIENTATION, lambda e: e.get("orientation") == orientation, timeout)

    def set_rotation_lock(self, enabled: bool) -> bool:
        return bool(self.call(wire.METHOD_DEVICE_ROTATION_LOCK, {"enabled": enabled}).get("enabled"))

    # Replay and recording

    def replay_start(
        self, path: str, speed: Union[float, str] = 1, loop: bool = False, until: Optional[float] = None,
        timeout: Optional[float] = None, start_on_request: bool = False, scenario: Optional[str] = None,
    ) -> None:
        """Replay a trace; ``speed`` a factor or ``"max"``. Loading a large trace takes its
        time: no limit unless ``timeout``. ``until`` (seconds of trace) pauses there.
        ``start_on_request``: wait, paused at t = 0, until an app first asks for locations
        (or :meth:`replay_resume`). ``scenario``: a file of control actions played at times
        of the trace (sextant-trace(5), CONTROL LINES)."""
        params: Dict[str, Any] = {"path": os.path.abspath(path), "speed": speed, "loop": loop}
        if until is not None:
            params["until"] = until
        if start_on_request:
            params["startOnRequest"] = True
        if scenario is not None:
            params["scenario"] = os.path.abspath(scenario)
        self.call(wire.METHOD_REPLAY_START, params, timeout=timeout)

    def replay_stop(self) -> ReplayStatus:
        return ReplayStatus.from_json(self.call(wire.METHOD_REPLAY_STOP))

    def replay_status(self) -> ReplayStatus:
        return ReplayStatus.from_json(self.call(wire.METHOD_REPLAY_STATUS))

    def replay_pause(self) -> ReplayStatus:
        return ReplayStatus.from_json(self.call(wire.METHOD_REPLAY_PAUSE))

    def replay_resume(self, until: Optional[float] = None) -> ReplayStatus:
        """Resume a paused replay; with ``until`` (seconds of the trace) it pauses again there."""
        params: Dict[str, Any] = {} if until is None else {"until": until}
        return ReplayStatus.from_json(self.call(wire.METHOD_REPLAY_RESUME, params))

    def replay_seek(self, position: float) -> ReplayStatus:
        return ReplayStatus.from_json(self.call(wire.METHOD_REPLAY_SEEK, {"position": position}))

    def replay_step(self, count: int = 1) -> ReplayStatus:
        return ReplayStatus.from_json(self.call(wire.METHOD_REPLAY_STEP, {"count": count}))

    def replay_wait(self, timeout: Optional[float] = DEFAULT_TIMEOUT) -> ReplayStatus:
        """Waits until the running replay has finished, was stopped, or paused."""
        with self.watch([wire.EVENT_REPLAY]) as watch:
            status = self.replay_status()
            if status.state != "running":
                return status
            event = watch.wait_for(wire.EVENT_REPLAY, lambda e: e.get("state") in ("finished", "stopped", "paused"), timeout)
            return ReplayStatus.from_json(event.params)

    def record_start(self, path: str) -> None:
        self.call(wire.METHOD_RECORD_START, {"path": os.path.abspath(path)})

    def record_stop(self) -> Dict[str, Any]:
        """``path`` and ``events`` written."""
        return self.call(wire.METHOD_RECORD_STOP)

    def set_gnss_profile(self, profile: str, seed: Optional[int] = None) -> Dict[str, Any]:
        """``gnss.profile``: a spec such as ``"urban,tunnel@60+30"``, or ``"off"``
        (sextant-rules(7) N1-N6). Answers ``profile``, ``seed`` and ``simulatedFlag``."""
        params: Dict[str, Any] = {"profile": profile}
        if seed is not None:
            params["seed"] = seed
        return self.call(wire.METHOD_GNSS_PROFILE, params)

    def set_ios_session_grant(
        self, app: str, once: bool = False, temporary_full_accuracy: Optional[str] = None, status: str = "authorizedWhenInUse", accuracy: Optional[str] = None
    ) -> Dict[str, Any]:
        """On an iPhone: put ``app``'s live sessions mid-flow, as ``sextantctl permissions set APP
        STATUS --once --temporary-full-accuracy KEY``: ``once`` an Allow Once grant (reverts to
        notDetermined when the app is no longer in use, docs/platforms.md L5, I8);
        ``temporary_full_accuracy`` full accuracy for a purpose key the app declared (I9)."""
        params: Dict[str, Any] = {"app": app, "status": status}
        if accuracy is not None:
            params["accuracy"] = accuracy
        if once:
            params["once"] = True
        if temporary_full_accuracy is not None:
            params["temporaryFullAccuracy"] = temporary_full_accuracy
        return self.call(wire.METHOD_PERMISSIONS_SET, params)
