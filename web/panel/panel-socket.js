// The page's one WebSocket to sextant-panel: requests answered by id, pushed `events`
// batches handed on whole. Reconnects after a loss, since the daemon or the panel may
// restart while a tester keeps the page open.

import { panelToken, socketProtocols } from "./panel-token.js";

export class PanelSocket {
    constructor({ onHello, onEvents, onState, onDaemon, onNoToken }) {
        this.onHello = onHello;
        this.onEvents = onEvents;
        this.onState = onState;
        this.onDaemon = onDaemon;
        this.nextId = 1;
        this.waiting = new Map();
        this.token = panelToken();
        if (this.token) this.connect(); else onNoToken();
    }

    connect() {
        const scheme = location.protocol === "https:" ? "wss:" : "ws:";
        this.socket = new WebSocket(`${scheme}//${location.host}/ws`, socketProtocols(this.token));
        this.socket.addEventListener("open", () => this.onState(true));
        this.socket.addEventListener("message", (message) => this.receive(message.data));
        this.socket.addEventListener("close", () => {
            this.onState(false);
            for (const { reject } of this.waiting.values()) reject(new Error("the panel's connection closed"));
            this.waiting.clear();
            setTimeout(() => this.connect(), 1000);
        });
    }

    receive(text) {
        const receivedAt = Date.now();
        let frame;
        try {
            frame = JSON.parse(text);
        } catch (error) {
            console.warn("panel: a frame that is not JSON", text.slice(0, 200));
            return;
        }
        if (frame.hello) {
            this.onHello(frame.hello);
        } else if (frame.daemon) {
            this.onDaemon(frame.daemon);
        } else if (Array.isArray(frame.events)) {
            this.onEvents(frame.events, receivedAt, frame.dropped || 0);
        } else if (frame.id !== undefined && this.waiting.has(frame.id)) {
            const { resolve, reject, method } = this.waiting.get(frame.id);
            this.waiting.delete(frame.id);
            if (frame.error) {
                const error = new Error(`${method}: ${frame.error.message} (${frame.error.code})`);
                error.code = frame.error.code;
                reject(error);
            } else {
                resolve(frame.result);
            }
        }
    }

    /** Sends one control request; the daemon's result, or an Error with its message. */
    call(method, params = {}) {
        if (!this.socket || this.socket.readyState !== WebSocket.OPEN) {
            return Promise.reject(new Error(`${method}: not connected to the panel`));
        }
        const id = this.nextId++;
        return new Promise((resolve, reject) => {
            this.waiting.set(id, { resolve, reject, method });
            this.socket.send(JSON.stringify({ id, method, params }));
        });
    }
}
