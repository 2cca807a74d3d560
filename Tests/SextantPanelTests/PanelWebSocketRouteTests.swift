import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import SextantPanel

/// `/ws` asked for without an upgrade, in process (issue 37.5): the router answers with the
/// refusal an upgrade would get (`WebSocketAdmission`), or 426 when all is in order.
struct PanelWebSocketRouteTests {
    @Test func eachRefusalSaysWhyWithItsStatusAndTheSecurityHeaders() async throws {
        let panel = try PanelRouterHarness()
        let port = PanelRouterHarness.port
        let offer: HTTPFields = [.secWebSocketProtocol: panel.protocols]
        let cases: [(String, HTTPFields, HTTPResponse.Status, String)] = [
            ("a foreign Origin", panel.host + [.origin: "http://evil.example"] + offer, .forbidden, "Origin http://evil.example is not this panel's"),
            ("an Origin on another port", panel.host + [.origin: "http://127.0.0.1:1"] + offer, .forbidden, "Origin http://127.0.0.1:1 is not"),
            ("an https Origin", panel.host + [.origin: "https://127.0.0.1:\(port)"] + offer, .forbidden, "is not this panel's"),
            ("the null Origin", panel.host + [.origin: "null"] + offer, .forbidden, "Origin null is not"),
            ("no Origin", panel.host + offer, .forbidden, "Origin (none) is not"),
            ("the right Origin but no token", panel.host + [.origin: panel.origin], .unauthorized, "needs the panel's token"),
            ("a wrong token", panel.host + [.origin: panel.origin, .secWebSocketProtocol: "sextant-panel, sextant-token.x"], .unauthorized, "needs the panel's token"),
            ("the token as a cookie", panel.host + [.origin: panel.origin, .cookie: "sextant-panel=\(panel.access.token)"], .unauthorized, "needs the panel's token"),
            ("the token as a bearer", panel.authorized + [.origin: panel.origin], .unauthorized, "needs the panel's token"),
            ("a rebound Host", [.panelHost: "evil.example:\(port)", .origin: "http://evil.example:\(port)"] + offer, .forbidden,
             "Host evil.example:\(port) is not this panel's address"),
        ]
        try await panel.test { client in
            for (what, fields, status, reason) in cases {
                let reply = try await client.execute(uri: "/ws", method: .get, headers: fields)
                #expect(reply.status == status && reply.text.contains(reason), "\(what): \(reply.status) \(reply.text)")
                #expect(reply.hasSecurityHeaders(), "\(what): \(reply.headers)")
            }
            let admitted = try await client.execute(uri: "/ws", method: .get, headers: panel.host + [.origin: panel.origin] + offer)
            #expect(admitted.status == .upgradeRequired && admitted.text.contains("upgrade to it"), "\(admitted.status) \(admitted.text)")
            #expect(admitted.hasSecurityHeaders())
        }
    }

    @Test func withTheMostPagesOpenTheNextIsRefusedWith503() async throws {
        let panel = try PanelRouterHarness()
        let pages = PanelPages()
        for _ in 0..<PanelPages.maximum { #expect(pages.add(PageOutbox())) }
        let fields = panel.host + [.origin: panel.origin, .secWebSocketProtocol: panel.protocols]
        try await panel.test(pages: pages) { client in
            let reply = try await client.execute(uri: "/ws", method: .get, headers: fields)
            #expect(reply.status == .serviceUnavailable && reply.text.contains("\(PanelPages.maximum) pages open"), "\(reply.status) \(reply.text)")
            #expect(reply.hasSecurityHeaders())
        }
    }
}
