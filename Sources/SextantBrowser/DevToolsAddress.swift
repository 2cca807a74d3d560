#if canImport(Glibc)
import Glibc
#endif
import SextantProtocol

/// The browser's DevTools endpoint from what the user gave: a `ws://…/devtools/browser/…`
/// address as it is, or an `http://host:port` one whose `/json/version` names it.
public enum DevToolsAddress {
    public enum Failure: Error, CustomStringConvertible, Equatable {
        case unsupported(String)
        case unreachable(String)

        public var description: String {
            switch self {
            case .unsupported(let address): return "--cdp \(address): give http://HOST:PORT or ws://HOST:PORT/devtools/browser/ID"
            case .unreachable(let reason): return reason
            }
        }
    }

    /// Host and port of an `http://` or `ws://` address.
    public static func hostAndPort(_ address: String) throws(Failure) -> (host: String, port: UInt16) {
        guard let schemeEnd = address.range(of: "://") else { throw .unsupported(address) }
        let scheme = address[..<schemeEnd.lowerBound]
        guard scheme == "http" || scheme == "ws" else { throw .unsupported(address) }
        let rest = address[schemeEnd.upperBound...]
        let authority = rest.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let parts = authority.split(separator: ":")
        guard parts.count == 2, let port = UInt16(parts[1]) else { throw .unsupported(address) }
        return (String(parts[0]), port)
    }

    /// The WebSocket address to connect to now (the browser at an http address may have been
    /// restarted with a new id: asked afresh on every connection).
    public static func resolve(_ address: String) throws(Failure) -> String {
        if address.hasPrefix("ws://") {
            _ = try hostAndPort(address)
            return address
        }
        let (host, port) = try hostAndPort(address)
        let body = try httpGet(host: host, port: port, path: "/json/version")
        guard let json = try? JSONValue.parse(body), let url = json["webSocketDebuggerUrl"]?.stringValue else {
            throw .unreachable("\(address)/json/version has no webSocketDebuggerUrl")
        }
        return url
    }

    /// A plain HTTP/1.1 GET (Connection: close) on loopback: DevTools' discovery is all this needs.
    static func httpGet(host: String, port: UInt16, path: String) throws(Failure) -> String {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host == "localhost" ? "127.0.0.1" : host, &address.sin_addr) == 1 else {
            throw .unreachable("\(host): give the DevTools address as an IPv4 address")
        }
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw .unreachable("socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw .unreachable("no browser at \(host):\(port): \(String(cString: strerror(errno)))") }
        let request = Array("GET \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\nConnection: close\r\n\r\n".utf8)
        guard request.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == request.count else {
            throw .unreachable("\(host):\(port): the request could not be sent")
        }
        var response: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            response.append(contentsOf: chunk[..<count])
        }
        let text = String(decoding: response, as: UTF8.self)
        guard let headerEnd = text.range(of: "\r\n\r\n") else { throw .unreachable("\(host):\(port) answered no HTTP") }
        return String(text[headerEnd.upperBound...])
    }
}
