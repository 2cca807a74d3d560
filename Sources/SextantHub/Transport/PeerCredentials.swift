#if canImport(Glibc)
import Glibc
#endif
import NIOCore

/// Who is at the other end of a Unix socket, as the kernel says (SO_PEERCRED).
package struct PeerCredentials: Sendable, Equatable {
    package internal(set) var pid: Int32
    package internal(set) var uid: UInt32
    package internal(set) var gid: UInt32

    package init(pid: Int32, uid: UInt32, gid: UInt32) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
    }

    package static func of(_ channel: Channel) -> EventLoopFuture<PeerCredentials> {
        guard let provider = channel as? SocketOptionProvider else {
            return channel.eventLoop.makeFailedFuture(ChannelError.operationUnsupported)
        }
        let future: EventLoopFuture<KernelUcred> = provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERCRED))
        return future.map { PeerCredentials(pid: $0.pid, uid: $0.uid, gid: $0.gid) }
    }
}

/// `struct ucred` from <sys/socket.h> (Glibc hides it behind _GNU_SOURCE): pid_t, uid_t, gid_t.
private struct KernelUcred: Sendable {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0
}
