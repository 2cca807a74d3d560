import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOHTTP1
import SextantClient
import SextantProtocol
import ServiceLifecycle

/// The panel: one daemon's control side served to browsers. One control connection for
/// every page's calls and one watching connection whose events go to every page.
public struct PanelServer: Sendable {
    public let configuration: PanelConfiguration
    public let access: PanelAccess

    public init(configuration: PanelConfiguration, access: PanelAccess) {
        self.configuration = configuration
        self.access = access
    }

    /// Connects to the daemon and serves until SIGINT or SIGTERM; `onListening` gets the
    /// URL once connections are accepted. Without a daemon at the start, or one that
    /// refuses `watch`, it throws at once; a daemon that goes away later is waited for
    /// (`DaemonSupervisor`).
    public func run(onListening: @escaping @Sendable (String) -> Void) async throws {
        let daemon = DaemonSupervisor(path: configuration.socketPath)
        let first = try await daemon.connect()
        let pages = PanelPages()
        let methods = PanelMethods(daemon: daemon, tracesDirectory: configuration.tracesDirectory)
        let application = makeApplication(pages: pages, methods: methods, onListening: onListening)
        try await withThrowingTaskGroup(of: Void.self) { group in
            let (watched, answer) = AsyncStream.makeStream(of: RPCError?.self)
            group.addTask {
                await daemon.run(first: first, pages: pages) { refusal in
                    answer.yield(refusal)
                    answer.finish()
                }
            }
            for await refusal in watched {
                if let refusal { throw PanelError("the daemon refused watch: \(refusal.message) (error \(refusal.code))") }
            }
            group.addTask { try await application.runService() }
            // The server ends on a signal; the daemon's links go with it.
            _ = try await group.next()
            group.cancelAll()
        }
    }

    var hello: String {
        // `basemap`: whether /basemap.geojson has a file to serve (the page then draws it).
        let basemap = configuration.basemap.map { FileManager.default.fileExists(atPath: $0) } ?? false
        return JSONValue.object(["hello": ["version": .string(sextantVersion), "tiles": JSONValue(configuration.tiles), "basemap": .bool(basemap)]]).serialized()
    }

    var configJSON: String {
        JSONValue.object(["tiles": JSONValue(configuration.tiles), "version": .string(sextantVersion), "socket": .string(configuration.socketPath)]).serialized()
    }

    func makeApplication(pages: PanelPages, methods: PanelMethods, onListening: @escaping @Sendable (String) -> Void) -> some ApplicationProtocol {
        var logger = Logger(label: "sextant-panel")
        logger.logLevel = .warning
        let access = self.access
        let address = BindAddress.hostname(configuration.listen.host, port: configuration.listen.port)
        let session = PageSession(pages: pages, methods: methods, hello: hello)
        let webSocketResponder = makeWebSocketRouter(session: session).buildResponder()
        let admission = WebSocketAdmission(access: access, pages: pages)
        let connections = PanelConnections()
        let server = HTTPServerBuilder { responder in
            RefusingUpgradeChannel(
                inner: HTTP1WebSocketUpgradeChannel(
                    responder: responder, webSocketResponder: webSocketResponder,
                    configuration: .init(
                        // A kept-alive HTTP connection idle this long is closed (the first
                        // head has its own deadline: `UpgradeRefusalHandler`).
                        http1: .init(idleTimeout: PanelConnections.idleTimeout),
                        ws: WebSocketServerConfiguration(maxFrameSize: PageSession.maximumMessage, autoPing: .disabled, validateUTF8: true))),
                admission: admission, connections: connections)
        }
        return Application(
            router: makeRouter(admission: admission),
            server: server,
            configuration: ApplicationConfiguration(
                address: address, serverName: nil, availableConnectionsDelegate: MaximumAvailableConnections(connections.total, logger: logger)),
            onServerRunning: { channel in
                access.bound(to: channel.localAddress?.port ?? access.port)
                onListening(access.url)
            },
            logger: logger)
    }

    /// The HTTP side: every request through the security headers, the Host check and the token.
    func makeRouter(admission: WebSocketAdmission) -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        router.middlewares.add(SecurityHeadersMiddleware(tiles: configuration.tiles))
        router.middlewares.add(HostCheckMiddleware(access: access))
        router.middlewares.add(TokenMiddleware(access: access))
        let assets = StaticFolder(root: configuration.assetsDirectory)
        let leaflet = StaticFolder(root: configuration.leafletDirectory)
        let config = configJSON
        router.get("/") { _, _ in assets.response(["index.html"]) }
        router.get("/assets/{name}") { _, context in assets.response([Substring(context.parameters.get("name") ?? "")]) }
        router.get("/leaflet/**") { _, context in leaflet.response(context.parameters.getCatchAll()) }
        let basemap = configuration.basemap.map { URL(fileURLWithPath: $0) }
        router.get("/basemap.geojson") { _, _ in
            guard let basemap else { return PlainResponse.make(.notFound, "No base map: sextant-panel --basemap FILE.\n") }
            return StaticFolder(root: basemap.deletingLastPathComponent().path).response([Substring(basemap.lastPathComponent)])
        }
        router.get("/config.json") { _, _ in
            var response = PlainResponse.make(.ok, config)
            response.headers[.contentType] = "application/json"
            return response
        }
        // An upgrade refused (`UpgradeRefusalHandler`) or a plain GET: say why.
        router.get("/ws") { request, _ in
            guard let refusal = admission.refusal(request) else {
                return PlainResponse.make(.upgradeRequired, "This is the panel's WebSocket: upgrade to it from the panel's page.\n")
            }
            return PlainResponse.make(refusal.status, refusal.reason)
        }
        return router
    }

    func makeWebSocketRouter(session: PageSession) -> Router<BasicWebSocketRequestContext> {
        let router = Router(context: BasicWebSocketRequestContext.self)
        let admission = WebSocketAdmission(access: access, pages: session.pages)
        router.ws("/ws") { request, _ in
            admission.refusal(request) == nil ? .upgrade([.secWebSocketProtocol: PanelAccess.subprotocol]) : .dontUpgrade
        } onUpgrade: { inbound, outbound, _ in
            // A page's socket lasts as long as the page: the server's graceful shutdown
            // (SIGTERM, SIGINT) would otherwise wait for every open page to close.
            try await cancelWhenGracefulShutdown {
                try await session.run(inbound: inbound, outbound: outbound)
            }
        }
        return router
    }
}
