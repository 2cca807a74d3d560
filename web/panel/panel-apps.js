// The apps table (every session with its authorization and what it streams, and buttons
// for what the control side may change) and the prompt cards, shown as an iPhone shows its
// alerts: one card per open prompt, with the phone's choices.

function cell(row, text, className) {
    const td = document.createElement("td");
    td.textContent = text === undefined || text === null ? "–" : String(text);
    // The column may cut it: the whole text on hover.
    td.title = td.textContent;
    if (className) td.className = className;
    row.appendChild(td);
    return td;
}

function button(parent, label, title, action, className) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = label;
    b.title = title;
    if (className) b.className = className;
    b.addEventListener("click", action);
    parent.appendChild(b);
    return b;
}

/** A long app id as its last components, where ids differ (`…navigation.app01`); the
    cell's tooltip has it whole. */
function shortId(app) {
    if (app.length <= 18) return app;
    const parts = app.split(".");
    let shown = parts.pop();
    while (parts.length && shown.length + parts[parts.length - 1].length + 1 <= 16) shown = parts.pop() + "." + shown;
    return "…" + shown.slice(-16);
}

/** What a session streams, from apps.list's `streams` (topic names). */
function streaming(session) {
    const streams = session.streams || (session.locationStreaming ? ["location"] : []);
    return streams.length ? streams.join(", ") : "no";
}

/** iOS's by-hand states for `session` (docs/platforms.md L5, I2, I9): [value, label, params]. */
function iosChoices(session, authorization) {
    const app = session.app;
    const choices = [
        ["once", "Allow Once", { app, status: "authorizedWhenInUse", once: true, accuracy: authorization.accuracy || "full" }],
        ["provisional", "Provisional Always", { app, status: "authorizedAlways", provisional: true }],
    ];
    if (["authorizedWhenInUse", "authorizedAlways"].includes(authorization.status)) {
        for (const key of session.purposeKeys || []) {
            choices.push([`temporary:${key}`, `Full accuracy: ${key}`, { app, status: authorization.status, temporaryFullAccuracy: key }]);
        }
    }
    return choices;
}

/** Android's states as Settings and the dialog leave them (docs/platforms.md AN15, AN16, AN38). */
function androidChoices(app) {
    return [
        ["always", "Allow all the time", { app, grants: ["coarse", "fine", "background"] }],
        ["whileUsing", "While using: precise", { app, grants: ["coarse", "fine"] }],
        ["whileUsingCoarse", "While using: approximate", { app, grants: ["coarse"] }],
        ["oneTime", "Only this time: precise", { app, grants: ["coarse", "fine"], oneTime: true }],
        ["oneTimeCoarse", "Only this time: approximate", { app, grants: ["coarse"], oneTime: true }],
        ["dontAllow", "Don't allow", { app, grants: [] }],
        ["dontAskAgain", "Don't allow, don't ask again", { app, grants: [], denials: 2 }],
    ];
}

export class PanelApps {
    constructor({ call, report, refresh }) {
        this.call = call;
        this.report = report;
        this.refresh = refresh;
        this.cards = new Map();
    }

    change(method, params) {
        return this.call(method, params).then(this.refresh, this.report);
    }

    /** Sessions from apps.list, their allowOnce from permissions.list. */
    showApps(sessions, permissions) {
        const once = new Map((permissions || []).map((p) => [p.app, p]));
        const body = document.querySelector("#apps-table tbody");
        body.replaceChildren();
        for (const session of sessions) {
            const row = document.createElement("tr");
            row.dataset.app = session.app;
            row.dataset.session = session.session;
            const authorization = session.authorization || {};
            const stored = once.get(session.app) || {};
            cell(row, session.session, "session");
            cell(row, shortId(session.app), "app").title = `${session.app}: pid ${session.pid}, uid ${session.uid}, via ${session.kind}`;
            cell(row, session.uid, "uid");
            cell(row, session.state, "state");
            // "authorized" said once, in the header: whenInUse, always, denied, notDetermined.
            const status = authorization.status ? authorization.status.replace(/^authorized(.)/, (_, c) => c.toLowerCase()) : authorization.status;
            // What the app cannot see (docs/platforms.md I2, I9): Settings' word for a
            // provisional Always, the purpose keys granted full accuracy for now.
            const shown = session.provisional ? `${status} (provisional: ${session.settings})` : status;
            cell(row, shown, `authorization status-${authorization.status}`).title = authorization.status || "";
            const keys = session.temporaryFullAccuracy || [];
            cell(row, authorization.accuracy + (keys.length ? ` (temporary: ${keys.join(", ")})` : ""), "accuracy");
            cell(row, session.allowOnce || stored.allowOnce ? "yes" : "no", "allow-once");
            cell(row, session.interfaceOrientation + (session.interfaceLocked ? " 🔒" : ""), "interface");
            cell(row, streaming(session), "streaming");
            this.actions(cell(row, "", "actions"), session, authorization);
            body.append(row);
        }
        document.getElementById("apps-empty").hidden = sessions.length > 0;
    }

    actions(td, session, authorization) {
        td.textContent = "";
        td.title = "";
        const app = session.app;
        button(td, "While Using", "permissions.set authorizedWhenInUse", () => this.change("permissions.set", { app, status: "authorizedWhenInUse" }), "grant-when-in-use");
        button(td, "Always", "permissions.set authorizedAlways", () => this.change("permissions.set", { app, status: "authorizedAlways" }), "grant-always");
        button(td, "Revoke", "permissions.set denied", () => this.change("permissions.set", { app, status: "denied" }), "revoke danger");
        button(td, "Reset", "permissions.reset: not determined again", () => this.change("permissions.reset", { app }), "reset");
        const precise = authorization.accuracy !== "reduced";
        button(td, precise ? "Reduce" : "Precise", "permissions.set: full or reduced accuracy", () =>
            this.change("permissions.set", { app, status: authorization.status, accuracy: precise ? "reduced" : "full" }), "accuracy");
        this.stateMenu(td, session, authorization);
        const foreground = session.state === "foreground";
        button(td, foreground ? "To background" : "To foreground", "apps.update state", () =>
            this.change("apps.update", { session: session.session, state: foreground ? "background" : "foreground" }), "app-state");
    }

    /** The states a platform's prompts and Settings would give, set without them so that a
     *  test starts mid-flow: on an iPhone Allow Once, provisional Always, temporary full
     *  accuracy for each purpose key the app declared (docs/platforms.md "Setting the
     *  session grants by hand"); on an Android phone Settings' grants, "Only this time" and
     *  "don't ask again" (AN15, AN16, AN38). One menu, not a button each, so that a row keeps
     *  its six buttons in the window (issue 43.1). */
    stateMenu(td, session, authorization) {
        const android = document.body.dataset.platform === "android";
        const choices = android ? androidChoices(session.app) : iosChoices(session, authorization);
        const menu = document.createElement("select");
        menu.className = "state-menu";
        menu.title = android ? "permissions.set: Android's grants as Settings sets them, Only this time, don't ask again"
            : "permissions.set: a state iOS's prompts would give (Allow Once, provisional Always, temporary full accuracy)";
        menu.appendChild(new Option(android ? "Android…" : "iOS…", ""));
        for (const [value, label] of choices) menu.appendChild(new Option(label, value));
        menu.addEventListener("change", () => {
            const chosen = choices.find(([value]) => value === menu.value);
            menu.value = "";
            if (chosen) this.change("permissions.set", chosen[2]);
        });
        td.appendChild(menu);
    }

    /** A card for each open prompt; cards of closed prompts go. */
    showPrompts(prompts) {
        const open = new Set(prompts.map((p) => p.id));
        for (const [id, card] of this.cards) {
            if (!open.has(id)) {
                card.remove();
                this.cards.delete(id);
            }
        }
        for (const prompt of prompts) if (!this.cards.has(prompt.id)) this.addCard(prompt);
    }

    /** A prompt's card, once: the page's reading of `prompts.list` and the `prompt` event
     *  may both bring the same prompt, in either order. */
    addCard(prompt) {
        if (this.cards.has(prompt.id)) return;
        const card = document.createElement("div");
        card.className = "prompt-card";
        card.dataset.id = prompt.id;
        card.dataset.app = prompt.app;
        card.dataset.kind = prompt.kind;
        const title = document.createElement("h3");
        const text = document.createElement("p");
        const choices = document.createElement("div");
        choices.className = "choices";
        const answer = (choice, precise) => this.call("prompts.answer", { id: prompt.id, choice, precise })
            .then(() => { this.closeCard(prompt.id); this.refresh(); }, this.report);
        if (prompt.kind === "servicesOff") {
            title.textContent = `Turn On Location Services to Allow “${prompt.app}” to Determine Your Location`;
            text.textContent = `session ${prompt.session}, raised ${prompt.created}`;
            button(choices, "Settings", "settings", () => answer("settings", true), "choice-settings");
            button(choices, "Cancel", "cancel", () => answer("cancel", true), "choice-cancel");
        } else if (prompt.kind === "androidLocation") {
            this.androidDialog(prompt, title, text, choices, answer);
        } else if (prompt.kind === "alwaysUpgrade") {
            // iOS's second prompt (docs/platforms.md I3–I5).
            title.textContent = `Allow “${prompt.app}” to also use your location even when you are not using the app?`;
            text.textContent = `session ${prompt.session}, raised ${prompt.created}`;
            button(choices, "Keep Only While Using", "keepWhileUsing", () => answer("keepWhileUsing", true), "choice-keepWhileUsing");
            button(choices, "Change to Always Allow", "changeToAlways", () => answer("changeToAlways", true), "choice-changeToAlways primary");
        } else if (prompt.kind === "temporaryFullAccuracy") {
            // iOS's temporary full accuracy for a purpose key (I9).
            title.textContent = `“${prompt.app}” would like to use your precise location (${prompt.purposeKey})`;
            text.textContent = `session ${prompt.session}, raised ${prompt.created}`;
            button(choices, "Allow Once", "allow", () => answer("allow", true), "choice-allow primary");
            button(choices, "Don't Allow", "deny", () => answer("deny", true), "choice-deny danger");
        } else if (prompt.kind === "motionFitness" || prompt.kind === "androidActivityRecognition") {
            // iOS's Motion & Fitness prompt, Android's ACTIVITY_RECOGNITION dialog (docs/motion.md A13, A15).
            const ios = prompt.kind === "motionFitness";
            title.textContent = ios ? `“${prompt.app}” Would Like to Access Your Motion & Fitness Activity`
                : `Allow “${prompt.app}” to access your physical activity?`;
            text.textContent = `session ${prompt.session}, raised ${prompt.created}`;
            button(choices, ios ? "Don't Allow" : "Don't allow", "dontAllow", () => answer("dontAllow", true), "choice-dontAllow danger");
            button(choices, ios ? "OK" : "Allow", "allow", () => answer("allow", true), "choice-allow primary");
        } else {
            title.textContent = `Allow “${prompt.app}” to use your location?`;
            text.textContent = `asks for ${prompt.level || "location"} — session ${prompt.session}, raised ${prompt.created}`;
            const label = document.createElement("label");
            const precise = document.createElement("input");
            precise.type = "checkbox";
            precise.checked = true;
            precise.className = "precise";
            label.append(precise, " Precise");
            choices.appendChild(label);
            button(choices, "Allow Once", "allowOnce", () => answer("allowOnce", precise.checked), "choice-allowOnce");
            button(choices, "Allow While Using App", "allowWhileUsing", () => answer("allowWhileUsing", precise.checked), "choice-allowWhileUsing primary");
            if (prompt.level === "always") {
                button(choices, "Change to Always Allow", "allowAlways", () => answer("allowAlways", precise.checked), "choice-allowAlways");
            }
            button(choices, "Don't Allow", "dontAllow", () => answer("dontAllow", precise.checked), "choice-dontAllow danger");
        }
        card.append(title, text, choices);
        document.getElementById("prompts").appendChild(card);
        this.cards.set(prompt.id, card);
    }

    /** Android's dialog (docs/platforms.md AN3): the buttons its API level has, Precise or
     *  Approximate when it offers them. */
    androidDialog(prompt, title, text, choices, answer) {
        const dialog = prompt.android || { asked: [], choices: [], approximateOffered: false };
        title.textContent = `Allow “${prompt.app}” to access this device’s location?`;
        text.textContent = `asks for ${dialog.asked.join(", ")} — session ${prompt.session}, raised ${prompt.created}`;
        const precise = document.createElement("input");
        precise.type = "checkbox";
        precise.checked = true;
        precise.className = "precise";
        if (dialog.approximateOffered) {
            const label = document.createElement("label");
            label.append(precise, " Precise");
            choices.appendChild(label);
        }
        const words = { allowAllTheTime: "Allow all the time", whileUsing: "While using the app", onlyThisTime: "Only this time", dontAllow: "Don’t allow" };
        for (const choice of dialog.choices) {
            const style = choice === "dontAllow" ? " danger" : choice === "whileUsing" ? " primary" : "";
            button(choices, words[choice] || choice, choice, () => answer(choice, precise.checked), `choice-${choice}${style}`);
        }
    }

    closeCard(id) {
        const card = this.cards.get(id);
        if (card) card.remove();
        this.cards.delete(id);
    }
}
