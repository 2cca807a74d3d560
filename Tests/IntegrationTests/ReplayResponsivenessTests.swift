import Foundation
import SextantClient
import SextantProtocol
import SextantTestSupport
import Testing

/// A replay at full speed must not hold the daemon's event loop: control and app requests
/// are answered between its batches (issue: a `--loop` replay at max starved every socket).
@Suite("Replay leaves the loop free")
struct ReplayResponsivenessTests {
    /// Asks `status` 100 times during the replay. Each must be answered (the client's
    /// deadline: a starved loop never answers) while the replay goes on playing between
    /// the answers. How long an answer waits is a figure for the benchmarks
    /// (`Tools/bench/bench-fanout.py` prints the `status` round trip), not a bound for a test that
    /// runs under any load.
    private func expectAnsweredWhilePlaying(_ daemon: DaemonHarness) throws {
        let control = try daemon.control()
        var events: [Int] = []
        for _ in 0..<100 {
            let status = try control.call(Method.status)
            #expect(status["replay"]?["state"] == "running")
            events.append(status["replay"]?["events"]?.intValue ?? -1)
        }
        #expect(events.first! >= 0)
        #expect(events.last! > events.first!, "the replay did not move while status was answered: \(events)")
    }

    @Test("A --loop replay at max with no one listening: status is answered 100 times while it plays")
    func loopAtMaxWithNoClient() throws {
        let daemon = try DaemonHarness()
        let path = try daemon.write("walk.jsonl", syntheticTrace(count: 5000, step: 0.01))
        _ = try daemon.control().call(Method.replayStart, ["path": .string(path), "speed": "max", "loop": true])
        try expectAnsweredWhilePlaying(daemon)
        // And a new app can still say hello.
        let (app, hello) = try daemon.app("com.example.late")
        #expect(hello["session"] != nil)
        _ = app
    }

    @Test("A --loop replay at max with a streaming app and Location Services off: status still answered while it plays")
    func loopAtMaxServicesOff() throws {
        let daemon = try DaemonHarness()
        let path = try daemon.write("walk.jsonl", syntheticTrace(count: 5000, step: 0.01))
        #expect(try daemon.ctl(["permissions", "grant", "com.example.maps"]).status == 0)
        let (app, _) = try daemon.app("com.example.maps")
        _ = try app.call(Method.locationStart)
        _ = try daemon.control().call(Method.replayStart, ["path": .string(path), "speed": "max", "loop": true])
        _ = try app.nextEvent(timeout: 10)
        _ = try daemon.control().call(Method.servicesSet, ["enabled": false])
        try expectAnsweredWhilePlaying(daemon)
    }
}

@Suite("Replay speed bounds")
struct ReplaySpeedBoundsTests {
    @Test("sextantd --speed outside 0.001…1000000 exits 64 naming the bounds; replay.start answers -32602", arguments: ["1e-12", "0", "2e6", "nan"])
    func outOfRangeSpeed(speed: String) throws {
        let result = try run([Binaries.sextantd, "--replay", "/nonexistent.jsonl", "--speed", speed, "--no-gpsd", "--no-iio"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("0.001"), "\(result.stderr)")
    }

    @Test("issue 24.5: --speed -1 and 1e9 get one message, the daemon's range, from sextantd, replay start and run", arguments: ["-1", "1e9"])
    func oneRangeOneMessage(speed: String) throws {
        let trace = Repository.root + "/Traces/demo-walk.jsonl"
        var environment = ProcessInfo.processInfo.environment
        environment["SEXTANT_RUNTIME_DIR"] = "/nonexistent/sextant-speed-test"
        for command in [
            [Binaries.sextantd, "--replay", trace, "--speed", speed, "--no-gpsd", "--no-iio"],
            [Binaries.sextantctl, "replay", "start", trace, "--speed", speed],
            [Binaries.sextantctl, "run", "--trace", trace, "--speed", speed, "--", "true"],
        ] {
            let result = try run(command, environment: environment)
            #expect(result.status == 64, "\(command): \(result.stderr)")
            #expect(result.stderr.contains(ReplaySpeed.optionProblem), "\(command): \(result.stderr)")
        }
    }
}

@Suite("Numbers from the command line")
struct DaemonFlagBoundsTests {
    @Test(
        "sextantd refuses out-of-range numbers with exit 64 and names the flag, never traps",
        arguments: [
            ["--allow-once-timeout", "1e300"], ["--allow-once-timeout", "0"], ["--gpx-speed", "1e300"], ["--gpx-speed", "inf"],
            ["--gpx-speed", "nan"], ["--iio-rate", "1e300"], ["--speed", "1e-12"],
            ["--significant-distance", "0"], ["--significant-interval", "nan"], ["--visit-radius", "5"], ["--visit-duration", "1e300"],
        ])
    func outOfRange(flag: [String]) throws {
        let result = try run([Binaries.sextantd, "--no-gpsd", "--no-iio", "--replay", "/nonexistent.jsonl"] + flag)
        #expect(result.status == 64, "\(flag): \(result.stderr)")
        #expect(result.stderr.contains(flag[0]), "\(result.stderr)")
    }
}
