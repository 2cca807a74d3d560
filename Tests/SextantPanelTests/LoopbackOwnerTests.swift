import Foundation
import NIOCore
import Testing

@testable import SextantPanel

/// The uid behind a loopback connection, asked of the kernel (issue 36.4: each
/// local user's share of the panel's connections).
struct LoopbackOwnerTests {
    @Test func theRequestNamesTheSocketFromThePeerToUs() throws {
        let request = try #require(LoopbackOwner.request(remote: try SocketAddress(ipAddress: "127.0.0.1", port: 0xCA12), local: try SocketAddress(ipAddress: "127.0.0.1", port: 80)))
        #expect(request.count == 72)
        #expect(request[16] == UInt8(AF_INET) && request[17] == UInt8(IPPROTO_TCP))
        #expect(Array(request[24..<28]) == [0xCA, 0x12, 0, 80])
        #expect(Array(request[28..<32]) == [127, 0, 0, 1] && Array(request[44..<48]) == [127, 0, 0, 1])
        #expect(LoopbackOwner.request(remote: try SocketAddress(ipAddress: "::1", port: 1), local: try SocketAddress(ipAddress: "127.0.0.1", port: 80)) == nil)
        // An IPv4 client of a `::` listener is asked for as the IPv4 socket it is.
        let mapped = try #require(LoopbackOwner.request(remote: try SocketAddress(ipAddress: "::ffff:127.0.0.1", port: 1), local: try SocketAddress(ipAddress: "::ffff:127.0.0.1", port: 80)))
        #expect(mapped[16] == UInt8(AF_INET) && Array(mapped[28..<32]) == [127, 0, 0, 1])
    }

    @Test func aRealLoopbackConnectionIsOurs() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = bind(listener, $0, length) } }
        listen(listener, 4)
        withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(listener, $0, &length) } }
        let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(client) }
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(client, $0, length) } }
        let server = accept(listener, nil, nil)
        defer { close(server) }
        var peer = sockaddr_in()
        withUnsafeMutablePointer(to: &peer) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getpeername(server, $0, &length) } }
        let uid = LoopbackOwner.uid(remote: SocketAddress(peer, host: "127.0.0.1"), local: SocketAddress(address, host: "127.0.0.1"))
        #expect(uid == getuid())
    }
}
