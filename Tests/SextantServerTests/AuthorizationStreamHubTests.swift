import Foundation
import SextantCore
import SextantProtocol
import SextantTestSupport
import Testing

/// What an authorization does to a location stream: the switch, a revoke mid-replay,
/// reduced accuracy and the distance filter, in process on virtual time.
@Suite("Authorization and the location stream, in process", .timeLimit(.minutes(1)))
struct AuthorizationStreamHubTests {
    @Test("L7 L1: with Location Services off, location.start fails at once and raises one alert")
    func servicesOffAlert() async throws {
        let hub = try InProcessHub()
        let (control, app, hello) = try await hub.grantedApp("com.example.nav")
        #expect(hello["authorization"]?["status"] == "authorizedWhenInUse")

        _ = try await control.call(Method.servicesSet, ["enabled": false])
        let off = try await app.settled()
        #expect(off.contains { $0.method == Event.authorization && $0.params["status"] == "denied" })
        #expect(off.last?.method == Event.servicesEnabled && off.last?.params["enabled"] == false)
        for _ in 0..<2 { #expect(try await app.errorCode(Method.locationStart) == RPCErrorCode.servicesDisabled.rawValue) }
        let alerts = try await control.call(Method.promptsList).arrayValue ?? []
        #expect(alerts.count == 1, "one alert per app session")
        #expect(alerts.first?["kind"] == "servicesOff" && alerts.first?["level"] == .null)

        // Answering the alert never turns the switch on.
        _ = try await control.call(Method.promptsAnswer, ["id": alerts.first?["id"] ?? .null, "choice": "settings"])
        #expect(try await control.call(Method.status)["servicesEnabled"] == false)
        // L7 for authorization.request as well, and 1002 wins over 1001 for another app.
        let (stranger, _) = try await hub.app("com.example.stranger")
        #expect(try await stranger.errorCode(Method.authorizationRequest, ["level": "whenInUse"]) == 1002)

        // L1: the stored decision comes back with the switch.
        _ = try await control.call(Method.servicesSet, ["enabled": true])
        #expect(try await app.drained(Event.authorization).map { $0["status"] } == ["authorizedWhenInUse"])
        _ = try await app.call(Method.locationStart)
    }

    @Test("L9: after a revoke not one more location reaches the app")
    func revokeCutsOffAtOnce() async throws {
        let hub = try InProcessHub()
        let trace = try HubTimeTests.write(syntheticTrace(count: 1000, step: 0.01), in: hub, as: "fast.jsonl")
        let (control, app, _) = try await hub.grantedApp("com.example.fast", subscribe: [Method.locationStart])
        _ = try await control.call(Method.replayStart, ["path": .string(trace), "speed": 2])
        await hub.advance(by: .seconds(1))  // 200 of the 1000 fixes
        #expect(try await app.drained(Event.location).count >= 150, "locations flow before the revoke")
        _ = try await control.call(Method.permissionsSet, ["app": "com.example.fast", "status": "denied"])
        await hub.advance(by: .seconds(5))
        #expect(try await control.call(Method.replayStatus)["state"] == "finished")
        let after = try await app.settled().map(\.method)
        #expect(after == [Event.authorization], "only the revoke, no location after it: \(after)")
    }

    @Test("L10: reduced accuracy is applied in the daemon: the cell's centre, hAcc ≥ 2000 m, no altitude/speed/course")
    func reducedAccuracy() async throws {
        let hub = try InProcessHub()
        let (control, app, hello) = try await hub.grantedApp("com.example.coarse", approximate: true, subscribe: [Method.locationStart])
        #expect(hello["authorization"]?["accuracy"] == "reduced")
        let truth = (lat: 48.85837, lon: 2.29448)
        try await control.setLocation(truth.lat, truth.lon, ["alt": 35, "speed": 1.4, "course": 90])
        let coarse = try #require(try await app.drained(Event.location).first)
        #expect(coarse["accuracy"] == "reduced" && (coarse["hAcc"]?.doubleValue ?? 0) >= 2000)
        #expect(coarse["alt"] == nil && coarse["speed"] == nil && coarse["course"] == nil)
        let lat = try #require(coarse["lat"]?.doubleValue), lon = try #require(coarse["lon"]?.doubleValue)
        let offset = Geo.distance(lat1: truth.lat, lon1: truth.lon, lat2: lat, lon2: lon)
        #expect(offset <= 1415, "the centre of a 2 km cell is at most its half-diagonal away (\(offset) m)")
        #expect(lat != truth.lat || lon != truth.lon)

        // A move within the cell brings nothing new; a move of 10 km does.
        try await control.setLocation(lat, lon)
        #expect(try await app.drained(Event.location).isEmpty)
        try await control.setLocation(truth.lat + 0.09, truth.lon)
        let moved = try #require(try await app.drained(Event.location).first)
        let movedOffset = Geo.distance(
            lat1: truth.lat + 0.09, lon1: truth.lon, lat2: moved["lat"]?.doubleValue ?? 0, lon2: moved["lon"]?.doubleValue ?? 0)
        #expect(movedOffset <= 1415)

        // location.once is reduced too.
        try await app.send(#"{"jsonrpc":"2.0","id":"once","method":"location.once"}"#)
        try await control.setLocation(truth.lat, truth.lon)
        let once = try #require(try await app.response(to: "once")["result"])
        #expect(once["lat"] == coarse["lat"] && once["lon"] == coarse["lon"] && once["accuracy"] == "reduced")
    }

    @Test("L11: distanceFilter skips fixes closer than the filter to the last one delivered")
    func distanceFilter() async throws {
        let hub = try InProcessHub()
        let (control, app, _) = try await hub.grantedApp("com.example.filter")
        _ = try await app.call(Method.locationStart, ["distanceFilter": 100])
        // 0.0008° of latitude ≈ 89 m; 0.0010° ≈ 111 m.
        for lat in [50.0, 50.0008, 50.0010, 50.0018, 50.0021] { try await control.setLocation(lat, 8) }
        #expect(try await app.drained(Event.location).compactMap { $0["lat"]?.doubleValue } == [50.0, 50.0010, 50.0021])
    }
}
