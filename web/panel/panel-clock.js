// The device's clock (RULES C1–C10): its time from `time.get`, read with the rest of the
// daemon's state and again on each `clockChanged` of the watch; the buttons move it as
// sextantctl does (`time advance 90d`, `time reset`). Only the control side moves time.

const element = (id) => document.getElementById(id);
const UNITS = { s: 1, m: 60, h: 3600, d: 86400 };

/** Seconds of a duration as sextantctl time advance reads it: a number with s, m, h or d
 *  ("61s", "15m", "2h", "90d"), or seconds alone; null for anything else. */
export function secondsOf(text) {
    const unit = UNITS[text.slice(-1)];
    const number = unit ? text.slice(0, -1) : text;
    if (!/^[0-9.]+$/.test(number)) return null;
    const value = Number(number);
    return Number.isFinite(value) ? value * (unit || 1) : null;
}

/** An offset in whole seconds as days, hours, minutes and seconds: "90 d 15 m". */
export function spanOf(seconds) {
    let left = Math.round(Math.abs(seconds));
    const parts = [];
    for (const [unit, size] of [["d", 86400], ["h", 3600], ["m", 60], ["s", 1]]) {
        const count = Math.floor(left / size);
        left -= count * size;
        if (count) parts.push(`${count} ${unit}`);
    }
    return parts.join(" ") || "0 s";
}

export class PanelClock {
    constructor({ call, report }) {
        this.call = call;
        this.report = report;
        for (const button of document.querySelectorAll("button.clock-advance")) {
            button.addEventListener("click", () => this.advance(Number(button.dataset.seconds)));
        }
        element("clock-form").addEventListener("submit", (event) => {
            event.preventDefault();
            const text = element("clock-duration").value.trim();
            const seconds = secondsOf(text);
            if (seconds === null) return this.report(new Error(`Advance by a number with s, m, h or d (61s, 15m, 2h, 90d), not "${text}"`));
            this.advance(seconds);
        });
        element("clock-reset").addEventListener("click", () => this.call("time.reset").then((state) => this.show(state), this.report));
    }

    advance(seconds) {
        return this.call("time.advance", { seconds }).then((state) => this.show(state), this.report);
    }

    /** The clock read afresh (with the panel's other state). */
    read() {
        return this.call("time.get").then((state) => this.show(state), this.report);
    }

    /** time.get's answer, or a clockChanged event's params. */
    show(state) {
        const offset = state.offsetSeconds;
        const wall = offset === 0 ? "host time" : `host ${offset < 0 ? "−" : "+"} ${spanOf(offset)}`;
        element("clock-state").textContent = `${state.wall} (${wall})`;
    }
}
