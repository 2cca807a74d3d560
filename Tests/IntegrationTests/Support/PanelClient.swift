import Foundation
import SextantProtocol
import SextantTestSupport

/// A real `sextant-panel` for one daemon, on loopback, with its page and Leaflet folders.
final class PanelProcess {
    let reader: LineReader
    let port: UInt16
    let token: String
    let url: String
    /// Held as long as the panel serves them.
    let folders: PanelFolders

    /// `environment`: variables added to the test's own for the panel. Its cache is the
    /// folders' own (empty), so that no test draws the base map setup.sh left in the user's
    /// cache unless it passes `--basemap`.
    /// `descriptors`: the panel's `ulimit -n`; `directory`: its current directory.
    init(
        daemon: DaemonHarness, arguments: [String] = [], folders: PanelFolders, environment: [String: String] = [:], traces: Bool = true,
        descriptors: Int? = nil, directory: String? = nil
    ) throws {
        self.folders = folders
        let limit = descriptors.map { ["/bin/sh", "-c", "ulimit -n \($0) && exec \"$0\" \"$@\""] } ?? []
        let place = directory.map { ["/usr/bin/env", "-C", $0] } ?? []
        var panelEnvironment = ProcessInfo.processInfo.environment
        panelEnvironment["XDG_CACHE_HOME"] = folders.scratch.file("cache")
        panelEnvironment.merge(environment) { $1 }
        reader = try LineReader(
            place + limit + [
                Binaries.directory + "/sextant-panel", "--socket", daemon.runtime + "/control.sock", "--assets", folders.assets,
                "--leaflet", folders.leaflet,
            ] + (traces ? ["--traces", folders.traces] : []) + arguments,
            environment: panelEnvironment, errors: folders.scratch.file("panel.err"))
        guard let (_, line, _) = reader.waitForLine(timeout: 30, where: { $0.hasPrefix("http://") }) else {
            throw HarnessError("sextant-panel printed no URL: \(reader.allLines)")
        }
        url = line
        guard let components = URLComponents(string: line), let port = components.port,
            let token = components.fragment.flatMap({ $0.hasPrefix("token=") ? String($0.dropFirst(6)) : nil })
        else {
            throw HarnessError("not a panel URL: \(line)")
        }
        self.port = UInt16(port)
        self.token = token
    }

    /// Whether the panel still runs, and what it wrote to its standard error: told with
    /// every page step that fails (a page that cannot load may be a panel that ended).
    var condition: String {
        let errors = (try? String(contentsOfFile: folders.scratch.file("panel.err"), encoding: .utf8)) ?? ""
        let state = reader.ended.map { "sextant-panel \($0)" } ?? "sextant-panel still runs"
        guard !errors.isEmpty else { return state + ", nothing on its standard error" }
        return state + Self.crashedThread(in: errors) + "; its standard error ends: \(errors.suffix(2000))"
    }

    /// The frames of the thread that crashed, as Swift's backtracer prints them first (the
    /// end of a crash report is only the other threads, the registers and the images).
    static func crashedThread(in errors: String) -> String {
        let lines = errors.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0.contains("Program crashed") || $0.hasSuffix(" crashed:") }) else { return "" }
        return "; it crashed:\n" + lines[start...].prefix(60).joined(separator: "\n")
    }

    var origin: String { "http://127.0.0.1:\(port)" }
    var host: String { "127.0.0.1:\(port)" }
    /// The header that carries the token on HTTP.
    var authorization: String { "Authorization: Bearer \(token)" }
    /// The header that carries it on the WebSocket's upgrade, as the page sends it.
    var protocols: String { "Sec-WebSocket-Protocol: sextant-panel, sextant-token.\(token)" }

    /// A GET with the panel's Host and the given extra header lines.
    func get(_ target: String, headers: [String] = [], timeout: Double = 15) throws -> HTTPReply {
        try HTTPReply.exchange(
            port: port, "GET \(target) HTTP/1.1\r\nHost: \(host)\r\n" + headers.map { $0 + "\r\n" }.joined() + "Connection: close\r\n\r\n", timeout: timeout)
    }

    /// A WebSocket with the token and the panel's own Origin.
    func webSocket(receiveBuffer: Int32? = nil) throws -> PanelWebSocket {
        try PanelWebSocket.open(port: port, headers: ["Host: \(host)", "Origin: \(origin)", protocols], receiveBuffer: receiveBuffer)
    }

    deinit { reader.stop() }
}

/// The folders a test panel serves: a page with an index.html, a Leaflet folder, traces.
struct PanelFolders {
    let scratch: TemporaryDirectory
    var assets: String { scratch.file("assets") }
    var leaflet: String { scratch.file("leaflet") }
    var traces: String { scratch.file("traces") }

    init() throws {
        scratch = try TemporaryDirectory("panel")
        for folder in ["assets", "leaflet/images", "traces"] {
            try FileManager.default.createDirectory(atPath: scratch.file(folder), withIntermediateDirectories: true)
        }
        try "<!doctype html><title>Sextant</title><script src=\"/assets/panel.js\"></script>\n".write(toFile: assets + "/index.html", atomically: true, encoding: .utf8)
        try "console.log('panel')\n".write(toFile: assets + "/panel.js", atomically: true, encoding: .utf8)
        try "/* leaflet */\n".write(toFile: leaflet + "/leaflet.js", atomically: true, encoding: .utf8)
        try "png".write(toFile: leaflet + "/images/marker-icon.png", atomically: true, encoding: .utf8)
        try "secret\n".write(toFile: scratch.file("secret.txt"), atomically: true, encoding: .utf8)
    }
}

/// One HTTP/1.1 exchange on a fresh loopback connection, read until the server closes it.
struct HTTPReply: Error {
    var status: Int
    var headers: [String: String]
    var body: String

    func header(_ name: String) -> String? { headers[name.lowercased()] }

    static func exchange(port: UInt16, _ request: String, timeout: Double = 15) throws -> HTTPReply {
        guard let fd = connectLoopback(port: port) else { throw HarnessError("cannot connect to 127.0.0.1:\(port)") }
        defer { close(fd) }
        _ = request.withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
        let bytes = try readUntilClosed(fd, timeout: timeout)
        return try parse(bytes)
    }

    static func readUntilClosed(_ fd: Int32, timeout: Double) throws -> [UInt8] {
        let deadline = monotonicSeconds() + timeout
        var bytes: [UInt8] = []
        while true {
            guard monotonicSeconds() < deadline else { throw HarnessError("the panel did not close the connection within \(timeout) s: \(String(decoding: bytes, as: UTF8.self))") }
            guard let chunk = receive(fd, until: deadline) else { return bytes }
            bytes += chunk
        }
    }

    /// What `fd` has to read, waiting until `deadline`: nil once the peer closed, nothing
    /// (an empty array) when the deadline came first.
    static func receive(_ fd: Int32, until deadline: Double) -> [UInt8]? {
        let remaining = deadline - monotonicSeconds()
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard remaining > 0, poll(&descriptor, 1, Int32((remaining * 1000).rounded(.up))) > 0 else { return [] }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        return count > 0 ? Array(chunk[..<count]) : nil
    }

    /// The status line, headers and body of a reply (`Content-Length` or to the end).
    static func parse(_ bytes: [UInt8]) throws -> HTTPReply {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let end = text.range(of: "\r\n\r\n") else { throw HarnessError("not an HTTP reply: \(text)") }
        let lines = text[..<end.lowerBound].components(separatedBy: "\r\n")
        guard let status = lines.first?.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else { throw HarnessError("no status: \(text)") }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return HTTPReply(status: status, headers: headers, body: String(text[end.upperBound...]))
    }
}

/// A WebSocket client written out by hand, so that a test can send what a browser never
/// would: oversize, binary and malformed frames.
final class PanelWebSocket {
    let fd: Int32
    private var buffer: [UInt8] = []

    private init(fd: Int32, rest: [UInt8]) {
        self.fd = fd
        self.buffer = rest
    }

    deinit { close(fd) }

    /// The handshake with exactly `headers` (Host, Origin, Cookie as the test chooses); the
    /// socket on 101, else the refusal.
    static func handshake(port: UInt16, headers: [String], receiveBuffer: Int32? = nil, path: String = "/ws") throws -> Result<PanelWebSocket, HTTPReply> {
        guard let fd = connectLoopback(port: port, receiveBuffer: receiveBuffer) else { throw HarnessError("cannot connect to 127.0.0.1:\(port)") }
        let request = "GET \(path) HTTP/1.1\r\n" + headers.map { $0 + "\r\n" }.joined()
            + "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        _ = request.withCString { Glibc.send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
        var bytes: [UInt8] = []
        let deadline = monotonicSeconds() + 15
        while true {
            if let end = bytes.firstRange(of: Array("\r\n\r\n".utf8)) {
                let reply = try HTTPReply.parse(Array(bytes[..<end.upperBound]))
                if reply.status == 101 { return .success(PanelWebSocket(fd: fd, rest: Array(bytes[end.upperBound...]))) }
                let full = try HTTPReply.parse(bytes + (try HTTPReply.readUntilClosed(fd, timeout: 15)))
                close(fd)
                return .failure(full)
            }
            guard monotonicSeconds() < deadline else { throw HarnessError("no handshake reply") }
            guard let chunk = HTTPReply.receive(fd, until: deadline) else { throw HarnessError("the panel closed the connection during the handshake") }
            bytes += chunk
        }
    }

    static func open(port: UInt16, headers: [String], receiveBuffer: Int32? = nil) throws -> PanelWebSocket {
        switch try handshake(port: port, headers: headers, receiveBuffer: receiveBuffer) {
        case .success(let socket): return socket
        case .failure(let reply): throw HarnessError("upgrade refused: \(reply.status) \(reply.body)")
        }
    }

    /// A masked frame, as a browser sends it (or, `masked: false`, as no client may).
    func send(opcode: UInt8 = 1, _ payload: [UInt8], fin: Bool = true, masked: Bool = true) {
        var frame: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        let maskBit: UInt8 = masked ? 0x80 : 0
        if payload.count < 126 {
            frame.append(maskBit | UInt8(payload.count))
        } else if payload.count <= 0xFFFF {
            frame += [maskBit | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            frame.append(maskBit | 127)
            frame += (0..<8).reversed().map { UInt8((UInt64(payload.count) >> (UInt64($0) * 8)) & 0xFF) }
        }
        let mask: [UInt8] = masked ? [0x12, 0x34, 0x56, 0x78] : [0, 0, 0, 0]
        if masked { frame += mask }
        frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        var sent = 0
        while sent < frame.count {
            let count = frame[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count <= 0 { return }
            sent += count
        }
    }

    func send(_ text: String) { send(Array(text.utf8)) }

    func call(_ id: Int, _ method: String, _ params: JSONValue = [:]) {
        send(JSONValue.object(["id": .int(Int64(id)), "method": .string(method), "params": params]).serialized())
    }

    /// The status code of the close frame the panel sends next (skipping messages), or nil
    /// when it closes the connection without one.
    func closeCode(timeout: Double = 15) throws -> Int? {
        let deadline = monotonicSeconds() + timeout
        while true {
            if let (opcode, payload, length) = Self.frame(in: buffer) {
                buffer.removeFirst(length)
                if opcode == 8 { return payload.count >= 2 ? Int(payload[payload.startIndex]) << 8 | Int(payload[payload.startIndex + 1]) : nil }
                continue
            }
            guard monotonicSeconds() < deadline else { throw HarnessError("no close frame within \(timeout) s") }
            guard let chunk = HTTPReply.receive(fd, until: deadline) else { return nil }
            buffer += chunk
        }
    }

    /// The next text message (a server sends each in one frame), or nil once closed.
    func next(timeout: Double = 15) throws -> String? {
        let deadline = monotonicSeconds() + timeout
        while true {
            if let (opcode, payload, length) = Self.frame(in: buffer) {
                buffer.removeFirst(length)
                if opcode == 8 { return nil }
                if opcode == 1 { return String(decoding: payload, as: UTF8.self) }
                continue
            }
            guard monotonicSeconds() < deadline else { throw HarnessError("no WebSocket message within \(timeout) s") }
            guard let chunk = HTTPReply.receive(fd, until: deadline) else { return nil }
            buffer += chunk
        }
    }

    /// The next message that is JSON and matches.
    func next(timeout: Double = 15, where matches: (JSONValue) -> Bool) throws -> JSONValue {
        let deadline = monotonicSeconds() + timeout
        while true {
            guard let text = try next(timeout: max(0.001, deadline - monotonicSeconds())) else { throw HarnessError("the panel closed the WebSocket") }
            if let value = try? JSONValue.parse(text), matches(value) { return value }
        }
    }

    /// The answer to request `id`.
    func answer(_ id: Int, timeout: Double = 15) throws -> JSONValue {
        try next(timeout: timeout) { $0["id"] == .int(Int64(id)) }
    }

    static func frame(in bytes: [UInt8]) -> (UInt8, ArraySlice<UInt8>, Int)? {
        guard bytes.count >= 2 else { return nil }
        var length = Int(bytes[1] & 0x7F)
        var start = 2
        if length == 126 {
            guard bytes.count >= 4 else { return nil }
            length = Int(bytes[2]) << 8 | Int(bytes[3])
            start = 4
        } else if length == 127 {
            guard bytes.count >= 10 else { return nil }
            length = bytes[2..<10].reduce(0) { $0 << 8 | Int($1) }
            start = 10
        }
        guard bytes.count >= start + length else { return nil }
        return (bytes[0] & 0x0F, bytes[start..<(start + length)], start + length)
    }
}
