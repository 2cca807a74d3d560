import Foundation
import NIOCore
import SextantCore
import SextantProtocol
import Testing

@testable import SextantHub
@testable import SextantServer

/// The magnetometer and the heading held by hand over a replay that has magnetometer
/// samples (RULES O4a, issue 24.1 for the magnetometer, issue 21 "values set by hand"):
/// while held only the hand is heard, through app.sock's `heading` events and `status`;
/// released, the replay's own readings at once.
@Suite("The magnetometer and the heading by hand over a replay, in process", .timeLimit(.minutes(1)))
struct HeadingByHandTests {

    /// A hub replaying `north` at speed 1 to an app with the compass started (filter 0),
    /// after the replay's first heading.
    static func setUp() async throws -> (InProcessHub, TestClient, TestClient) {
        let (hub, control, app) = try await HeadingHubTests.setUp(Array(repeating: 0, count: 30), status: "authorizedWhenInUse")
        await hub.advance(by: .milliseconds(1500))
        let first = try await HeadingHubTests.headings(app)
        #expect(first.count == 1 && HeadingHubTests.near(first.first?["magnetic"], 0), "the replay's own heading first: \(first)")
        return (hub, control, app)
    }

    /// The magnetic headings the app heard, rounded to the degree.
    static func magnetic(_ app: TestClient) async throws -> Set<Double> {
        Set(try await HeadingHubTests.headings(app).compactMap { $0["magnetic"]?.doubleValue?.rounded() })
    }

    @Test("O4a, issue 24.1: magneticField held over a replay: only the hand's heading is heard; released, the replay's at once")
    func magnetometerHeldOverReplay() async throws {
        let (hub, control, app) = try await Self.setUp()
        // Flat, top to the east: the field's north component along -x.
        _ = try await control.call(Method.deviceSet, ["magneticField": ["x": -20, "y": 0, "z": -40]])
        await hub.advance(by: .milliseconds(100))
        #expect(try await Self.magnetic(app) == [90], "at once")
        await hub.advance(by: .seconds(5))
        #expect(try await Self.magnetic(app).isEmpty, "five of the replay's samples, none heard; the hand's the same again, not sent (H7)")
        let status = try await control.call(Method.status)
        #expect(HeadingHubTests.near(status["heading"]?["magnetic"], 90) && status["heading"]?["source"] == "manual", "\(status)")
        #expect(status["held"] == ["magnet"], "\(status)")
        _ = try await control.call(Method.deviceSet, ["magneticField": .null])
        await hub.advance(by: .milliseconds(1000))
        #expect(try await Self.magnetic(app) == [0], "the replay's next reading is heard")
        let after = try await control.call(Method.status)
        #expect(after["heading"]?["source"] == "replay" && after["held"] == [], "\(after)")
    }

    @Test("O4a, issue 21: heading held over a replay of magnetometer samples: the hand's heading and accuracy; released, the replay's")
    func headingHeldOverReplay() async throws {
        let (hub, control, app) = try await Self.setUp()
        _ = try await control.call(Method.deviceSet, ["heading": ["magnetic": 123.5, "accuracy": 7]])
        await hub.advance(by: .seconds(3))
        let held = try await HeadingHubTests.headings(app)
        #expect(!held.isEmpty && held.allSatisfy { $0["magnetic"] == 123.5 && $0["accuracy"] == 7 && ($0["field"] ?? .null) == .null }, "\(held)")
        let status = try await control.call(Method.status)
        #expect(status["heading"]?["magnetic"] == 123.5 && status["held"] == ["compass"], "\(status)")
        // The later instruction wins: a field by hand takes the heading's place.
        _ = try await control.call(Method.deviceSet, ["magneticField": ["x": 0, "y": -20, "z": -40]])
        await hub.advance(by: .seconds(2))
        #expect(try await Self.magnetic(app) == [180])
        #expect(try await control.call(Method.status)["held"] == ["magnet"])
        _ = try await control.call(Method.deviceSet, ["magneticField": .null])
        await hub.advance(by: .milliseconds(1000))
        #expect(try await Self.magnetic(app) == [0], "the replay's own field again")
    }

    @Test("O4a: heading: null gives the compass back to the replay")
    func headingReleased() async throws {
        let (hub, control, app) = try await Self.setUp()
        _ = try await control.call(Method.deviceSet, ["heading": ["magnetic": 45]])
        await hub.advance(by: .seconds(2))
        #expect(try await Self.magnetic(app) == [45])
        _ = try await control.call(Method.deviceSet, ["heading": .null])
        await hub.advance(by: .milliseconds(1000))
        #expect(try await Self.magnetic(app) == [0])
    }

    @Test("device.set refuses a field or heading out of range, naming the member, and holds nothing")
    func badValuesAreRefused() async throws {
        let hub = try InProcessHub()
        let control = try await hub.connect(.control)
        let cases: [(JSONValue, String)] = [
            (["magneticField": ["x": 1, "y": 2]], "magneticField"),
            (["magneticField": ["x": 1, "y": 2, "z": 9000]], "magneticField: magnet: z must be"),
            (["heading": ["magnetic": 400]], "heading: compass.magnetic must be within 0...360"),
            (["heading": ["accuracy": 5]], "heading: compass needs one of magnetic, true"),
            (["heading": ["true": -1]], "heading: compass.true"),
            (["heading": "north"], "heading"),
        ]
        for (params, says) in cases {
            let error = try await control.request(Method.deviceSet, params)["error"]
            #expect(error?["code"] == .int(Int64(RPCErrorCode.invalidParams.rawValue)), "\(params)")
            #expect(error?["message"]?.stringValue?.contains(says) == true, "\(params): \(String(describing: error))")
        }
        #expect(try await control.call(Method.status)["held"] == [])
    }
}
