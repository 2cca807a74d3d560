import ArgumentParser
import Foundation
import Logging
import SextantBrowser
import SextantProtocol

/// `sextant-browser` (run as `sextantctl browser`): makes a Chromium one of Sextant's apps.
struct SextantBrowserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sextant-browser",
        abstract: "Make a Chromium one of Sextant's apps, through its DevTools protocol.",
        discussion: """
            The bridge is an app on app.sock (hello with APP_ID): the pages' geolocation permission \
            follows the app's authorization, their position the fixes the app is given, \
            deviceorientation, devicemotion, the generic motion, orientation and ambient light sensors, \
            screen.orientation and navigator.devicePosture the device, and the app's \
            foreground/background the pages' visibility. See docs/browsers.md.
            """)

    @Option(help: ArgumentHelp("The app id the browser is to Sextant.", valueName: "app-id"))
    var app: String

    @Option(help: ArgumentHelp("A Chromium's DevTools address: http://127.0.0.1:9222 or ws://…/devtools/browser/….", valueName: "url"))
    var cdp: String?

    @Flag(help: "Start Debian's Chromium headless with a private profile, driven through a pipe only the bridge holds (no DevTools port).")
    var launch = false

    @Option(help: ArgumentHelp("With --launch: a page to open once the bridge is ready (may be repeated).", valueName: "url"))
    var open: [String] = []

    @Option(help: ArgumentHelp("The Chromium that --launch starts.", valueName: "path"))
    var chromium = "/usr/bin/chromium"

    @Option(name: .customLong("runtime-dir"), help: ArgumentHelp("The daemon's runtime directory (holds app.sock).", valueName: "dir"))
    var runtimeDirectory: String?

    @Flag(
        name: .customLong("no-reload-open-pages"),
        help: "Leave the pages open before the bridge attached as they are (by default each is reloaded, once, under Sextant's rules).")
    var leaveOpenPages = false

    @Flag(name: .shortAndLong, help: "Log every reconnection and failed command.")
    var verbose = false

    func validate() throws {
        guard (cdp == nil) != !launch else { throw ValidationError("give either --cdp URL or --launch") }
        guard open.isEmpty || launch else { throw ValidationError("--open is for --launch (open pages in a browser you started yourself)") }
        if let cdp {
            do { _ = try DevToolsAddress.hostAndPort(cdp) } catch { throw ValidationError(error.description) }
        }
    }

    func run() async throws {
        var logger = Logger(label: "sextant-browser")
        logger.logLevel = verbose ? .debug : .notice
        guard let runtime = runtimeDirectory ?? DefaultPaths.runtimeDirectory(environment: ProcessInfo.processInfo.environment, uid: UInt32(getuid()))
        else { throw failure(DefaultPaths.noRuntimeDirectory, status: 69) }
        let browser = try launch ? startChromium() : nil
        // Kept for as long as the bridge runs: they stop the launched browser on SIGTERM and SIGINT.
        let signalSources = browser.map(Self.stopOnSignals) ?? []
        defer { withExtendedLifetime(signalSources) {} }
        let address = browser.map { "a pipe to Chromium (pid \($0.pid))" } ?? cdp ?? ""
        let bridge = BrowserBridge(logger: logger, reloadOpenPages: !leaveOpenPages)
        let (appInputs, appFeed) = AsyncStream.makeStream(of: AppLink.Input.self)
        let (link, hello): (AppLink, HelloResult)
        do {
            (link, hello) = try await AppLink.open(runtimeDirectory: runtime, app: app, events: appFeed)
        } catch {
            browser?.stop()
            throw failure("sextant-browser: \(error)", status: 69)
        }
        announce("sextant-browser: \(app) is session \(hello.session); DevTools at \(address)")
        let picture = BrowserPicture(
            authorization: hello.authorization, servicesEnabled: hello.servicesEnabled, interface: hello.interfaceOrientation,
            device: hello.deviceOrientation, posture: hello.posture["state"]?.stringValue.flatMap(PostureState.init(rawValue:)))
        let reason = await withTaskGroup(of: String?.self) { group in
            group.addTask {
                for await input in appInputs { bridge.push(.app(input)) }
                return nil
            }
            if let browser {
                group.addTask { await bridge.connect(launched: browser, opening: open) }
            } else {
                group.addTask {
                    await bridge.connectForever(to: address)
                    return nil
                }
            }
            group.addTask { await bridge.run(picture: picture, link: link) }
            var reason: String?
            while reason == nil, let next = await group.next() { reason = next }
            group.cancelAll()
            return reason ?? "stopped"
        }
        browser?.stop()
        throw failure("sextant-browser: \(reason)", status: 1)
    }

    private func startChromium() throws -> ChromiumLauncher {
        do {
            let browser = try ChromiumLauncher(executable: chromium)
            announce("sextant-browser: launched \(chromium) (pid \(browser.pid)), DevTools on a pipe")
            return browser
        } catch {
            throw failure("sextant-browser: \(error)", status: 69)
        }
    }

    /// The launched browser goes with the bridge on SIGTERM and SIGINT.
    private static func stopOnSignals(_ browser: ChromiumLauncher) -> [any DispatchSourceSignal] {
        [SIGTERM, SIGINT].map { signalNumber in
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                browser.stop()
                Foundation.exit(128 + signalNumber)
            }
            source.resume()
            return source
        }
    }

    private func failure(_ message: String, status: Int32) -> ExitCode {
        FileHandle.standardError.write(Data((message + "\n").utf8))
        return ExitCode(status)
    }
}
