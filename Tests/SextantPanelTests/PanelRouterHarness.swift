import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SextantTestSupport

@testable import SextantPanel

/// The panel's HTTP router, built as `PanelServer.makeRouter` builds it for the real server,
/// driven in process by HummingbirdTesting's router client. No daemon and no socket: the
/// HTTP routes never call the daemon (only the WebSocket's frames do), so nothing stands in
/// for it.
struct PanelRouterHarness {
    /// The port the panel is taken to listen on; nothing binds it.
    static let port = 8123
    static let policy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    let folders: TemporaryDirectory
    let access = PanelAccess(listen: ListenAddress(host: "127.0.0.1", port: PanelRouterHarness.port))
    let server: PanelServer

    var assets: String { folders.file("assets") }
    var leaflet: String { folders.file("leaflet") }
    /// The Host a browser names when it opens the URL sextant-panel printed.
    var host: HTTPFields { [.panelHost: "127.0.0.1:\(Self.port)"] }
    var origin: String { "http://127.0.0.1:\(Self.port)" }
    /// The Host and the token, as the page's own fetches send them.
    var authorized: HTTPFields { host + [.authorization: "Bearer \(access.token)"] }
    /// The page's offer on the WebSocket: the subprotocol and the token.
    var protocols: String { "\(PanelAccess.subprotocol), \(PanelAccess.tokenProtocolPrefix)\(access.token)" }

    /// `basemap`: the base map file's name in the harness's folder (none unless given).
    init(tiles: String? = nil, basemap: String? = nil) throws {
        folders = try TemporaryDirectory("panel-router")
        for folder in ["assets", "leaflet/images", "traces"] {
            try FileManager.default.createDirectory(atPath: folders.file(folder), withIntermediateDirectories: true)
        }
        try "<!doctype html><title>Sextant</title><script src=\"/assets/panel.js\"></script>\n".write(toFile: folders.file("assets/index.html"), atomically: true, encoding: .utf8)
        try "console.log('panel')\n".write(toFile: folders.file("assets/panel.js"), atomically: true, encoding: .utf8)
        try "/* leaflet */\n".write(toFile: folders.file("leaflet/leaflet.js"), atomically: true, encoding: .utf8)
        try "png".write(toFile: folders.file("leaflet/images/marker-icon.png"), atomically: true, encoding: .utf8)
        try "secret\n".write(toFile: folders.file("secret.txt"), atomically: true, encoding: .utf8)
        let scratch = folders
        let configuration = PanelConfiguration(
            socketPath: folders.file("control.sock"), tiles: tiles, tracesDirectory: folders.file("traces"),
            assetsDirectory: folders.file("assets"), leafletDirectory: folders.file("leaflet"), basemap: basemap.map { scratch.file($0) })
        server = PanelServer(configuration: configuration, access: access)
    }

    /// Runs `body` against the router, with `pages` as the pages open.
    func test<Value>(pages: PanelPages = PanelPages(), _ body: @Sendable (any TestClientProtocol) async throws -> Value) async throws -> Value {
        let router = server.makeRouter(admission: WebSocketAdmission(access: access, pages: pages))
        let application = Application(responder: FirstHostIsAuthority(inner: router.buildResponder()))
        return try await application.test(.router, body)
    }
}

/// A request as HTTP/1 reaches the router through NIO: the first Host header is the
/// request's authority and any other stays a header field. The router client sets the
/// authority to `localhost` whatever the test sends, so the Host is named as a field here.
struct FirstHostIsAuthority<Inner: HTTPResponder>: HTTPResponder {
    let inner: Inner

    func respond(to request: Request, context: Inner.Context) async throws -> Response {
        var head = request.head
        let hosts = head.headerFields[values: .panelHost]
        head.authority = hosts.first
        head.headerFields[values: .panelHost] = Array(hosts.dropFirst())
        return try await inner.respond(to: Request(head: head, body: request.body), context: context)
    }
}

extension TestResponse {
    var text: String { String(buffer: body) }

    /// The headers `SecurityHeadersMiddleware` puts on every answer, errors included.
    func hasSecurityHeaders(policy: String = PanelRouterHarness.policy) -> Bool {
        headers[.panelContentSecurityPolicy] == policy && headers[.panelContentTypeOptions] == "nosniff"
            && headers[.panelReferrerPolicy] == "no-referrer" && headers[.cacheControl] == "no-store"
    }
}

extension HTTPFields {
    static func + (left: HTTPFields, right: HTTPFields) -> HTTPFields {
        var fields = left
        fields.append(contentsOf: right)
        return fields
    }
}
