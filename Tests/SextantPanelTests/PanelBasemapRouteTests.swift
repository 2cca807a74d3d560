import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SextantProtocol
import Testing

@testable import SextantPanel

/// Issue 43.2: the offline base map is served as /basemap.geojson to the token's holder
/// only (it is no file of the page), with the security headers; without a file it is 404.
struct PanelBasemapRouteTests {
    static let geojson = #"{"type":"FeatureCollection","features":[]}"#

    @Test func theBaseMapNeedsTheTokenAndIsGeoJSON() async throws {
        let panel = try PanelRouterHarness(basemap: "basemap.geojson")
        try Self.geojson.write(toFile: panel.folders.file("basemap.geojson"), atomically: true, encoding: .utf8)
        try await panel.test { client in
            let refused = try await client.execute(uri: "/basemap.geojson", method: .get, headers: panel.host)
            #expect(refused.status == .unauthorized && refused.hasSecurityHeaders(), "\(refused.status)")
            let served = try await client.execute(uri: "/basemap.geojson", method: .get, headers: panel.authorized)
            #expect(served.status == .ok && served.headers[.contentType] == "application/geo+json", "\(served.status) \(served.headers)")
            #expect(served.text == Self.geojson && served.hasSecurityHeaders())
        }
    }

    @Test func noBaseMapIsNotFoundAndTheHelloSaysSo() async throws {
        let missing = try PanelRouterHarness(basemap: "absent.geojson")
        try await missing.test { client in
            let reply = try await client.execute(uri: "/basemap.geojson", method: .get, headers: missing.authorized)
            #expect(reply.status == .notFound && reply.hasSecurityHeaders(), "\(reply.status)")
        }
        #expect(try JSONValue.parse(missing.server.hello)["hello"]?["basemap"] == false)
        let none = try PanelRouterHarness()
        try await none.test { client in
            let reply = try await client.execute(uri: "/basemap.geojson", method: .get, headers: none.authorized)
            #expect(reply.status == .notFound, "\(reply.status)")
        }
        let present = try PanelRouterHarness(basemap: "basemap.geojson")
        try Self.geojson.write(toFile: present.folders.file("basemap.geojson"), atomically: true, encoding: .utf8)
        #expect(try JSONValue.parse(present.server.hello)["hello"]?["basemap"] == true)
    }
}
