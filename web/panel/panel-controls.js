// The controls beside the map: the GNSS profile (a preset, a tunnel from now), the compass
// held by hand (a click on the rose), and a region drawn on the map for an app. Each is a
// control call through the panel, as sextantctl makes it; the daemon applies the rules.

const PRESETS = ["open-sky", "forest", "urban", "indoor"];

/** The degrees clockwise from north of a click at (x, y) from the rose's centre (y down). */
export function bearingOf(x, y) {
    const degrees = Math.atan2(x, -y) * 180 / Math.PI;
    return Math.round(((degrees % 360) + 360) % 360 * 10) / 10;
}

export class PanelControls {
    constructor({ call, report, refresh, map }) {
        this.call = call;
        this.report = report;
        this.refresh = refresh;
        this.map = map;
        const element = (id) => document.getElementById(id);
        this.preset = element("gnss-preset");
        this.preset.addEventListener("change", () => this.setProfile(this.preset.value));
        element("gnss-tunnel").addEventListener("click", () => this.tunnelNow());
        element("compass").addEventListener("click", (event) => this.holdHeading(event));
        element("heading-release").addEventListener("click", () =>
            this.call("device.set", { heading: null }).then(this.refresh, this.report));
        element("region-draw").addEventListener("click", () => this.drawRegion());
        element("region-app").addEventListener("change", () => this.showRegions(this.regions));
    }

    setProfile(profile) {
        return this.call("gnss.profile", { profile }).then((state) => { this.showGNSS(state); this.refresh(); }, this.report);
    }

    /** A tunnel from the next fix on: the preset chosen (open sky when off) with tunnel@0+S. */
    tunnelNow() {
        const seconds = Math.max(1, Math.round(Number(document.getElementById("gnss-tunnel-seconds").value) || 15));
        const preset = PRESETS.includes(this.preset.value) ? this.preset.value : "open-sky";
        return this.setProfile(`${preset},tunnel@0+${seconds}`);
    }

    /** status.gnss or gnss.profile's answer: the spec in force. */
    showGNSS(gnss) {
        const spec = gnss && gnss.profile;
        const preset = spec ? spec.split(",")[0] : "off";
        if (document.activeElement !== this.preset) this.preset.value = PRESETS.includes(preset) ? preset : "off";
        document.getElementById("gnss-state").textContent = spec ? `profile ${spec}` : "no profile";
    }

    /** device.set heading, as `sextantctl heading set DEG [--true]`. */
    holdHeading(event) {
        const rose = document.getElementById("compass").getBoundingClientRect();
        const degrees = bearingOf(event.clientX - (rose.left + rose.width / 2), event.clientY - (rose.top + rose.height / 2));
        const fromTrueNorth = document.getElementById("heading-true").checked;
        const heading = fromTrueNorth ? { true: degrees } : { magnetic: degrees };
        return this.call("device.set", { heading }).then(this.refresh, this.report);
    }

    /** The apps a region may be drawn for: those connected. */
    showApps(sessions) {
        const select = document.getElementById("region-app");
        const chosen = select.value;
        const names = [...new Set(sessions.map((s) => s.app))].sort();
        select.replaceChildren(new Option("(an app)", ""), ...names.map((name) => new Option(name, name)));
        if (names.includes(chosen)) select.value = chosen;
    }

    /** The chosen app's regions and their states (regions.list), and its last crossing. */
    showRegions(regions) {
        this.regions = regions || [];
        const app = document.getElementById("region-app").value;
        if (!app || this.drawing) return;
        const own = this.regions.filter((r) => r.app === app);
        const crossing = this.crossings && this.crossings.get(app);
        document.getElementById("region-state").textContent = own.length === 0 ? `${app}: no region`
            : own.map((r) => `${r.identifier} ${r.state}`).join(", ") + (crossing ? `; last: ${crossing}` : "");
    }

    /** A `region` event: the app's crossing, said beside its regions. */
    showCrossing(event) {
        if (!this.crossings) this.crossings = new Map();
        this.crossings.set(event.app, `${event.identifier} ${event.transition} at ${(event.time || "").replace("T", " ").replace("Z", "")}`);
        this.showRegions(this.regions);
    }

    /** The next click on the map is the centre of a region for the chosen app (regions.add). */
    drawRegion() {
        const app = document.getElementById("region-app").value;
        const state = document.getElementById("region-state");
        if (!app) return this.report(new Error("Choose the app the region is for"));
        const radius = Number(document.getElementById("region-radius").value);
        state.textContent = `click the map: the centre of ${app}'s region`;
        this.drawing = true;
        document.getElementById("map").classList.add("drawing");
        this.map.nextClick = ({ lat, lon }) => {
            this.drawing = false;
            const identifier = `panel-${Date.now().toString(36)}`;
            this.call("regions.add", { app, identifier, lat, lon, radius, notifyInitialState: true }).then(this.refresh, this.report);
        };
    }
}
