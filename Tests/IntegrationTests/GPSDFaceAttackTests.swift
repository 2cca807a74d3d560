import Foundation
import SextantClient
import SextantProtocol
import SextantTestSupport
import Testing

/// Issue 28 on the gpsd face: connection churn, resets right after connecting, a daemon
/// that runs as a user of its own (the shipped unit's DynamicUser), and one user's share of
/// the slots (docs/gpsd.md "WHO IS ASKING", docs/security.md).
@Suite("gpsd face under attack (issue 28)", .serialized)
struct GPSDFaceAttackTests {
    static let nobody: UInt32 = 65534
    static let other: UInt32 = 65533
    /// A uid in systemd's DynamicUser range (61184–65519), the daemon's in the unit tests.
    static let dynamicUser: UInt32 = 61234

    static func asUser(_ uid: UInt32) -> [String] { ["/usr/bin/setpriv", "--reuid=\(uid)", "--regid=\(uid)", "--clear-groups"] }

    /// `count` connections closed with SO_LINGER 0 right after connecting: a reset.
    static func resetConnections(port: UInt16, count: Int) throws {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        for _ in 0..<count {
            guard let fd = connectLoopback(port: port) else { throw HarnessError("cannot connect to port \(port)") }
            setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
            close(fd)
        }
    }

    /// A client that connects after the others and is served: accepted in order and
    /// identified oldest first, so once its session is open every earlier connection has
    /// been dealt with.
    static func servedClient(port: UInt16, timeout: Double = 20) throws -> GPSDFaceClient {
        let client = try GPSDFaceClient(port: port)
        #expect(try client.nextReport(timeout: timeout)["class"] == "VERSION")
        client.send("?WATCH;")
        #expect(try client.nextReport(timeout: timeout) { $0["class"] == "WATCH" }["enable"] == false)
        return client
    }

    @Test("issue 28.6: 300 connections reset right after connecting leave no gpsd session behind")
    func resetRightAfterConnect() throws {
        let daemon = try DaemonHarness(arguments: ["--gpsd-listen", "0"])
        let port = try daemon.gpsdFacePort()
        try Self.resetConnections(port: port, count: 300)
        let last = try Self.servedClient(port: port, timeout: 60)
        let sessions = try daemon.gpsdSessions()
        #expect(sessions.count == 1, "\(sessions.count) gpsd sessions for one client left: \(sessions.prefix(3))")
        _ = last
    }

    @Test(
        "issue 28.1: another user's connection churn leaves a control request answered within 3 s, memory bounded, and a new gpsd client served",
        .requires(.root("churning as uid 65534")))
    func churnDoesNotStarve() throws {
        let daemon = try DaemonHarness(arguments: ["--gpsd-listen", "0"])
        let port = try daemon.gpsdFacePort()
        let trace = try daemon.write("walk.jsonl", syntheticTrace(count: 2000, step: 1))
        let before = try daemon.memoryKiB("VmRSS")
        // The script's text, not its path: uid 65534 need not read the checkout.
        let script = try String(contentsOfFile: Repository.root + "/Tools/dev/gpsd-churn.py", encoding: .utf8)
        let churner = try ClientProcess(
            Self.asUser(Self.nobody) + ["/usr/bin/python3", "-c", script, "\(port)", "8"], directory: daemon.directory, name: "churn")
        try churner.waitForLine("churning")
        let started = monotonicSeconds()
        _ = try daemon.control().call(Method.replayStart, ["path": .string(trace), "speed": 1], timeout: 3)
        #expect(monotonicSeconds() - started < 3)
        let result = try churner.finish(timeout: 60)
        let churned = try JSONValue.parse(result.last ?? "")["connections"]?.intValue ?? 0
        #expect(churned > 200, "the churn made only \(churned) connections: \(result)")
        _ = try Self.servedClient(port: port, timeout: 10)
        let after = try daemon.memoryKiB("VmRSS")
        #expect(after - before < 64 * 1024, "\(churned) connections took the daemon from \(before) to \(after) KiB")
    }

    /// The apps list as the daemon's own uid sees it (its control socket is that uid's).
    static func gpsdApps(_ daemon: DaemonHarness) throws -> [JSONValue] {
        let listed = try daemon.ctl(["apps", "list", "--json"], asUser: daemon.user)
        guard listed.status == 0 else { throw HarnessError("sextantctl apps list: \(listed.stderr)") }
        return (try JSONValue.parse(listed.stdout).arrayValue ?? []).filter { $0["kind"] == "gpsd" }
    }

    /// A Python gpsd client run as `uid`: it opens `count` connections, sends `?WATCH` with
    /// `enable` on each, and prints the lines each got up to its WATCH or ERROR, as JSON.
    static func watchers(_ uid: UInt32, count: Int, port: UInt16, directory: String, name: String) throws -> ClientProcess {
        let script = """
            import json, socket, sys, time
            port, count = int(sys.argv[1]), int(sys.argv[2])
            socks = [socket.create_connection(("127.0.0.1", port)) for _ in range(count)]
            for s in socks:
                s.sendall(b'?WATCH={"enable":true,"json":true};\\n')
            got = []
            for s in socks:
                s.settimeout(3)
                data = b""
                try:
                    while b'"WATCH"' not in data and b'"ERROR"' not in data:
                        chunk = s.recv(4096)
                        if not chunk: break
                        data += chunk
                except OSError:
                    pass
                got.append([line for line in data.decode().splitlines() if line])
            print(json.dumps(got), flush=True)
            time.sleep(120)
            """
        return try ClientProcess(Self.asUser(uid) + ["/usr/bin/python3", "-c", script, "\(port)", "\(count)"], directory: directory, name: name)
    }

    static func lines(of client: ClientProcess) throws -> [[String]] {
        try client.waitForOutput(timeout: 30, "print what it got") { output in
            (try? JSONValue.parse(output))?.arrayValue.map { $0.map { ($0.arrayValue ?? []).compactMap(\.stringValue) } }
        }
    }

    @Test(
        "issue 28.8/28.9: a daemon running as a dynamic-style uid tells gpsd clients apart by uid (gpsd.uidN, bound to N) and by name where it may read it; one uid holds at most 16 slots",
        .requires(.root("running the daemon and clients as other uids")))
    func dynamicUserDaemon() throws {
        let daemon = try DaemonHarness(arguments: ["--gpsd-listen", "0", "--ephemeral"], user: Self.dynamicUser)
        let status = try daemon.ctl(["status", "--json"], asUser: daemon.user)
        let listener = try #require(JSONValue.parse(status.stdout)["gpsdListeners"]?.arrayValue?.first?.stringValue, "\(status.stdout)\(status.stderr)")
        let port = try #require(listener.split(separator: ":").last.flatMap { UInt16($0) })
        #expect(try daemon.ctl(["permissions", "grant", "gpsd.uid\(Self.nobody)", "--always"], asUser: daemon.user).status == 0)

        // 17 connections of uid 65534: 16 are served, the 17th hears ERROR.
        let nobody = try Self.watchers(Self.nobody, count: 17, port: port, directory: daemon.directory, name: "nobody")
        let nobodyLines = try Self.lines(of: nobody)
        #expect(nobodyLines.count == 17)
        for lines in nobodyLines.prefix(16) { #expect(lines.contains { $0.contains(#""class":"WATCH""#) }, "\(lines)") }
        #expect(nobodyLines.last?.contains { $0.contains(#""class":"ERROR""#) && $0.contains("at most 16") } == true, "\(nobodyLines.last ?? [])")
        // Another uid still gets in, with an app id and a decision of its own.
        let other = try Self.watchers(Self.other, count: 1, port: port, directory: daemon.directory, name: "other")
        #expect(try Self.lines(of: other).first?.contains { $0.contains(#""class":"WATCH""#) } == true)

        let apps = try Self.gpsdApps(daemon)
        let ofNobody = apps.filter { $0["app"] == .string("gpsd.uid\(Self.nobody)") }
        let ofOther = apps.filter { $0["app"] == .string("gpsd.uid\(Self.other)") }
        #expect(ofNobody.count == 16 && ofOther.count == 1, "\(apps)")
        #expect(ofNobody.allSatisfy { $0["authorization"]?["status"] == "authorizedAlways" }, "\(ofNobody.first ?? .null)")
        #expect(ofOther.first?["authorization"]?["status"] != "authorizedAlways", "\(ofOther)")
        let owners = try daemon.ctl(["permissions", "owners", "--json"], asUser: daemon.user)
        let bound = try JSONValue.parse(owners.stdout).arrayValue ?? []
        #expect(bound.contains { $0["app"] == .string("gpsd.uid\(Self.nobody)") && $0["uid"] == .int(Int64(Self.nobody)) }, "\(bound)")
        #expect(bound.contains { $0["app"] == .string("gpsd.uid\(Self.other)") && $0["uid"] == .int(Int64(Self.other)) }, "\(bound)")

        // A client of the daemon's own uid: its name is readable. (A binding is stored once
        // the app id holds something: here the decision granted before it connects.)
        #expect(try daemon.ctl(["permissions", "grant", "gpsd.gpspipe"], asUser: daemon.user).status == 0)
        let own = try run(Self.asUser(Self.dynamicUser) + [GPSDClients.gpspipe, "-w", "-n", "3", "127.0.0.1:\(port)"])
        #expect(own.stdout.contains(#""class":"WATCH""#), "\(own.stdout)\(own.stderr)")
        let ownerList = try JSONValue.parse(try daemon.ctl(["permissions", "owners", "--json"], asUser: daemon.user).stdout).arrayValue ?? []
        #expect(ownerList.contains { $0["app"] == "gpsd.gpspipe" && $0["uid"] == .int(Int64(Self.dynamicUser)) }, "\(ownerList)")
    }
}
