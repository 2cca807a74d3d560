import Foundation

/// What `sextant-panel` was asked to serve: the daemon it speaks for, where it listens, and
/// the folders its files come from.
public struct PanelConfiguration: Sendable {
    /// The daemon's control.sock.
    public var socketPath: String
    public var listen: ListenAddress
    /// A tile URL template (`https://tile.example/{z}/{x}/{y}.png`), or none: the page then
    /// draws a grid and a scale bar, offline.
    public var tiles: String?
    /// The folder `panel.traces` lists and `panel.trace` reads from.
    public var tracesDirectory: String
    /// The page's own files (index.html, panel.js, panel.css...).
    public var assetsDirectory: String
    /// Leaflet's files, as Debian's libjs-leaflet installs them.
    public var leafletDirectory: String
    /// The offline base map, a GeoJSON of coastlines and borders made from Debian's
    /// gmt-gshhg-low by Tools/dev/make-basemap.py; served as /basemap.geojson when present.
    public var basemap: String?

    public init(
        socketPath: String, listen: ListenAddress = .loopback, tiles: String? = nil, tracesDirectory: String,
        assetsDirectory: String, leafletDirectory: String = PanelConfiguration.debianLeaflet, basemap: String? = nil
    ) {
        self.socketPath = socketPath
        self.listen = listen
        self.tiles = tiles
        self.tracesDirectory = tracesDirectory
        self.assetsDirectory = assetsDirectory
        self.leafletDirectory = leafletDirectory
        self.basemap = basemap
    }

    public static let debianLeaflet = "/usr/share/javascript/leaflet"

    /// The folder of traces: a source tree's `Traces` when the program runs from its build
    /// folder, else `$XDG_DATA_HOME/sextant/traces` (`~/.local/share/sextant/traces`). Never
    /// the current directory, which may hold anything.
    public static func defaultTraces(executable: String, environment: [String: String]) -> String {
        var folder = URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<4 {
            folder = folder.deletingLastPathComponent()
            let traces = folder.appendingPathComponent("Traces").path
            if FileManager.default.fileExists(atPath: traces), FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
                return traces
            }
        }
        let data = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.local/share")
        return data + "/sextant/traces"
    }

    /// Where Tools/dev/make-basemap.py writes the base map unless told: derived data, so the
    /// user's cache (`$XDG_CACHE_HOME/sextant`, `~/.cache/sextant`), never the repository.
    public static func defaultBasemap(environment: [String: String]) -> String {
        let cache = environment["XDG_CACHE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.cache")
        return cache + "/sextant/basemap.geojson"
    }

    /// The installed page (`PREFIX/share/sextant/panel`, beside `PREFIX/bin/sextant-panel`),
    /// else the source tree's `web/panel` when the program runs from a build folder
    /// (`.build/debug/sextant-panel`).
    public static func defaultAssets(executable: String) -> String {
        let binary = URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent()
        let installed = binary.deletingLastPathComponent().appendingPathComponent("share/sextant/panel").path
        if FileManager.default.fileExists(atPath: installed + "/index.html") { return installed }
        var folder = binary
        for _ in 0..<4 {
            folder = folder.deletingLastPathComponent()
            let source = folder.appendingPathComponent("web/panel").path
            if FileManager.default.fileExists(atPath: source) { return source }
        }
        return installed
    }
}

/// `HOST:PORT` the panel listens on. Loopback unless the user says otherwise: a panel on
/// another address lets anyone who learns the token control the daemon.
public struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    public static let loopback = ListenAddress(host: "127.0.0.1", port: 0)

    /// Reads `HOST:PORT` (`[::1]:8080` for IPv6); the host must be an IP address or
    /// `localhost`, so that the Host check knows every name the panel answers to.
    public init(parsing text: String) throws(PanelError) {
        let host: Substring
        let port: Substring
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":") else { throw PanelError("--listen \(text): expected [IPV6]:PORT") }
            port = rest.dropFirst()
        } else {
            guard let colon = text.lastIndex(of: ":") else { throw PanelError("--listen \(text): expected HOST:PORT, as 127.0.0.1:8080") }
            host = text[..<colon]
            port = text[text.index(after: colon)...]
        }
        guard let number = Int(port), (0...65535).contains(number) else {
            throw PanelError("--listen \(text): the port \(port) is not a number from 0 to 65535")
        }
        let name = host == "localhost" ? "127.0.0.1" : String(host)
        guard HostName.isIPLiteral(name) else {
            throw PanelError("--listen \(text): the host \(host) is not an IP address (names are refused: the panel checks each request's Host against the addresses it listens on)")
        }
        self.init(host: name, port: number)
    }

    /// Whether the panel can be reached from other machines.
    public var isLoopback: Bool { host.hasPrefix("127.") || host == "::1" }
    public var isWildcard: Bool { host == "0.0.0.0" || host == "::" }

    public var description: String { "\(HostName.bracketed(host)):\(port)" }
}

/// A fault the panel reports to the person who started it.
public struct PanelError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

enum HostName {
    /// `::1` as it stands in a URL or a Host header: `[::1]`.
    static func bracketed(_ host: String) -> String { host.contains(":") ? "[\(host)]" : host }

    static func isIPLiteral(_ host: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }
}
