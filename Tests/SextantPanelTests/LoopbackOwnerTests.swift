import Foundation
import NIOCore
import Testing

@testable import SextantPanel

/// The uid behind a loopback connection, asked of the kernel (issue 36.4: each
/// local user's share of the panel's connections).
struct LoopbackOwnerTests {
    /// The panel asks the kernel for the one socket (``SocketDiag``, tested with the gpsd face).
    @Test("a loopback connection is known by its owner's uid, another machine's by its address") func aRealLoopbackConnectionIsOurs() throws {
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
        let key = PeerKey.of(remote: SocketAddress(peer, host: "127.0.0.1"), local: SocketAddress(address, host: "127.0.0.1"))
        #expect(key == .user(getuid()))
        #expect(PeerKey.of(remote: try SocketAddress(ipAddress: "192.0.2.1", port: 1), local: SocketAddress(address, host: "127.0.0.1")) == .host("192.0.2.1"))
    }
}
