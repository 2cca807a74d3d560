import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import SextantPanel

/// The whole panel application (`PanelServer.makeApplication`: its channel, which refuses
/// upgrades before they happen, and its router) on a loopback socket through
/// HummingbirdTesting's `.live` setup, still with no daemon: nothing here reaches one.
/// The requests are written by hand, as the Host must name the port bound.
struct PanelLiveServerTests {
    @Test func aRefusedUpgradeIsAnsweredByTheChannelWithTheSecurityHeaders() async throws {
        let panel = try PanelRouterHarness()
        let live = PanelServer(configuration: panel.server.configuration, access: PanelAccess(listen: .loopback))
        let methods = PanelMethods(daemon: DaemonSupervisor(path: panel.folders.file("control.sock")), tracesDirectory: panel.folders.file("traces"))
        let application = live.makeApplication(pages: PanelPages(), methods: methods, onListening: { _ in })
        try await application.test(.live) { client in
            let port = try #require(client.port)
            let host = "Host: 127.0.0.1:\(port)\r\n"
            let page = try await RawExchange.exchange(port: port, "GET / HTTP/1.1\r\n\(host)Connection: close\r\n\r\n")
            #expect(page.hasPrefix("HTTP/1.1 200") && page.contains("<title>Sextant</title>"), "\(page)")
            #expect(RawExchange.hasSecurityHeaders(page), "\(page)")
            let upgrade = "GET /ws HTTP/1.1\r\n\(host)Origin: http://evil.example\r\nSec-WebSocket-Protocol: \(PanelAccess.subprotocol), "
                + "\(PanelAccess.tokenProtocolPrefix)\(live.access.token)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
            let refused = try await RawExchange.exchange(port: port, upgrade)
            #expect(refused.hasPrefix("HTTP/1.1 403") && refused.contains("Origin http://evil.example is not this panel's"), "\(refused)")
            #expect(RawExchange.hasSecurityHeaders(refused), "\(refused)")
            let rebound = try await RawExchange.exchange(port: port, "GET / HTTP/1.1\r\nHost: evil.example:\(port)\r\nConnection: close\r\n\r\n")
            #expect(rebound.hasPrefix("HTTP/1.1 403") && RawExchange.hasSecurityHeaders(rebound), "\(rebound)")
        }
    }
}

/// One request on a fresh loopback connection, read until the server closes it (10 s at most).
enum RawExchange {
    struct Failure: Error { var what: String }

    /// `send` on a thread of its own: the panel answers on Swift's cooperative pool, as wide
    /// as the machine has cores, which a blocking read there would hold while the suites
    /// around it hold the rest (the server then never answers).
    static func exchange(port: Int, _ request: String) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try send(port: port, request) }) }.start()
        }
    }

    static func send(port: Int, _ request: String) throws -> String {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(what: "socket: \(errno)") }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw Failure(what: "connect to 127.0.0.1:\(port): \(errno)") }
        _ = request.withCString { Glibc.send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            reply += buffer[0..<count]
        }
        return String(decoding: reply, as: UTF8.self)
    }

    static func hasSecurityHeaders(_ reply: String) -> Bool {
        let lines = reply.lowercased().components(separatedBy: "\r\n")
        return lines.contains("content-security-policy: \(PanelRouterHarness.policy.lowercased())") && lines.contains("x-content-type-options: nosniff")
            && lines.contains("referrer-policy: no-referrer") && lines.contains("cache-control: no-store")
    }
}
