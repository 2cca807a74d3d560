"""Gathers what a test's Sextant report shows (sextant.report_html draws it): what the
daemon published and each app read, the permissions, prompts and sessions at the end, the
daemon's log tail, and ``sextantctl trace plot`` of the trace the daemon replayed with the
apps' events on it."""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
import time
from typing import Any, Dict, List, Optional, Sequence, Tuple

from . import _protocol as wire
from .browser import find_sextantctl
from .connection import Event
from .errors import SextantError
from .recorder import WatchRecorder
from .report_html import ReportFacts, render

LOG_LINES = 200
PLOT_TIMEOUT = 60.0
SNAPSHOT_TIMEOUT = 5.0


def control_snapshot(daemon: Any) -> Dict[str, Any]:
    """Permissions, pending prompts, sessions and status now, as the control socket gives them."""
    try:
        with daemon.control() as control:
            return {
                "permissions": control.call(wire.METHOD_PERMISSIONS_LIST, timeout=SNAPSHOT_TIMEOUT),
                "prompts": control.call(wire.METHOD_PROMPTS_LIST, timeout=SNAPSHOT_TIMEOUT),
                "sessions": control.call(wire.METHOD_APPS_LIST, timeout=SNAPSHOT_TIMEOUT),
                "status": control.call(wire.METHOD_STATUS, timeout=SNAPSHOT_TIMEOUT),
            }
    except (SextantError, OSError) as error:
        return {"error": str(error)}


def replayed_trace(daemon: Any, status: Dict[str, Any]) -> Optional[str]:
    """The trace the daemon replays (or last replayed), else the one it was given."""
    replay = status.get("replay") or {}
    if isinstance(replay, dict) and replay.get("path"):
        return str(replay["path"])
    scene = getattr(daemon, "scene", None) or {}
    return getattr(daemon, "trace", None) or scene.get("trace")


def plot_events(watched: Sequence[Tuple[float, Event]], apps: Sequence[Tuple[str, Optional[int], List[Event]]]) -> str:
    """The NDJSON ``trace plot --events`` reads: what the watch saw, else what the apps read."""
    if watched:
        events = [event for _, event in watched]
    else:
        events = [Event(e.method, dict(e.params, app=app)) for app, _, read in apps for e in read]
    return "".join(json.dumps({"method": e.method, "params": e.params}) + "\n" for e in events)


def run_plot(sextantctl: str, trace: str, events: str, directory: str) -> Tuple[Optional[str], str]:
    """``sextantctl trace plot TRACE -o page.html [--events]``: the page, or None and why."""
    out = os.path.join(directory, "plot.html")
    command = [sextantctl, "trace", "plot", trace, "-o", out]
    if events:
        with open(os.path.join(directory, "events.ndjson"), "w", encoding="utf-8") as file:
            file.write(events)
        command += ["--events", file.name]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=PLOT_TIMEOUT)
    except (OSError, subprocess.TimeoutExpired) as error:
        return None, "%s: %s" % (" ".join(command), error)
    if done.returncode != 0:
        return None, "%s exited %d: %s" % (" ".join(command), done.returncode, done.stderr.strip())
    with open(out, encoding="utf-8", errors="replace") as page:
        return page.read(), " ".join(command[1:4]) + (" with the apps' events" if events else "")


def plot(daemon: Any, trace: Optional[str], events: str) -> Tuple[Optional[str], str]:
    """The trace plot page, with the events if the plot takes them, else without."""
    if not trace:
        return None, "the test replayed no trace"
    try:
        sextantctl = find_sextantctl(getattr(daemon, "sextantd", None))
    except SextantError as error:
        return None, str(error)
    with tempfile.TemporaryDirectory(prefix="sextant-plot-") as directory:
        page, note = run_plot(sextantctl, trace, events, directory)
        if page is None and events:
            page, second = run_plot(sextantctl, trace, "", directory)
            note = second + " (with the events: " + note + ")" if page is not None else note
        return page, note


def watch_note(recorder: Optional[WatchRecorder], watched: Sequence[Any]) -> str:
    if recorder is None:
        return "no watch of the daemon (it could not be opened)"
    dropped = " (%d older ones dropped)" % recorder.dropped if recorder.dropped else ""
    return "%d events the daemon published, as sextantctl watch sees them%s, by the time each arrived" % (len(watched), dropped)


def gather(
    test: str, outcome: str, failure: str, daemon: Any, recorder: Optional[WatchRecorder],
    apps: Sequence[Any], bridges: Sequence[Any], started: float,
) -> ReportFacts:
    """Everything the report shows, read now (the test's apps still open)."""
    for app in apps:
        app.connection.read_available()
    watched = recorder.events() if recorder is not None else []
    app_events = [(app.app_id, app.session, app.received) for app in apps]
    snapshot = control_snapshot(daemon)
    page, note = plot(daemon, replayed_trace(daemon, snapshot.get("status") or {}), plot_events(watched, app_events))
    return ReportFacts(
        test=test, outcome=outcome, failure=failure, started=recorder.started if recorder else started, finished=time.time(),
        watched=watched, watch_note=watch_note(recorder, watched), apps=app_events, snapshot=snapshot,
        log_tail=daemon.log_tail(LOG_LINES), plot_html=page, plot_note=note,
        bridges=[(b.app_id, "\n".join(b.lines) + "\n" + b.errors) for b in bridges],
    )


def write_report(path: str, facts: ReportFacts) -> str:
    """Writes the page to ``path`` (its directory made), atomically; returns the path."""
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    partial = path + ".partial"
    with open(partial, "w", encoding="utf-8") as file:
        file.write(render(facts))
    os.replace(partial, path)
    return path
