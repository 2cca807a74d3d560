import Foundation
import Logging
import SextantProtocol

/// The bridge: one loop that owns what it knows (`BrowserPicture`, the attached pages) and
/// turns each app.sock event into CDP commands, each page's binding calls into app.sock
/// requests, and keeps doing so across browser restarts (a new connection to the same
/// address) and reloads (the script and overrides follow every new document).
public final class BrowserBridge: Sendable {
    public enum Input: Sendable {
        case app(AppLink.Input)
        /// A DevTools connection to the browser at `url` opened.
        case connected(CDPConnection, url: String)
        case disconnected
        case cdp(CDPEvent)
        /// A page to open at `url` (`--open`), once the connection is set up.
        case open(String)
    }

    /// Bounded: a newer reading replaces a stale one waiting (``BridgeInbox``).
    private let inbox = BridgeInbox()
    private let logger: Logger

    /// Whether a page already open when the bridge attaches, never under its rules, is
    /// reloaded (`--no-reload-open-pages` leaves it).
    private let reloadOpenPages: Bool

    public init(logger: Logger, reloadOpenPages: Bool = true) {
        (self.logger, self.reloadOpenPages) = (logger, reloadOpenPages)
    }

    /// Hands the bridge's loop an input; returns at once.
    public func push(_ input: Input) { inbox.push(input) }

    /// Keeps a DevTools connection to `address` open, connecting again whenever it closes.
    public func connectForever(to address: String) async {
        var complained = false
        while !Task.isCancelled {
            do {
                let url = try DevToolsAddress.resolve(address)
                try await CDPConnection.run(url: url, logger: logger, onEvent: queueEvent) { [inbox] connection in
                    inbox.push(.connected(connection, url: url))
                }
                logger.info("the browser at \(address) closed its DevTools connection; waiting for it to come back")
                complained = false
            } catch {
                if !complained {
                    logger.notice("waiting for a browser at \(address): \(error) (Chromium must run with --remote-debugging-port)")
                }
                complained = true
            }
            inbox.push(.disconnected)
            try? await Task.sleep(for: .milliseconds(200))
        }
    }

    /// Drives the browser the bridge launched, through its pipe, until the pipe closes
    /// (the browser ended, or the connection failed: there is no second connection to it).
    /// The pages `opening` are opened once it is set up.
    public func connect(launched browser: ChromiumLauncher, opening: [String] = []) async -> String {
        do {
            try await CDPConnection.run(pipe: browser, logger: logger, onEvent: queueEvent) { [inbox] connection in
                inbox.push(.connected(connection, url: "the browser it launched (pid \(browser.pid), DevTools pipe)"))
                for url in opening { inbox.push(.open(url)) }
            }
            return "the browser it launched closed its DevTools pipe"
        } catch {
            return "the browser it launched: \(error)"
        }
    }

    /// Queues what the loop acts on of the browser's events; throws, closing the
    /// connection, when the browser sends more page events than the loop can take.
    private var queueEvent: @Sendable (CDPEvent) throws -> Void {
        { [inbox] event in
            guard BridgeLoop.handledEvents.contains(event.method) else { return }
            guard inbox.push(.cdp(event)) else { throw BrowserFlood() }
        }
    }

    /// Runs until app.sock closes; returns why.
    public func run(picture start: BrowserPicture, link: AppLink) async -> String {
        var loop = BridgeLoop(picture: start, link: link, logger: logger, reloadOpenPages: reloadOpenPages)
        for await _ in inbox.wakeUps {
            let (inputs, dropped) = inbox.take()
            if dropped > 0 { logger.warning("the browser sent events faster than the bridge takes them: \(dropped) dropped") }
            for input in inputs {
                switch input {
                case .app(.closed(let reason)): return reason
                case .app(.event(let event)): await loop.apply(event)
                case .connected(let connection, let url): await loop.connected(connection, url: url)
                case .disconnected: loop.disconnected()
                case .cdp(let event): await loop.handle(event)
                case .open(let url): await loop.open(url)
                }
            }
        }
        return "the bridge stopped"
    }
}

/// The browser sent more page events than the bridge could set pages up for.
struct BrowserFlood: Error, CustomStringConvertible {
    var description: String {
        "the browser sent more than \(BridgeInbox.pageEventLimit) page events (attachments, navigations) the bridge had not taken yet: closing its DevTools connection"
    }
}

/// What the bridge keeps of an attached page.
struct AttachedPage {
    var visible = true
    /// The new-document script that tells the page's next documents whether Sextant says
    /// their position is unavailable and the latest fixes' times (`PageScript.state`).
    var stateScript: String?
    /// The page's target id: its main frame's id, which a held navigation names.
    var targetID: String?
    /// Whether fixes came since `stateScript` was made (the documents open were told
    /// them; the next one is told as its navigation is held).
    var stateScriptStale = false
}

/// The bridge loop's state: the picture, the connection and the attached pages' sessions.
struct BridgeLoop {
    var picture: BrowserPicture
    let link: AppLink
    let logger: Logger
    var connection: CDPConnection?
    var pages: [String: AttachedPage] = [:]
    /// The browser contexts whose pages the bridge has seen (the default one's id
    /// included): each is given the permission, as the default context is.
    var contexts: Set<String> = []
    /// The latest fixes with their own times, told to every page (`PageScript.state`).
    var recentFixes: [PageScript.Fix] = []
    let reloadOpenPages: Bool
    var appState = AppState.foreground
    /// A page asked for its position while the app had no decision: Sextant's prompt is open.
    var promptAsked = false
    /// Whether the bridge hears the device's motion and light (``hearSensorsWhilePagesAre()``).
    var sensorsHeard = false

    init(picture: BrowserPicture, link: AppLink, logger: Logger, reloadOpenPages: Bool = true) {
        (self.picture, self.link, self.logger, self.reloadOpenPages) = (picture, link, logger, reloadOpenPages)
    }

    /// The most pages the bridge sets up at once.
    static let pageLimit = 1024

    /// The browser's events the loop acts on; the rest (every page's Runtime and Page
    /// events) are not queued.
    static let handledEvents: Set<String> = [
        "Target.attachedToTarget", "Target.detachedFromTarget", "Runtime.bindingCalled", "Fetch.requestPaused",
    ]

    mutating func connected(_ connection: CDPConnection, url: String) async {
        self.connection = connection
        pages = [:]
        contexts = []
        // Chromium does not hold a new tab's first navigation for a debugger (it commits
        // while the auto-attached page is "waiting"), so each document request is held
        // instead, at the browser, until the loop has set up the page it is for: the page
        // is attached before its request starts, and the loop takes its inputs in order.
        await command("Fetch.enable", ["patterns": [["urlPattern": "*", "resourceType": "Document", "requestStage": "Request"]]])
        // Every page, those open now and those to come, attached in flat mode.
        await command("Target.setAutoAttach", ["autoAttach": true, "waitForDebuggerOnStart": true, "flatten": true])
        await learnContexts()
        await send(picture.browserCommands)
        // A line a script (or a test) can wait for: from here on, a page opened is set up
        // before its first document runs.
        announce("sextant-browser: connected to \(url)")
        hearSensorsWhilePagesAre()
    }

    /// Opens a page (set up, as every page, before its first document runs).
    func open(_ url: String) async {
        await command("Target.createTarget", ["url": .string(url)])
    }

    mutating func disconnected() {
        connection = nil
        pages = [:]
        contexts = []
        hearSensorsWhilePagesAre()
    }

    mutating func handle(_ event: CDPEvent) async {
        switch event.method {
        case "Target.attachedToTarget":
            guard let session = event.params["sessionId"]?.stringValue else { return }
            let target = event.params["targetInfo"] ?? [:]
            guard target["type"]?.stringValue == "page" else {
                return await command("Runtime.runIfWaitingForDebugger", [:], session: session)
            }
            // Each page set up is kept until it goes: beyond the limit a page is closed,
            // never left to run without Sextant's overrides.
            guard pages.count < Self.pageLimit else {
                logger.warning("more than \(Self.pageLimit) pages at once: closing the newest")
                await command("Target.closeTarget", ["targetId": target["targetId"] ?? ""])
                return
            }
            await attached(page: session, target: target, waiting: event.params["waitingForDebugger"]?.boolValue != false)
            hearSensorsWhilePagesAre()
        case "Target.detachedFromTarget":
            guard let session = event.params["sessionId"]?.stringValue else { return }
            pages[session] = nil
            updateAppState()
            hearSensorsWhilePagesAre()
        case "Fetch.requestPaused":
            guard let request = event.params["requestId"]?.stringValue else { return }
            await refreshStateScript(navigating: event.params["frameId"]?.stringValue)
            // A navigation cancelled meanwhile has no request left to continue: not a fault.
            _ = try? await connection?.send("Fetch.continueRequest", ["requestId": .string(request)], session: event.sessionID)
        case "Runtime.bindingCalled":
            guard event.params["name"]?.stringValue == PageScript.bindingName, let session = event.sessionID,
                let payload = event.params["payload"]?.stringValue
            else { return }
            bindingCalled(payload, in: session)
        default:
            break
        }
    }

    /// One of the app's events: the pages told whether an outage starts or ends before the
    /// override that starts or ends it (the script needs it to tell Chromium's made-up
    /// errors from Sextant's), then what the event changes.
    mutating func apply(_ event: SextantEvent) async {
        let wasInOutage = picture.inOutage
        let hadGyroscope = picture.rotationRate != nil
        let commands = picture.apply(event)
        if !hadGyroscope, picture.rotationRate != nil {
            // Chromium reads which sensors a page has from its load on (docs/browsers.md).
            announce("sextant-browser: the device's gyroscope reaches the pages loaded from now on (rotation rate, linear acceleration, gravity, attitude)")
        }
        let newFix = noteFix(event)
        // Posted before the commands, answered after: the pages know a fix's time before
        // its position, at no round trip more per fix.
        if picture.inOutage != wasInOutage {
            let told = postState()
            await send(commands)
            await keepStateScripts(told)
        } else {
            if newFix { postFixTimes() }
            await send(commands)
        }
    }

    /// A fix's time to the documents open, one command per page, not waited for; the
    /// new-document script is brought up to date as a navigation is held (`Fetch`).
    private mutating func postFixTimes() {
        guard let connection else { return }
        let source = PageScript.state(outage: picture.inOutage, fixes: recentFixes)
        for session in pages.keys {
            _ = connection.post("Runtime.evaluate", ["expression": .string(source)], session: session)
            pages[session]?.stateScriptStale = true
        }
    }

    /// Before a page's held navigation goes on: its new-document script gets the fixes'
    /// times the documents open were told since it was made.
    private mutating func refreshStateScript(navigating frame: String?) async {
        guard let frame, let session = pages.first(where: { $0.value.targetID == frame && $0.value.stateScriptStale })?.key else { return }
        await tellState(to: session)
    }

    /// Tells every page, as `tellState` does, without waiting for the browser's answers.
    private func postState() -> [(session: String, added: CDPAnswer)] {
        guard let connection else { return [] }
        let source = PageScript.state(outage: picture.inOutage, fixes: recentFixes)
        return pages.map { session, page in
            if let script = page.stateScript {
                _ = connection.post("Page.removeScriptToEvaluateOnNewDocument", ["identifier": .string(script)], session: session)
            }
            return (session, connection.post("Page.addScriptToEvaluateOnNewDocument", ["source": .string(source), "runImmediately": true], session: session))
        }
    }

    private mutating func keepStateScripts(_ told: [(session: String, added: CDPAnswer)]) async {
        for (session, added) in told {
            do {
                pages[session]?.stateScript = try await added.value["identifier"]?.stringValue
                pages[session]?.stateScriptStale = false
            } catch CDPError.closed {
            } catch {
                logger.warning("\(error)")
            }
        }
    }

    /// Tells the page's documents, those open and those it will load, whether Sextant says
    /// its position is unavailable, and the latest fixes' own times.
    private mutating func tellState(to session: String) async {
        let source = PageScript.state(outage: picture.inOutage, fixes: recentFixes)
        if let script = pages[session]?.stateScript { await command("Page.removeScriptToEvaluateOnNewDocument", ["identifier": .string(script)], session: session) }
        // Run at once in the documents open now, in every frame, and answered once run.
        let added = await answer("Page.addScriptToEvaluateOnNewDocument", ["source": .string(source), "runImmediately": true], session: session)
        pages[session]?.stateScript = added?["identifier"]?.stringValue
        pages[session]?.stateScriptStale = false
    }

    mutating func setUp(page session: String, targetID: String?) async {
        pages[session] = AttachedPage(targetID: targetID)
        await command("Runtime.enable", [:], session: session)
        // Chromium installs a script added for new documents only in a page whose Page
        // domain is on: without it the wrapper is missing after a navigation.
        await command("Page.enable", [:], session: session)
        await command("Runtime.addBinding", ["name": .string(PageScript.bindingName)], session: session)
        await tellState(to: session)
        await command(
            "Page.addScriptToEvaluateOnNewDocument", ["source": .string(PageScript.source), "runImmediately": true], session: session)
        for pageCommand in picture.pageCommands { await command(pageCommand.method, pageCommand.params, session: session) }
        announce("sextant-browser: attached to a page")
    }

    private mutating func bindingCalled(_ payload: String, in session: String) {
        if payload == PageScript.geolocationRequested {
            if picture.permission == .prompt {
                link.ask(.authorization)
                promptAsked = true
            }
        } else if payload.hasPrefix(PageScript.visiblePrefix) {
            pages[session]?.visible = payload.dropFirst(PageScript.visiblePrefix.count) == "visible"
            updateAppState()
        }
    }

    static let promptCancelledNotice = """
        sextant-browser: no page is visible, so the app is in the background and Sextant cancels its open prompt (L6); \
        the page's request waits and asks again once a page is visible and calls again (docs/browsers.md, "Inspecting a tab")
        """

    /// Foreground while a page is visible (a phone's app is foreground while on screen).
    private mutating func updateAppState() {
        let state: AppState = pages.values.contains { $0.visible } ? .foreground : .background
        guard state != appState else { return }
        appState = state
        link.ask(.state(state))
        if state == .background, promptAsked, picture.permission == .prompt {
            // A tab hidden for a moment (a test tool attaching to inspect it) is the Home
            // button to Sextant: the tester would otherwise see the prompt vanish, unexplained.
            announce(Self.promptCancelledNotice)
        }
        if state == .background { promptAsked = false }
    }

    func send(_ commands: [CDPCommand]) async {
        var lastReadings: [String: CDPAnswer] = [:]
        for each in commands {
            if each.target == .everyPage, each.method == PageSensor.readingsMethod, let connection {
                // A sensor's readings, several an event at 50 a second: sent at once, only
                // each page's last one waited for (below), which bounds what is in flight
                // to one event's; an earlier one refused is not logged.
                for session in pages.keys { lastReadings[session] = connection.post(each.method, each.params, session: session) }
                continue
            }
            switch each.target {
            case .browser: await command(each.method, each.params)
            case .everyPage: for session in pages.keys { await command(each.method, each.params, session: session) }
            }
            if each.method == "Browser.setPermission" {
                await setPermissionInContexts(each.params)
                for session in pages.keys { await command("Runtime.evaluate", ["expression": .string(PageScript.permissionChanged)], session: session) }
            }
        }
        for answer in lastReadings.values {
            do { _ = try await answer.value } catch CDPError.closed {} catch { logger.warning("\(error)") }
        }
    }

    func command(_ method: String, _ params: JSONValue, session: String? = nil) async {
        _ = await answer(method, params, session: session)
    }

    /// The browser's answer; nil when it failed (logged) or the connection closed.
    func answer(_ method: String, _ params: JSONValue, session: String? = nil) async -> JSONValue? {
        guard let connection else { return nil }
        do {
            return try await connection.send(method, params, session: session)
        } catch CDPError.closed {
            return nil
        } catch {
            logger.warning("\(error)")
            return nil
        }
    }
}

/// A line on standard output, written at once (scripts and tests wait for these lines).
public func announce(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
