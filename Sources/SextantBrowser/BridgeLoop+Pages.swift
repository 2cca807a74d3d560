import SextantProtocol

/// What makes every page the app's, wherever and whenever it was opened: the browser
/// contexts beside the default one (a test framework's `new_context()`), the pages open
/// before the bridge came, and the fixes' own times.
extension BridgeLoop {
    /// Sets up a page attached: its context given the permission first, then the page; a
    /// page open before the bridge (not waiting for it) whose document never ran the
    /// bridge's script is reloaded last, once it runs (a command sent to it while its
    /// reload's document is held for the bridge would wait for ever).
    mutating func attached(page session: String, target: JSONValue, waiting: Bool) async {
        if let context = target["browserContextId"]?.stringValue { await adopt(context: context) }
        let openBefore = waiting ? false : await isOutsideTheRules(session)
        await setUp(page: session, targetID: target["targetId"]?.stringValue)
        await command("Runtime.runIfWaitingForDebugger", [:], session: session)
        if openBefore { await reloadOpenPage(session, url: target["url"]?.stringValue ?? "") }
    }

    /// The contexts there are as the bridge connects (`Target.getBrowserContexts` names
    /// every one but the default); a context made later is adopted with its first page.
    mutating func learnContexts() async {
        let known = await answer("Target.getBrowserContexts", [:])
        guard case .array(let ids)? = known?["browserContextIds"] else { return }
        contexts.formUnion(ids.compactMap(\.stringValue))
    }

    /// A context seen for the first time (a page of it attached) gets the permission the
    /// default one has, before its page runs: its page's prompt, positions and denial
    /// are then the same as a page's of the default context.
    mutating func adopt(context: String) async {
        guard !contexts.contains(context) else { return }
        contexts.insert(context)
        await command("Browser.setPermission", Self.inContext(context, BrowserPicture.setPermission(picture.permission).params))
    }

    /// `Browser.setPermission` without a context sets the default context's only: the same
    /// setting goes to every other context the bridge knows.
    func setPermissionInContexts(_ params: JSONValue) async {
        for context in contexts.sorted() { await command("Browser.setPermission", Self.inContext(context, params)) }
    }

    static func inContext(_ context: String, _ params: JSONValue) -> JSONValue {
        guard case .object(var members) = params else { return params }
        members["browserContextId"] = .string(context)
        return .object(members)
    }

    /// Whether the page's document is one the bridge's script never ran in (a page opened
    /// before any bridge): its calls were answered by Chromium alone ("User denied
    /// Geolocation" headless) and a page that was refused does not ask again. A page of
    /// Chromium's own (`about:`, `chrome:`) asked nothing.
    func isOutsideTheRules(_ session: String) async -> Bool {
        let ran = await answer("Runtime.evaluate", ["expression": "typeof window.__sextantPermissionChanged", "returnByValue": true], session: session)
        guard let type = ran?["result"]?["value"]?.stringValue else { return false }
        return type == "undefined"
    }

    /// Reloads a page open before the bridge, now under its rules, and says so; or, with
    /// `--no-reload-open-pages`, says that it was left.
    func reloadOpenPage(_ session: String, url: String) async {
        let scheme = url.prefix { $0 != ":" }
        guard !["about", "chrome", "chrome-untrusted", "devtools", ""].contains(scheme) else { return }
        guard reloadOpenPages else {
            announce("sextant-browser: left \(TerminalText.escaped(url)) as it was (open before the bridge; --no-reload-open-pages)")
            return
        }
        await command("Page.reload", [:], session: session)
        announce("sextant-browser: reloaded \(TerminalText.escaped(url)) (open before the bridge: its requests were answered without Sextant)")
    }

    /// Keeps a fix's own time for the pages; whether there is a new one to tell them.
    mutating func noteFix(_ event: SextantEvent) -> Bool {
        guard case .location(let fix) = event, let time = fix.time else { return false }
        recentFixes.append(PageScript.Fix(latitude: fix.latitude, longitude: fix.longitude, milliseconds: Double(time.nanoseconds / 1_000_000)))
        if recentFixes.count > PageScript.fixesKept { recentFixes.removeFirst(recentFixes.count - PageScript.fixesKept) }
        return picture.permission == .granted
    }

    /// The device's motion and light are heard while a page is attached, any page: the
    /// browser's first tab (about:blank) included, since which sensors a page has is fixed
    /// as it loads, so the bridge must know the device's before the first page the person
    /// opens. Without a page (no browser connected, every tab closed) Sextant fuses and
    /// sends nothing for the bridge.
    mutating func hearSensorsWhilePagesAre() {
        let wanted = !pages.isEmpty
        guard wanted != sensorsHeard else { return }
        sensorsHeard = wanted
        link.ask(.sensors(wanted))
        announce("sextant-browser: \(wanted ? "hearing" : "no longer hearing") the device's motion and light (\(pages.count) pages)")
    }
}
