import Foundation
import NIOCore
import SextantCore
import SextantProtocol
import Testing

@testable import SextantHub
@testable import SextantServer

/// A heading held by hand or replayed, as the control side and a filter-0 app see it
/// (issue 43, points 5 and 6; RULES H6, H7, H9, O4a): on change only, with its true heading,
/// gone from `status` once nothing feeds it, and one kind of reading a source.
@Suite("The heading on the control side and in filter-0 streams, in process", .timeLimit(.minutes(1)))
struct HeadingWatchTests {
    static func watching(_ hub: InProcessHub) async throws -> TestClient {
        let control = try await hub.connect(.control)
        _ = try await control.call(Method.watch, ["topics": [.string(Event.heading)]])
        return control
    }

    static func watchedHeadings(_ control: TestClient) async throws -> [JSONValue] {
        try await control.drainEvents().filter { $0.method == Event.heading }.map(\.params)
    }

    @Test("H7 O4a, issue 43.5: a held heading is watched once, not 50 times a second; a filter-0 app hears it once; a change is heard")
    func heldHeadingPublishedOnChange() async throws {
        let hub = try InProcessHub()
        let control = try await Self.watching(hub)
        _ = try await control.call(Method.deviceSet, ["heading": ["magnetic": 45]])
        await hub.advance(by: .milliseconds(700))
        #expect(try await Self.watchedHeadings(control).map { $0["magnetic"] } == [45])
        let app = try await hub.connect(.app)
        _ = try await app.call(Method.hello, ["app": "com.example.compass"])
        _ = try await app.call(Method.headingStart, ["filter": 0])
        await hub.advance(by: .milliseconds(700))
        #expect(try await HeadingHubTests.headings(app).map { $0["magnetic"] } == [45], "the first after heading.start, then nothing new")
        _ = try await control.call(Method.deviceSet, ["heading": ["magnetic": 45, "accuracy": 3]])
        await hub.advance(by: .milliseconds(700))
        #expect(try await HeadingHubTests.headings(app).map { $0["accuracy"] } == [3], "a new accuracy is a change")
        _ = try await control.call(Method.deviceSet, ["heading": ["magnetic": 46, "accuracy": 3]])
        await hub.advance(by: .milliseconds(700))
        #expect(try await HeadingHubTests.headings(app).map { $0["magnetic"] } == [46])
    }

    @Test("H6, issue 43.6: a heading held with true only shows its true heading in watch and status, beside the magnetic one")
    func heldTrueHeadingShownOnControlSide() async throws {
        let hub = try InProcessHub()
        let control = try await Self.watching(hub)
        _ = try await control.call(Method.deviceSet, ["location": ["lat": 48.85, "lon": 2.29]])
        _ = try await control.call(Method.deviceSet, ["heading": ["true": 45]])
        await hub.advance(by: .milliseconds(300))
        let watched = try await Self.watchedHeadings(control)
        #expect(watched.count == 1 && watched.first?["true"] == 45 && watched.first?["magnetic"] != 45, "\(watched)")
        let status = try await control.call(Method.status)["heading"]
        #expect(status?["true"] == 45 && status?["magnetic"] == watched.first?["magnetic"], "\(String(describing: status))")
    }

    @Test("O4a, issue 43.6: after heading release with nothing feeding it, status's heading is null; watch sees the next reading")
    func releasedHeadingLeavesStatus() async throws {
        let hub = try InProcessHub()
        let control = try await Self.watching(hub)
        _ = try await control.call(Method.deviceSet, ["heading": ["magnetic": 45]])
        await hub.advance(by: .milliseconds(300))
        #expect(try await control.call(Method.status)["heading"]?["magnetic"] == 45)
        _ = try await control.call(Method.deviceSet, ["heading": .null])
        await hub.advance(by: .milliseconds(300))
        #expect(try await control.call(Method.status)["heading"] == .null)
        _ = try await control.call(Method.deviceSet, ["heading": ["magnetic": 45]])
        await hub.advance(by: .milliseconds(300))
        #expect(try await Self.watchedHeadings(control).map { $0["magnetic"] } == [45, 45], "the same heading again, after none")
    }

    /// A replay whose every second has a field for 0° and, from 3 s on, a compass reading of 90°.
    static let bothKinds = HubTimeTests.trace(
        start: "2026-03-01T08:00:00.000Z",
        [#"{"t":0,"accel":{"x":0,"y":0,"z":9.81}}"#]
            + (1..<8).flatMap { t in
                [#"{"t":\#(t),"magnet":{"x":0,"y":20,"z":-40}}"#] + (t >= 3 ? [#"{"t":\#(Double(t) + 0.5),"compass":{"magnetic":90}}"#] : [])
            })

    @Test("H9, issue 43.6: a replay with field and compass rows is heard through its compass alone once it has one: no alternation")
    func oneKindOfReadingPerSource() async throws {
        let hub = try InProcessHub()
        let path = try HubTimeTests.write(Self.bothKinds, in: hub, as: "both.jsonl")
        let control = try await Self.watching(hub)
        let app = try await hub.connect(.app)
        _ = try await app.call(Method.hello, ["app": "com.example.compass"])
        _ = try await app.call(Method.headingStart, ["filter": 0])
        _ = try await control.call(Method.replayStart, ["path": .string(path), "speed": 1])
        await hub.advance(by: .seconds(9))
        let heard = try await HeadingHubTests.headings(app).compactMap { $0["magnetic"]?.doubleValue?.rounded() }
        #expect(heard == [0, 90], "the field's until the first compass reading, then the compass's only: \(heard)")
    }
}
