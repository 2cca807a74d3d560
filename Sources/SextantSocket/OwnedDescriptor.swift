#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file descriptor with one owner, closed exactly once: by `close()` or when the owner
/// goes, never both. A descriptor number closed twice may by then belong to another
/// thread's fresh file, which the second close would take away from it.
public final class OwnedDescriptor {
    /// The descriptor, or -1 once closed.
    public private(set) var raw: Int32

    /// Takes ownership of an open descriptor.
    public init(adopting raw: Int32) {
        precondition(raw >= 0, "adopting an invalid descriptor")
        self.raw = raw
    }

    /// A new Unix stream socket, close-on-exec.
    public static func unixStreamSocket() throws(SocketError) -> OwnedDescriptor {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SocketError("socket", errno: errno) }
        return OwnedDescriptor(adopting: fd)
    }

    public var isOpen: Bool { raw >= 0 }

    public func close() {
        guard raw >= 0 else { return }
        let fd = raw
        raw = -1
        _ = systemClose(fd)
    }

    deinit { close() }

    /// Hands the descriptor to a new owner (NIO, for a listener): this object no longer closes it.
    public func release() -> Int32 {
        let fd = raw
        raw = -1
        return fd
    }

    /// Connects to a Unix socket, retrying when a signal interrupts the call.
    public func connect(to address: UnixSocketAddress) throws(SocketError) {
        let result = address.withSockaddr { pointer, length in
            var result: Int32
            repeat { result = systemConnect(raw, pointer, length) } while result < 0 && errno == EINTR
            return result
        }
        guard result == 0 else { throw SocketError("connect", errno: errno) }
    }

    /// Who holds the other end of a connected Unix socket, as the kernel says (SO_PEERCRED).
    public func peerCredentials() throws(SocketError) -> UnixPeerCredentials {
        var credentials = UnixPeerCredentials(pid: 0, uid: 0, gid: 0)
        var length = socklen_t(MemoryLayout<UnixPeerCredentials>.size)
        guard getsockopt(raw, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else {
            throw SocketError("getsockopt(SO_PEERCRED)", errno: errno)
        }
        return credentials
    }
}

/// `struct ucred` from <sys/socket.h> (Glibc hides it behind _GNU_SOURCE): pid_t, uid_t, gid_t.
public struct UnixPeerCredentials: Sendable, Equatable {
    public var pid: Int32
    public var uid: UInt32
    public var gid: UInt32

    public init(pid: Int32, uid: UInt32, gid: UInt32) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
    }
}

/// A failed system call on a socket: which call, and the system's reason.
public struct SocketError: Error, CustomStringConvertible, Sendable {
    public var call: String
    public var code: Int32
    public init(_ call: String, errno code: Int32) {
        self.call = call
        self.code = code
    }
    public var reason: String { String(cString: strerror(code)) }
    public var description: String { "\(call): \(reason)" }
}

private func systemClose(_ fd: Int32) -> Int32 { close(fd) }
private func systemConnect(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 { connect(fd, address, length) }
