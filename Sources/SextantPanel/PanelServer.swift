import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
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

    /// Connects to the daemon, serves until the daemon closes the connection (an error) or
    /// SIGINT/SIGTERM; `onListening` gets the URL once connections are accepted.
    public func run(onListening: @escaping @Sendable (String) -> Void) async throws {
        let calls: DaemonLink
        let watching: DaemonLink
        do {
            calls = try await DaemonLink(path: configuration.socketPath)
            watching = try await DaemonLink(path: configuration.socketPath)
        } catch let error as ClientError {
            throw PanelError(error.description)
        }
        let pages = PanelPages()
        let methods = PanelMethods(daemon: calls, tracesDirectory: configuration.tracesDirectory)
        let application = makeApplication(pages: pages, methods: methods, onListening: onListening)
        let ending = try await withThrowingTaskGroup(of: Ending.self) { group in
            group.addTask {
                await calls.run { _ in }
                return .daemonGone
            }
            group.addTask {
                await watching.run(onEvent: pages.publish)
                return .daemonGone
            }
            if case .failure(let error) = await watching.watch() {
                throw PanelError("the daemon refused watch: \(error.message) (error \(error.code))")
            }
            group.addTask {
                try await application.runService()
                return .stopped
            }
            // Whichever ends first ends the panel: a daemon that went away, or a signal.
            let first = try await group.next() ?? .stopped
            group.cancelAll()
            return first
        }
        if ending == .daemonGone { throw PanelError("the daemon closed the control connection (\(configuration.socketPath))") }
    }

    enum Ending: Sendable { case daemonGone, stopped }

    var hello: String {
        JSONValue.object(["hello": ["version": .string(sextantVersion), "tiles": JSONValue(configuration.tiles)]]).serialized()
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
        return Application(
            router: makeRouter(),
            server: .http1WebSocketUpgrade(
                webSocketRouter: makeWebSocketRouter(session: session),
                configuration: .init(ws: WebSocketServerConfiguration(maxFrameSize: PageSession.maximumMessage, autoPing: .disabled))),
            configuration: ApplicationConfiguration(address: address, serverName: nil),
            onServerRunning: { channel in
                access.bound(to: channel.localAddress?.port ?? access.port)
                onListening(access.url)
            },
            logger: logger)
    }

    /// The HTTP side: every request through the security headers, the Host check and the token.
    func makeRouter() -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        router.middlewares.add(SecurityHeadersMiddleware(tiles: configuration.tiles))
        router.middlewares.add(HostCheckMiddleware(access: access))
        router.middlewares.add(TokenMiddleware(access: access))
        let assets = StaticFolder(root: configuration.assetsDirectory)
        let leaflet = StaticFolder(root: configuration.leafletDirectory)
        let config = configJSON
        let access = self.access
        router.get("/") { _, _ in assets.response(["index.html"]) }
        router.get("/assets/{name}") { _, context in assets.response([Substring(context.parameters.get("name") ?? "")]) }
        router.get("/leaflet/**") { _, context in leaflet.response(context.parameters.getCatchAll()) }
        router.get("/config.json") { _, _ in
            var response = PlainResponse.make(.ok, config)
            response.headers[.contentType] = "application/json"
            return response
        }
        // Reached only when the WebSocket router refused the upgrade: say why.
        router.get("/ws") { request, _ in
            PlainResponse.make(.forbidden, WebSocketAdmission(access: access).refusal(request) ?? "This is the panel's WebSocket: upgrade to it from the panel's page.\n")
        }
        return router
    }

    func makeWebSocketRouter(session: PageSession) -> Router<BasicWebSocketRequestContext> {
        let router = Router(context: BasicWebSocketRequestContext.self)
        let admission = WebSocketAdmission(access: access)
        router.ws("/ws") { request, _ in
            admission.refusal(request) == nil ? .upgrade([:]) : .dontUpgrade
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

/// Whether a WebSocket upgrade may go ahead: the panel's Host, its token, and an Origin
/// that is the panel's own, so that no other site's page can drive the daemon.
struct WebSocketAdmission: Sendable {
    let access: PanelAccess

    /// Why the upgrade is refused, or nil.
    func refusal(_ request: Request) -> String? {
        let host = request.hostHeader
        guard access.allowsHost(host) else { return "Host \(host ?? "(none)") is not this panel's address.\n" }
        guard access.admits(request) else { return "The WebSocket needs the panel's cookie: open the URL sextant-panel printed.\n" }
        let origin = request.headers[.origin]
        guard access.allowsOrigin(origin, host: host) else {
            return "WebSocket upgrade refused: Origin \(origin ?? "(none)") is not this panel's (http://\(host ?? ""))\n"
        }
        return nil
    }
}
