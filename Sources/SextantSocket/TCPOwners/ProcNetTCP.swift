import Glibc

/// Reading `/proc/self/net/tcp` and `tcp6`: one socket a line, addresses in hex as the
/// kernel stores them (IPv4 as one little-endian word, IPv6 as four), with the owner's uid
/// and the socket's inode. Anyone may read them. TCP has no SO_PEERCRED, so this is how
/// the gpsd face and the Chromium bridge learn whose is the other end of a loopback
/// connection (``SocketDiag`` asks for one socket where netlink is allowed).
public enum ProcNetTCP {
    public typealias Address = (ip: String, port: Int)

    public struct Entry: Equatable, Sendable {
        public var uid: UInt32
        public var inode: UInt64

        public init(uid: UInt32, inode: UInt64) {
            self.uid = uid
            self.inode = inode
        }
    }

    /// The entry whose local address is `peer` and remote address `local`, in the tables
    /// under `proc` (/proc/self/net rather than /proc/net: systemd's ProcSubset=pid hides
    /// the latter).
    public static func find(peer: Address, local: Address, proc: String = "/proc") -> Entry? {
        for table in tables(proc: proc) {
            if let entry = find(in: table, peer: peer, local: local) { return entry }
        }
        return nil
    }

    /// The entry of `table` whose local address is `peer` and remote address `local`.
    public static func find(in table: String, peer: Address, local: Address) -> Entry? {
        for fields in rows(table) where matches(fields[1], peer) && matches(fields[2], local) {
            guard let uid = UInt32(fields[7]), let inode = UInt64(fields[9]) else { continue }
            return Entry(uid: uid, inode: inode)
        }
        return nil
    }

    /// The uids of the listening sockets (state 0A) of `table` that take connections to
    /// `ip`:`port`: bound to it or to its family's wildcard address ([::] takes IPv4 too).
    public static func listeners(in table: String, ip: String, port: Int) -> [UInt32] {
        let addresses = [ip, "0.0.0.0", "::"]
        return rows(table).compactMap { fields in
            guard fields[3] == "0A", addresses.contains(where: { matches(fields[1], ($0, port)) }) else { return nil }
            return UInt32(fields[7])
        }
    }

    /// Both tables' text under `proc`, those that can be read.
    public static func tables(proc: String = "/proc") -> [String] {
        ["tcp", "tcp6"].compactMap { ProcFile.read("\(proc)/self/net/\($0)") }
    }

    /// The lines after the heading, split into fields, those with the ten the readers use
    /// (sl local rem st tx:rx tr:when retrnsmt uid timeout inode …).
    private static func rows(_ table: String) -> [[Substring]] {
        table.split(separator: "\n").dropFirst().compactMap { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            return fields.count >= 10 ? fields : nil
        }
    }

    /// Whether a `HEXADDR:HEXPORT` field names `address` (an IPv4 address also as the
    /// IPv4-mapped IPv6 one a dual-stack socket shows).
    public static func matches(_ field: Substring, _ address: Address) -> Bool {
        let parts = field.split(separator: ":")
        guard parts.count == 2, Int(parts[1], radix: 16) == address.port else { return false }
        guard let bytes = addressBytes(parts[0]), let wanted = ipBytes(address.ip) else { return false }
        return bytes == wanted || mappedIPv4(bytes) == wanted
    }

    /// The kernel's hex address as network-order bytes: each 32-bit word is printed in host
    /// (little-endian) order.
    public static func addressBytes(_ hex: Substring) -> [UInt8]? {
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

    /// The bytes of an IPv4 or IPv6 address in text form.
    public static func ipBytes(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }

    /// The IPv4 address inside an IPv4-mapped IPv6 one (::ffff:a.b.c.d).
    public static func mappedIPv4(_ bytes: [UInt8]) -> [UInt8]? {
        guard bytes.count == 16, bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF else { return nil }
        return Array(bytes[12...])
    }
}

/// Reads a /proc file to its end. Its size says 0 and the kernel hands it out a page per
/// read(2): reading only what the size promises, or one read, loses most of
/// `/proc/net/tcp` on a busy machine.
public enum ProcFile {
    /// More than any /proc/net/tcp of a machine Sextant serves; a bound all the same.
    public static let limit = 64 << 20

    public static func read(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while bytes.count < limit {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += chunk[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
