import Foundation
import SextantClient
import SextantProtocol
import SextantTestSupport
import Testing

/// Issue 9 points 8 (connections), 11, 12 and "Smaller": the daemon neither dies, spins,
/// leaves sockets behind nor drops an answer.
@Suite("Signals, limits and the edges of the wire")
struct DaemonRobustnessTests {
    @Test("SIGHUP is logged and ignored: status still answers; SIGTERM then removes both sockets")
    func hangUpIsIgnored() throws {
        let daemon = try DaemonHarness()
        #expect(kill(daemon.process.processIdentifier, SIGHUP) == 0)
        let deadline = monotonicSeconds() + 10
        while !daemon.log().contains("SIGHUP ignored"), monotonicSeconds() < deadline, daemon.process.isRunning {
            usleep(20_000)  // the log is a file: nothing to wait on but the clock
        }
        #expect(daemon.log().contains("SIGHUP ignored"), "\(daemon.log())")
        #expect(daemon.process.isRunning)
        #expect(try daemon.ctl(["status"]).status == 0)
        #expect(daemon.terminate() == 0)
        #expect(!FileManager.default.fileExists(atPath: daemon.runtime + "/app.sock"))
        #expect(!FileManager.default.fileExists(atPath: daemon.runtime + "/control.sock"))
    }

    @Test("SIGTERM the moment READY=1 is said is a graceful stop: exit 0, both sockets removed (10 rounds)")
    func terminateRightAfterReady() throws {
        for round in 0..<10 {
            let daemon = try DaemonHarness()  // returns as READY=1 arrives
            #expect(daemon.terminate() == 0, "round \(round)")
            #expect(!FileManager.default.fileExists(atPath: daemon.runtime + "/app.sock"), "round \(round)")
            #expect(!FileManager.default.fileExists(atPath: daemon.runtime + "/control.sock"), "round \(round)")
        }
    }

    @Test("A start-up failure after the sockets are bound leaves no socket file behind")
    func failedStartLeavesNoSocket() throws {
        let scratch = try TemporaryDirectory("start")
        let base = scratch.path
        let result = try run([Binaries.sextantd, "--runtime-dir", base + "/run", "--state-dir", base + "/state",
            "--no-gpsd", "--no-iio", "--replay", base + "/missing.jsonl"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("--replay"), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: base + "/run").isEmpty)
    }

    @Test("A last request without its newline, then the client shuts down its writing side: it is answered")
    func lastLineWithoutNewlineIsAnswered() throws {
        let daemon = try DaemonHarness()
        let control = try daemon.control()
        try control.writeRaw(#"{"jsonrpc":"2.0","id":41,"method":"permissions.set","params":{"app":"com.example.eof","status":"denied"}}"#)
        try control.finishSending()
        let answer = try control.nextMessage(timeout: 10)
        #expect(answer["id"] == 41)
        #expect(answer["result"]?["status"] == "denied", "\(answer)")
        let list = try daemon.control().call(Method.permissionsList).arrayValue ?? []
        #expect(list.contains { $0["app"] == "com.example.eof" })

        // The same on the app socket, where the answer comes at once.
        let app = try SextantConnection.app(runtimeDirectory: daemon.runtime)
        try app.writeRaw(#"{"jsonrpc":"2.0","id":"last","method":"hello","params":{"app":"com.example.eof"}}"#)
        try app.finishSending()
        #expect(try app.nextMessage(timeout: 10)["id"] == "last")
    }

    @Test("Request ids come back byte for byte as sent: -0, 1.0, 1e2, 2^63, 2^64")
    func idsComeBackAsSent() throws {
        let daemon = try DaemonHarness()
        let app = try RawSocket(path: daemon.runtime + "/app.sock")
        for id in ["-0", "1.0", "1e2", "9223372036854775808", "18446744073709551616", "-7.250"] {
            try app.write(#"{"jsonrpc":"2.0","id":"# + id + #","method":"authorization.get"}"# + "\n")
            let line = try #require(try app.line(timeout: 10))
            #expect(line.hasPrefix(#"{"error":"#), "\(line)")
            #expect(line.contains(#""id":"# + id + ","), "\(line)")
        }
    }

    @Test("A socket path too long is named in the daemon's error and in sextantctl's")
    func socketPathTooLong() throws {
        let scratch = try TemporaryDirectory("long")
        let base = scratch.path
        let runtime = base + "/" + String(repeating: "r", count: 110)
        let daemon = try run([Binaries.sextantd, "--runtime-dir", runtime, "--state-dir", base + "/state", "--no-gpsd", "--no-iio"])
        #expect(daemon.status == 1)
        #expect(daemon.stderr.contains("the socket path \(runtime)/control.sock is"), "\(daemon.stderr)")
        let ctl = try run([Binaries.sextantctl, "status", "--runtime-dir", runtime])
        #expect(ctl.status == 69, "sextantctl(1): no daemon to talk to")
        #expect(ctl.stderr.contains("\(runtime)/control.sock"), "\(ctl.stderr)")
    }
}
