import Foundation
import Hummingbird
import Synchronization

/// Who may use the panel: the holder of its token, through a Host that names the panel
/// itself (no DNS rebinding) and, for the WebSocket, from the panel's own origin.
///
/// The token never travels in a cookie (cookies ignore the port: every server on
/// 127.0.0.1 would get it) nor in a URL's path or query (logs, history, argv): the page
/// gets it in the URL's fragment, which no browser sends, keeps it in its origin's
/// sessionStorage, and presents it itself: as a `Sec-WebSocket-Protocol` value
/// (`sextant-token.TOKEN`) on the WebSocket, as `Authorization: Bearer TOKEN` on HTTP.
public final class PanelAccess: Sendable {
    /// The subprotocol the panel answers a WebSocket with; the page offers it beside the token.
    public static let subprotocol = "sextant-panel"
    /// A `Sec-WebSocket-Protocol` value that carries the token: this prefix and the token.
    public static let tokenProtocolPrefix = "sextant-token."

    /// 32 random bytes, in hex.
    public let token: String
    let listen: ListenAddress
    /// The port bound, known once the server runs (`--listen HOST:0` asks for a free one).
    private let boundPort: Mutex<Int>

    public init(listen: ListenAddress, token: String = PanelAccess.makeToken()) {
        self.token = token
        self.listen = listen
        self.boundPort = Mutex(listen.port)
    }

    public static func makeToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in
            let byte = UInt8.random(in: 0...255, using: &generator)
            return String(byte >> 4, radix: 16) + String(byte & 0xF, radix: 16)
        }.joined()
    }

    public var port: Int { boundPort.withLock { $0 } }
    func bound(to port: Int) { boundPort.withLock { $0 = port } }

    /// The panel's origin: a wildcard listener is opened through loopback.
    public var origin: String {
        let host = listen.isWildcard ? (listen.host == "::" ? "[::1]" : "127.0.0.1") : HostName.bracketed(listen.host)
        return "http://\(host):\(port)"
    }

    /// The URL that opens the panel: the token in the fragment, which the browser keeps to
    /// itself and the page reads.
    public var url: String { origin + "/#token=" + token }

    /// The Host header names this panel: one of its addresses with its port. A name other
    /// than `localhost` is refused, so that a page of evil.example whose name was re-pointed
    /// at 127.0.0.1 (DNS rebinding) reaches nothing.
    func allowsHost(_ header: String?) -> Bool {
        guard let header, let (host, port) = Self.split(header), port == self.port else { return false }
        if host == "localhost" { return listen.isLoopback || listen.isWildcard }
        if listen.isWildcard { return HostName.isIPLiteral(host) }
        return host == listen.host
    }

    /// The WebSocket's Origin is the page's own: `http://` and the Host it was served through.
    func allowsOrigin(_ origin: String?, host: String?) -> Bool {
        guard let origin, let host, allowsHost(host) else { return false }
        return origin == "http://" + host
    }

    /// A token equal to ours, compared in time that does not depend on where they differ.
    func matches(_ candidate: Substring) -> Bool {
        let mine = Array(token.utf8)
        let theirs = Array(candidate.utf8)
        guard mine.count == theirs.count else { return false }
        var difference: UInt8 = 0
        for index in mine.indices { difference |= mine[index] ^ theirs[index] }
        return difference == 0
    }

    /// An HTTP request carries the token as `Authorization: Bearer TOKEN`.
    func admits(authorization headers: [String]) -> Bool {
        headers.contains { header in header.hasPrefix("Bearer ") && matches(header.dropFirst("Bearer ".count)) }
    }

    /// A WebSocket upgrade offers the token as one of its `Sec-WebSocket-Protocol` values.
    func admits(protocols headers: [String]) -> Bool {
        Self.offeredProtocols(headers).contains { offered in
            offered.hasPrefix(Self.tokenProtocolPrefix) && matches(offered.dropFirst(Self.tokenProtocolPrefix.count))
        }
    }

    /// The values of `Sec-WebSocket-Protocol` headers (each a comma-separated list).
    static func offeredProtocols(_ headers: [String]) -> [Substring] {
        headers.flatMap { $0.split(separator: ",") }.map { $0.drop { $0 == " " }.prefix { $0 != " " } }
    }

    /// `HOST:PORT` (or `[V6]:PORT`) split; nil without a port.
    static func split(_ header: String) -> (String, Int)? {
        if header.hasPrefix("["), let close = header.firstIndex(of: "]") {
            let host = String(header[header.index(after: header.startIndex)..<close])
            let rest = header[header.index(after: close)...]
            guard rest.hasPrefix(":"), let port = Int(rest.dropFirst()) else { return nil }
            return (host, port)
        }
        guard let colon = header.lastIndex(of: ":"), let port = Int(header[header.index(after: colon)...]) else { return nil }
        return (String(header[..<colon]), port)
    }
}

extension Request {
    /// The Host the client named (HTTP/1's Host header).
    var hostHeader: String? { head.authority }
}
