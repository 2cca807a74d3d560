// The event log: what each app received and what the control side saw, newest first,
// filterable by app and kind. Bounded, so that a long replay does not grow the page.

const KEEP = 2000;

// Why a prompt closed unanswered (promptClosed's reason), as sextantctl watch says it.
const cancellations = {
    appInBackground: "the app went to the background (L6)",
    sessionEnded: "the app's session ended",
};

// A session event as a sentence: what happened to the app, not its fields.
function sessionSentence(p) {
    const who = `session ${p.session}${p.pid ? ` (pid ${p.pid}, ${p.kind || "app"})` : ""}`;
    if (p.change === "opened") return `connected: ${who}, ${p.state || "foreground"}`;
    if (p.change === "closed") return `disconnected: ${who}`;
    const authorization = p.authorization || {};
    const streams = (p.streams || []).length ? `streams ${p.streams.join(", ")}` : "streams nothing";
    const parts = [p.state, authorization.status && `${authorization.status}${authorization.accuracy ? ` (${authorization.accuracy})` : ""}`,
        p.interfaceOrientation && `interface ${p.interfaceOrientation}${p.interfaceLocked ? " locked" : ""}`, streams];
    return `now ${parts.filter(Boolean).join(", ")}: ${who}`;
}

function summary(event) {
    const p = event.params || {};
    switch (event.method) {
    case "location":
    case "significantChange":
        return `${Number(p.lat).toFixed(6)}, ${Number(p.lon).toFixed(6)} ±${Math.round(p.hAcc)} m${p.accuracy ? ` ${p.accuracy}` : ""}`;
    case "authorization": return `${p.status} ${p.accuracy || ""}`;
    case "deviceOrientation":
    case "interfaceOrientation": return `${p.previous} → ${p.orientation}`;
    case "prompt": return `${p.kind} ${p.level || ""} (${p.id})`;
    case "promptClosed": return p.cancelled ? `cancelled${cancellations[p.reason] ? ": " + cancellations[p.reason] : ""} (${p.id})` : `${p.choice}${p.precise === false ? " imprecise" : ""} (${p.id})`;
    case "replay": return `${p.state} ${Number(p.position || 0).toFixed(1)} / ${Number(p.duration || 0).toFixed(1)} s`;
    case "region": return `${p.identifier} ${p.transition} → ${p.state}`;
    case "session": return sessionSentence(p);
    case "heading": return `${Number(p.magnetic).toFixed(1)}° magnetic${typeof p.true === "number" ? `, ${p.true.toFixed(1)}° true` : ""}`;
    case "light": return `${p.lux} lux`;
    case "proximity": return p.near ? "near" : "far";
    case "altitude": return `${(Number(p.pressure) * 10).toFixed(1)} hPa, ${Number(p.relativeAltitude).toFixed(1)} m since the start${p.derived ? " (from the fixes)" : ""}`;
    case "activity": return `${(p.types || []).join(" + ") || "unknown"} (${p.confidence}, ${p.source})`;
    case "pedometer": return `${p.numberOfSteps} steps, ${Math.round(p.distance)} m`;
    default: {
        const { app, session, ...rest } = p;
        return JSON.stringify(rest);
    }
    }
}

export class PanelLog {
    constructor() {
        this.entries = [];
        this.apps = new Set();
        this.kinds = new Set();
        this.body = document.querySelector("#log-table tbody");
        this.appFilter = document.getElementById("log-app");
        this.kindFilter = document.getElementById("log-kind");
        for (const select of [this.appFilter, this.kindFilter]) select.addEventListener("change", () => this.redraw());
        document.getElementById("log-clear").addEventListener("click", () => { this.entries = []; this.redraw(); });
    }

    /** Adds a batch of events received at `receivedAt` (ms since the epoch). */
    add(events, receivedAt) {
        const fresh = [];
        for (const event of events) {
            const app = (event.params && event.params.app) || "(device)";
            const entry = { app, kind: event.method, time: (event.params && event.params.time) || new Date(receivedAt).toISOString(), event };
            this.entries.push(entry);
            fresh.push(entry);
            this.offer(this.apps, this.appFilter, app);
            this.offer(this.kinds, this.kindFilter, event.method);
        }
        if (this.entries.length > KEEP) this.entries.splice(0, this.entries.length - KEEP);
        const rows = fresh.filter((entry) => this.shows(entry)).reverse().map((entry) => this.row(entry));
        this.body.prepend(...rows);
        while (this.body.children.length > KEEP) this.body.lastChild.remove();
        this.count();
    }

    offer(known, select, value) {
        if (known.has(value)) return;
        known.add(value);
        const option = document.createElement("option");
        option.value = option.textContent = value;
        select.appendChild(option);
    }

    shows(entry) {
        return (!this.appFilter.value || this.appFilter.value === entry.app) && (!this.kindFilter.value || this.kindFilter.value === entry.kind);
    }

    row(entry) {
        const row = document.createElement("tr");
        row.dataset.kind = entry.kind;
        row.dataset.app = entry.app;
        for (const [text, className] of [[entry.time.replace("T", " ").replace("Z", ""), "time"], [entry.app, "app"], [entry.kind, "kind"], [summary(entry.event), "detail"]]) {
            const td = document.createElement("td");
            td.textContent = text;
            td.className = className;
            row.appendChild(td);
        }
        row.title = JSON.stringify(entry.event.params);
        return row;
    }

    redraw() {
        this.body.replaceChildren(...this.entries.filter((entry) => this.shows(entry)).reverse().map((entry) => this.row(entry)));
        this.count();
    }

    count() {
        document.getElementById("log-count").textContent = `${this.body.children.length} of ${this.entries.length} shown`;
    }
}
