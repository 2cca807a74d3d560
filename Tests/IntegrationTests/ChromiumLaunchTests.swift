import Foundation
import SextantProtocol
import SextantTestSupport
import Testing

/// `sextantctl browser --launch` (issue 36.1): the launched Chromium is driven through a
/// pipe only the bridge holds, opens no DevTools port another local user could drive, and
/// ends with the bridge however it ends. Part of `ChromiumBridgeTests`, so that one browser
/// runs at a time.
extension ChromiumBridgeTests {
    @Test("36.1: the page --launch opens (--open) gets Sextant's positions")
    func launchedBrowserOpensPage() throws {
        let daemon = try DaemonHarness()
        try daemon.setPermission(Self.app, "authorizedWhenInUse")
        let harness = try BrowserBridgeHarness(daemon: daemon, app: Self.app, address: nil)
        _ = try harness.waitForReports("see the permission granted") { $0.contains { $0["state"] == "granted" } ? () : nil }
        let walk = Self.walk(from: 2.35, count: 4)
        try daemon.replay("walk.jsonl", geoclueTrace(walk, step: 0.25, extras: Self.extras))
        _ = try harness.waitForReports("receive the walk's last position") { $0.contains { $0["lon"]?.doubleValue == walk.last!.lon } ? () : nil }

        #expect(!harness.bridge.output().contains("DevTools listening on"), "\(harness.bridge.output())")
    }

    @Test("36.1: the browser --launch starts listens on no TCP port, and ends, its whole process tree, when the bridge is killed with SIGKILL")
    func launchedBrowserHasNoPortAndEndsWithTheBridge() throws {
        let daemon = try DaemonHarness()
        let process = try ClientProcess(
            [Binaries.sextantctl, "browser", "--runtime-dir", daemon.runtime, "--app", Self.app, "--launch"], directory: daemon.directory, name: "bridge")
        try process.waitForOutput(timeout: 60, "connect to the browser") { $0.contains("sextant-browser: connected to") ? () : nil }
        let bridge = process.process.processIdentifier
        let tree = ProcessTree.descendants(of: bridge)
        #expect(tree.contains { ProcessTree.command(of: $0).contains("chromium") }, "the launched browser is the bridge's child: \(tree)")
        // No process of the bridge's listens: nothing another local user could connect to.
        let listening = ProcessTree.listeningSockets()
        let held = tree.map { ($0, ProcessTree.sockets(of: $0).intersection(listening)) }.filter { !$0.1.isEmpty }
        #expect(held.isEmpty, "processes of the bridge's listening on TCP: \(held.map { "\($0.0) \(ProcessTree.command(of: $0.0))" })")
        let profileDirectory = tree.lazy.compactMap { pid in
            ProcessTree.command(of: pid).split(separator: " ").first { $0.hasPrefix("--user-data-dir=") }.map { String($0.dropFirst("--user-data-dir=".count)) }
        }.first
        kill(bridge, SIGKILL)
        try poll(timeout: 30, every: 0.05, failure: {
            "still running 30 s after the bridge was killed: \(tree.filter { !ProcessTree.isGone($0) }.map { "\($0) \(ProcessTree.command(of: $0))" })"
        }) { tree.allSatisfy(ProcessTree.isGone) ? () : nil }

        // Its profile, left behind, goes at the next launch.
        let profile = try #require(profileDirectory, "no --user-data-dir in \(tree.map(ProcessTree.command))")
        #expect(FileManager.default.fileExists(atPath: profile))
        let next = try ClientProcess(
            [Binaries.sextantctl, "browser", "--runtime-dir", daemon.runtime, "--app", Self.app, "--launch"], directory: daemon.directory, name: "bridge-again")
        try next.waitForOutput(timeout: 60, "connect to the browser") { $0.contains("sextant-browser: connected to") ? () : nil }
        #expect(!FileManager.default.fileExists(atPath: profile), "\(profile) is still there")
        SextantTestSupport.stop(next.process)
    }
}

/// Processes and their sockets, read from /proc.
enum ProcessTree {
    /// Every process below `root`.
    static func descendants(of root: Int32) -> [Int32] {
        var children: [Int32: [Int32]] = [:]
        for pid in (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.compactMap({ Int32($0) }) ?? [] {
            if let parent = parent(of: pid) { children[parent, default: []].append(pid) }
        }
        var found: [Int32] = [], stack = children[root] ?? []
        while let pid = stack.popLast() {
            found.append(pid)
            stack += children[pid] ?? []
        }
        return found
    }

    /// The fields of /proc/PID/stat after the command (which may hold spaces and parentheses).
    private static func statFields(_ pid: Int32) -> [Substring]? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else { return nil }
        return stat[stat.index(after: close)...].split(separator: " ")
    }

    static func parent(of pid: Int32) -> Int32? { statFields(pid).flatMap { $0.count > 1 ? Int32($0[1]) : nil } }

    /// Gone, or a zombie waiting for whoever adopted it.
    static func isGone(_ pid: Int32) -> Bool { statFields(pid).map { $0.first == "Z" } ?? true }

    static func command(of pid: Int32) -> String {
        ((try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8)) ?? "").replacingOccurrences(of: "\0", with: " ")
    }

    /// The inodes of the sockets `pid` holds.
    static func sockets(of pid: Int32) -> Set<UInt64> {
        let directory = "/proc/\(pid)/fd"
        let links = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return Set(links.compactMap { name -> UInt64? in
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "\(directory)/\(name)"),
                target.hasPrefix("socket:["), target.hasSuffix("]")
            else { return nil }
            return UInt64(target.dropFirst("socket:[".count).dropLast())
        })
    }

    /// The inodes of every listening TCP socket (state 0A) of the machine.
    static func listeningSockets() -> Set<UInt64> {
        var found = Set<UInt64>()
        for file in ["/proc/net/tcp", "/proc/net/tcp6"] {
            let text = (try? run(["/bin/cat", file]).stdout) ?? ""
            for line in text.split(separator: "\n").dropFirst() {
                let fields = line.split(separator: " ")
                if fields.count >= 10, fields[3] == "0A", let inode = UInt64(fields[9]) { found.insert(inode) }
            }
        }
        return found
    }
}
