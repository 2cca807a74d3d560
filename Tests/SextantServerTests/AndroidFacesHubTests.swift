import Foundation
import NIOCore
import SextantCore
import SextantProtocol
import Testing

@testable import SextantHub
@testable import SextantServer

/// Under `--platform android` every location a face or a one-shot call hands out follows
/// Android's rules (docs/platforms.md AN35–AN37), in process on virtual time: the gpsd
/// face's stream is a fused registration, `location.once` is getCurrentLocation,
/// `location.lastKnown` getLastLocation, and a held batch leaves on its own timer (AN30).
@Suite("Android locations for faces and one-shot calls (AN30, AN33, AN35–AN37)", .timeLimit(.minutes(2)))
struct AndroidFacesHubTests {
    typealias Walk = AndroidLocationHubTests

    /// Whether `fix` is a point of AOSP's 2000 m grid in latitude (AN21; iOS's L10 grid is another).
    static func onAOSPGrid(_ latitude: Double?) -> Bool {
        let steps = (latitude ?? 0) / (2000.0 / 111_000)
        return abs(steps - steps.rounded()) < 1e-6
    }

    @Test("AN35, AN25, AN24: a gpsd client granted Approximate gets AOSP's coarse fix every 10 min, without altitude, speed or track")
    func an35GPSDCoarse() async throws {
        let hub = try InProcessHub { $0.platform = .android(api: 36) }
        let path = try HubTimeTests.write(Walk.walk, in: hub, as: "walk.jsonl")
        let control = try await hub.connect(.control)
        let gpsd = try await hub.connectGPSD()
        try await gpsd.send(#"?WATCH={"enable":true,"json":true}"#)
        let dialog = try #require(try await control.call(Method.promptsList).arrayValue?.first)
        _ = try await control.call(Method.promptsAnswer, ["id": dialog["id"] ?? .null, "choice": "whileUsing", "precise": false])
        _ = try await gpsd.drainReports()
        try await Walk.play(hub, control, path)
        let fixes = try await gpsd.drainReports().filter { $0["class"] == "TPV" && $0["lat"] != nil }
        #expect(fixes.map { Walk.second($0["time"]) } == [0, 600, 1200])
        for tpv in fixes {
            #expect(Self.onAOSPGrid(tpv["lat"]?.doubleValue), "\(tpv)")
            #expect(tpv["alt"] == nil && tpv["altHAE"] == nil && tpv["speed"] == nil && tpv["track"] == nil, "\(tpv)")
        }
    }

    /// An Android hub at `api` with one app in the foreground granted `accuracy`.
    static func app(accuracy: String, status: String = "authorizedWhenInUse", api: Int = 36) async throws -> (InProcessHub, TestClient, TestClient) {
        let hub = try InProcessHub { $0.platform = .android(api: api) }
        let control = try await hub.connect(.control)
        let app = try await hub.connect(.app)
        _ = try await app.call(Method.hello, ["app": "com.example.once", "state": "foreground"])
        _ = try await control.call(Method.permissionsSet, ["app": "com.example.once", "status": .string(status), "accuracy": .string(accuracy)])
        _ = try await app.drainEvents()
        return (hub, control, app)
    }

    static func setLocation(_ control: TestClient, north metres: Double = 0) async throws {
        _ = try await control.call(Method.deviceSet, ["location": ["lat": .double(48.85 + metres / 111_195), "lon": 2.35, "hAcc": 5, "alt": 35, "speed": 1]])
    }

    static func sendOnce(_ app: TestClient, id: Int) async throws {
        let message: JSONValue = ["jsonrpc": "2.0", "id": .int(Int64(id)), "method": .string(Method.locationOnce)]
        try await app.send(message.serialized())
    }

    @Test("AN35, AN22: location.once of an approximate app waits for a fresh fix and gets AOSP's fudged one; within 10 s the same at once")
    func an35CurrentLocationCoarse() async throws {
        let (hub, control, app) = try await Self.app(accuracy: "reduced")
        try await Self.sendOnce(app, id: 900)
        try await Self.setLocation(control)
        let answer = try #require(try await app.response(to: 900)["result"])
        #expect(answer["accuracy"] == "reduced" && answer["hAcc"]?.doubleValue == 2000, "\(answer)")
        #expect(Self.onAOSPGrid(answer["lat"]?.doubleValue) && answer["alt"] == nil && answer["speed"] == nil, "\(answer)")
        // AN35: a last location at most 10 s old answers at once, without a fix.
        await hub.advance(by: .seconds(10))
        // Answered before any fix; were it not, the 30 s time-out answers it with null.
        try await Self.sendOnce(app, id: 907)
        await hub.advance(by: .seconds(30))
        #expect(try await app.response(to: 907)["result"] == answer)
        await hub.advance(by: .seconds(1))
        try await Self.sendOnce(app, id: 901)
        try await Self.setLocation(control, north: 50)
        #expect(try await app.response(to: 901)["result"]?["accuracy"] == "reduced")
    }

    @Test("AN35: with no fix within the time-out, location.once answers null on the device's clock, as getCurrentLocation hands its consumer a null location")
    func an35CurrentLocationTimesOut() async throws {
        let (hub, _, app) = try await Self.app(accuracy: "full")
        try await Self.sendOnce(app, id: 902)
        await hub.advance(by: .seconds(30))
        let response = try await app.response(to: 902)
        #expect(response["error"] == nil && response["result"] == .null, "\(response)")
    }

    @Test("AN36, AN37: location.lastKnown gives the last fix; an approximate app's coarse last location moves on only after 10 min")
    func an36LastKnownCoarse() async throws {
        let (hub, control, app) = try await Self.app(accuracy: "reduced")
        #expect(try await app.call(Method.locationLastKnown) == .null)
        try await Self.sendOnce(app, id: 903)
        try await Self.setLocation(control)
        let first = try #require(try await app.response(to: 903)["result"])
        #expect(try await app.call(Method.locationLastKnown) == first)
        // 5 km north 9 min later: the coarse last location stays where it was (AN37)…
        await hub.advance(by: .seconds(540))
        try await Self.sendOnce(app, id: 904)
        try await Self.setLocation(control, north: 5000)
        _ = try await app.response(to: 904)
        #expect(try await app.call(Method.locationLastKnown) == first)
        // …and moves on with a fix more than 10 min after it.
        await hub.advance(by: .seconds(61))
        try await Self.sendOnce(app, id: 905)
        try await Self.setLocation(control, north: 5000)
        _ = try await app.response(to: 905)
        let moved = try await app.call(Method.locationLastKnown)
        #expect(moved != first && moved["accuracy"] == "reduced" && moved["hAcc"]?.doubleValue == 2000, "\(moved)")
    }

    @Test("AN33: on Android 11 a While-using app's last known location is null once more than 20 min old")
    func an33LastKnownAgeOnAPI30() async throws {
        let (hub, control, app) = try await Self.app(accuracy: "full", api: 30)
        try await Self.sendOnce(app, id: 906)
        try await Self.setLocation(control)
        _ = try await app.response(to: 906)
        await hub.advance(by: .seconds(1200))
        #expect(try await app.call(Method.locationLastKnown)["lat"]?.doubleValue == 48.85)
        await hub.advance(by: .milliseconds(1))
        #expect(try await app.call(Method.locationLastKnown) == .null)
    }

    @Test("AN30: a held batch leaves when its delay runs out on the device's clock, with no fix after it")
    func an30BatchOnItsOwnTimer() async throws {
        let (hub, control, app) = try await Self.app(accuracy: "full")
        _ = try await app.call(Method.locationStart, ["intervalMillis": 1000, "maxUpdateDelayMillis": 5000])
        for second in 0..<3 {
            try await Self.setLocation(control, north: Double(second) * 2)
            await hub.advance(by: .seconds(1))
        }
        #expect(try await app.drainEvents().filter { $0.method == Event.locations }.isEmpty)
        await hub.advance(by: .milliseconds(1999))
        #expect(try await app.drainEvents().filter { $0.method == Event.locations }.isEmpty)
        await hub.advance(by: .milliseconds(1))
        let batches = try await app.drainEvents().filter { $0.method == Event.locations }
        #expect(batches.count == 1 && batches.first?.params["locations"]?.arrayValue?.count == 3, "\(batches)")
    }
}
