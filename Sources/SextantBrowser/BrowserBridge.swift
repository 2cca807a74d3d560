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
        case connected(CDPConnection)
        case disconnected
        case cdp(CDPEvent)
    }

    /// Bounded: a newer reading replaces a stale one waiting (``BridgeInbox``).
    private let inbox = BridgeInbox()
    private let logger: Logger

    public init(logger: Logger) {
        self.logger = logger
    }

    /// Hands the bridge's loop an input; returns at once.
    public func push(_ input: Input) { inbox.push(input) }

    /// Keeps a DevTools connection to `address` open, connecting again whenever it closes.
    public func connectForever(to address: String) async {
        var complained = false
        while !Task.isCancelled {
            do {
                let url = try DevToolsAddress.resolve(address)
                try await CDPConnection.run(url: url, logger: logger, onEvent: { [inbox] in inbox.push(.cdp($0)) }) { [inbox] connection in
                    inbox.push(.connected(connection))
                    // A line a script (or a test) can wait for.
                    announce("sextant-browser: connected to \(url)")
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

    /// Runs until app.sock closes; returns why.
    public func run(picture start: BrowserPicture, link: AppLink) async -> String {
        var loop = BridgeLoop(picture: start, link: link, logger: logger)
        for await _ in inbox.wakeUps {
            let (inputs, dropped) = inbox.take()
            if dropped > 0 { logger.warning("the browser sent events faster than the bridge takes them: \(dropped) dropped") }
            for input in inputs {
                switch input {
                case .app(.closed(let reason)): return reason
                case .app(.event(let event)):
                    let commands = loop.picture.apply(event)
                    await loop.send(commands)
                case .connected(let connection): await loop.connected(connection)
                case .disconnected: loop.disconnected()
                case .cdp(let event): await loop.handle(event)
                }
            }
        }
        return "the bridge stopped"
    }
}

/// The bridge loop's state: the picture, the connection, the attached pages' sessions and
/// whether each is visible.
struct BridgeLoop {
    var picture: BrowserPicture
    let link: AppLink
    let logger: Logger
    var connection: CDPConnection?
    var pages: [String: Bool] = [:]
    var appState = AppState.foreground

    init(picture: BrowserPicture, link: AppLink, logger: Logger) {
        (self.picture, self.link, self.logger) = (picture, link, logger)
    }

    mutating func connected(_ connection: CDPConnection) async {
        self.connection = connection
        pages = [:]
        // Every page, those open now and those to come, attached in flat mode and held
        // before its first script until its overrides are set.
        await command("Target.setAutoAttach", ["autoAttach": true, "waitForDebuggerOnStart": true, "flatten": true])
        await send(picture.browserCommands)
    }

    mutating func disconnected() {
        connection = nil
        pages = [:]
    }

    mutating func handle(_ event: CDPEvent) async {
        switch event.method {
        case "Target.attachedToTarget":
            guard let session = event.params["sessionId"]?.stringValue else { return }
            if event.params["targetInfo"]?["type"]?.stringValue == "page" { await setUp(page: session) }
            await command("Runtime.runIfWaitingForDebugger", [:], session: session)
        case "Target.detachedFromTarget":
            guard let session = event.params["sessionId"]?.stringValue else { return }
            pages[session] = nil
            updateAppState()
        case "Runtime.bindingCalled":
            guard event.params["name"]?.stringValue == PageScript.bindingName, let session = event.sessionID,
                let payload = event.params["payload"]?.stringValue
            else { return }
            bindingCalled(payload, in: session)
        default:
            break
        }
    }

    private mutating func setUp(page session: String) async {
        pages[session] = true
        await command("Runtime.enable", [:], session: session)
        // Chromium installs a script added for new documents only in a page whose Page
        // domain is on: without it the wrapper is missing after a navigation.
        await command("Page.enable", [:], session: session)
        await command("Runtime.addBinding", ["name": .string(PageScript.bindingName)], session: session)
        await command(
            "Page.addScriptToEvaluateOnNewDocument", ["source": .string(PageScript.source), "runImmediately": true], session: session)
        for pageCommand in picture.pageCommands { await command(pageCommand.method, pageCommand.params, session: session) }
        announce("sextant-browser: attached to a page")
    }

    private mutating func bindingCalled(_ payload: String, in session: String) {
        if payload == PageScript.geolocationRequested {
            if picture.permission == .prompt { link.ask(.authorization) }
        } else if payload.hasPrefix(PageScript.visiblePrefix) {
            pages[session] = payload.dropFirst(PageScript.visiblePrefix.count) == "visible"
            updateAppState()
        }
    }

    /// Foreground while a page is visible (a phone's app is foreground while on screen).
    private mutating func updateAppState() {
        let state: AppState = pages.values.contains(true) ? .foreground : .background
        guard state != appState else { return }
        appState = state
        link.ask(.state(state))
    }

    func send(_ commands: [CDPCommand]) async {
        for each in commands {
            switch each.target {
            case .browser: await command(each.method, each.params)
            case .everyPage: for session in pages.keys { await command(each.method, each.params, session: session) }
            }
            if each.method == "Browser.setPermission" {
                for session in pages.keys { await command("Runtime.evaluate", ["expression": .string(PageScript.permissionChanged)], session: session) }
            }
        }
    }

    private func command(_ method: String, _ params: JSONValue, session: String? = nil) async {
        guard let connection else { return }
        do {
            try await connection.send(method, params, session: session)
        } catch CDPError.closed {
            return
        } catch {
            logger.warning("\(error)")
        }
    }
}

/// A line on standard output, written at once (scripts and tests wait for these lines).
public func announce(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
