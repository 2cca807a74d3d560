import Glibc

/// An IPv4 or IPv6 address and port in text form, as the kernel's tables and a command line
/// name them, turned into and read back from a `sockaddr`: the one place the two families'
/// structures are told apart.
public struct IPEndpoint: Equatable, Sendable {
    public var ip: String
    public var port: Int

    public init(ip: String, port: Int) {
        self.ip = ip
        self.port = port
    }

    /// The address of a socket: its own (`getsockname`) or its peer's (`getpeername`).
    public init?(of fd: Int32, peer: Bool) {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let status = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { peer ? getpeername(fd, $0, &length) : getsockname(fd, $0, &length) }
        }
        guard status == 0 else { return nil }
        self.init(storage)
    }

    /// The endpoint a `sockaddr_in` or `sockaddr_in6` holds; nil for another family.
    public init?(_ storage: sockaddr_storage) {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        switch Int32(storage.ss_family) {
        case AF_INET:
            var v4 = withUnsafeBytes(of: storage) { $0.load(as: sockaddr_in.self) }
            inet_ntop(AF_INET, &v4.sin_addr, &text, socklen_t(text.count))
            port = Int(UInt16(bigEndian: v4.sin_port))
        case AF_INET6:
            var v6 = withUnsafeBytes(of: storage) { $0.load(as: sockaddr_in6.self) }
            inet_ntop(AF_INET6, &v6.sin6_addr, &text, socklen_t(text.count))
            port = Int(UInt16(bigEndian: v6.sin6_port))
        default:
            return nil
        }
        ip = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The `sockaddr` for this endpoint and its length; nil when `ip` is not an address.
    public var socketAddress: (storage: sockaddr_storage, length: socklen_t)? {
        var storage = sockaddr_storage()
        if ip.contains(":") {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = UInt16(truncatingIfNeeded: port).bigEndian
            guard inet_pton(AF_INET6, ip, &address.sin6_addr) == 1 else { return nil }
            withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: address, as: sockaddr_in6.self) }
            return (storage, socklen_t(MemoryLayout<sockaddr_in6>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(truncatingIfNeeded: port).bigEndian
        guard inet_pton(AF_INET, ip, &address.sin_addr) == 1 else { return nil }
        withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: address, as: sockaddr_in.self) }
        return (storage, socklen_t(MemoryLayout<sockaddr_in>.size))
    }
}
