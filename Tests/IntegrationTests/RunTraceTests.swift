import Foundation
import SextantClient
import SextantProtocol
import SextantTestSupport
import Testing

/// `sextantctl run --trace T --speed max -- COMMAND`, the README's headline: the trace waits
/// for COMMAND's first location request (sextant-rules(7) T1, issue 24.2).
@Suite("sextantctl run with a fast trace", .serialized)
struct RunTraceTests {
    private let temporary: TemporaryDirectory

    init() throws { temporary = try TemporaryDirectory("runtrace") }

    private func ctlRun(_ arguments: [String]) throws -> CommandResult {
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = temporary.path
        environment.removeValue(forKey: "SEXTANT_RUNTIME_DIR")
        return try run([Binaries.sextantctl, "run"] + arguments, environment: environment)
    }

    static let walk = Repository.root + "/Traces/demo-walk.jsonl"

    @Test("issue 24.2, T1: at --speed max an app started by COMMAND gets the walk's 91 fixes from the first")
    func appGetsTheWholeWalk() throws {
        let app = ["/usr/bin/timeout", "60", Binaries.sampleApp, "--app", "com.example.maps", "--count", "91"]
        let result = try ctlRun(["--trace", Self.walk, "--speed", "max", "--grant", "com.example.maps", "--"] + app)
        #expect(result.status == 0, "the sample app did not get 91 fixes: \(result.stderr)")
        let fixes = (result.stdout + result.stderr).split(separator: "\n").filter { $0.contains("location 48.") }
        #expect(fixes.count == 91)
        #expect(fixes.first?.contains("48.85584, 2.29830") == true, "\(fixes.first ?? "")")
        #expect(fixes.first?.contains("2026-03-01T08:00:00") == true, "the first fix is the trace's first: \(fixes.first ?? "")")
    }

    @Test("T1: under run the trace waits paused at 0 until a location request; replay resume starts it by hand")
    func traceWaitsForARequest() throws {
        let script = """
            \(Binaries.sextantctl) --json replay status && \(Binaries.sextantctl) replay resume >/dev/null \
            && printf '%s' "$SEXTANT_RUN_SCENE"
            """
        let result = try ctlRun(["--trace", Self.walk, "--speed", "max", "--grant", "com.example.maps:always", "--", "/bin/sh", "-c", script])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        let status = try JSONValue.parse(String(try #require(lines.first)))
        #expect(status["state"] == "paused" && status["position"] == 0 && status["events"] == 0, "\(status)")
        #expect(status["waitingForRequest"] == true, "\(status)")
        // What run set up, for the pytest plugin to set again before each test.
        let scene = try JSONValue.parse(String(try #require(lines.last)))
        #expect(scene["trace"]?.stringValue == Self.walk && scene["speed"] == "max" && scene["loop"] == false, "\(scene)")
        #expect(scene["grants"] == [["app": "com.example.maps", "always": true, "approximate": false]], "\(scene)")
        #expect(scene["services"] == true && scene["promptPolicy"] == .null, "\(scene)")
    }
}
