import Foundation
import NIOCore
import SextantCore
import SextantProtocol
import Testing

@testable import SextantServer

/// A GnssLogger recording replayed in process: `replay.start`'s `gnssProvider`, and the
/// `MockLocation` column as the fix's simulated flag (RULES N7; issue 23.1, 23.5).
@Suite("GnssLogger replay in the hub: provider and MockLocation (N7)", .timeLimit(.minutes(1)))
struct GnssLoggerReplayHubTests {
    /// A GPS fix the phone marked mock, then an FLP fix it did not, at the same second.
    static let recording = """
        # Fix,Provider,LatitudeDegrees,LongitudeDegrees,AltitudeMeters,SpeedMps,AccuracyMeters,BearingDegrees,UnixTimeMillis,VerticalAccuracyMeters,MockLocation
        Fix,GPS,37.42,-122.08,10,0,4,,1699400582000,3,1
        Fix,FLP,37.43,-122.09,10,0,6,,1699400582100,3,0

        """

    /// What an authorized app hears of the recording replayed with `params`' options.
    func played(_ params: [String: JSONValue], configure: (inout HubConfiguration) -> Void = { _ in }) async throws -> [JSONValue] {
        let hub = try InProcessHub(configure: configure)
        let path = try HubTimeTests.write(Self.recording, in: hub, as: "gnss_log.txt")
        let control = try await hub.connect(.control)
        let app = try await hub.connect(.app)
        _ = try await app.call(Method.hello, ["app": "com.example.maps"])
        _ = try await control.call(Method.permissionsSet, ["app": "com.example.maps", "status": "authorizedAlways"])
        _ = try await app.call(Method.locationStart)
        var request = params
        request["path"] = .string(path)
        _ = try await control.call(Method.replayStart, .object(request))
        await hub.advance(by: .seconds(2))
        return try await GNSSProfileHubTests.locations(app)
    }

    @Test("Issue 23.1: replay.start's gnssProvider flp plays the FLP fix; without it the GPS one (auto)")
    func providerChosenPerReplay() async throws {
        #expect(try await played(["gnssProvider": "flp"]).map { $0["lat"] } == [37.43])
        #expect(try await played([:]).map { $0["lat"] } == [37.42])
        #expect(try await played(["gnssProvider": "ANY"]).map { $0["lat"] } == [37.42, 37.43])
    }

    @Test("Issue 23.1: a gnssProvider that is none of auto, gps, flp, nlp, any is -32602 naming them")
    func badProvider() async throws {
        let hub = try InProcessHub()
        let path = try HubTimeTests.write(Self.recording, in: hub, as: "gnss_log.txt")
        let response = try await hub.connect(.control).request(Method.replayStart, ["path": .string(path), "gnssProvider": "glonass"])
        #expect(response["error"]?["code"] == -32602, "\(response)")
        #expect(response["error"]?["message"]?.stringValue?.contains("auto, gps, flp, nlp, any") == true, "\(response)")
    }

    @Test("N7: under --simulated-flag auto a recorded MockLocation decides (1: simulated, 0: not); never and always still say the same of every fix")
    func mockLocationIsTheFlag() async throws {
        #expect(try await played(["gnssProvider": "any"]).map { $0["simulated"] } == [true, false])
        #expect(try await played(["gnssProvider": "any"], configure: { $0.simulatedFlag = .never }).map { $0["simulated"] } == [false, false])
        #expect(try await played(["gnssProvider": "any"], configure: { $0.simulatedFlag = .always }).map { $0["simulated"] } == [true, true])
    }
}
