"""A client of the Sextant daemon (sextantd), for tests and scripts.

- :class:`App`: an app on the app socket (hello, authorization, locations, significant
  changes, visits (:class:`Visit`), orientation, posture, events).
- :class:`Control`: every control method (permissions, prompts, services, apps, the
  device, rotation lock, replay, recording, status).
- :class:`Daemon`: a private sextantd for one test, started like ``sextantctl run``;
  :class:`RunDaemon`: the one ``sextantctl run`` started, when a test runs under it.
- A pytest plugin (``sextant.pytest_plugin``, registered through the ``pytest11`` entry
  point): the fixtures ``sextant_daemon``, ``sextant_control``, ``sextant_app`` and
  ``sextant_browser`` and the ``sextant`` marker; a failing test that used them leaves an HTML
  report (:mod:`sextant.report`), and ``--sextant-report DIR`` keeps one for every test.
- :class:`BrowserBridge`: a Chromium bound to an app id (``sextantctl browser``).
- :class:`TimeZone`: the device's zone (``App.start_time_zone``, ``Control.set_time_zone``).
- :class:`DeviceClock`: the device's clock, moved by ``Control.time_advance``, ``time_set``.
- :mod:`sextant.traces`: traces written by a test (``write_trace``, ``compass_turns``).

The wire protocol is sextant-protocol(7); this package maps it one method to one method
and uses only the standard library."""

from .activity import Activity, ActivityTransition, Pedometer
from .app import App, Authorization, DeviceMotion, Heading, Motion, PendingAuthorization, Visit
from .browser import BrowserBridge
from .connection import DEFAULT_TIMEOUT, Connection, Event, default_runtime_dir
from .control import Control, Permission, Prompt, ReplayStatus, Status, Watch
from .daemon import Daemon, RunDaemon, find_sextantd
from .timezone import TimeZone
from .environment import Altitude, Light, Proximity
from .clock import DeviceClock
from .diagnostics import Diagnostics
from .errors import (
    ERROR_NAMES,
    ConnectionClosed,
    DaemonNotRunning,
    DaemonStartError,
    EventTimeout,
    ProtocolError,
    SextantError,
    UntrustedDaemon,
)

__version__ = "0.1.0"

__all__ = [
    "App", "Authorization", "Heading", "PendingAuthorization", "Visit", "Connection", "Event", "DEFAULT_TIMEOUT", "default_runtime_dir",
    "Control", "Permission", "Prompt", "ReplayStatus", "Status", "Watch", "Daemon", "RunDaemon", "find_sextantd",
    "ERROR_NAMES", "SextantError", "ProtocolError", "DaemonNotRunning", "ConnectionClosed", "EventTimeout",
    "DaemonStartError", "UntrustedDaemon",
    "BrowserBridge",
    "Motion",
    "TimeZone",
    "Activity", "ActivityTransition", "Pedometer",
    "Light", "Proximity", "Altitude",
    "DeviceMotion",
    "DeviceClock",
    "Diagnostics",
]
