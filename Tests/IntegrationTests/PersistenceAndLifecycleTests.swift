import Foundation
import SextantClient
import SextantProtocol
import SextantTestSupport
import Testing

@Suite("Store and daemon lifecycle")
struct PersistenceAndLifecycleTests {
    @Test("L1 L2 L12: every committed change survives kill -9 of the daemon")
    func committedChangesSurviveKill9() throws {
        let daemon = try DaemonHarness()
        for round in 0..<5 {
            let app = "com.example.app\(round)"
            // The answer comes only once the change is on disk: kill at once after it.
            #expect(try daemon.ctl(["permissions", "grant", app, "--approximate"]).status == 0)
            daemon.kill9()
            try daemon.restart()
        }
        #expect(try daemon.ctl(["services", "off"]).status == 0)
        #expect(try daemon.ctl(["prompts", "policy", "dontAllow"]).status == 0)
        #expect(try daemon.ctl(["permissions", "revoke", "com.example.app0"]).status == 0)
        daemon.kill9()
        try daemon.restart()

        let list = try JSONValue.parse(try daemon.ctl(["permissions", "list", "--json"]).stdout).arrayValue ?? []
        #expect(list.count == 5)
        #expect(list.first?["app"] == "com.example.app0" && list.first?["status"] == "denied")
        #expect(list.dropFirst().allSatisfy { $0["status"] == "authorizedWhenInUse" && $0["accuracy"] == "reduced" })
        let status = try JSONValue.parse(try daemon.ctl(["status", "--json"]).stdout)
        #expect(status["servicesEnabled"] == false)
        #expect(status["promptPolicy"]?["mode"] == "dontAllow")
    }

    @Test("A prompt answer that stores a decision survives kill -9 right after the answer")
    func promptAnswerSurvivesKill9() throws {
        let daemon = try DaemonHarness()
        let (app, _) = try daemon.app("com.example.kept")
        let control = try daemon.control()
        _ = try control.call(Method.watch, ["topics": ["prompt"]])
        let request = try app.send(Method.authorizationRequest, ["level": "always"])
        let prompt = try control.nextEvent(timeout: 10, description: "the prompt") { $0.method == Event.prompt }
        _ = try control.call(Method.promptsAnswer, ["id": prompt.params["id"]!, "choice": "allowAlways"])
        #expect(try app.response(to: request)["status"] == "authorizedAlways")
        daemon.kill9()
        try daemon.restart()
        let (_, hello) = try daemon.app("com.example.kept")
        #expect(hello["authorization"]?["status"] == "authorizedAlways")
    }

    @Test("A corrupt store stops the daemon with a message naming the file; it is never reset")
    func corruptStoreIsNotReset() throws {
        let scratch = try TemporaryDirectory("corrupt")
        let directory = scratch.path
        let file = directory + "/sextant.sqlite3"
        let garbage = String(repeating: "this is not a database ", count: 200)
        try garbage.write(toFile: file, atomically: true, encoding: .utf8)
        let result = try run([Binaries.sextantd, "--runtime-dir", directory + "/run", "--state-dir", directory])
        #expect(result.status != 0)
        #expect(result.stderr.contains(file), "\(result.stderr)")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == garbage)
    }

    @Test("A live daemon on the socket makes a second one refuse to start; a stale socket is replaced")
    func secondDaemonRefuses() throws {
        let daemon = try DaemonHarness()
        let second = try run([Binaries.sextantd, "--runtime-dir", daemon.runtime, "--state-dir", daemon.directory + "/state2"])
        #expect(second.status != 0)
        #expect(second.stderr.contains("already serving"), "\(second.stderr)")
        #expect(try daemon.ctl(["status"]).status == 0, "the first daemon is untouched")

        daemon.kill9()  // leaves its socket files behind
        #expect(FileManager.default.fileExists(atPath: daemon.runtime + "/control.sock"))
        try daemon.restart()
        #expect(try daemon.ctl(["status"]).status == 0)
    }

    @Test("SIGTERM: the daemon closes sessions, removes its sockets and exits 0")
    func gracefulShutdown() throws {
        let daemon = try DaemonHarness()
        let (app, _) = try daemon.app("com.example.bye")
        #expect(daemon.terminate() == 0)
        #expect(!FileManager.default.fileExists(atPath: daemon.runtime + "/app.sock"))
        #expect(!FileManager.default.fileExists(atPath: daemon.runtime + "/control.sock"))
        #expect(throws: ClientError.closed) { _ = try app.nextMessage(timeout: 5) }
    }

    @Test("sextantctl exits non-zero with a clear message when no daemon runs")
    func noDaemon() throws {
        let result = try run([Binaries.sextantctl, "status", "--runtime-dir", "/nonexistent/sextant"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("/nonexistent/sextant/control.sock"))
    }
}
