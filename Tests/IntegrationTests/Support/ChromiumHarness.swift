import Foundation
import SextantProtocol
import SextantTestSupport

// What the Chromium tests need: Debian's chromium headless with DevTools on a port of the
// test's, the bridge (`sextantctl browser`) attached to it, and the reporter's /sensors page
// opened in it, whose reports are read from the page itself (Tools/dev/page-reporter.py).

enum Chromium {
    static let program = "/usr/bin/chromium"
    static let requirement = Requirement.all([
        .tool(program, package: "chromium"), .tool("/usr/bin/python3", package: "python3"),
    ])
}

/// A headless Chromium with DevTools on `port`, showing about:blank, on a profile of its own.
final class ChromiumProcess {
    let port: UInt16
    private let browser: ClientProcess
    private let profile: String

    init(port: UInt16, directory: String, name: String = "chromium") throws {
        self.port = port
        profile = directory + "/" + name + "-profile"
        var arguments = [
            Chromium.program, "--headless", "--remote-debugging-port=\(port)", "--remote-debugging-address=127.0.0.1",
            "--user-data-dir=\(profile)", "--no-first-run", "--disable-gpu", "--remote-allow-origins=ws://127.0.0.1",
        ]
        if getuid() == 0 { arguments.append("--no-sandbox") }
        browser = try ClientProcess(arguments + ["about:blank"], directory: directory, name: name)
        try poll(timeout: 60, every: 0.05, failure: { "Chromium did not open DevTools on \(port):\n\(self.browser.errors())" }) {
            guard browser.process.isRunning else { throw HarnessError("Chromium ended:\n\(browser.errors())") }
            return (try? httpRequest(port: port, "GET", "/json/version")).flatMap { $0.contains("webSocketDebuggerUrl") ? () : nil }
        }
    }

    deinit { stop() }

    /// Stops the browser and waits for it, its helpers with it (they share its profile).
    func stop() {
        SextantTestSupport.stop(browser.process)
        _ = try? run(["/usr/bin/pkill", "-KILL", "-f", "--", "--user-data-dir=\(profile)"])
    }

    /// Opens `url` in a new tab (DevTools' /json/new).
    func open(_ url: String) throws {
        _ = try httpRequest(port: port, "PUT", "/json/new?" + url)
    }
}

/// A request to DevTools' HTTP side on loopback; the body of its answer. Read up to its
/// `Content-Length`: Chromium keeps the connection open whatever `Connection: close` says.
func httpRequest(port: UInt16, _ method: String, _ path: String) throws -> String {
    guard let fd = connectLoopback(port: port) else { throw HarnessError("no DevTools on port \(port)") }
    let lines = SocketLines(fd: fd, peer: "DevTools")
    lines.send("\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n")
    var length = 0
    while true {
        let header = try lines.nextLine(timeout: 10).trimmingCharacters(in: ["\r"])
        if header.isEmpty { break }
        let (name, value) = (header.prefix { $0 != ":" }, header.drop { $0 != ":" }.dropFirst())
        if name.lowercased() == "content-length" { length = Int(value.trimmingCharacters(in: .whitespaces)) ?? 0 }
    }
    var body: [String] = [], read = 0
    while read < length {
        let line = try lines.nextLine(timeout: 10)
        body.append(line)
        read += line.utf8.count + 1
    }
    return body.joined(separator: "\n")
}

/// The reporter's server and the bridge for `app` on a browser at `port`.
final class BrowserBridgeHarness {
    private(set) var reporter: ClientProcess
    let bridge: ClientProcess
    private(set) var pageURL: String
    private let directory: String

    /// The bridge on the browser at `address`, or given `nil`, on a browser it launches
    /// (`--launch`) and opens the reporter's page in (`--open`); `beforeBridge` is given
    /// the page's address and the reporter before the bridge starts, `arguments` are the
    /// bridge's others.
    init(
        daemon: DaemonHarness, app: String, address: String?, arguments: [String] = [],
        beforeBridge: (String, ClientProcess) throws -> Void = { _, _ in }
    ) throws {
        directory = daemon.directory
        (reporter, pageURL) = try Self.startReporter(directory: directory, name: "page-reporter")
        try beforeBridge(pageURL, reporter)
        let browser = address.map { ["--cdp", $0] } ?? ["--launch", "--open", pageURL]
        bridge = try ClientProcess(
            [Binaries.sextantctl, "browser", "--runtime-dir", daemon.runtime, "--app", app] + browser + arguments, directory: daemon.directory,
            name: "bridge")
    }

    convenience init(daemon: DaemonHarness, app: String, port: UInt16) throws {
        try self.init(daemon: daemon, app: app, address: "http://127.0.0.1:\(port)")
    }

    /// A reporter of its own for another page (a new browser's page numbers its reports afresh).
    func replaceReporter() throws {
        (reporter, pageURL) = try Self.startReporter(directory: directory, name: "page-reporter-again")
    }

    private static func startReporter(directory: String, name: String) throws -> (ClientProcess, String) {
        let script = URL(fileURLWithPath: Repository.root + "/Tools/dev/page-reporter.py").path
        let reporter = try ClientProcess(["/usr/bin/python3", script], directory: directory, name: name)
        let base = try reporter.waitForOutput(timeout: 30, "say where it listens") { output in
            output.split(separator: "\n").first { $0.hasPrefix("listening ") }.map { String($0.dropFirst("listening ".count)) }
        }
        return (reporter, base + "sensors")
    }

    /// Waits for the bridge's `connected` lines to number `count`.
    func waitForConnections(_ count: Int, timeout: Double = 60) throws {
        try bridge.waitForOutput(timeout: timeout, "connect to the browser \(count) times") { output in
            output.components(separatedBy: "sextant-browser: connected to ").count - 1 >= count ? () : nil
        }
    }

    /// Every report so far, in the page's order, while none is missing.
    func reports() -> [JSONValue] {
        let all = reporter.output().split(separator: "\n").compactMap { try? JSONValue.parse(String($0)) }
            .filter { $0["seq"]?.intValue != nil }.sorted { $0["seq"]!.intValue! < $1["seq"]!.intValue! }
        return Array(all.enumerated().prefix { $0.offset == $0.element["seq"]!.intValue! }.map(\.element))
    }

    func positions() -> [JSONValue] { reports().filter { $0["kind"] == "position" } }

    /// Waits until the reports so far satisfy `found`; what it answers.
    func waitForReports<T>(_ what: String, timeout: Double = 60, _ found: ([JSONValue]) -> T?) throws -> T {
        try poll(timeout: timeout, every: 0.05, failure: {
            "the page did not \(what) within \(timeout) s; it reported:\n\(self.reporter.output())\nthe bridge said:\n\(self.bridge.output())\(self.bridge.errors())"
        }) {
            if let answer = found(reports()) { return answer }
            guard bridge.process.isRunning else { throw HarnessError("the bridge ended:\n\(bridge.output())\(bridge.errors())") }
            return nil
        }
    }
}
