import Foundation

/// Who is at the other end of a loopback TCP connection, found through /proc: TCP has no
/// SO_PEERCRED. The peer's socket is the one whose local address is the connection's
/// remote one: `/proc/net/tcp` (or `tcp6`) gives its uid and inode, and the process
/// holding `socket:[inode]` among its descriptors (a scan of `/proc/*/fd`) its pid, then
/// `/proc/PID/comm` its executable's name.
struct GPSDPeer: Equatable, Sendable {
    var uid: UInt32
    var pid: Int32?
    var gid: UInt32?
    /// The executable's name as the kernel keeps it (`comm`, at most 15 bytes).
    var command: String?

    /// The app id the authorization engine knows the client by: `gpsd.` and the
    /// executable's name, characters outside `[A-Za-z0-9._-]` replaced by `_`.
    static func appID(command: String?) -> String {
        guard let command, !command.isEmpty else { return unknownApp }
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
        return "gpsd." + String(command.prefix(200).map { allowed.contains($0) ? $0 : "_" })
    }

    static let unknownApp = "gpsd.unknown"

    /// Finds the process whose socket has local address `peer` and remote address `local`
    /// (both "ADDRESS:PORT" as `SocketAddress` gives them); nil when /proc does not list it
    /// (another network namespace, a remote peer).
    static func identify(peer: (ip: String, port: Int), local: (ip: String, port: Int), proc: String = "/proc") -> GPSDPeer? {
        guard let entry = ProcNetTCP.find(peer: peer, local: local, proc: proc) else { return nil }
        var found = GPSDPeer(uid: entry.uid)
        guard entry.inode != 0, let pid = pidHolding(socketInode: entry.inode, proc: proc) else { return found }
        found.pid = pid
        found.command = ProcFile.read("\(proc)/\(pid)/comm")?
            .trimmingCharacters(in: .whitespacesAndNewlines)
        found.gid = gid(of: pid, proc: proc)
        return found
    }

    /// The pid whose descriptors include `socket:[inode]`; processes we may not look into
    /// (another user's, without privileges) are skipped.
    static func pidHolding(socketInode inode: UInt64, proc: String) -> Int32? {
        let target = "socket:[\(inode)]"
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: proc) else { return nil }
        for entry in entries {
            guard let pid = Int32(entry), pid > 0 else { continue }
            let fdDirectory = "\(proc)/\(entry)/fd"
            guard let fds = try? FileManager.default.contentsOfDirectory(atPath: fdDirectory) else { continue }
            for fd in fds where (try? FileManager.default.destinationOfSymbolicLink(atPath: "\(fdDirectory)/\(fd)")) == target {
                return pid
            }
        }
        return nil
    }

    private static func gid(of pid: Int32, proc: String) -> UInt32? {
        guard let status = ProcFile.read("\(proc)/\(pid)/status") else { return nil }
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Gid:") }) else { return nil }
        return line.split(whereSeparator: { $0 == "\t" || $0 == " " }).dropFirst().first.flatMap { UInt32($0) }
    }
}

/// Reading `/proc/net/tcp` and `/proc/net/tcp6`: one socket a line, addresses in hex as
/// the kernel stores them (IPv4 as one little-endian word, IPv6 as four).
enum ProcNetTCP {
    struct Entry: Equatable {
        var uid: UInt32
        var inode: UInt64
    }

    static func find(peer: (ip: String, port: Int), local: (ip: String, port: Int), proc: String) -> Entry? {
        for file in ["tcp", "tcp6"] {
            guard let text = ProcFile.read("\(proc)/net/\(file)") else { continue }
            if let entry = find(in: text, peer: peer, local: local) { return entry }
        }
        return nil
    }

    /// The entry whose local address is `peer` and remote address `local`.
    static func find(in table: String, peer: (ip: String, port: Int), local: (ip: String, port: Int)) -> Entry? {
        for line in table.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            // sl local rem st tx:rx tr:when retrnsmt uid timeout inode ...
            guard fields.count >= 10 else { continue }
            guard matches(fields[1], peer), matches(fields[2], local) else { continue }
            guard let uid = UInt32(fields[7]), let inode = UInt64(fields[9]) else { continue }
            return Entry(uid: uid, inode: inode)
        }
        return nil
    }

    /// Whether a `HEXADDR:HEXPORT` field names `address`.
    static func matches(_ field: Substring, _ address: (ip: String, port: Int)) -> Bool {
        let parts = field.split(separator: ":")
        guard parts.count == 2, let port = Int(parts[1], radix: 16), port == address.port else { return false }
        guard let bytes = addressBytes(parts[0]) else { return false }
        return bytes == ipBytes(address.ip) || (bytes.count == 16 && mappedIPv4(bytes) == ipBytes(address.ip))
    }

    /// The kernel's hex address back into network-order bytes: each 32-bit word is
    /// printed in host (little-endian) order.
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

    /// The bytes of an IPv4 or IPv6 address in text form.
    static func ipBytes(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }

    /// The IPv4 address inside an IPv4-mapped IPv6 one (::ffff:a.b.c.d).
    static func mappedIPv4(_ bytes: [UInt8]) -> [UInt8]? {
        guard bytes.count == 16, bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF else { return nil }
        return Array(bytes[12...])
    }
}

/// Reads a /proc file to its end. Its size says 0 and the kernel hands it out a page per
/// read(2): Foundation's `String(contentsOfFile:)` stops after the first page, which on a
/// busy machine loses most of `/proc/net/tcp`.
enum ProcFile {
    /// More than any /proc/net/tcp of a machine this daemon serves; a bound all the same.
    static let limit = 64 << 20

    static func read(_ path: String) -> String? {
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
