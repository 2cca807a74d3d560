// The phone: a picture turned to the device orientation, buttons to turn it, the rotation
// lock, the hinge of a foldable with its posture, and a compass rose for the heading.

// Quarter turns clockwise, as seen from the front: landscapeRight has its top to the right.
const UPRIGHT = ["portrait", "landscapeRight", "portraitUpsideDown", "landscapeLeft"];

export class PanelDevice {
    constructor({ call, report, refresh }) {
        this.call = call;
        this.report = report;
        this.refresh = refresh;
        this.orientation = "unknown";
        this.phone = document.getElementById("phone");
        this.drawCompassTicks();
        document.getElementById("rotate-left").addEventListener("click", () => this.turn(-1));
        document.getElementById("rotate-right").addEventListener("click", () => this.turn(1));
        document.getElementById("orientation").addEventListener("change", (event) => this.setOrientation(event.target.value));
        document.getElementById("rotation-lock").addEventListener("change", (event) =>
            this.call("device.rotationLock", { enabled: event.target.checked }).then(this.refresh, this.report));
        const hinge = document.getElementById("hinge");
        hinge.addEventListener("input", () => { document.getElementById("hinge-value").textContent = `${hinge.value}°`; });
        hinge.addEventListener("change", () => this.call("device.set", { hingeAngle: Number(hinge.value) }).then(this.refresh, this.report));
        document.getElementById("hinge-release").addEventListener("click", () =>
            this.call("device.set", { hingeAngle: null }).then(this.refresh, this.report));
    }

    drawCompassTicks() {
        const ticks = document.getElementById("compass-ticks");
        for (let degrees = 0; degrees < 360; degrees += 30) {
            const line = document.createElementNS("http://www.w3.org/2000/svg", "line");
            const radians = degrees * Math.PI / 180, inner = degrees % 90 === 0 ? 48 : 51;
            line.setAttribute("x1", (Math.sin(radians) * inner).toFixed(1));
            line.setAttribute("y1", (-Math.cos(radians) * inner).toFixed(1));
            line.setAttribute("x2", (Math.sin(radians) * 56).toFixed(1));
            line.setAttribute("y2", (-Math.cos(radians) * 56).toFixed(1));
            ticks.appendChild(line);
        }
    }

    turn(quarters) {
        const from = UPRIGHT.indexOf(this.orientation);
        const next = UPRIGHT[((from < 0 ? 0 : from) + quarters + 4) % 4];
        this.setOrientation(next);
    }

    setOrientation(orientation) {
        this.showOrientation(orientation);
        this.call("device.set", { orientation }).then(this.refresh, this.report);
    }

    showOrientation(orientation) {
        this.orientation = orientation || "unknown";
        this.phone.className = `o-${this.orientation}` + (this.folded ? " folded" : "");
        const back = this.orientation === "faceDown";
        const source = back ? "/assets/phone-back.svg" : "/assets/phone.svg";
        if (!this.phone.src.endsWith(source)) this.phone.src = source;
        document.getElementById("device-orientation").textContent = this.orientation;
        const select = document.getElementById("orientation");
        if (UPRIGHT.includes(this.orientation) || this.orientation.startsWith("face")) select.value = this.orientation;
    }

    showPosture(posture) {
        const label = document.getElementById("posture");
        const hinge = document.getElementById("hinge");
        if (!posture) {
            label.textContent = "no hinge (not a foldable profile, or no reading yet)";
            this.folded = false;
        } else {
            label.textContent = `${posture.state}${posture.fold ? `, fold ${posture.fold}` : ""}`;
            if (typeof posture.hingeAngle === "number") {
                hinge.value = posture.hingeAngle;
                document.getElementById("hinge-value").textContent = `${posture.hingeAngle}°`;
            }
            this.folded = posture.state === "closed";
        }
        this.showOrientation(this.orientation);
    }

    /** A heading reading: the true heading when there is one, else the magnetic. */
    showHeading(heading) {
        const compass = document.getElementById("compass");
        const readout = document.getElementById("heading-readout");
        if (!heading || typeof heading.magnetic !== "number") {
            compass.classList.add("none");
            readout.textContent = "no heading";
            return;
        }
        const degrees = typeof heading.true === "number" ? heading.true : heading.magnetic;
        compass.classList.remove("none");
        document.getElementById("compass-needle").setAttribute("transform", `rotate(${degrees.toFixed(1)})`);
        const accuracy = typeof heading.accuracy === "number" ? ` ±${heading.accuracy.toFixed(0)}°` : "";
        readout.textContent = `${degrees.toFixed(1)}° ${typeof heading.true === "number" ? "true" : "magnetic"}${accuracy}` +
            (heading.calibrationNeeded || heading.needed ? ", needs calibration" : "");
    }

    /** The device's time zone (sextant-rules(7) Z1-Z10) and its local time now, from the
     * offset the daemon decided (the wall clock shifted by it; a replay's trace time is not
     * the wall's). Redrawn every 10 s so that the minutes move. */
    showTimeZone(zone) {
        this.timeZone = zone;
        const readout = document.getElementById("time-zone-readout");
        if (!zone || !zone.zone) {
            readout.textContent = zone && zone.table === null ? "time zone unknown (no time zone table)" : "time zone unknown (no fix yet)";
            return;
        }
        let text = zone.zone;
        if (typeof zone.utcOffset === "number") {
            const minutes = Math.abs(zone.utcOffset) / 60;
            const hhmm = `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
            const local = new Date(Date.now() + zone.utcOffset * 1000).toISOString().slice(11, 16);
            text += `, UTC${zone.utcOffset < 0 ? "-" : "+"}${hhmm}${zone.isDST ? " DST" : ""}, ${local} local`;
        }
        readout.textContent = text + (zone.automatic === false ? " (set by hand)" : "");
        if (!this.timeZoneClock) this.timeZoneClock = setInterval(() => this.showTimeZone(this.timeZone), 10000);
    }

    showStatus(status) {
        this.showOrientation(status.deviceOrientation);
        document.getElementById("rotation-lock").checked = !!status.rotationLock;
        this.showPosture(status.posture);
        this.showHeading(status.heading);
        this.showTimeZone(status.timeZone);
    }
}
