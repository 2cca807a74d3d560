/// Where gpsd listens: `HOST:PORT`, `HOST` (port 2947), or `[IPV6]:PORT`.
public struct GPSDEndpoint: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: UInt16

    /// gpsd's registered port.
    public static let defaultPort: UInt16 = 2947
    /// What `sextantd` uses when no `--replay` is given and `--gpsd` is not.
    public static let localDefault = GPSDEndpoint(host: "localhost", port: defaultPort)

    public init(host: String, port: UInt16 = GPSDEndpoint.defaultPort) {
        self.host = host
        self.port = port
    }

    /// Parses the `--gpsd` argument; nil when it is not a host with an optional port 1-65535.
    public init?(parsing text: String) {
        var host = Substring(text)
        var portText: Substring?
        if host.hasPrefix("[") {
            // A bracketed IPv6 literal, as in URLs: [::1]:2947.
            guard let close = host.firstIndex(of: "]") else { return nil }
            let rest = host[host.index(after: close)...]
            host = host[host.index(after: host.startIndex)..<close]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { return nil }
                portText = rest.dropFirst()
            }
        } else if let colon = host.lastIndex(of: ":") {
            // One colon separates the port; more than one is a bare IPv6 address.
            if host.firstIndex(of: ":") == colon {
                portText = host[host.index(after: colon)...]
                host = host[..<colon]
            }
        }
        guard !host.isEmpty, !host.contains(where: \.isWhitespace) else { return nil }
        var port = GPSDEndpoint.defaultPort
        if let portText {
            guard let number = UInt16(portText), number > 0 else { return nil }
            port = number
        }
        self.init(host: String(host), port: port)
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
