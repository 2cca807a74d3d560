#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a path cannot name a Unix socket.
public struct UnixSocketPathError: Error, Equatable, CustomStringConvertible, Sendable {
    public var path: String
    public init(path: String) { self.path = path }
    public var description: String {
        "the socket path \(path) is \(path.utf8.count) bytes long; a Unix socket path holds at most \(UnixSocketAddress.maxPathLength): choose a shorter directory"
    }
}

/// A filled-in `sockaddr_un` for a socket path: the one place that checks the length and
/// copies the bytes, for the daemon's listeners, the client and the tests.
public struct UnixSocketAddress {
    /// `sun_path` holds 108 bytes on Linux, one of them the terminating NUL.
    public static let maxPathLength = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    public let path: String
    private var storage = sockaddr_un()

    /// A path-based address; a leading `@` names Linux's abstract namespace (as
    /// `$NOTIFY_SOCKET` may).
    public init(path: String) throws(UnixSocketPathError) {
        var bytes = Array(path.utf8)
        guard !bytes.isEmpty, bytes.count <= Self.maxPathLength, !bytes.contains(0) else { throw UnixSocketPathError(path: path) }
        if bytes[0] == UInt8(ascii: "@") { bytes[0] = 0 }
        self.path = path
        storage.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &storage.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (bytes[0] == 0 ? 0 : 1))
    }

    /// The bytes that count: the family, the path and (for a file path) its NUL.
    public let length: socklen_t

    /// Calls `body` with the address as a `sockaddr` and its length.
    public func withSockaddr<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) throws -> T) rethrows -> T {
        try withUnsafePointer(to: storage) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { try body($0, length) }
        }
    }
}
