import Foundation
import Hummingbird
import Synchronization

/// Who may use the panel: the holder of its token, through a Host that names the panel
/// itself (no DNS rebinding) and, for the WebSocket, from the panel's own origin.
public final class PanelAccess: Sendable {
    public static let cookieName = "sextant-panel"

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

    /// The URL the command prints: a wildcard listener is opened through loopback.
    public var url: String {
        let host = listen.isWildcard ? (listen.host == "::" ? "[::1]" : "127.0.0.1") : HostName.bracketed(listen.host)
        return "http://\(host):\(port)/?token=\(token)"
    }

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

    /// The request carries the token, as our cookie or as `?token=`.
    func admits(_ request: Request) -> Bool {
        admits(token: request.uri.queryParameters["token"], cookies: request.headers[values: .cookie])
    }

    /// The same from the `?token=` given, if any, and the Cookie headers.
    func admits(token query: Substring?, cookies: [String]) -> Bool {
        if let query, matches(query) { return true }
        for header in cookies {
            for pair in header.split(separator: ";") {
                let trimmed = pair.drop { $0 == " " }
                guard let equals = trimmed.firstIndex(of: "=") else { continue }
                if trimmed[..<equals] == Self.cookieName, matches(trimmed[trimmed.index(after: equals)...]) { return true }
            }
        }
        return false
    }

    var cookie: String { "\(Self.cookieName)=\(token); HttpOnly; SameSite=Strict; Path=/" }

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
