// The sensors held by hand beside the map (ambient light, proximity, barometer, gyroscope), the
// activity, and the time zone set by hand. Each is a control call through the panel, as
// sextantctl makes it (`light 320`, `proximity near`, `pressure 990.5`, `gyro X Y Z`, `activity set
// walking`, `time zone set ZONE`); the daemon applies the rules. The readouts are the daemon's:
// `status` (the gyroscope's rate is `status.deviceMotion`'s while an app streams device
// motion) and the watch's `light`, `proximity`, `altitude`, `activity` and `pedometer` events.

// The light slider is logarithmic: lux from 0 to 999,999 over six decades.
const LIGHT_DECADES = 6;

/** The lux a slider position (0 to 6) stands for: 10^position − 1, whole. */
export function luxOf(position) {
    return Math.max(0, Math.round(10 ** Number(position) - 1));
}

/** The slider position of a lux value. */
export function positionOf(lux) {
    return Math.min(LIGHT_DECADES, Math.log10(Math.max(0, Number(lux)) + 1));
}

const element = (id) => document.getElementById(id);

export class PanelSensors {
    constructor({ call, report, refresh }) {
        this.call = call;
        this.report = report;
        this.refresh = refresh;
        this.held = [];
        this.onSubmit("light-form", () => this.set({ light: Number(element("light-lux").value) }));
        const slider = element("light-slider");
        slider.addEventListener("input", () => { element("light-lux").value = luxOf(slider.value); });
        slider.addEventListener("change", () => this.set({ light: luxOf(slider.value) }));
        element("light-release").addEventListener("click", () => this.set({ light: null }));
        element("proximity-near").addEventListener("click", () => this.set({ proximity: true }));
        element("proximity-far").addEventListener("click", () => this.set({ proximity: false }));
        element("proximity-release").addEventListener("click", () => this.set({ proximity: null }));
        this.onSubmit("pressure-form", () => this.set({ pressure: Number(element("pressure-hpa").value) }));
        element("pressure-release").addEventListener("click", () => this.set({ pressure: null }));
        this.onSubmit("gyro-form", () => this.set({ rotationRate: { x: this.gyroAxis("x"), y: this.gyroAxis("y"), z: this.gyroAxis("z") } }));
        element("gyro-release").addEventListener("click", () => this.set({ rotationRate: null }));
        element("activity").addEventListener("change", (event) =>
            this.call("activity.set", { activity: event.target.value }).then(this.refresh, this.report));
        this.onSubmit("time-zone-form", () => this.setZone(element("time-zone-id").value.trim()));
        element("time-zone-automatic").addEventListener("click", () => this.setZone(null));
        this.offerZones();
    }

    onSubmit(id, action) {
        element(id).addEventListener("submit", (event) => { event.preventDefault(); action(); });
    }

    /** device.set with one sensor's value, or null to release it. */
    set(params) {
        return this.call("device.set", params).then(this.refresh, this.report);
    }

    /** timeZone.set: a zone of the daemon's tzdata, or null for automatic (Z9). */
    setZone(zone) {
        if (zone === "") return this.report(new Error("Type a time zone id, such as Europe/Lisbon"));
        return this.call("timeZone.set", { zone }).then(this.refresh, this.report);
    }

    /** The zones the browser knows, offered as the box's suggestions (the daemon decides). */
    offerZones() {
        const zones = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
        element("time-zone-list").replaceChildren(...zones.map((zone) => new Option(zone)));
    }

    isHeld(kind) { return this.held.includes(kind); }

    showLight(light) {
        const held = this.isHeld("light") ? ", held" : "";
        element("light-state").textContent = light && typeof light.lux === "number" ? `${light.lux} lux${held}` : `no reading${held}`;
        // The controls follow the daemon's level, unless a hand is on them.
        if (light && typeof light.lux === "number" && ![element("light-slider"), element("light-lux")].includes(document.activeElement)) {
            element("light-slider").value = positionOf(light.lux);
            element("light-lux").value = light.lux;
        }
    }

    showProximity(proximity) {
        const known = proximity && typeof proximity.near === "boolean";
        const held = this.isHeld("prox") ? ", held" : "";
        element("proximity-state").textContent = known ? `${proximity.near ? "near" : "far"}${held}` : `no reading${held}`;
        element("proximity-near").setAttribute("aria-pressed", String(known && proximity.near));
        element("proximity-far").setAttribute("aria-pressed", String(known && !proximity.near));
    }

    /** The barometer as the altimeter heard it (kPa on the wire, hPa here): the daemon
     *  reports a pressure only while an app streams the altimeter. */
    showPressure(altimeter) {
        const held = this.isHeld("pressure");
        const state = element("pressure-state");
        if (altimeter && typeof altimeter.pressure === "number") {
            state.textContent = `${(altimeter.pressure * 10).toFixed(1)} hPa${held ? ", held" : ""}`;
        } else {
            state.textContent = held ? "held (its value shows while an app streams the altimeter)" : "no reading (shown while an app streams the altimeter)";
        }
    }

    /** One axis of the gyroscope form, in rad/s (the daemon checks the range). */
    gyroAxis(axis) { return Number(element(`gyro-${axis}`).value); }

    /** The rotation rate as device motion fused it (rad/s): the daemon says a rate only
     *  while an app streams device motion. */
    showRotationRate(motion) {
        const rate = motion && motion.rotationRate;
        const text = rate ? `${rate.x}, ${rate.y}, ${rate.z} rad/s` : null;
        const state = element("gyro-state");
        if (this.isHeld("gyro")) {
            state.textContent = text ? `${text}, held` : "held (its value shows while an app streams device motion)";
        } else {
            state.textContent = text ? `not held; ${text} from the sensors` : "not held";
        }
    }

    showActivity(activity) {
        this.activity = activity;
        const types = activity && activity.types && activity.types.length ? activity.types.join(" + ") : "unknown";
        const how = activity && activity.confidence ? ` (${activity.confidence}, ${activity.source})` : "";
        const steps = this.steps ? `; ${this.steps.numberOfSteps} steps, ${Math.round(this.steps.distance)} m` : "";
        element("activity-state").textContent = `${types}${how}${steps}`;
    }

    /** The device's step totals (status.steps, or a pedometer event without app). */
    showSteps(steps) {
        this.steps = steps && typeof steps.numberOfSteps === "number" ? steps : null;
        this.showActivity(this.activity);
    }

    showStatus(status) {
        this.held = status.held || [];
        this.showLight(status.light);
        this.showProximity(status.proximity);
        this.showPressure(status.altimeter);
        this.showRotationRate(status.deviceMotion);
        this.steps = status.steps && typeof status.steps.numberOfSteps === "number" ? status.steps : null;
        this.showActivity(status.activity);
    }

    /** A watch event of these services; true when it was one. */
    apply(method, p) {
        switch (method) {
        case "light": this.showLight(p); return true;
        case "proximity": this.showProximity(p); return true;
        case "altitude": this.showPressure(p); return true;
        case "activity": if (p.app === undefined) this.showActivity(p); return true;
        case "pedometer": if (p.app === undefined) this.showSteps(p); return true;
        default: return false;
        }
    }
}
