import Foundation
import NIOCore
import SextantProtocol
import Testing

@testable import SextantHub

/// The `stationary` diagnostic (docs/platforms.md I14) and `diagnostics` for watchers, in
/// process, in virtual time.
@Suite("iOS stationary diagnostic, in process", .timeLimit(.minutes(1)))
struct IOSStationaryHubTests {
    static let app = "com.example.maps"

    /// One fix every `step` seconds for `count` fixes, `east` metres further east each time.
    static func fixes(_ hub: InProcessHub, _ control: TestClient, count: Int, step: Int64 = 5, east: Double = 0, from start: inout Double) async throws {
        for _ in 0..<count {
            await hub.advance(by: .seconds(step))
            start += east / 111_320 / cos(48.0 * .pi / 180)
            _ = try await control.call(Method.deviceSet, ["location": ["lat": 48.0, "lon": .double(start), "hAcc": 5]])
        }
    }

    @Test("I14: fixes within their accuracy for 30 s raise stationary (not at 25 s); one beyond it lowers it at once")
    func testI14_stillFor30sIsStationary() async throws {
        let hub = try InProcessHub()
        let control = try await hub.connect(.control)
        let app = try await hub.connect(.app)
        _ = try await app.call(Method.hello, ["app": .string(Self.app)])
        _ = try await control.call(Method.permissionsSet, ["app": .string(Self.app), "status": "authorizedWhenInUse"])
        _ = try await app.call(Method.diagnosticsStart)
        _ = try await DiagnosticsHubTests.diagnostics(app)
        var lon = 2.0
        try await Self.fixes(hub, control, count: 6, east: 0.5, from: &lon)  // anchor + 25 s of 0.5 m steps within 5 m
        #expect(try await DiagnosticsHubTests.diagnostics(app).isEmpty, "25 s still: not yet")
        try await Self.fixes(hub, control, count: 1, east: 0.5, from: &lon)
        let still = try await DiagnosticsHubTests.diagnostics(app)
        #expect(still.map(DiagnosticsHubTests.raised) == [["stationary"]], "30 s within the accuracy: \(still)")
        try await Self.fixes(hub, control, count: 1, east: 20, from: &lon)
        #expect(try await DiagnosticsHubTests.diagnostics(app).map(DiagnosticsHubTests.raised) == [[]], "a move beyond 5 m")
    }

    @Test("I13: a watcher of diagnostics sees the flags of a session that did not ask, on change only")
    func testI13_watcherSeesDiagnostics() async throws {
        let hub = try InProcessHub()
        let control = try await hub.connect(.control)
        let watcher = try await hub.connect(.control)
        let app = try await hub.connect(.app)
        _ = try await app.call(Method.hello, ["app": .string(Self.app)])
        _ = try await watcher.call(Method.watch, ["topics": [.string(Event.diagnostics)]])
        _ = try await control.call(Method.permissionsSet, ["app": .string(Self.app), "status": "denied"])
        let seen = try await watcher.drainEvents().filter { $0.method == Event.diagnostics }.map(\.params)
        #expect(seen.count == 1 && seen.first?["authorizationDenied"] == true && seen.first?["app"] == .string(Self.app), "\(seen)")
        _ = try await control.call(Method.deviceSet, ["location": ["lat": 48.0, "lon": 2.0, "hAcc": 5]])
        #expect(try await watcher.drainEvents().filter { $0.method == Event.diagnostics }.isEmpty, "no change, nothing")
        #expect(try await app.drainEvents().filter { $0.method == Event.diagnostics }.isEmpty, "the app did not ask")
    }
}
