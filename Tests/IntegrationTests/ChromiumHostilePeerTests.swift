import Foundation
import SextantProtocol
import SextantTestSupport
import Testing

/// What the bridge's DevTools side does with peers that are not the browser meant, or not a
/// browser at all (issue 36.8), and with a page that calls its binding in a loop (36.7).
/// Part of `ChromiumBridgeTests`, so that one browser runs at a time.
extension ChromiumBridgeTests {
    /// A hostile peer (`Tools/dev/devtools-hostile-peer.py MODE`), as `uid` when given; its port.
    private func hostilePeer(_ mode: String, port: UInt16? = nil, uid: UInt32? = nil, in daemon: DaemonHarness) throws -> (ClientProcess, UInt16) {
        // Readable by the other user: a copy outside the test's private directory.
        let script = "/tmp/sextant-devtools-peer-\(getpid()).py"
        _ = try run(["/usr/bin/install", "-m", "0644", Repository.root + "/Tools/dev/devtools-hostile-peer.py", script])
        var command = ["/usr/bin/python3", script, mode] + (port.map { ["\($0)"] } ?? [])
        if let uid { command = ["/usr/bin/setpriv", "--reuid=\(uid)", "--regid=\(uid)", "--clear-groups"] + command }
        let peer = try ClientProcess(command, directory: daemon.directory, name: "peer-\(mode)")
        // Python has read the script once it listens.
        defer { try? FileManager.default.removeItem(atPath: script) }
        let listening = try peer.waitForOutput(timeout: 20, "listen") { output in
            output.split(separator: "\n").first { $0.hasPrefix("listening ") }.flatMap { UInt16($0.dropFirst("listening ".count)) }
        }
        return (peer, listening)
    }

    private func bridge(_ daemon: DaemonHarness, _ address: String) throws -> ClientProcess {
        try ClientProcess(
            [Binaries.sextantctl, "browser", "--runtime-dir", daemon.runtime, "--app", Self.app, "--cdp", address],
            directory: daemon.directory, name: "bridge")
    }

    @Test("36.8: a port squatted by another user is refused before anything is sent; localhost finds the user's Chromium on [::1]")
    func squattedPortRefused() throws {
        let daemon = try DaemonHarness()
        let port = try freeLoopbackPort()
        let (squatter, _) = try hostilePeer("squat", port: port, uid: 65534, in: daemon)
        // Chromium, finding 127.0.0.1's port taken, listens on [::1] instead.
        let profile = daemon.directory + "/chromium-profile"
        var arguments = [Chromium.program, "--headless", "--remote-debugging-port=\(port)", "--user-data-dir=\(profile)", "--no-first-run", "--disable-gpu"]
        if getuid() == 0 { arguments.append("--no-sandbox") }
        let browser = try ClientProcess(arguments + ["about:blank"], directory: daemon.directory, name: "chromium")
        defer {
            SextantTestSupport.stop(browser.process)
            _ = try? run(["/usr/bin/pkill", "-KILL", "-f", "--", "--user-data-dir=\(profile)"])
        }
        let listening = "DevTools listening on ws://[::1]:\(port)/"
        try browser.waitForOutput(timeout: 60, "listen on [::1]") { _ in browser.errors().contains(listening) ? () : nil }

        let refused = try bridge(daemon, "http://127.0.0.1:\(port)")
        try refused.waitForOutput(timeout: 30, "refuse the squatter") { _ in said(refused).contains("uid 65534") ? () : nil }
        try squatter.waitForOutput(timeout: 30, "see the bridge go") { $0.contains("closed without a request") ? () : nil }
        #expect(!squatter.output().split(separator: "\n").contains("request"), "the squatter was sent a request: \(squatter.output())")
        #expect(!refused.output().contains("connected to"), "\(refused.output())")
        SextantTestSupport.stop(refused.process)

        let found = try bridge(daemon, "http://localhost:\(port)")
        let connected = "sextant-browser: connected to ws://[::1]:\(port)/"
        try found.waitForOutput(timeout: 30, "connect to the browser on [::1]") { $0.contains(connected) ? () : nil }
        SextantTestSupport.stop(found.process)
    }

    @Test("36.8: an endless /json/version is cut at 64 KiB, and a silent peer's command times out: the bridge says so and connects again")
    func endlessAndSilentPeers() throws {
        let daemon = try DaemonHarness()
        let (endless, endlessPort) = try hostilePeer("endless", in: daemon)
        let first = try bridge(daemon, "http://127.0.0.1:\(endlessPort)")
        try first.waitForOutput(timeout: 30, "give up the endless answer") { _ in said(first).contains("more than 65536 bytes") ? () : nil }
        SextantTestSupport.stop(first.process)
        SextantTestSupport.stop(endless.process)

        let (silent, silentPort) = try hostilePeer("silent", in: daemon)
        let second = try bridge(daemon, "ws://127.0.0.1:\(silentPort)/devtools/browser/silent")
        try silent.waitForOutput(timeout: 60, "be connected to twice") { $0.contains("upgraded 2") ? () : nil }
        #expect(said(second).contains("Fetch.enable: no answer within 10 s"), "\(said(second))")
        #expect(second.process.isRunning)
        SextantTestSupport.stop(second.process)
    }

    @Test("36.8: a flood of page attachments is refused past a bound: the bridge stays small, says so and connects again")
    func attachmentFloodBounded() throws {
        let daemon = try DaemonHarness()
        let (flood, port) = try hostilePeer("flood", in: daemon)
        let bridge = try bridge(daemon, "ws://127.0.0.1:\(port)/devtools/browser/flood")
        var largest = 0
        try poll(timeout: 60, every: 0.05, failure: { "the flood was not refused; the bridge grew to \(largest) MiB:\n\(bridge.output())" }) {
            largest = max(largest, residentMiB(bridge.process.processIdentifier))
            guard largest < 1024 else { throw HarnessError("the bridge grew past 1 GiB under the flood") }
            return flood.output().contains("upgraded 2") ? () : nil
        }
        #expect(said(bridge).contains("more than \(4096) page events"), "\(said(bridge))")
        #expect(largest < 300, "the bridge grew to \(largest) MiB")
        SextantTestSupport.stop(bridge.process)
    }

    @Test("36.7: a page calling the bridge's binding 20,000 times in a loop ends in its last state, the bridge still connected")
    func visibilityFlood() throws {
        let daemon = try DaemonHarness()
        let browser = try ChromiumProcess(port: try freeLoopbackPort(), directory: daemon.directory)
        let harness = try BrowserBridgeHarness(daemon: daemon, app: Self.app, port: browser.port)
        try harness.waitForConnections(1)
        // Waits for the bridge's script (which says "visible" as it starts: a data: page is
        // not held for its set-up), then flips 20,000 times, the last call "hidden".
        let page = """
            <script>const go = () => { if (!window.__sextantPermissionChanged) return setTimeout(go, 10);
            for (let i = 0; i < 20000; i++) sextantBridge(i % 2 ? 'visibility:hidden' : 'visibility:visible'); }; go();</script>
            """
        let url = "data:text/html;base64," + Data(page.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "%2B")
        try browser.open(url)
        try waitForAppState("background", daemon, harness)
        // Still the daemon's app: a page opened now, visible, makes it foreground.
        try browser.open("about:blank")
        try waitForAppState("foreground", daemon, harness)
        #expect(!daemon.log().contains("overflowed"), "\(daemon.log())")
    }

    private func waitForAppState(_ state: JSONValue, _ daemon: DaemonHarness, _ harness: BrowserBridgeHarness) throws {
        let control = try daemon.control()
        var apps: JSONValue = .null
        try poll(timeout: 60, every: 0.05, failure: { "the app did not become \(state): \(apps)\n\(harness.bridge.output())\(harness.bridge.errors())" }) {
            guard harness.bridge.process.isRunning else { throw HarnessError("the bridge ended:\n\(harness.bridge.output())\(harness.bridge.errors())") }
            apps = try control.call(Method.appsList)
            return apps.arrayValue?.contains { $0["app"] == .string(Self.app) && $0["state"] == state } == true ? () : nil
        }
    }
}

/// What a process printed, on standard output and standard error (its log).
private func said(_ process: ClientProcess) -> String { process.output() + process.errors() }

/// A process's resident memory, MiB (0 once it is gone).
private func residentMiB(_ pid: Int32) -> Int {
    let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
    return (line?.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0) / 1024
}
