import HTTPTypes
import Hummingbird
import HummingbirdCore
import NIOHTTP1

/// Whether a WebSocket upgrade may go ahead: one Host, the panel's; an Origin that is the
/// panel's own, so that no other site's page can drive the daemon; and the token, offered
/// as a `Sec-WebSocket-Protocol` value (`PanelAccess`).
struct WebSocketAdmission: Sendable {
    let access: PanelAccess
    /// The pages open, refused beyond `PanelPages.maximum` (503).
    let pages: PanelPages

    /// Why an upgrade is refused, and the status that says it: 400 for a request that names
    /// two Hosts, 403 for a foreign Host or Origin, 401 for a missing or wrong token, 503
    /// when the panel has its most pages open.
    struct Refusal: Equatable {
        var status: HTTPResponse.Status
        var reason: String
    }

    /// Why the upgrade is refused, or nil.
    func refusal(_ request: Request) -> Refusal? {
        refusal(
            hosts: [request.hostHeader].compactMap { $0 } + request.headers[values: .panelHost], origin: request.headers[.origin],
            protocols: request.headers[values: .secWebSocketProtocol])
    }

    /// The same for a request as NIO reads it, before the upgrade; any other path than
    /// `/ws` has no WebSocket.
    func refusal(_ head: HTTPRequestHead) -> Refusal? {
        let uri = URI(head.uri)
        guard uri.path == "/ws" else { return Refusal(status: .notFound, reason: "No WebSocket at \(uri.path): the panel's is /ws.\n") }
        return refusal(hosts: head.headers["host"], origin: head.headers.first(name: "origin"), protocols: head.headers["sec-websocket-protocol"])
    }

    private func refusal(hosts: [String], origin: String?, protocols: [String]) -> Refusal? {
        guard hosts.count <= 1 else { return Refusal(status: .badRequest, reason: "The request names more than one Host.\n") }
        let host = hosts.first
        guard access.allowsHost(host) else { return Refusal(status: .forbidden, reason: "Host \(host ?? "(none)") is not this panel's address.\n") }
        guard access.allowsOrigin(origin, host: host) else {
            return Refusal(status: .forbidden, reason: "WebSocket upgrade refused: Origin \(origin ?? "(none)") is not this panel's (http://\(host ?? ""))\n")
        }
        guard access.admits(protocols: protocols) else {
            return Refusal(
                status: .unauthorized,
                reason: "The WebSocket needs the panel's token, offered as the Sec-WebSocket-Protocol \(PanelAccess.tokenProtocolPrefix)TOKEN: open the URL sextant-panel printed.\n")
        }
        guard pages.count < PanelPages.maximum else {
            return Refusal(status: .serviceUnavailable, reason: "The panel has \(PanelPages.maximum) pages open, its most: close one and reload.\n")
        }
        return nil
    }
}
