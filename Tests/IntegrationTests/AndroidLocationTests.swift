import Foundation
import SextantClient
import SextantProtocol
import SextantTestSupport
import Testing

/// Location under `sextantd --platform android` through the real daemon and app.sock
/// (docs/platforms.md, "Android: location delivery").
@Suite("Android location delivery in sextantd")
struct AndroidLocationTests {
    @Test("AN21, AN24, AN25: an approximate app gets AOSP's coarse fix, then nothing for 10 min of fixes")
    func coarseFixThenCap() throws {
        let daemon = try DaemonHarness(arguments: ["--platform", "android"])
        #expect(try daemon.ctl(["permissions", "grant", "com.example.coarse", "--approximate"]).status == 0)
        let (app, _) = try daemon.app("com.example.coarse")
        _ = try app.call(Method.locationStart, ["priority": "highAccuracy", "intervalMillis": 1000])
        #expect(try daemon.ctl(["location", "set", "48.85837", "2.29448", "--alt", "35", "--speed", "1.4"]).status == 0)
        let coarse = try app.nextEvent(timeout: 5, description: "a location") { $0.method == Event.location }.params
        #expect(coarse["accuracy"] == "reduced" && coarse["hAcc"]?.doubleValue == 2000)
        #expect(coarse["alt"] == nil && coarse["speed"] == nil)
        // AN21: a whole number of 2000/111000° steps north (the iOS grid's steps are others).
        let steps = (coarse["lat"]?.doubleValue ?? 0) / (2000.0 / 111_000)
        #expect(abs(steps - steps.rounded()) < 1e-6, "\(coarse)")
        // AN25: a second fix a moment later, 10 km away, is not delivered; a round trip
        // flushes anything in flight.
        #expect(try daemon.ctl(["location", "set", "48.95", "2.29448"]).status == 0)
        _ = try app.call(Method.authorizationGet)
        #expect(try app.takeEvents().filter { $0.method == Event.location }.isEmpty)
        #expect(daemon.terminate() == 0)
    }

    @Test("AN30: a precise app with maxUpdateDelayMillis gets its fixes as `locations` events of several fixes")
    func batchesAsOneEvent() throws {
        let daemon = try DaemonHarness(arguments: ["--platform", "android"])
        let trace = try daemon.write("walk.jsonl", syntheticTrace(count: 30, step: 1))
        #expect(try daemon.ctl(["permissions", "grant", "com.example.hike"]).status == 0)
        let (app, _) = try daemon.app("com.example.hike")
        _ = try app.call(Method.locationStart, ["intervalMillis": 1000, "maxUpdateDelayMillis": 5000])
        let control = try daemon.control()
        _ = try control.call(Method.watch, ["topics": ["replay"]])
        _ = try control.call(Method.replayStart, ["path": .string(trace), "speed": "max"])
        _ = try control.nextEvent(timeout: 30, description: "the replay to finish") {
            $0.method == Event.replay && $0.params["state"] == "finished"
        }
        _ = try app.call(Method.authorizationGet)
        let events = try app.takeEvents().filter { $0.method == Event.location || $0.method == Event.locations }
        #expect(events.count == 5 && events.allSatisfy { $0.method == Event.locations }, "\(events.map(\.method))")
        #expect(events.first?.params["locations"]?.arrayValue?.count == 6)
        #expect(daemon.terminate() == 0)
    }
}
