#if canImport(Glibc)
import Glibc
#endif
import Foundation
import SextantProtocol
import SextantSocket

/// The browser's DevTools endpoint from what the user gave: a `ws://…/devtools/browser/…`
/// address as it is, or an `http://host:port` one whose `/json/version` names it.
public enum DevToolsAddress {
    public enum Failure: Error, CustomStringConvertible, Equatable {
        case unsupported(String)
        case unreachable(String)
        /// The peer is not the browser meant (``DevToolsPeer``).
        case refused(String)

        public var description: String {
            switch self {
            case .unsupported(let address): return "--cdp \(address): give http://HOST:PORT or ws://HOST:PORT/devtools/browser/ID"
            case .unreachable(let reason), .refused(let reason): return reason
            }
        }
    }

    /// The most of `/json/version`'s answer read (Chromium's is under 1 KiB), and how long
    /// it may take: a peer that talks without end or never answers is given up.
    static let answerLimit = 64 << 10
    static let answerTime: Duration = .seconds(5)

    /// Host and port of an `http://` or `ws://` address (an IPv6 host in brackets).
    public static func hostAndPort(_ address: String) throws(Failure) -> (host: String, port: UInt16) {
        guard let schemeEnd = address.range(of: "://") else { throw .unsupported(address) }
        let scheme = address[..<schemeEnd.lowerBound]
        guard scheme == "http" || scheme == "ws" else { throw .unsupported(address) }
        let rest = address[schemeEnd.upperBound...]
        let authority = rest.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        guard let colon = authority.lastIndex(of: ":"), let port = UInt16(authority[authority.index(after: colon)...]) else {
            throw .unsupported(address)
        }
        var host = authority[..<colon]
        if host.hasPrefix("[") && host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        guard !host.isEmpty, host == "localhost" || ProcNetTCP.ipBytes(String(host)) != nil else { throw .unsupported(address) }
        return (String(host), port)
    }

    /// `HOST:PORT` as a URL or a Host header writes it.
    static func authority(_ host: String, _ port: UInt16) -> String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// The WebSocket address to connect to now (the browser at an http address may have been
    /// restarted with a new id: asked afresh on every connection). `localhost` is tried on
    /// 127.0.0.1, then on [::1]: Chromium listens on either.
    public static func resolve(_ address: String) throws(Failure) -> String {
        if address.hasPrefix("ws://") {
            _ = try hostAndPort(address)
            return address
        }
        let (host, port) = try hostAndPort(address)
        var failures: [Failure] = []
        for ip in host == "localhost" ? ["127.0.0.1", "::1"] : [host] {
            do throws(Failure) {
                let body = try httpGet(ip: ip, port: port, path: "/json/version")
                guard let json = try? JSONValue.parse(body), let url = json["webSocketDebuggerUrl"]?.stringValue else {
                    throw Failure.unreachable("\(authority(ip, port))/json/version has no webSocketDebuggerUrl")
                }
                return url
            } catch {
                failures.append(error)
            }
        }
        // A refusal says more than "nothing there" on the other address.
        throw failures.first { if case .refused = $0 { return true } else { return false } } ?? failures[0]
    }

    /// A plain HTTP/1.1 GET on loopback, to a peer of this user's or root's, its answer bounded
    /// in size and time: DevTools' discovery is all this needs.
    static func httpGet(ip: String, port: UInt16, path: String) throws(Failure) -> String {
        let fd = try connectLoopback(ip: ip, port: port)
        defer { close(fd) }
        guard let local = IPEndpoint(of: fd, peer: false) else { throw .unreachable("getsockname: \(String(cString: strerror(errno)))") }
        try DevToolsPeer.check(local: (local.ip, local.port), remote: (ip, Int(port)))
        // The Host is the address itself: Chromium names its WebSocket after it, and refuses a name.
        let request = Array("GET \(path) HTTP/1.1\r\nHost: \(authority(ip, port))\r\nConnection: close\r\n\r\n".utf8)
        guard request.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == request.count else {
            throw .unreachable("\(authority(ip, port)): the request could not be sent")
        }
        return try readAnswer(fd, from: authority(ip, port))
    }

    private static func connectLoopback(ip: String, port: UInt16) throws(Failure) -> Int32 {
        guard let (address, length) = IPEndpoint(ip: ip, port: Int(port)).socketAddress else { throw .unsupported(ip) }
        var storage = address
        let fd = socket(Int32(storage.ss_family), Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .unreachable("socket: \(String(cString: strerror(errno)))") }
        let connected = withUnsafePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, length) } }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw .unreachable("no browser at \(authority(ip, port)): \(reason)")
        }
        return fd
    }

    /// The body of the answer on `fd`: read up to its Content-Length (Chromium may keep
    /// the connection open), or to its end, within `answerLimit` bytes and `answerTime`.
    private static func readAnswer(_ fd: Int32, from peer: String) throws(Failure) -> String {
        let deadline = ContinuousClock.now + answerTime
        var response: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            if let body = HTTPAnswer.body(response) { return body }
            let left = deadline - ContinuousClock.now
            guard left > .zero else { throw .unreachable("\(peer) did not answer /json/version within \(answerTime)") }
            var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
            guard poll(&ready, 1, milliseconds) > 0 else { continue }
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return try HTTPAnswer.bodyAtEnd(response, from: peer) }
            response.append(contentsOf: chunk[..<count])
            guard response.count <= answerLimit else { throw .unreachable("\(peer) answered /json/version with more than \(answerLimit) bytes") }
        }
    }
}

/// An HTTP answer's body from the bytes read so far.
enum HTTPAnswer {
    /// The body once the headers and `Content-Length` bytes after them are in; nil before.
    static func body(_ bytes: [UInt8]) -> String? {
        guard let (headers, bodyStart) = split(bytes), let length = contentLength(headers) else { return nil }
        guard bytes.count - bodyStart >= length else { return nil }
        return String(decoding: bytes[bodyStart..<(bodyStart + length)], as: UTF8.self)
    }

    /// The body of an answer the peer ended.
    static func bodyAtEnd(_ bytes: [UInt8], from peer: String) throws(DevToolsAddress.Failure) -> String {
        guard let (_, bodyStart) = split(bytes) else { throw .unreachable("\(peer) answered no HTTP") }
        return String(decoding: bytes[bodyStart...], as: UTF8.self)
    }

    private static func split(_ bytes: [UInt8]) -> (headers: String, bodyStart: Int)? {
        let end: [UInt8] = [13, 10, 13, 10]
        guard bytes.count >= 4, let at = (0...(bytes.count - 4)).first(where: { bytes[$0..<($0 + 4)].elementsEqual(end) }) else { return nil }
        return (String(decoding: bytes[..<at], as: UTF8.self), at + 4)
    }

    private static func contentLength(_ headers: String) -> Int? {
        for line in headers.split(separator: "\r\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "content-length" { return Int(parts[1].trimmingCharacters(in: .whitespaces)) }
        }
        return nil
    }
}
