"""A test's Sextant report as one self-contained HTML page: nothing loaded from anywhere,
every text the daemon or an app wrote escaped. Pure: facts in, text out."""

from __future__ import annotations

import html
import json
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple

from .connection import Event

#: Rows of the event table and characters of a value shown, so that a page stays readable.
TABLE_ROWS = 1000
VALUE_CHARS = 400
FAILURE_CHARS = 100_000

COLOURS = {
    "location": "#1d4ed8", "significantChange": "#1e40af", "authorization": "#d97706", "prompt": "#9333ea",
    "promptClosed": "#7e22ce", "session": "#9ca3af", "replay": "#d1d5db", "heading": "#0d9488", "motion": "#65a30d",
    "deviceOrientation": "#db2777", "interfaceOrientation": "#be185d", "region": "#dc2626", "visit": "#ea580c",
}

STYLE = """
body{font-family:DejaVu Sans,Helvetica,Arial,sans-serif;margin:24px;color:#111;max-width:1200px}
h1{font-size:20px}h2{font-size:17px;margin-top:28px;border-bottom:1px solid #ddd}h3{font-size:14px}
pre{background:#f6f8fa;padding:8px;overflow:auto;max-height:480px;font-size:12px}
table{border-collapse:collapse;font-size:12px}td,th{border:1px solid #ddd;padding:2px 6px;text-align:left;vertical-align:top}
td.value{font-family:monospace;word-break:break-all}td:first-child{white-space:nowrap}.failed{color:#b91c1c}.passed{color:#15803d}.note{color:#555}
iframe{width:100%;height:1150px;border:1px solid #ddd}
"""


@dataclass
class ReportFacts:
    """What a report shows; times are wall-clock seconds (``time.time()``)."""

    test: str
    outcome: str
    failure: str = ""
    started: float = 0.0
    finished: float = 0.0
    watched: List[Tuple[float, Event]] = field(default_factory=list)
    watch_note: str = ""
    apps: List[Tuple[str, Optional[int], List[Event]]] = field(default_factory=list)
    snapshot: Dict[str, Any] = field(default_factory=dict)
    log_tail: str = ""
    plot_html: Optional[str] = None
    plot_note: str = ""
    bridges: List[Tuple[str, str]] = field(default_factory=list)


def esc(value: Any) -> str:
    return html.escape(str(value), quote=True)


def compact(value: Any, limit: int = VALUE_CHARS) -> str:
    text = value if isinstance(value, str) else json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[:limit] + " …"


def table(headers: Sequence[str], rows: Sequence[Sequence[Any]], value_columns: Sequence[int] = ()) -> str:
    if not rows:
        return '<p class="note">none</p>'
    head = "".join("<th>%s</th>" % esc(h) for h in headers)
    body = "".join(
        "<tr>%s</tr>" % "".join(
            "<td%s>%s</td>" % (' class="value"' if i in value_columns else "", esc(cell)) for i, cell in enumerate(row))
        for row in rows)
    return "<table><tr>%s</tr>%s</table>" % (head, body)


def lane_of(event: Event) -> str:
    """The app an event went to or concerns; ``device`` for what the daemon published to no app."""
    app = event.params.get("app")
    if isinstance(app, str) and app:
        return app
    return "replay" if event.method == "replay" else "device"


def header(facts: ReportFacts) -> str:
    outcome = esc(facts.outcome)
    failure = "<h2>Failure</h2><pre>%s</pre>" % esc(compact(facts.failure, FAILURE_CHARS)) if facts.failure else ""
    return (
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Sextant report: %s</title><style>%s</style></head><body>"
        "<h1>%s <span class=\"%s\">%s</span></h1><p class=\"note\">%.3f s of test; what the daemon published and each app "
        "received, the permissions at the end and the daemon's log.</p>%s"
        % (esc(facts.test), STYLE, esc(facts.test), outcome, outcome, max(0.0, facts.finished - facts.started), failure))


def plot_section(facts: ReportFacts) -> str:
    if facts.plot_html is None:
        return "<h2>Trace plot</h2><p class=\"note\">%s</p>" % esc(facts.plot_note or "no trace")
    # A sandboxed frame: the plot's own script runs (hover, zoom) in an origin of its own.
    return "<h2>Trace plot</h2><p class=\"note\">%s</p><iframe sandbox=\"allow-scripts\" srcdoc=\"%s\"></iframe>" % (
        esc(facts.plot_note), esc(facts.plot_html))


def lanes(facts: ReportFacts) -> List[str]:
    ordered = ["device", "replay"]
    for _, event in facts.watched:
        lane = lane_of(event)
        if lane not in ordered:
            ordered.append(lane)
    return ordered


def timeline_svg(facts: ReportFacts) -> str:
    """One lane per app (and the device, the replay), a mark per event at the time it arrived."""
    names = lanes(facts)
    left, width, row = 220, 720, 22
    span = max(facts.finished - facts.started, 1e-3)
    height = 30 + row * len(names)
    parts = ['<svg width="%d" height="%d" viewBox="0 0 %d %d" role="img">' % (left + width + 20, height, left + width + 20, height)]
    for index, name in enumerate(names):
        y = 10 + index * row
        parts.append('<text x="4" y="%d" font-size="11">%s</text>' % (y + 14, esc(compact(name, 32))))
        parts.append('<rect x="%d" y="%d" width="%d" height="%d" fill="#f3f4f6"/>' % (left, y, width, row - 4))
    for arrived, event in facts.watched:
        x = left + width * min(max((arrived - facts.started) / span, 0.0), 1.0)
        y = 10 + names.index(lane_of(event)) * row
        tip = "+%.3f s %s %s" % (arrived - facts.started, event.method, compact(event.params))
        parts.append('<rect x="%.1f" y="%d" width="2" height="%d" fill="%s"><title>%s</title></rect>'
                     % (x, y, row - 4, COLOURS.get(event.method, "#111827"), esc(tip)))
    parts.append('<text x="%d" y="%d" font-size="10">0 s</text><text x="%d" y="%d" font-size="10" text-anchor="end">%.3f s</text>'
                 % (left, height - 2, left + width, height - 2, span))
    return "".join(parts) + "</svg>"


def timeline_section(facts: ReportFacts) -> str:
    rows = [("+%.3f s" % (arrived - facts.started), lane_of(event), event.method, compact(event.params))
            for arrived, event in facts.watched[-TABLE_ROWS:]]
    shown = "" if len(facts.watched) <= TABLE_ROWS else " (the last %d)" % TABLE_ROWS
    return ("<h2>Event timeline</h2><p class=\"note\">%s</p>%s<h3>Events%s</h3>%s"
            % (esc(facts.watch_note), timeline_svg(facts), shown, table(("arrived", "app", "event", "params"), rows, (3,))))


def apps_section(facts: ReportFacts) -> str:
    parts = ["<h2>What each app read</h2>"]
    for app, session, events in facts.apps:
        rows = [(event.method, compact(event.params)) for event in events[-TABLE_ROWS:]]
        parts.append("<h3>%s (session %s): %d events</h3>%s" % (esc(app), esc(session), len(events), table(("event", "params"), rows, (1,))))
    return "".join(parts) if facts.apps else parts[0] + "<p class=\"note\">no app of the sextant_app fixture</p>"


def snapshot_section(facts: ReportFacts) -> str:
    snapshot = facts.snapshot
    if "error" in snapshot:
        return "<h2>Permissions</h2><p class=\"note\">the daemon could not be asked: %s</p>" % esc(snapshot["error"])
    permissions = [(p.get("app"), p.get("status"), p.get("accuracy"), p.get("allowOnce"), p.get("updated")) for p in snapshot.get("permissions", [])]
    prompts = [(p.get("id"), p.get("app"), p.get("kind"), p.get("level")) for p in snapshot.get("prompts", [])]
    return (
        "<h2>Permissions</h2>%s<h3>Pending prompts</h3>%s<h3>Sessions</h3>%s<h3>Status</h3><pre>%s</pre>"
        % (table(("app", "status", "accuracy", "allowOnce", "updated"), permissions),
           table(("id", "app", "kind", "level"), prompts),
           table(("session", "app", "detail"), [(s.get("session"), s.get("app"), compact(s)) for s in snapshot.get("sessions", [])], (2,)),
           esc(json.dumps(snapshot.get("status", {}), indent=1, sort_keys=True, ensure_ascii=False))))


def log_section(facts: ReportFacts) -> str:
    bridges = "".join("<h3>sextantctl browser for %s</h3><pre>%s</pre>" % (esc(app), esc(text)) for app, text in facts.bridges)
    return "<h2>sextantd log (tail)</h2><pre>%s</pre>%s" % (esc(facts.log_tail or "(empty)"), bridges)


def render(facts: ReportFacts) -> str:
    """The page."""
    sections = (header, plot_section, timeline_section, apps_section, snapshot_section, log_section)
    return "".join(section(facts) for section in sections) + "</body></html>\n"
