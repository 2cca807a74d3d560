import Foundation
import NIOCore
import SextantCore
import SextantProtocol
import Testing

@testable import SextantHub
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

    @Test("Issue 23.1: the Pixel 7 recording replays; an app's first fix is the file's first GPS fix, at its UTC time")
    func pixel7FirstFix() async throws {
        let hub = try InProcessHub()
        let recording = #filePath.components(separatedBy: "/Tests/")[0] + "/Traces/gnsslogger/pixel7-2023-stanford.txt"
        let path = try HubTimeTests.write(try String(contentsOfFile: recording, encoding: .utf8), in: hub, as: "gnss_log_2023_11_07.txt")
        let (control, app, _) = try await hub.grantedApp("com.example.gnss", subscribe: [Method.locationStart])
        _ = try await control.call(Method.replayStart, ["path": .string(path), "speed": "max"])
        var first: JSONValue?
        while first == nil {
            let message = try await app.nextMessage()
            if message["method"] == .string(Event.location) { first = message["params"] }
        }
        // grep '^Fix,GPS,' pixel7-2023-stanford.txt | head -1:
        // Fix,GPS,37.4265079783,-122.1737079613,23.67296474531974,0.0,4.2366138,,1699400582000,…,3.0,…
        #expect(first?["lat"]?.doubleValue == 37.4265079783 && first?["lon"]?.doubleValue == -122.1737079613)
        #expect(first?["alt"]?.doubleValue == 23.67296474531974 && first?["hAcc"]?.doubleValue == 4.2366138 && first?["vAcc"]?.doubleValue == 3.0)
        #expect(first?["time"] == "2023-11-07T23:43:02.000Z")
        // 1699401141957 − 1699400582000 ms: the first GPS fix to the last UncalMag row (issue 21.1).
        #expect(try await control.call(Method.replayStatus)["duration"]?.doubleValue == 559.957)
    }

    @Test("Issue 23.1: a gnssProvider that is none of auto, gps, flp, nlp, any is -32602 naming them")
    func badProvider() async throws {
        let hub = try InProcessHub()
        let path = try HubTimeTests.write(Self.recording, in: hub, as: "gnss_log.txt")
        let response = try await hub.connect(.control).request(Method.replayStart, ["path": .string(path), "gnssProvider": "glonass"])
        #expect(response["error"]?["code"] == -32602, "\(response)")
        #expect(response["error"]?["message"]?.stringValue?.contains("auto, gps, flp, nlp, any") == true, "\(response)")
    }

    @Test("issue 42.5: a fix written 21.6 s late (a real Pixel 7 excerpt) reaches the app where it was written, carrying its own older time")
    func lateFixKeepsItsOwnTime() async throws {
        let hub = try InProcessHub()
        let path = try HubTimeTests.write(GnssLoggerLateRowExcerpt.text, in: hub, as: "gnss_log.txt")
        let control = try await hub.connect(.control)
        let app = try await hub.connect(.app)
        _ = try await app.call(Method.hello, ["app": "com.example.maps"])
        _ = try await control.call(Method.permissionsSet, ["app": "com.example.maps", "status": "authorizedAlways"])
        _ = try await app.call(Method.locationStart)
        _ = try await control.call(Method.replayStart, ["path": .string(path), "gnssProvider": "any"])
        await hub.advance(by: .seconds(30))
        let locations = try await GNSSProfileHubTests.locations(app)
        #expect(locations.count == 10)
        #expect(locations.last?["lat"] == 37.4266961, "the late NLP fix comes last, where it was written")
        #expect(locations.last?["time"] == "2023-11-07T23:43:05.063Z", "with its own time: \(String(describing: locations.last))")
        let times = locations.dropLast().compactMap { $0["time"]?.stringValue }
        #expect(times == times.sorted() && times.last == "2023-11-07T23:43:26.641Z")
    }

    @Test("N7: under --simulated-flag auto a recorded MockLocation decides (1: simulated, 0: not); never and always still say the same of every fix")
    func mockLocationIsTheFlag() async throws {
        #expect(try await played(["gnssProvider": "any"]).map { $0["simulated"] } == [true, false])
        #expect(try await played(["gnssProvider": "any"], configure: { $0.simulatedFlag = .never }).map { $0["simulated"] } == [false, false])
        #expect(try await played(["gnssProvider": "any"], configure: { $0.simulatedFlag = .always }).map { $0["simulated"] } == [true, true])
    }
}

/// Issue 42.5's excerpt of a real recording: the first 12 `Fix` rows of the Pixel 7 2023
/// file (Traces/gnsslogger/pixel7-2023-stanford.txt), its NLP fix stamped 23:43:05.063 moved
/// after the row stamped 23:43:26.641, as Android writes a fix delivered late.
enum GnssLoggerLateRowExcerpt {
    static let text = """
        # Fix,Provider,LatitudeDegrees,LongitudeDegrees,AltitudeMeters,SpeedMps,AccuracyMeters,BearingDegrees,UnixTimeMillis,SpeedAccuracyMps,BearingAccuracyDegrees,elapsedRealtimeNanos,VerticalAccuracyMeters,MockLocation,NumberOfUsedSignals,VerticalSpeedAccuracyMps,SolutionType
        Fix,GPS,37.4265079783,-122.1737079613,23.67296474531974,0.0,4.2366138,,1699400582000,0.19259089,,16124559129000,3.0,0,,,
        Fix,FLP,37.4265084000,-122.1737085000,1.7895395873822721,0.032405708,4.139,,1699400584473,0.1958978,,16126559152000,1.391284,0,,,
        Fix,GPS,37.4265085234,-122.1737086237,23.58730408634848,0.0,4.137764,,1699400588000,0.19814228,,16130559277000,3.0,0,,,
        Fix,FLP,37.4265089000,-122.1737087000,1.5747113590160176,0.01595533,4.271,,1699400592472,0.19429271,,16134559289000,1.408621,0,,,
        Fix,GPS,37.4265112815,-122.1737080443,23.24230791913169,0.0,4.0901904,,1699400594000,0.20834292,,16136559319000,3.0,0,,,
        Fix,GPS,37.4264969338,-122.1737394073,22.58852262993909,0.8924806,4.107699,201.09357,1699400600000,0.16946356,10.303598,16142559392000,3.0,0,,,
        Fix,FLP,37.4264993000,-122.1737335000,1.7549287890041967,0.76968116,9.633,249.99295,1699400600630,,,16142716772889,1.4183482,0,,,
        Fix,GPS,37.4264415621,-122.1737797591,21.715970730072797,0.9455695,3.9290955,213.37006,1699400606000,0.1588222,9.325296,16148559499000,3.0,0,,,
        Fix,FLP,37.4264491000,-122.1737490000,1.6092760344572454,0.9251802,7.281,200.77103,1699400606641,,,16148728624988,1.4729532,0,,,
        Fix,NLP,37.4266961000,-122.1735829000,8.300000190734863,,15.136,,1699400585063,,,16127149000000,2.5976572,0,,,

        """
}
