// The replay: a trace of the panel's folder opened (its track on the map, its control lines
// on the timeline), played, paused, at a speed or as fast as it goes, looped, and sought
// with a slider over its span.

export class PanelReplay {
    constructor({ call, report, map }) {
        this.call = call;
        this.report = report;
        this.map = map;
        this.seeking = false;
        this.element = (id) => document.getElementById(id);
        this.element("trace-refresh").addEventListener("click", () => this.listTraces());
        this.element("trace-list").addEventListener("change", () => { this.element("replay-open").disabled = !this.element("trace-list").value; });
        this.element("replay-open").addEventListener("click", () => this.open());
        this.element("replay-play").addEventListener("click", () => this.play());
        this.element("replay-pause").addEventListener("click", () => this.call("replay.pause").then((s) => this.show(s), this.report));
        this.element("replay-stop").addEventListener("click", () => this.call("replay.stop").then((s) => this.show(s), this.report));
        this.element("replay-speed").addEventListener("change", () => this.restartAtSpeed());
        this.element("replay-loop").addEventListener("change", () => this.restartAtSpeed());
        const seek = this.element("seek");
        seek.addEventListener("input", () => { this.seeking = true; this.element("replay-position").textContent = Number(seek.value).toFixed(1); });
        seek.addEventListener("change", () => this.seek(Number(seek.value)));
    }

    listTraces() {
        return this.call("panel.traces").then((answer) => {
            for (const [id, none] of [["trace-list", "(choose a trace)"], ["scenario-list", "(none)"]]) {
                const select = this.element(id), chosen = select.value;
                select.replaceChildren(new Option(none, ""));
                for (const trace of answer.traces) select.appendChild(new Option(`${trace.name} (${(trace.size / 1024).toFixed(1)} KiB)`, trace.name));
                select.value = answer.traces.some((t) => t.name === chosen) ? chosen : "";
                select.title = `files in ${answer.dir}`;
            }
            this.element("replay-open").disabled = !this.element("trace-list").value;
        }, this.report);
    }

    speed() {
        const value = this.element("replay-speed").value;
        return value === "max" ? "max" : Number(value);
    }

    /** Loads the chosen trace for the map and the timeline, and nothing more: its control
     * lines (a prompt policy, grants) and its fixes change the daemon only once Play is
     * pressed. */
    async open() {
        const name = this.element("trace-list").value;
        if (!name) return;
        try {
            this.trace = await this.call("panel.trace", { name });
            const scenario = this.element("scenario-list").value;
            this.scenario = scenario ? await this.call("panel.trace", { name: scenario }) : null;
            this.map.showTrace(this.trace);
            this.drawTimeline();
            this.show(await this.call("replay.status"));
        } catch (error) {
            this.report(error);
        }
    }

    /** The daemon's replay is this trace's (not one started elsewhere). */
    playsThisTrace() {
        return Boolean(this.trace && this.status && this.status.path === this.trace.path);
    }

    play() {
        const state = this.status && this.status.state;
        const start = state === "paused" && this.playsThisTrace() ? this.call("replay.resume") :
            this.call("replay.start", this.startParams()).then(() => this.call("replay.status"));
        start.then((s) => this.show(s), this.report);
    }

    startParams() {
        const params = { path: this.trace.path, speed: this.speed(), loop: this.element("replay-loop").checked };
        if (this.scenario) params.scenario = this.scenario.path;
        return params;
    }

    /** Speed and loop are replay.start's: the replay starts again there, where it stood. */
    async restartAtSpeed() {
        if (!this.playsThisTrace() || !["running", "paused"].includes(this.status.state)) return;
        const { position, state } = this.status;
        try {
            const until = state === "paused" ? { until: 0 } : {};
            await this.call("replay.start", { ...this.startParams(), ...until });
            await this.call("replay.seek", { position });
            this.show(await this.call("replay.status"));
        } catch (error) {
            this.report(error);
        }
    }

    seek(position) {
        this.seeking = false;
        this.call("replay.seek", { position }).then((s) => this.show(s), this.report);
    }

    drawTimeline() {
        const marks = this.element("timeline-marks");
        marks.replaceChildren();
        const duration = this.trace.duration || 0;
        if (duration <= 0) return;
        const controls = (this.trace.controls || []).map((c) => ({ ...c, from: "trace" }))
            .concat(((this.scenario && this.scenario.controls) || []).map((c) => ({ ...c, from: "scenario" })));
        for (const control of controls) {
            const mark = document.createElement("div");
            mark.className = `mark ${control.from}`;
            mark.title = `${control.t.toFixed(1)} s: ${control.method} (${control.from})`;
            mark.dataset.method = control.method;
            mark.style.left = `${(100 * control.t / duration).toFixed(3)}%`;
            marks.appendChild(mark);
        }
    }

    /** A replay.status object, from an answer or a `replay` event. */
    show(status) {
        if (!status || typeof status !== "object") return;
        this.status = status;
        const active = ["running", "paused"].includes(status.state);
        const seek = this.element("seek");
        seek.max = String(status.duration || 0);
        seek.disabled = !active;
        if (!this.seeking) seek.value = String(status.position || 0);
        if (!this.seeking) this.element("replay-position").textContent = Number(status.position || 0).toFixed(1);
        this.element("replay-duration").textContent = Number(status.duration || 0).toFixed(1);
        const speed = status.speed === undefined ? "" : ` at ${status.speed === "max" ? "max" : `${status.speed}×`}`;
        this.element("replay-state").textContent = `${status.state}${active ? speed : ""}${status.loop ? `, loop, lap ${status.lap}` : ""}${status.error ? ` — ${status.error}` : ""}`;
        this.element("replay-path").textContent = status.path || "";
        this.element("replay-play").disabled = !(this.trace && status.state !== "running");
        this.element("replay-pause").disabled = status.state !== "running";
        this.element("replay-stop").disabled = !active;
        this.map.moveCursor(status.position || 0);
    }
}
