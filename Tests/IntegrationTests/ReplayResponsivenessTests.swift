import Foundation
import SextantClient
import SextantProtocol
import Testing

/// A replay at full speed must not hold the daemon's event loop: control and app requests
/// are answered between its batches (issue: a `--loop` replay at max starved every socket).
@Suite("Replay leaves the loop free")
struct ReplayResponsivenessTests {
    /// Asks `status` 100 times during the replay; each answer must come within 100 ms.
    private func statusLatencies(_ daemon: DaemonHarness) throws -> [Double] {
        let control = try daemon.control()
        var latencies: [Double] = []
        for _ in 0..<100 {
            let sent = Date()
            let status = try control.call(Method.status)
            latencies.append(Date().timeIntervalSince(sent))
            #expect(status["replay"]?["state"] == "running")
        }
        return latencies
    }

    @Test("A --loop replay at max with no one listening: status answers within 100 ms, 100 times")
    func loopAtMaxWithNoClient() throws {
        let daemon = try DaemonHarness()
        let path = try daemon.write("walk.jsonl", syntheticTrace(count: 5000, step: 0.01))
        _ = try daemon.control().call(Method.replayStart, ["path": .string(path), "speed": "max", "loop": true])
        let latencies = try statusLatencies(daemon)
        #expect(latencies.max()! < 0.1, "slowest status: \(latencies.max()!) s")
        // And a new app can still say hello.
        let (app, hello) = try daemon.app("com.example.late")
        #expect(hello["session"] != nil)
        _ = app
    }

    @Test("A --loop replay at max with a streaming app and Location Services off: still answered within 100 ms")
    func loopAtMaxServicesOff() throws {
        let daemon = try DaemonHarness()
        let path = try daemon.write("walk.jsonl", syntheticTrace(count: 5000, step: 0.01))
        #expect(try daemon.ctl(["permissions", "grant", "com.example.maps"]).status == 0)
        let (app, _) = try daemon.app("com.example.maps")
        _ = try app.call(Method.locationStart)
        _ = try daemon.control().call(Method.replayStart, ["path": .string(path), "speed": "max", "loop": true])
        _ = try app.nextEvent(timeout: 10)
        _ = try daemon.control().call(Method.servicesSet, ["enabled": false])
        let latencies = try statusLatencies(daemon)
        #expect(latencies.max()! < 0.1, "slowest status: \(latencies.max()!) s")
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
}

@Suite("Numbers from the command line")
struct DaemonFlagBoundsTests {
    @Test(
        "sextantd refuses out-of-range numbers with exit 64 and names the flag, never traps",
        arguments: [
            ["--allow-once-timeout", "1e300"], ["--allow-once-timeout", "0"], ["--gpx-speed", "1e300"], ["--gpx-speed", "inf"],
            ["--gpx-speed", "nan"], ["--iio-rate", "1e300"], ["--speed", "1e-12"],
        ])
    func outOfRange(flag: [String]) throws {
        let result = try run([Binaries.sextantd, "--no-gpsd", "--no-iio", "--replay", "/nonexistent.jsonl"] + flag)
        #expect(result.status == 64, "\(flag): \(result.stderr)")
        #expect(result.stderr.contains(flag[0]), "\(result.stderr)")
    }
}
