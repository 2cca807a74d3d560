"""pytest fixtures for tests against a private sextantd (registered as ``pytest11``).

- ``sextant_daemon``: a :class:`~sextant.Daemon` of the test's own, started before it and
  stopped after. Options come from the marker: ``@pytest.mark.sextant(trace="walk.jsonl",
  speed="max", profile="foldable", prompt_policy="allowWhileUsing",
  allow_once_timeout=1)``; every keyword of :class:`~sextant.Daemon` is accepted.
- ``sextant_control``: a :class:`~sextant.Control` on that daemon.
- ``sextant_app``: a factory, ``sextant_app("com.example.maps", orientations=[...])``,
  returning connected :class:`~sextant.App` s, closed after the test.
- ``sextant_browser``: a factory, ``sextant_browser("org.example.web", driver)``, binding a
  Chromium (a Selenium WebDriver, or a DevTools address) to an app id through
  ``sextantctl browser`` (:class:`~sextant.BrowserBridge`), stopped after the test.

Under ``sextantctl run`` (``SEXTANT_RUNTIME_DIR`` set), a test whose marker gives no
option uses the daemon run started (:class:`~sextant.RunDaemon`) instead of one of its own,
set back before each test to what run set up (``SEXTANT_RUN_SCENE``: grants, Location
Services, prompt policy, nothing held by hand, and run's trace from its start, waiting for
the test's first location request); a test whose marker gives options still gets a daemon
of its own beside it.

When a test fails, its report gains the daemon's log tail and the events each app saw.
``SEXTANT_BIN`` names the sextantd to run when it is not on ``PATH``."""

from __future__ import annotations

from typing import Any, Callable, Generator, List, Optional, Sequence, Union

import pytest

from .app import App
from .browser import BrowserBridge
from .control import Control
from .daemon import Daemon, RunDaemon

_APPS_KEY = "_sextant_apps"
_BRIDGES_KEY = "_sextant_bridges"


def pytest_configure(config: Any) -> None:
    config.addinivalue_line(
        "markers",
        "sextant(**options): options of the test's private sextantd (trace, speed, loop, profile, "
        "prompt_policy, approximate, allow_once_timeout, iio, args)",
    )


@pytest.fixture
def sextant_daemon(request: Any) -> Generator[Union[Daemon, RunDaemon], None, None]:
    """A private sextantd for this test, configured by the ``sextant`` marker; under
    ``sextantctl run`` without marker options, run's daemon as run set it up."""
    marker = request.node.get_closest_marker("sextant")
    options = dict(marker.kwargs) if marker else {}
    shared = None if options else RunDaemon.from_environment()
    if shared is not None:
        shared.restore_scene()
        request.node._sextant_daemon = shared
        yield shared
        return
    daemon = Daemon(**options)
    daemon.start()
    request.node._sextant_daemon = daemon
    try:
        yield daemon
    finally:
        daemon.stop()


@pytest.fixture
def sextant_control(sextant_daemon: Union[Daemon, RunDaemon]) -> Generator[Control, None, None]:
    """A control connection to the test's daemon."""
    control = sextant_daemon.control()
    try:
        yield control
    finally:
        control.close()


@pytest.fixture
def sextant_app(request: Any, sextant_daemon: Union[Daemon, RunDaemon]) -> Generator[Callable[..., App], None, None]:
    """A factory of apps connected to the test's daemon: ``sextant_app(app_id, orientations=None, state=None)``."""
    apps: List[App] = []
    setattr(request.node, _APPS_KEY, apps)

    def make(app_id: str, orientations: Optional[Sequence[str]] = None, state: Optional[str] = None) -> App:
        app = sextant_daemon.app(app_id, orientations=orientations, state=state)
        apps.append(app)
        return app

    try:
        yield make
    finally:
        for app in apps:
            app.close()


@pytest.fixture
def sextant_browser(request: Any, sextant_daemon: Union[Daemon, RunDaemon]) -> Generator[Callable[..., BrowserBridge], None, None]:
    """A factory binding a Chromium to an app id: ``sextant_browser(app_id, driver_or_address)``
    returns once the bridge has set up the browser's pages."""
    bridges: List[BrowserBridge] = []
    setattr(request.node, _BRIDGES_KEY, bridges)

    def bind(app_id: str, browser: Any) -> BrowserBridge:
        bridge = BrowserBridge(app_id, sextant_daemon.runtime_dir, browser)
        bridges.append(bridge)
        return bridge.start()

    try:
        yield bind
    finally:
        for bridge in bridges:
            bridge.stop()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: Any, call: Any) -> Generator[None, Any, None]:
    outcome = yield
    report = outcome.get_result()
    if not report.failed:
        return
    daemon: Optional[Union[Daemon, RunDaemon]] = getattr(item, "_sextant_daemon", None)
    if daemon is not None:
        report.sections.append(("sextantd log (tail)", daemon.log_tail(40) or "(empty)"))
    for app in getattr(item, _APPS_KEY, []):
        seen = "\n".join(str(event) for event in app.received[-40:]) or "(none)"
        report.sections.append(("events seen by %s (session %s)" % (app.app_id, app.session), seen))
    for bridge in getattr(item, _BRIDGES_KEY, []):
        report.sections.append(("sextantctl browser for %s" % bridge.app_id, "\n".join(bridge.lines) + "\n" + bridge.errors))
