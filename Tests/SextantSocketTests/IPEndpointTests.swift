import Glibc
import SextantSocket
import Testing

/// The one place the two address families' `sockaddr`s are made and read.
struct IPEndpointTests {
    @Test("an IPv4 and an IPv6 endpoint go into a sockaddr and come back the same; a name is not an address")
    func roundTrip() throws {
        for endpoint in [IPEndpoint(ip: "127.0.0.1", port: 9222), IPEndpoint(ip: "::1", port: 2947), IPEndpoint(ip: "::ffff:127.0.0.1", port: 1)] {
            let (storage, length) = try #require(endpoint.socketAddress)
            #expect(Int32(storage.ss_family) == (endpoint.ip.contains(":") ? AF_INET6 : AF_INET))
            #expect(Int(length) == (endpoint.ip.contains(":") ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size))
            #expect(IPEndpoint(storage) == endpoint)
        }
        #expect(IPEndpoint(ip: "localhost", port: 80).socketAddress == nil)
    }

    @Test("a bound socket's own address is read back with the port the kernel chose")
    func boundSocket() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var (storage, length) = try #require(IPEndpoint(ip: "127.0.0.1", port: 0).socketAddress)
        #expect(withUnsafePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } } == 0)
        let bound = try #require(IPEndpoint(of: fd, peer: false))
        #expect(bound.ip == "127.0.0.1" && bound.port > 0)
        #expect(IPEndpoint(of: fd, peer: true) == nil, "not connected")
    }

    @Test("/proc/net/tcp: a listener on the wildcard address takes connections to loopback; the owner's uid is read")
    func listeners() {
        let table = """
              sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
               0: 00000000:2406 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1001        0 11 1
               1: 0100007F:2407 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1002        0 12 1
               2: 0100007F:2406 0100007F:D431 01 00000000:00000000 00:00000000 00000000  1003        0 13 1
            """
        #expect(ProcNetTCP.listeners(in: table, ip: "127.0.0.1", port: 0x2406) == [1001])
        #expect(ProcNetTCP.listeners(in: table, ip: "127.0.0.1", port: 0x2407) == [1002])
        #expect(ProcNetTCP.find(in: table, peer: ("127.0.0.1", 0x2406), local: ("127.0.0.1", 0xD431)) == .init(uid: 1003, inode: 13))
    }
}
