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

When a test that used the fixtures fails, its report gains the daemon's log tail, the
events each app saw, and the path of a self-contained HTML page (sextant.report): the trace
plot with the apps' events on it, the event timeline, the permissions at the end and the
log tail. The page goes into ``--sextant-report DIR`` (which keeps one for every test),
else beside ``--junitxml`` (``sextant-reports/``), else pytest's temporary directory; its
path is the junit property ``sextant_report`` and, with pytest-html, a link in its extras.
``SEXTANT_BIN`` names the sextantd to run when it is not on ``PATH``."""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
import time
from typing import Any, Callable, Generator, List, Optional, Sequence, Union

import pytest

from .app import App
from .browser import BrowserBridge
from .control import Control
from .daemon import Daemon, RunDaemon
from .errors import SextantError
from .recorder import WatchRecorder
from .report import gather, write_report

_APPS_KEY = "_sextant_apps"
_BRIDGES_KEY = "_sextant_bridges"
_RECORDER_KEY = "_sextant_recorder"
_STARTED_KEY = "_sextant_started"
_WRITTEN_KEY = "_sextant_reports"


def pytest_addoption(parser: Any) -> None:
    parser.getgroup("sextant").addoption(
        "--sextant-report", metavar="DIR", dest="sextant_report", default=None,
        help="write a Sextant report (an HTML page) for every test that used the sextant fixtures into DIR; "
        "without it only failing tests get one",
    )


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
    setattr(request.node, _STARTED_KEY, time.time())
    shared = None if options else RunDaemon.from_environment()
    if shared is not None:
        shared.restore_scene()
        request.node._sextant_daemon = shared
        with recording(request.node, shared):
            yield shared
        return
    daemon = Daemon(**options)
    daemon.start()
    request.node._sextant_daemon = daemon
    try:
        with recording(request.node, daemon):
            yield daemon
    finally:
        daemon.stop()


class recording:
    """A watch of the daemon for the test's report, from the test's start to its end."""

    def __init__(self, node: Any, daemon: Union[Daemon, RunDaemon]):
        try:
            self.recorder: Optional[WatchRecorder] = WatchRecorder.start(daemon.runtime_dir)
        except (SextantError, OSError):
            self.recorder = None  # the report says so; the test runs as it would without it
        setattr(node, _RECORDER_KEY, self.recorder)

    def __enter__(self) -> Optional[WatchRecorder]:
        return self.recorder

    def __exit__(self, *exc: Any) -> None:
        if self.recorder is not None:
            self.recorder.stop()


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
    wanted = report.failed or (call.when == "call" and item.config.getoption("sextant_report"))
    if wanted and call.when in ("setup", "call") and getattr(item, "_sextant_daemon", None) is not None:
        attach_report(item, report)
    if report.failed:
        add_sections(item, report)


def report_directory(config: Any) -> str:
    """``--sextant-report``, else ``sextant-reports`` beside the junit XML, else pytest's temporary directory."""
    chosen = config.getoption("sextant_report") or None
    if chosen:
        return os.path.abspath(chosen)
    junit = config.getoption("xmlpath", None)
    if junit:
        return os.path.join(os.path.dirname(os.path.abspath(junit)), "sextant-reports")
    factory = getattr(config, "_tmp_path_factory", None)
    if factory is not None:
        return str(factory.getbasetemp() / "sextant-reports")
    if not hasattr(config, "_sextant_temporary"):
        config._sextant_temporary = tempfile.mkdtemp(prefix="sextant-reports-")
    return config._sextant_temporary


def report_name(nodeid: str) -> str:
    """A file name for the test: its id made safe, with a hash against collisions."""
    safe = re.sub(r"[^A-Za-z0-9_.-]+", "_", nodeid).strip("_")[:120]
    return "%s-%s.html" % (safe, hashlib.sha1(nodeid.encode()).hexdigest()[:8])


def attach_report(item: Any, report: Any) -> None:
    """Writes the test's page and names it in the report, the junit XML and pytest-html's extras."""
    try:
        facts = gather(
            item.nodeid, report.outcome, report.longreprtext if report.failed else "", item._sextant_daemon,
            getattr(item, _RECORDER_KEY, None), getattr(item, _APPS_KEY, []), getattr(item, _BRIDGES_KEY, []),
            getattr(item, _STARTED_KEY, time.time()))
        path = write_report(os.path.join(report_directory(item.config), report_name(item.nodeid)), facts)
    except Exception as error:  # a report must never turn a test's result into another
        report.sections.append(("sextant report", "not written: %r" % error))
        return
    report.sections.append(("sextant report", path))
    item.user_properties.append(("sextant_report", path))
    report.user_properties = list(report.user_properties) + [("sextant_report", path)]
    setattr(item.config, _WRITTEN_KEY, getattr(item.config, _WRITTEN_KEY, []) + [path])
    link_in_pytest_html(item.config, report, path)


def link_in_pytest_html(config: Any, report: Any, path: str) -> None:
    """A link to the page among pytest-html's extras (``extras`` from its version 4, ``extra`` before)."""
    if not config.pluginmanager.hasplugin("html"):
        return
    try:
        import pytest_html  # type: ignore[import-not-found]
        from pytest_html import extras
    except ImportError:
        return
    attribute = "extra" if str(getattr(pytest_html, "__version__", "4")).split(".")[0] in ("1", "2", "3") else "extras"
    setattr(report, attribute, list(getattr(report, attribute, [])) + [extras.url("file://" + path, name="Sextant report")])


def pytest_terminal_summary(terminalreporter: Any, config: Any) -> None:
    written = getattr(config, _WRITTEN_KEY, [])
    if written:
        terminalreporter.write_sep("-", "sextant reports")
        for path in written[:20]:
            terminalreporter.write_line(path)
        if len(written) > 20:
            terminalreporter.write_line("... and %d more in %s" % (len(written) - 20, os.path.dirname(written[-1])))


def add_sections(item: Any, report: Any) -> None:
    """The log tail and each app's events, in the failure text itself."""
    daemon: Optional[Union[Daemon, RunDaemon]] = getattr(item, "_sextant_daemon", None)
    if daemon is not None:
        report.sections.append(("sextantd log (tail)", daemon.log_tail(40) or "(empty)"))
    for app in getattr(item, _APPS_KEY, []):
        seen = "\n".join(str(event) for event in app.received[-40:]) or "(none)"
        report.sections.append(("events seen by %s (session %s)" % (app.app_id, app.session), seen))
    for bridge in getattr(item, _BRIDGES_KEY, []):
        report.sections.append(("sextantctl browser for %s" % bridge.app_id, "\n".join(bridge.lines) + "\n" + bridge.errors))
