import Foundation
import SextantClient
import SextantProtocol
import SextantTestSupport
import Testing

/// The GNSS profile and the simulated flag through the real daemon and real clients
/// (sextant-rules(7) N5, N7; altitude on the gpsd face with gpspipe).
@Suite("GNSS profiles and the simulated flag (real daemon)", .serialized)
struct GNSSProfileTests {
    /// 16 fixes a second apart, with an altitude and a vertical accuracy.
    static let walk: String = {
        var lines = [#"{"sextant":"trace","version":1,"start":"2026-03-01T08:00:00.000Z"}"#]
        for i in 0..<16 {
            lines.append(#"{"t":\#(i),"location":{"lat":\#(48.0 + Double(i) * 0.0001),"lon":2.35,"alt":\#(35 + i),"hAcc":4,"vAcc":3,"speed":1.5,"course":0}}"#)
        }
        return lines.joined(separator: "\n") + "\n"
    }()

    /// The walk's fixes without the walk: 16 fixes at one place, climbing a metre a second.
    static let standing = walk.replacing(#/"lat":48\.0[0-9]*/#, with: #""lat":48.0"#)

    /// Every location an app receives from a replay of the walk at `speed`, until the replay finishes.
    private func replayed(_ arguments: [String], speed: JSONValue) throws -> [JSONValue] {
        let daemon = try DaemonHarness(arguments: arguments)
        let path = try daemon.write("walk.jsonl", Self.walk)
        let app = try daemon.streamingApp("com.example.gnss")
        let control = try daemon.control()
        _ = try control.call(Method.watch, ["topics": ["replay"]])
        _ = try control.call(Method.replayStart, ["path": .string(path), "speed": speed])
        _ = try control.events(until: "the replay finished", timeout: 60) { $0.method == "replay" && $0.params["state"] == "finished" }
        // The last fix was published before the replay said it finished: the app's answer to
        // a request sent now comes after it.
        _ = try app.call(Method.authorizationGet)
        return try app.takeEvents().filter { $0.method == Event.location }.map(\.params)
    }

    @Test("N5: sextantd --gnss-profile urban --seed 7 gives an app the same fixes from a replay at 1× and at max; --seed 8 others")
    func n5SameFixesAtOneAndMax() throws {
        let profile = ["--gnss-profile", "urban", "--seed", "7"]
        let atOne = try replayed(profile, speed: 1)
        let atMax = try replayed(profile, speed: "max")
        // urban's hot start is 5 s: the fixes at 5…15 s.
        #expect(atOne.count == 11)
        #expect(atOne == atMax)
        #expect(atOne.first?["time"] == "2026-03-01T08:00:05.000Z")
        #expect(atOne.allSatisfy { $0["simulated"] == true && $0["lat"]?.doubleValue != nil })
        let otherSeed = try replayed(["--gnss-profile", "urban", "--seed", "8"], speed: "max")
        #expect(otherSeed.map { $0["lat"] } != atMax.map { $0["lat"] })
    }

    @Test("N7: a replayed fix says simulated true; with --simulated-flag never, false")
    func n7ReplaySimulated() throws {
        #expect(try replayed([], speed: "max").map { $0["simulated"] } == Array(repeating: .bool(true), count: 16))
        #expect(try replayed(["--simulated-flag", "never"], speed: "max").map { $0["simulated"] } == Array(repeating: .bool(false), count: 16))
    }

    @Test("N7: a live gpsd's fixes say simulated false; the same gpsd with --simulated-flag always, true", .requires(GPSDBinary.requirement))
    func n7LiveGPSDNotSimulated() throws {
        for (arguments, simulated) in [([String](), false), (["--simulated-flag", "always"], true)] {
            let gpsd = try GPSDProcess()
            let daemon = try DaemonHarness(gpsdPort: gpsd.port, arguments: arguments)
            let app = try daemon.streamingApp("com.example.gps")
            try daemon.waitForGPSDState("no fix")
            try gpsd.feed(GPSDLog.path("haicom-305N.log"))
            let locations = try app.locations(20)
            #expect(locations.count == 20 && locations.allSatisfy { $0["simulated"] == .bool(simulated) }, "\(arguments): \(locations.prefix(2))")
        }
    }

    /// The TPVs with a position that `gpspipe -w` prints of a replay at max of the fixes standing, its
    /// client granted `accuracy`.
    private func gpspipeTPVs(accuracy: String, _ arguments: [String] = []) throws -> [JSONValue] {
        let daemon = try DaemonHarness(arguments: ["--gpsd-listen", "0"] + arguments)
        _ = try daemon.control().call(Method.permissionsSet, ["app": "gpsd.gpspipe", "status": "authorizedAlways", "accuracy": .string(accuracy)])
        let path = try daemon.write("standing.jsonl", Self.standing)
        // Reduced: one fix per 2 km cell, and the device stands in one (a walk could cross a
        // cell's edge: the app's grid offset is drawn at random, L10).
        let wanted = accuracy == "full" ? 16 : 1
        // gpspipe runs until stopped: at full accuracy it prints SKYs (N8, G6) between the TPVs.
        let gpspipe = try ClientProcess(
            [GPSDClients.gpspipe, "-w", "127.0.0.1:\(try daemon.gpsdFacePort())"], directory: daemon.directory, name: "gpspipe")
        try daemon.waitForGPSDWatchers(1)
        try daemon.replayAtMax(path)
        return try gpspipe.waitForOutput(timeout: 60, "print \(wanted) TPVs") { output -> [JSONValue]? in
            let tpvs = output.split(whereSeparator: \.isNewline).compactMap { try? JSONValue.parse(String($0)) }.filter(\.isPositionTPV)
            return tpvs.count >= wanted ? tpvs : nil
        }
    }

    @Test(
        "Altitude end to end, N7: gpspipe -w gets each fix's altMSL and epv, and status 8 (simulated) for a replay; with reduced accuracy no altitude (L10)",
        .requires(GPSDClients.requirement))
    func gpspipeAltitudeAndSimulated() throws {
        let full = try gpspipeTPVs(accuracy: "full")
        #expect(full.map { $0["altMSL"]?.doubleValue } == (0..<16).map { Double(35 + $0) })
        #expect(full.allSatisfy { $0["epv"]?.doubleValue == 3 && $0["mode"] == 3 && $0["status"] == 8 }, "\(full.prefix(2))")
        let reduced = try gpspipeTPVs(accuracy: "reduced")
        #expect(reduced.count == 1)
        #expect(reduced.allSatisfy { $0["altMSL"] == nil && $0["alt"] == nil && $0["epv"] == nil && $0["mode"] == 2 }, "\(reduced)")
        let real = try gpspipeTPVs(accuracy: "full", ["--simulated-flag", "never"])
        #expect(real.count == 16 && real.allSatisfy { $0["status"] == nil }, "\(real.prefix(2))")
    }

    @Test("A bad --gnss-profile stops the daemon at once with the presets it knows")
    func badProfileRefused() throws {
        let result = try run([Binaries.sextantd, "--gnss-profile", "downtown", "--ephemeral", "--no-gpsd", "--no-iio"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("--gnss-profile: unknown GNSS preset 'downtown': use one of open-sky, urban, forest, indoor"), "\(result.stderr)")
    }
}
