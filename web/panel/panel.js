// The panel page: one WebSocket to sextant-panel, whose pushed `events` batches are applied
// together in one animation frame; the daemon's state is read again (status, apps, prompts,
// regions) only after the page's own calls and when an event says it changed.

import { PanelSocket } from "./panel-socket.js";
import { PanelMap } from "./panel-map.js";
import { PanelDevice } from "./panel-device.js";
import { PanelApps } from "./panel-apps.js";
import { PanelLog } from "./panel-log.js";
import { PanelReplay } from "./panel-replay.js";
import { PanelControls } from "./panel-controls.js";
import { PanelSensors } from "./panel-sensors.js";
import { PanelClock } from "./panel-clock.js";

const element = (id) => document.getElementById(id);
// Kept for the browser test's lag figures: the last so many location events' times.
const LAG_SAMPLES = 20000;

const panel = {
    pending: [],
    frameRequested: false,
    stale: new Set(),
    // The apps table's rows by session number, from apps.list and then `session` events.
    apps: new Map(),
    appsChanged: false,
    permissions: [],
    lags: [],
    dropped: 0,
    ready: false,
    // When (ms since the page began) each step towards `ready` ended, for a test that waited
    // in vain to say which step it waited on.
    steps: {},
    daemonReachable: true,
};
window.sextantPanel = panel;

function report(error) {
    const bar = element("error-bar");
    bar.textContent = error && error.message ? error.message : String(error);
    bar.hidden = false;
    clearTimeout(report.timer);
    report.timer = setTimeout(() => { bar.hidden = true; }, 6000);
}

const socket = new PanelSocket({
    onNoToken: () => {
        const bar = element("error-bar");
        bar.textContent = "This page needs the panel's token: open the URL sextant-panel printed (…/#token=…), or run sextantctl panel --open.";
        bar.hidden = false;
    },
    onHello: (hello) => {
        element("version").textContent = `sextant ${hello.version || ""}`;
        if (hello.tiles) map.useTiles(hello.tiles);
        const step = (name) => () => { panel.steps[name] = Math.round(performance.now()); };
        step("hello")();
        // Ready once the state is shown and the base map, if any, is drawn.
        Promise.all([
            refreshAll().then(step("state")).then(() => replay.listTraces()).then(step("traces")),
            hello.basemap && !hello.tiles ? map.loadBasemap().catch(report).then(step("basemap")) : null,
        ]).then(() => { panel.ready = true; });
    },
    onEvents: (events, receivedAt, dropped) => {
        for (const event of events) panel.pending.push({ event, receivedAt });
        panel.dropped += dropped;
        if (!panel.frameRequested) {
            panel.frameRequested = true;
            requestAnimationFrame(applyPending);
        }
    },
    onState: (connected) => {
        const badge = element("connection");
        badge.textContent = connected ? "live" : "disconnected";
        badge.className = `badge ${connected ? "on" : "off"}`;
        panel.steps[connected ? "connected" : "closed"] = Math.round(performance.now());
        if (!connected) panel.ready = false;
    },
    onDaemon: (daemon) => {
        // sextant-panel lost the daemon (it retries by itself), or has it again.
        const banner = element("daemon-banner");
        panel.daemonReachable = !!daemon.reachable;
        banner.hidden = panel.daemonReachable;
        banner.textContent = panel.daemonReachable ? "" : `daemon not reachable, retrying: ${daemon.error || daemon.socket}`;
        if (panel.daemonReachable) refreshAll();
    },
});
// The params of each method's last call the daemon answered, for tests that must know a
// call took effect when the daemon's state does not show it (activity.set auto).
panel.answered = {};
const call = (method, params) => socket.call(method, params).then((result) => { panel.answered[method] = params; return result; });
const map = new PanelMap(element("map"), { call, report });
const refresh = () => { refreshAll(); };
const device = new PanelDevice({ call, report, refresh });
const apps = new PanelApps({ call, report, refresh });
const log = new PanelLog();
const replay = new PanelReplay({ call, report, map: map });
const controls = new PanelControls({ call, report, refresh, map });
const sensors = new PanelSensors({ call, report, refresh });
const clock = new PanelClock({ call, report });
panel.map = map.map;
panel.panelMap = map;

/** Everything the page shows of the daemon's state, read afresh. */
async function refreshAll() {
    try {
        const [status, sessions, permissions, prompts, regions] = await Promise.all([
            call("status"), call("apps.list"), call("permissions.list"), call("prompts.list"), call("regions.list"), clock.read(),
        ]);
        showStatus(status);
        panel.apps = new Map(sessions.map((s) => [s.session, s]));
        panel.permissions = permissions;
        panel.appsChanged = false;
        apps.showApps(sessions, permissions);
        controls.showApps(sessions);
        map.keepSessions(new Set(panel.apps.keys()));
        apps.showPrompts(prompts);
        map.showRegions(regions);
        controls.showRegions(regions);
    } catch (error) {
        report(error);
    }
}

function showStatus(status) {
    element("services").checked = !!status.servicesEnabled;
    const platform = status.platform || { name: "ios" };
    element("platform").textContent = platform.name === "android" ? `Android (API ${platform.androidApi})` : "iOS";
    document.body.dataset.platform = platform.name;
    if (status.promptPolicy) {
        element("policy").value = status.promptPolicy.mode;
        element("policy-precise").checked = status.promptPolicy.precise !== false;
    }
    const recording = status.recording;
    element("record-state").textContent = recording ? `recording to ${recording}` : "";
    element("record-start").disabled = !!recording;
    element("record-stop").disabled = !recording;
    device.showStatus(status);
    controls.showGNSS(status.gnss);
    sensors.showStatus(status);
    if (status.location) map.showDevice(status.location);
    if (status.replay) replay.show(status.replay);
}

/** One event of a batch; what it makes stale is read again once the batch is applied. */
function apply(event) {
    const p = event.params || {};
    if (event.method !== "session" && p.session !== undefined && !panel.apps.has(p.session)) panel.stale.add("all");
    switch (event.method) {
    case "session": applySession(p); break;
    case "location":
        if (p.app === undefined) map.showDevice(p);
        else map.showDelivered(p);
        break;
    case "prompt": apps.addCard(p); break;
    case "promptClosed": apps.closeCard(p.id); panel.stale.add("all"); break;
    case "authorization":
    case "interfaceOrientation":
    case "servicesEnabled": panel.stale.add("all"); break;
    case "deviceOrientation": device.showOrientation(p.orientation); break;
    case "posture": device.showPosture(p); break;
    case "heading": device.showHeading(p); break;
    case "timeZone": if (p.app === undefined) device.showTimeZone(p); break;
    case "clockChanged": clock.show(p); break;
    case "region": map.showCrossing(p); controls.showCrossing(p); panel.stale.add("all"); break;
    case "replay":
        replay.show(p);
        if (p.state !== "running") panel.stale.add("all");
        break;
    default: sensors.apply(event.method, p); break;
    }
}

/** A session opened, changed or closed: its row, without reading apps.list again. */
function applySession(p) {
    const { change, ...entry } = p;
    if (change === "closed") panel.apps.delete(p.session);
    else panel.apps.set(p.session, entry);
    panel.appsChanged = true;
}

function applyPending() {
    panel.frameRequested = false;
    const batch = panel.pending;
    panel.pending = [];
    const appliedAt = Date.now();
    for (const { event, receivedAt } of batch) {
        apply(event);
        const time = event.params && event.params.time;
        if (event.method === "location" && event.params.app === undefined && time) {
            const at = Date.parse(time);
            panel.lags.push({ time, received: receivedAt - at, applied: appliedAt - at });
        }
    }
    if (panel.lags.length > LAG_SAMPLES) panel.lags.splice(0, panel.lags.length - LAG_SAMPLES);
    const byReceipt = new Map();
    for (const { event, receivedAt } of batch) {
        if (!byReceipt.has(receivedAt)) byReceipt.set(receivedAt, []);
        byReceipt.get(receivedAt).push(event);
    }
    for (const [receivedAt, events] of byReceipt) log.add(events, receivedAt);
    if (panel.stale.size) {
        panel.stale.clear();
        refreshAll();
    } else if (panel.appsChanged) {
        panel.appsChanged = false;
        apps.showApps([...panel.apps.values()], panel.permissions);
        controls.showApps([...panel.apps.values()]);
        map.keepSessions(new Set(panel.apps.keys()));
    }
}

element("apps-refresh").addEventListener("click", refresh);
element("services").addEventListener("change", (event) =>
    call("services.set", { enabled: event.target.checked }).then(refresh, report));
const setPolicy = () => call("prompts.policy", { mode: element("policy").value, precise: element("policy-precise").checked }).then(refresh, report);
element("policy").addEventListener("change", setPolicy);
element("policy-precise").addEventListener("change", setPolicy);
element("record-start").addEventListener("click", () => {
    const path = element("record-path").value.trim();
    if (!path) return report(new Error("record: name the trace file to write, such as /tmp/session.jsonl"));
    call("record.start", { path }).then(refresh, report);
});
element("record-stop").addEventListener("click", () => call("record.stop").then((result) => {
    element("record-state").textContent = `recorded ${result.events} events to ${result.path}`;
    refreshAll().then(() => { element("record-state").textContent = `recorded ${result.events} events to ${result.path}`; });
}, report));
for (const radio of document.querySelectorAll("input[name=map-mode]")) {
    radio.addEventListener("change", () => { map.mode = radio.value; });
}
element("goto").addEventListener("submit", (event) => {
    event.preventDefault();
    if (!map.goTo(element("goto-coordinates").value)) report(new Error("Type a place as latitude, longitude in degrees: 48.8584, 2.2945"));
});
element("goto-device").addEventListener("click", () => map.showDeviceHere());
element("route-clear").addEventListener("click", () => { map.waypoints = []; map.drawRoute(); });
element("route-play").addEventListener("click", () => {
    const speed = Number(element("route-speed").value);
    call("panel.route", { waypoints: map.waypoints, speed }).then(refresh, report);
});
