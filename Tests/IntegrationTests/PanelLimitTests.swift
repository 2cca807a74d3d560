import Foundation
import SextantProtocol
import SextantTestSupport
import Testing

/// Issue 36.4: connections that never send their headers, from another local user and
/// without a token, do not stop the panel serving its owner, nor keep it busy.
@Suite(.serialized) struct PanelLimitTests {
    /// uid 65534 holding `count` connections to the panel that send nothing; its stdout
    /// says `held N` once they are open.
    static func idleConnections(port: UInt16, count: Int) throws -> LineReader {
        let script = """
            import socket, sys, time
            held = []
            for _ in range(\(count)):
                try:
                    held.append(socket.create_connection(("127.0.0.1", \(port)), timeout=5))
                except OSError as error:
                    print("failed", len(held), error, flush=True)
                    break
            print("held", len(held), flush=True)
            time.sleep(300)
            """
        return try LineReader(["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c", script])
    }

    /// The CPU seconds `pid` used so far (utime + stime).
    static func cpuSeconds(_ pid: Int32) throws -> Double {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .ascii)
        let fields = stat[stat.index(after: stat.lastIndex(of: ")")!)...].split(separator: " ")
        return Double(Int(fields[11])! + Int(fields[12])!) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    @Test func issue36_4_eleventHundredSilentConnectionsOfAnotherUserLeaveThePanelServingAndIdle() throws {
        let daemon = try DaemonHarness()
        let panel = try PanelProcess(daemon: daemon, folders: try PanelFolders(), descriptors: 1024)
        let hostile = try Self.idleConnections(port: panel.port, count: 1100)
        defer { hostile.stop() }
        #expect(hostile.waitForLine(timeout: 60, where: { $0.hasPrefix("held") }) != nil, "\(hostile.allLines)")
        // The owner is served at once: well within the silent connections' 10 s.
        let started = monotonicSeconds()
        let page = try panel.get("/", timeout: 5)
        #expect(page.status == 200, "\(page.status) \(page.body)")
        #expect(monotonicSeconds() - started < 5)
        let socket = try panel.webSocket()
        socket.call(1, "status")
        #expect(try socket.answer(1)["result"] != nil)
        // And the panel is not spinning over what it cannot accept.
        let before = try Self.cpuSeconds(panel.reader.pid)
        let clock = monotonicSeconds()
        while monotonicSeconds() - clock < 2 { usleep(100_000) }
        let used = try Self.cpuSeconds(panel.reader.pid) - before
        #expect(used < 0.5, "the panel used \(used) s of CPU in 2 s")
    }

    @Test func issue36_4_aConnectionThatSendsNoHeadIsClosedAfterTheHeadTimeout() throws {
        let daemon = try DaemonHarness()
        let panel = try PanelProcess(daemon: daemon, folders: try PanelFolders())
        guard let fd = connectLoopback(port: panel.port) else { throw HarnessError("cannot connect") }
        defer { close(fd) }
        let started = monotonicSeconds()
        // Half a head, then nothing: closed 10 s after the connection, not kept.
        _ = "GET / HTTP/1.1\r\nHost: ".withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
        let bytes = try HTTPReply.readUntilClosed(fd, timeout: 25)
        let waited = monotonicSeconds() - started
        #expect(waited >= 9 && waited < 25, "closed after \(waited) s: \(String(decoding: bytes, as: UTF8.self))")
    }

    @Test func issue36_4_atMost64PagesAreOpenAndTheNextIsRefusedWith503() throws {
        let daemon = try DaemonHarness()
        let panel = try PanelProcess(daemon: daemon, folders: try PanelFolders())
        var pages: [PanelWebSocket] = []
        // Each page counted once its session runs, which says hello: a 65th upgraded before
        // that would be closed with 1013 once it runs, not refused with 503 at the door.
        for _ in 0..<64 {
            let page = try panel.webSocket()
            _ = try page.next { $0["hello"] != nil }
            pages.append(page)
        }
        switch try PanelWebSocket.handshake(port: panel.port, headers: ["Host: \(panel.host)", "Origin: \(panel.origin)", panel.protocols]) {
        case .success: Issue.record("a 65th page was opened")
        case .failure(let reply): #expect(reply.status == 503 && reply.body.contains("64 pages"), "\(reply.status) \(reply.body)")
        }
        // One closed, one more may open.
        pages.removeLast()
        let again = try poll(timeout: 10, failure: { "no page admitted after one closed" }) { () -> PanelWebSocket? in
            guard case .success(let socket) = try PanelWebSocket.handshake(port: panel.port, headers: ["Host: \(panel.host)", "Origin: \(panel.origin)", panel.protocols]) else { return nil }
            return socket
        }
        again.call(1, "status")
        #expect(try again.answer(1)["result"] != nil)
    }
}
