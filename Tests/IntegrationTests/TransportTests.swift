import Foundation
import SextantClient
import SextantProtocol
import SextantTestSupport
import Testing

/// The wire: framing, errors and their precedence, the control socket's gate, slow clients.
@Suite("Sockets and JSON-RPC")
struct TransportTests {
    @Test("Malformed JSON, unknown methods and bad params get their JSON-RPC errors; the connection stays usable")
    func malformedInput() throws {
        let daemon = try DaemonHarness()
        let app = try SextantConnection.app(runtimeDirectory: daemon.runtime)

        try app.writeRaw("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\n")
        let parse = try app.nextMessage()
        #expect(parse["error"]?["code"] == -32700)
        #expect(parse["id"] == .null)

        try app.writeRaw("[1,2]\n")
        #expect(try app.nextMessage()["error"]?["code"] == -32600)

        try app.writeRaw("{\"jsonrpc\":\"1.0\",\"id\":2,\"method\":\"hello\"}\n")
        let wrongVersion = try app.nextMessage()
        #expect(wrongVersion["error"]?["code"] == -32600)
        #expect(wrongVersion["id"] == 2)

        // Precedence: unknown method (-32601) before no session (1003) before bad params (-32602).
        #expect(try errorCode { try app.call("nope.nothing") } == -32601)
        #expect(try errorCode { try app.call(Method.locationStart, ["distanceFilter": "far"]) } == 1003)
        #expect(try errorCode { try app.call(Method.hello, ["app": "bad id!"]) } == -32602)
        #expect(try errorCode { try app.call(Method.hello, ["app": .string(String(repeating: "a", count: 256))]) } == -32602)

        // Still usable: hello works, a second hello is -32600, bad params after hello are -32602.
        _ = try app.call(Method.hello, ["app": "com.example.ok"])
        #expect(try errorCode { try app.call(Method.hello, ["app": "com.example.ok"]) } == -32600)
        #expect(try errorCode { try app.call(Method.locationStart, ["distanceFilter": "far"]) } == -32602)
        #expect(try errorCode { try app.call(Method.authorizationRequest, ["level": "sometimes"]) } == -32602)
        #expect(try app.call(Method.authorizationGet)["status"] == "notDetermined")

        // Ids come back as they were sent, strings included.
        try app.writeRaw("{\"jsonrpc\":\"2.0\",\"id\":\"abc\",\"method\":\"authorization.get\"}\n")
        #expect(try app.nextMessage()["id"] == "abc")
    }

    @Test("A line over 64 KiB gets -32600 and the connection is closed; the daemon serves on")
    func oversizedLine() throws {
        let daemon = try DaemonHarness()
        let app = try SextantConnection.app(runtimeDirectory: daemon.runtime)
        let huge = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"hello\",\"params\":{\"app\":\"" + String(repeating: "x", count: 70_000) + "\"}}\n"
        try? app.writeRaw(huge)
        let answer = try app.nextMessage()
        #expect(answer["error"]?["code"] == -32600)
        #expect(throws: ClientError.closed) { _ = try app.nextMessage(timeout: 5) }
        // A line of exactly 64 KiB is still a line.
        let other = try SextantConnection.app(runtimeDirectory: daemon.runtime)
        let prefix = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"authorization.get\",\"params\":{\"pad\":\""
        let suffix = "\"}}"
        try other.writeRaw(prefix + String(repeating: "y", count: 65_536 - prefix.utf8.count - suffix.utf8.count) + suffix + "\n")
        #expect(try other.nextMessage()["error"]?["code"] == 1003)
    }

    @Test("Control socket: mode 0600, and a client of another uid gets 1007 and is closed (SO_PEERCRED)")
    func controlSocketRefusesOtherUsers() throws {
        // The directory must be reachable by the other user for the uid check to be what stops it.
        let daemon = try DaemonHarness(directoryMode: 0o755)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: daemon.runtime)
        let controlPath = daemon.runtime + "/control.sock", appPath = daemon.runtime + "/app.sock"
        let controlMode = try FileManager.default.attributesOfItem(atPath: controlPath)[.posixPermissions] as? Int
        let appMode = try FileManager.default.attributesOfItem(atPath: appPath)[.posixPermissions] as? Int
        #expect(controlMode == 0o600)
        #expect(appMode == 0o666)

        // Loosen the file mode to reach the daemon's own check (defence in depth).
        chmod(controlPath, 0o666)
        let refused = try daemon.ctl(["status"], asUser: 65534)
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("1007"), "\(refused.stderr)")

        // The daemon's own user is still served.
        let own = try daemon.ctl(["status"])
        #expect(own.status == 0)
    }

    @Test("apps.list shows each session's pid and uid from SO_PEERCRED")
    func appsListShowsPeerCredentials() throws {
        let daemon = try DaemonHarness()
        let (app, hello) = try daemon.app("com.example.peer")
        let list = try daemon.control().call(Method.appsList).arrayValue ?? []
        #expect(list.count == 1)
        #expect(list.first?["pid"]?.intValue == Int(getpid()))
        #expect(list.first?["uid"]?.intValue == Int(getuid()))
        #expect(list.first?["session"] == hello["session"])
        #expect(list.first?["app"] == "com.example.peer")
        app.close()
    }

    @Test("A client that never reads neither slows a reading client nor grows the daemon without bound: its oldest locations are dropped once its channel says it is full")
    func stuckClientBesideReadingClient() throws {
        let daemon = try DaemonHarness()
        let count = 20_000
        let trace = try daemon.write("long.jsonl", syntheticTrace(count: count, step: 0.01))
        #expect(try daemon.ctl(["permissions", "grant", "com.example.reader"]).status == 0)
        #expect(try daemon.ctl(["permissions", "grant", "com.example.stuck"]).status == 0)
        let (stuck, _) = try daemon.app("com.example.stuck")
        _ = try stuck.call(Method.locationStart)  // and never reads again
        let (reader, _) = try daemon.app("com.example.reader")
        _ = try reader.call(Method.locationStart)

        let control = try daemon.control()
        _ = try control.call(Method.replayStart, ["path": .string(trace), "speed": "max"])
        var received = 0
        while received < count {
            let event = try reader.nextEvent(timeout: 20)
            if event.method == Event.location { received += 1 }
        }
        #expect(received == count)
        // The daemon still answers at once, and its memory stayed bounded.
        #expect(try control.call(Method.status)["sessions"] == 2)
        let rss = residentKilobytes(pid: daemon.process.processIdentifier)
        #expect(rss < 150_000, "sextantd resident set \(rss) KiB")
        // What bounds it: its channel's handler said the channel was full (the writer keeps
        // no other view of it), so its lines waited in the bounded outbox, oldest dropped.
        // 20,000 lines in NIO's buffer would stay far below the resident bound above.
        #expect(daemon.log().contains("client is not reading: dropping its oldest"))
        stuck.close()
    }
}

func residentKilobytes(pid: Int32) -> Int {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
    }
    return 0
}
