import Foundation
import SextantClient
import SextantProtocol
import SextantTestSupport
import Testing

/// Issue 9 point 8: apps cannot take every descriptor, the daemon does not spin at the
/// limit, and the control socket stays serviceable.
@Suite("Connection limits")
struct ConnectionLimitTests {
    /// Opens `count` raw app connections and waits until `refused` of them have had their
    /// refusal (an error line, then the end of the stream); the others are held open.
    static func connectApps(_ daemon: DaemonHarness, count: Int, refused: Int) throws -> (held: [RawSocket], refusals: [String]) {
        var sockets: [RawSocket] = []
        for _ in 0..<count { sockets.append(try RawSocket(path: daemon.runtime + "/app.sock")) }
        var held = sockets, refusals: [String] = []
        let deadline = monotonicSeconds() + 15
        while refusals.count < refused, monotonicSeconds() < deadline {
            held = []
            for socket in sockets {
                guard socket.hasInput else {
                    held.append(socket)
                    continue
                }
                if let line = try socket.line(timeout: 5) { refusals.append(line) }
                #expect(try socket.line(timeout: 5) == nil, "a refused client is disconnected")
            }
            sockets = held
            usleep(10_000)  // the refusals come from the daemon's loop as it accepts
        }
        // The rest are held: a control round trip, then none of them has heard anything.
        _ = try daemon.control().call(Method.status)
        #expect(held.allSatisfy { !$0.hasInput }, "more than \(refused) refused")
        return (held, refusals)
    }

    /// The app socket's share the daemon chose, from its "ready" log line (written just
    /// after the sockets are bound, so perhaps after the harness could connect).
    static func appClientLimit(_ daemon: DaemonHarness) throws -> Int {
        let deadline = monotonicSeconds() + 10
        while !daemon.log().contains("sextantd ready"), monotonicSeconds() < deadline {
            usleep(20_000)  // the log is a file: nothing to wait on but the clock
        }
        let line = try #require(daemon.log().split(separator: "\n").first { $0.contains("sextantd ready") })
        let value = try #require(line.firstMatch(of: /max app clients=(\d+)/)?.1)
        return try #require(Int(value))
    }

    @Test("--max-clients N: the next app gets error -32000 and is closed; a place is free again once a client leaves")
    func maxClients() throws {
        let daemon = try DaemonHarness(arguments: ["--max-clients", "5"])
        #expect(try Self.appClientLimit(daemon) == 5)
        var (held, refusals) = try Self.connectApps(daemon, count: 8, refused: 3)
        #expect(held.count == 5)
        #expect(refusals.count == 3)
        for line in refusals {
            let message = try JSONValue.parse(line)
            #expect(message["id"] == .null)
            #expect(message["error"]?["code"] == -32000)
            #expect(message["error"]?["message"]?.stringValue?.contains("at most 5") == true, "\(line)")
        }
        // The held ones are served.
        try held[0].write(#"{"jsonrpc":"2.0","id":1,"method":"hello","params":{"app":"com.example.held"}}"# + "\n")
        #expect(try held[0].line(timeout: 10)?.contains(#""result""#) == true)
        // One leaves (its session ends with its connection): a new app takes its place.
        held.removeFirst()
        try daemon.waitForStatus("the departed client's session to end") { $0["sessions"] == 0 }
        let (again, refusedAgain) = try Self.connectApps(daemon, count: 1, refused: 0)
        #expect(again.count == 1 && refusedAgain.isEmpty)
        // The control socket is never counted with the apps.
        #expect(try daemon.ctl(["status"]).status == 0)
    }

    @Test("At a low descriptor limit, apps get only their share: control answers and the daemon does not spin")
    func lowDescriptorLimit() throws {
        let daemon = try DaemonHarness(launcher: ["/usr/bin/prlimit", "--nofile=160:160"])
        let limit = try Self.appClientLimit(daemon)
        #expect(limit >= 1 && limit < 160 - 32, "the apps' share leaves room for the control socket and the reserve")
        let (held, refusals) = try Self.connectApps(daemon, count: 200, refused: 200 - limit)
        #expect(held.count == limit)
        #expect(refusals.count == 200 - limit)
        #expect(refusals.allSatisfy { $0.contains("-32000") })

        // More connection attempts keep arriving; the control socket still answers at once.
        let (_, moreRefusals) = try Self.connectApps(daemon, count: 50, refused: 50)
        #expect(moreRefusals.count == 50)
        let pid = daemon.process.processIdentifier
        let before = cpuSeconds(pid: pid), start = monotonicSeconds()
        for _ in 0..<10 {
            let asked = monotonicSeconds()
            #expect(try daemon.control().call(Method.status, timeout: 5)["sessions"] == 0)
            #expect(monotonicSeconds() - asked < 1)
        }
        // Idle but for those status calls, over at least one second: no busy loop.
        while monotonicSeconds() - start < 1 { usleep(100_000) }  // measuring a window of time
        let used = cpuSeconds(pid: pid) - before, elapsed = monotonicSeconds() - start
        #expect(used < 0.3 * elapsed, "sextantd used \(used) s of CPU in \(elapsed) s")
        withExtendedLifetime(held) {}
    }

    @Test("Out of descriptors all the same (limit lowered under it): waiting clients are refused, no spin, serving resumes")
    func acceptPausesAtEMFILE() throws {
        let daemon = try DaemonHarness()
        let pid = daemon.process.processIdentifier
        var held: [RawSocket] = []
        for _ in 0..<20 { held.append(try RawSocket(path: daemon.runtime + "/app.sock")) }
        // Kept open, so that no descriptor of the daemon's frees behind the count below.
        let control = try daemon.control()
        _ = try control.call(Method.status)
        // Leave the daemon no descriptor to spare: every accept now fails with EMFILE.
        let open = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count
        #expect(try run(["/usr/bin/prlimit", "--pid", "\(pid)", "--nofile=\(open):\(open)"]).status == 0)
        // A descriptor the daemon was closing as it was counted leaves room for one more
        // client: take up such room until a client is refused.
        for _ in 0..<5 {
            let filler = try RawSocket(path: daemon.runtime + "/app.sock")
            if filler.waitForInput(timeout: 1) { break }
            held.append(filler)
        }
        var waiting: [RawSocket] = []
        for _ in 0..<10 { waiting.append(try RawSocket(path: daemon.runtime + "/app.sock")) }
        let before = cpuSeconds(pid: pid), start = monotonicSeconds()
        while monotonicSeconds() - start < 1.5 { usleep(100_000) }  // measuring a window of time
        let used = cpuSeconds(pid: pid) - before
        #expect(used < 0.3 * (monotonicSeconds() - start), "sextantd used \(used) s of CPU while out of descriptors")
        for client in waiting {
            #expect(try client.line(timeout: 5)?.contains("out of file descriptors") == true)
        }
        #expect(daemon.log().contains("out of descriptors: refused the clients waiting"))
        #expect(try control.call(Method.status)["sessions"] == 0, "a connection already open is still served")

        // Descriptors come back as clients leave: new clients are served again.
        held.removeAll()
        waiting.removeAll()
        let deadline = monotonicSeconds() + 10
        var served = false
        while !served, monotonicSeconds() < deadline {
            served = (try? daemon.control().call(Method.status)) != nil
            if !served { usleep(20_000) }  // the daemon has yet to see the closes: try again
        }
        #expect(served)
    }

    @Test("Buffers of closed connections go back to the system: 600 clients with 64 KiB partial lines, then none")
    func memoryReturnsAfterClose() throws {
        let daemon = try DaemonHarness(arguments: ["--max-clients", "1000"])
        _ = try daemon.control().call(Method.status)
        let pid = daemon.process.processIdentifier
        let idle = residentKilobytes(pid: pid)
        let partial = #"{"jsonrpc":"2.0","id":1,"method":"hello","params":{"app":""# + String(repeating: "x", count: 65_000)
        var clients: [RawSocket] = []
        for _ in 0..<600 {
            let client = try RawSocket(path: daemon.runtime + "/app.sock")
            try client.write(partial)
            clients.append(client)
        }
        // Wait until the daemon has read the partial lines (they take memory as they come).
        try waitForResident(pid: pid, "to grow by 25 MiB", timeout: 30) { $0 > idle + 25_000 }
        clients.removeAll()
        // Closed: what they held is returned, not kept for good.
        try waitForResident(pid: pid, "to fall back within 15 MiB of the idle \(idle) KiB", timeout: 30) { $0 < idle + 15_000 }
        #expect(try daemon.ctl(["status"]).status == 0)
    }

    /// Waits (reading /proc every 50 ms) until the daemon's resident set satisfies `condition`.
    func waitForResident(pid: Int32, _ description: String, timeout: Double, until condition: (Int) -> Bool) throws {
        let deadline = monotonicSeconds() + timeout
        var last = 0
        while monotonicSeconds() < deadline {
            last = residentKilobytes(pid: pid)
            if condition(last) { return }
            usleep(50_000)  // memory has no event to wait on
        }
        throw HarnessError("waited \(timeout) s for sextantd's resident set \(description); it is \(last) KiB")
    }
}
