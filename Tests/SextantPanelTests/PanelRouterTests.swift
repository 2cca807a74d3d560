import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SextantProtocol
import Testing

@testable import SextantPanel

/// The panel's HTTP side in process (issue 37.5): each route's answer, the Host check, the
/// token and the security headers, on the router `PanelServer` serves.
struct PanelRouterTests {
    @Test func thePageAndItsFilesAreServedToAnyoneWhoNamesThePanelsHost() async throws {
        let panel = try PanelRouterHarness()
        try await panel.test { client in
            for uri in ["/", "/?token=\(panel.access.token)"] {
                let page = try await client.execute(uri: uri, method: .get, headers: panel.host)
                #expect(page.status == .ok, "\(uri)")
                #expect(page.text.contains("<title>Sextant</title>") && !page.text.contains(panel.access.token), "\(uri)")
                #expect(page.headers[.contentType] == "text/html; charset=utf-8" && page.headers[.setCookie] == nil, "\(uri)")
                #expect(page.hasSecurityHeaders(), "\(uri): \(page.headers)")
            }
            for (uri, type) in [
                ("/assets/panel.js", "text/javascript; charset=utf-8"), ("/leaflet/leaflet.js", "text/javascript; charset=utf-8"),
                ("/leaflet/images/marker-icon.png", "image/png"),
            ] {
                let file = try await client.execute(uri: uri, method: .get, headers: panel.host)
                #expect(file.status == .ok && file.headers[.contentType] == type, "\(uri): \(file.status) \(file.headers)")
                #expect(file.hasSecurityHeaders(), "\(uri)")
            }
        }
    }

    @Test func configNeedsTheTokenAsABearerAndNothingElse() async throws {
        let panel = try PanelRouterHarness()
        let token = panel.access.token
        try await panel.test { client in
            for (what, uri, fields) in [
                ("no token", "/config.json", HTTPFields()), ("a wrong token", "/config.json", [.authorization: "Bearer " + String(repeating: "0", count: 64)]),
                ("the token under another scheme", "/config.json", [.authorization: "Basic \(token)"]),
                ("a prefix of the token", "/config.json", [.authorization: "Bearer \(token.prefix(32))"]),
                ("a cookie", "/config.json", [.cookie: "sextant-panel=\(token)"]), ("the query", "/config.json?token=\(token)", HTTPFields()),
                ("an unknown path", "/nope", HTTPFields()),
            ] {
                let reply = try await client.execute(uri: uri, method: .get, headers: panel.host + fields)
                #expect(reply.status == .unauthorized, "\(what): \(reply.status)")
                #expect(reply.text.contains("token") && reply.headers[.wwwAuthenticate] == "Bearer realm=\"sextant-panel\"", "\(what)")
                #expect(reply.headers[.setCookie] == nil && reply.hasSecurityHeaders(), "\(what): \(reply.headers)")
            }
            let reply = try await client.execute(uri: "/config.json", method: .get, headers: panel.authorized)
            #expect(reply.status == .ok && reply.headers[.contentType] == "application/json")
            #expect(reply.hasSecurityHeaders())
            let config = try JSONValue.parse(reply.text)
            #expect(config["tiles"] == .null && config["version"] == .string(sextantVersion))
            #expect(config["socket"] == .string(panel.folders.file("control.sock")))
            let unknown = try await client.execute(uri: "/nope", method: .get, headers: panel.authorized)
            #expect(unknown.status == .notFound && unknown.hasSecurityHeaders(), "\(unknown.status)")
        }
    }

    @Test func aForeignHostIsRefusedSoThatDNSRebindingReachesNothing() async throws {
        let panel = try PanelRouterHarness()
        let port = PanelRouterHarness.port
        try await panel.test { client in
            for host in ["evil.example:\(port)", "evil.example", "127.0.0.1:1", "localhost.evil.example:\(port)", "127.0.0.2:\(port)", nil] {
                let named: HTTPFields = host.map { [.panelHost: $0] } ?? [:]
                // The token does not help: the Host is checked first.
                for uri in ["/", "/config.json", "/assets/panel.js"] {
                    let reply = try await client.execute(uri: uri, method: .get, headers: named + [.authorization: "Bearer \(panel.access.token)"])
                    #expect(reply.status == .forbidden, "Host \(host ?? "(none)") \(uri): \(reply.status)")
                    #expect(reply.text.contains("is not this panel's address") && reply.hasSecurityHeaders(), "Host \(host ?? "(none)"): \(reply.text)")
                }
            }
            let local = try await client.execute(uri: "/", method: .get, headers: [.panelHost: "localhost:\(port)"])
            #expect(local.status == .ok)
        }
    }

    @Test func aRequestThatNamesTwoHostsIsRefusedWith400() async throws {
        let panel = try PanelRouterHarness()
        try await panel.test { client in
            for second in ["evil.example", "127.0.0.1:\(PanelRouterHarness.port)"] {
                for uri in ["/", "/config.json", "/ws"] {
                    let reply = try await client.execute(uri: uri, method: .get, headers: panel.authorized + [.panelHost: second])
                    #expect(reply.status == .badRequest, "\(uri), second Host \(second): \(reply.status)")
                    #expect(reply.text.contains("more than one Host") && reply.hasSecurityHeaders(), "\(uri): \(reply.text)")
                }
            }
        }
    }

    @Test func pathsOutOfTheAssetAndLeafletFoldersAreNotFound() async throws {
        let panel = try PanelRouterHarness()
        try FileManager.default.createSymbolicLink(atPath: panel.assets + "/link.txt", withDestinationPath: panel.folders.file("secret.txt"))
        try FileManager.default.createSymbolicLink(atPath: panel.leaflet + "/images/up", withDestinationPath: panel.folders.path)
        try await panel.test { client in
            for uri in [
                "/assets/../secret.txt", "/assets/%2e%2e/secret.txt", "/assets/%2E%2E%2Fsecret.txt", "/assets/..%2fsecret.txt",
                "/assets/link.txt", "/assets/.hidden", "/assets/images/../../secret.txt", "/leaflet/../secret.txt", "/leaflet/%2e%2e/%2e%2e/secret.txt",
                "/leaflet/images/up/secret.txt", "/leaflet/images/../../secret.txt", "/leaflet/images/%2e%2e/%2e%2e/secret.txt",
                "/assets/panel.js%00.png",
            ] {
                // With the token, so that a path outside the page's files is not found rather than refused.
                let reply = try await client.execute(uri: uri, method: .get, headers: panel.authorized)
                #expect(reply.status == .notFound || reply.status == .badRequest, "\(uri): \(reply.status)")
                #expect(!reply.text.contains("secret") && reply.hasSecurityHeaders(), "\(uri): \(reply.text)")
            }
        }
    }

    @Test func aTileTemplateIsTheOneOtherImageSourceThePolicyAllows() async throws {
        let template = "https://{s}.tile.example/{z}/{x}/{y}.png"
        let panel = try PanelRouterHarness(tiles: template)
        let policy = PanelRouterHarness.policy.replacingOccurrences(of: "img-src 'self' data:;", with: "img-src 'self' data: https://*.tile.example;")
        try await panel.test { client in
            let page = try await client.execute(uri: "/", method: .get, headers: panel.host)
            #expect(page.hasSecurityHeaders(policy: policy), "\(page.headers)")
            let config = try await client.execute(uri: "/config.json", method: .get, headers: panel.authorized)
            #expect(try JSONValue.parse(config.text)["tiles"] == .string(template))
            let refused = try await client.execute(uri: "/config.json", method: .get, headers: panel.host)
            #expect(refused.status == .unauthorized && refused.hasSecurityHeaders(policy: policy))
        }
    }
}
