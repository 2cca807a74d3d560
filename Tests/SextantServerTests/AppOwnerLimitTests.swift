import Foundation
import NIOCore
import SextantCore
import SextantProtocol
import SextantStore
import Testing

@testable import SextantHub
@testable import SextantServer

/// Issue 36 points 5 and 6: what one local uid can make the daemon keep. An app id that
/// stores nothing costs nothing durable; a uid other than root and the daemon's own holds a
/// bounded number of app ids with something stored, and of regions across its apps.
@Suite("What one uid can make the daemon keep", .timeLimit(.minutes(2)))
struct AppOwnerLimitTests {
    static let stranger: UInt32 = 65534

    /// The bindings on disk, read from the store file by a second reader.
    static func storedOwners(_ hub: InProcessHub) throws -> [String: UInt32] {
        try SextantStore(directory: hub.directory + "/store").load().owners
    }

    /// A hello from `uid` as `app` on a connection of its own.
    static func hello(_ hub: InProcessHub, _ app: String, uid: UInt32 = stranger) async throws -> TestClient {
        let client = try await hub.connect(.app, uid: uid)
        _ = try await client.call(Method.hello, ["app": .string(app)])
        return client
    }

    @Test("500 fresh app ids say hello and leave: nothing is stored, nothing is held; another uid may then take any of them")
    func churnStoresNothing() async throws {
        let hub = try InProcessHub()
        for n in 0..<500 {
            let client = try await Self.hello(hub, "com.example.churn\(n)")
            try await client.channel.close()
        }
        #expect(try Self.storedOwners(hub).isEmpty, "no binding on disk")
        let control = try await hub.connect(.control)
        #expect(try await control.call(Method.permissionsOwners) == [], "none held in memory either")
        // While a session lives, its binding holds against another uid.
        let live = try await Self.hello(hub, "com.example.live")
        let other = try await hub.connect(.app, uid: 1000)
        #expect(try await other.errorCode(Method.hello, ["app": "com.example.live"]) == RPCErrorCode.wrongUser.rawValue)
        withExtendedLifetime(live) {}
    }

    @Test("The binding is stored with the app's first decision, in the same transaction, and survives a restart")
    func bindingStoredWithFirstDecision() async throws {
        let hub = try InProcessHub()
        let control = try await hub.connect(.control)
        _ = try await control.call(Method.promptsPolicy, ["mode": "allowWhileUsing"])
        let app = try await Self.hello(hub, "com.example.decided")
        #expect(try Self.storedOwners(hub).isEmpty)
        _ = try await app.call(Method.authorizationRequest, ["level": "whenInUse"])
        #expect(try Self.storedOwners(hub) == ["com.example.decided": Self.stranger])
        try await app.channel.close()
        #expect(try await control.call(Method.permissionsOwners) == [["app": "com.example.decided", "uid": .int(Int64(Self.stranger))]])
    }

    @Test("A uid holds at most --max-apps-per-uid app ids with something stored: the next app's decision is refused with 1013; the control side and root are not held to it")
    func appsPerUIDLimit() async throws {
        let hub = try InProcessHub { $0.maxAppsPerUID = 3 }
        let control = try await hub.connect(.control)
        _ = try await control.call(Method.promptsPolicy, ["mode": "allowAlways"])
        var apps: [TestClient] = []
        for n in 0..<3 {
            apps.append(try await Self.hello(hub, "com.example.app\(n)"))
            _ = try await apps[n].call(Method.authorizationRequest, ["level": "always"])
        }
        let fourth = try await Self.hello(hub, "com.example.app3")
        let refused = try await fourth.request(Method.authorizationRequest, ["level": "always"])
        #expect(refused["error"]?["code"] == .int(Int64(RPCErrorCode.tooManyApps.rawValue)), "\(refused)")
        #expect(refused["error"]?["data"] == ["uid": .int(Int64(Self.stranger)), "limit": 3])
        #expect(refused["error"]?["message"]?.stringValue?.contains("at most 3") == true)
        #expect(try Self.storedOwners(hub).count == 3, "nothing stored for the fourth")
        #expect(try await fourth.call(Method.authorizationGet)["status"] == "notDetermined")
        // The control side decides for it all the same, and the binding is stored with that.
        _ = try await control.call(Method.permissionsSet, ["app": "com.example.app3", "status": "authorizedAlways"])
        #expect(try Self.storedOwners(hub)["com.example.app3"] == Self.stranger)
        // Root (the daemon's own uid here) is not counted.
        for n in 0..<5 {
            let own = try await Self.hello(hub, "com.example.own\(n)", uid: 0)
            _ = try await own.call(Method.authorizationRequest, ["level": "always"])
        }
        // Unbinding frees places (the control side's decision made the uid hold 4).
        _ = try await control.call(Method.permissionsUnbind, ["app": "com.example.app0"])
        _ = try await control.call(Method.permissionsUnbind, ["app": "com.example.app1"])
        let fifth = try await Self.hello(hub, "com.example.app4")
        _ = try await fifth.call(Method.authorizationRequest, ["level": "always"])
        withExtendedLifetime(apps) {}
    }

    @Test("The apps of one uid monitor at most --max-regions-per-uid regions in all: 1011 naming the uid; a replacement and the control side's regions.add are not refused")
    func regionsPerUIDLimit() async throws {
        let hub = try InProcessHub {
            $0.services.maxRegionsPerApp = 3
            $0.services.maxRegionsPerUID = 5
        }
        let control = try await hub.connect(.control)
        var apps: [TestClient] = []
        for n in 0..<2 {
            apps.append(try await Self.hello(hub, "com.example.geo\(n)"))
            _ = try await control.call(Method.permissionsSet, ["app": .string("com.example.geo\(n)"), "status": "authorizedAlways"])
        }
        func region(_ identifier: String, _ lat: Double = 48.0) -> JSONValue {
            ["identifier": .string(identifier), "lat": .double(lat), "lon": 2.0, "radius": 100]
        }
        for n in 0..<3 { _ = try await apps[0].call(Method.regionMonitor, region("a\(n)")) }
        for n in 0..<2 { _ = try await apps[1].call(Method.regionMonitor, region("b\(n)")) }
        let refused = try await apps[1].request(Method.regionMonitor, region("b2"))
        #expect(refused["error"]?["code"] == .int(Int64(RPCErrorCode.tooManyRegions.rawValue)), "\(refused)")
        #expect(refused["error"]?["data"] == ["uid": .int(Int64(Self.stranger)), "limit": 5])
        _ = try await apps[1].call(Method.regionMonitor, region("b1", 48.1))
        _ = try await control.call(Method.regionsAdd, ["app": "com.example.geo1", "identifier": "c", "lat": 48.0, "lon": 2.0, "radius": 100])
        #expect(try await hub.onLoop { $0.services(RegionsService.self).regions.monitor.count } == 6)
        // Stopping frees places (the control side's region made the uid hold 6).
        _ = try await apps[0].call(Method.regionStop, ["identifier": "a0"])
        _ = try await apps[0].call(Method.regionStop, ["identifier": "a1"])
        _ = try await apps[0].call(Method.regionMonitor, region("a3"))
    }
}
