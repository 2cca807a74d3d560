#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Whose is the browser's side of a DevTools connection on loopback. TCP has no
/// SO_PEERCRED, so it is read as the gpsd face reads its clients': the kernel lists every
/// TCP socket of the machine with its owner's uid in /proc/self/net/tcp and tcp6, readable
/// by anyone; the browser's socket is the one whose local address is the connection's
/// remote one and whose remote address is the connection's local one (a socket accepted
/// from a listener is its owner's). The bridge hands the app's positions only to a peer of
/// its own uid or root's: another user squatting the port (Chromium takes [::1] instead,
/// without a word, when 127.0.0.1's port is taken) is refused.
enum DevToolsPeer {
    typealias Address = (ip: String, port: Int)

    /// Throws unless the socket at the other end of `local` → `remote` is this user's or root's.
    static func check(local: Address, remote: Address, proc: String = "/proc") throws(DevToolsAddress.Failure) {
        let shown = remote.ip.contains(":") ? "[\(remote.ip)]:\(remote.port)" : "\(remote.ip):\(remote.port)"
        guard let uid = owner(server: remote, client: local, proc: proc) else {
            throw .refused("\(shown) is not a socket of this machine: the bridge talks to a browser on loopback only")
        }
        guard uid == geteuid() || uid == 0 else {
            throw .refused(
                "\(shown) is another user's (uid \(uid)), not this user's (uid \(geteuid())) nor root's: refused, "
                    + "the app's positions would go to it (is your browser on the other loopback address, 127.0.0.1 or [::1]?)")
        }
    }

    /// Throws unless every socket listening on `ip`:`port` (or on the wildcard address of
    /// its family, or [::] for IPv4 too) is this user's or root's; and, when `required`,
    /// unless there is one.
    static func checkListener(ip: String, port: Int, required: Bool, proc: String = "/proc") throws(DevToolsAddress.Failure) {
        let shown = DevToolsAddress.authority(ip, UInt16(port))
        var found = false
        for file in ["tcp", "tcp6"] {
            guard let table = readTable("\(proc)/self/net/\(file)") else { continue }
            for uid in listeners(in: table, ip: ip, port: port) {
                found = true
                guard uid == geteuid() || uid == 0 else {
                    throw .refused(
                        "\(shown) is listened on by another user (uid \(uid)), not this user (uid \(geteuid())) nor root: refused, "
                            + "the app's positions would go to it (is your browser on the other loopback address, 127.0.0.1 or [::1]?)")
                }
            }
        }
        if required, !found { throw .unreachable("no browser listens at \(shown)") }
    }

    /// The uids of the listening sockets (state 0A) of `table` that take connections to `ip`:`port`.
    static func listeners(in table: String, ip: String, port: Int) -> [UInt32] {
        let wildcards = ["0.0.0.0", "::"]
        return table.split(separator: "\n").dropFirst().compactMap { line -> UInt32? in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 10, fields[3] == "0A" else { return nil }
            guard ([ip] + wildcards).contains(where: { matches(fields[1], ($0, port)) }) else { return nil }
            return UInt32(fields[7])
        }
    }

    /// The uid owning the server's side, waiting up to a second for the kernel to list it
    /// (an accepted socket appears as its handshake completes).
    static func owner(server: Address, client: Address, proc: String) -> UInt32? {
        let deadline = ContinuousClock.now + .seconds(1)
        while true {
            for file in ["tcp", "tcp6"] {
                guard let table = readTable("\(proc)/self/net/\(file)") else { continue }
                if let uid = owner(in: table, server: server, client: client) { return uid }
            }
            guard ContinuousClock.now < deadline else { return nil }
            usleep(10_000)
        }
    }

    /// A /proc table read to its end (the kernel hands it out a page a read, and says its
    /// size is 0), bounded all the same.
    static func readTable(_ path: String, limit: Int = 64 << 20) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while bytes.count < limit {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += chunk[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The uid of the entry of `table` whose local address is `server` and remote `client`.
    static func owner(in table: String, server: Address, client: Address) -> UInt32? {
        for line in table.split(separator: "\n").dropFirst() {
            // sl local rem st tx:rx tr:when retrnsmt uid timeout inode ...
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 10, matches(fields[1], server), matches(fields[2], client) else { continue }
            return UInt32(fields[7])
        }
        return nil
    }

    /// Whether a `HEXADDR:HEXPORT` field names `address` (an IPv4 address also as the
    /// IPv4-mapped IPv6 one a dual-stack socket shows).
    static func matches(_ field: Substring, _ address: Address) -> Bool {
        let parts = field.split(separator: ":")
        guard parts.count == 2, Int(parts[1], radix: 16) == address.port, let bytes = addressBytes(parts[0]) else { return false }
        guard let wanted = ipBytes(address.ip) else { return false }
        if bytes == wanted { return true }
        return bytes.count == 16 && bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF && Array(bytes[12...]) == wanted
    }

    /// The kernel's hex address as network-order bytes: each 32-bit word is printed in host
    /// (little-endian) order.
    static func addressBytes(_ hex: Substring) -> [UInt8]? {
        guard hex.count == 8 || hex.count == 32 else { return nil }
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 8)
            guard let word = UInt32(hex[index..<next], radix: 16) else { return nil }
            bytes += [UInt8(word & 0xFF), UInt8(word >> 8 & 0xFF), UInt8(word >> 16 & 0xFF), UInt8(word >> 24)]
            index = next
        }
        return bytes
    }

    static func ipBytes(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }

    /// The text `inet_ntop` wrote, up to its NUL.
    static func text(_ characters: [CChar]) -> String {
        String(decoding: characters.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A socket's own (`getsockname`) or its peer's (`getpeername`) address.
    static func address(of fd: Int32, peer: Bool) -> Address? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let status = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { peer ? getpeername(fd, $0, &length) : getsockname(fd, $0, &length) }
        }
        guard status == 0 else { return nil }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        switch Int32(storage.ss_family) {
        case AF_INET:
            var v4 = withUnsafeBytes(of: storage) { $0.load(as: sockaddr_in.self) }
            inet_ntop(AF_INET, &v4.sin_addr, &text, socklen_t(text.count))
            return (Self.text(text), Int(UInt16(bigEndian: v4.sin_port)))
        case AF_INET6:
            var v6 = withUnsafeBytes(of: storage) { $0.load(as: sockaddr_in6.self) }
            inet_ntop(AF_INET6, &v6.sin6_addr, &text, socklen_t(text.count))
            return (Self.text(text), Int(UInt16(bigEndian: v6.sin6_port)))
        default:
            return nil
        }
    }
}
