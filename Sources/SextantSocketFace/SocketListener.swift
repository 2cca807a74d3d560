import Foundation
import NIOCore
import NIOPosix
import SextantHub
import SextantProtocol
import SextantSocket

/// Binds one of the daemon's Unix sockets.
package enum SocketListener {
    /// The largest line a client may send (PROTOCOL: 64 KiB).
    static let maxLineLength = 65_536
    package static func bind(
        path: String, kind: SocketKind, mode: mode_t, group: gid_t? = nil, budget: ConnectionBudget, reserve: DescriptorReserve, hub: HubHandle,
        face: NIOLoopBound<SocketFace>, connectionLoops: EventLoopGroup
    ) async throws -> Channel {
        try prepare(path: path)
        let socket = try boundSocket(path: path, mode: mode, group: group)
        return try await serve(socket, kind: kind, budget: budget, reserve: reserve, hub: hub, face: face, connectionLoops: connectionLoops)
    }

    /// Serves a socket that is bound already: one of ours, or one systemd passed (socket
    /// activation), which may be listening already (a second `listen` only sets the backlog).
    /// It accepts on the hub's loop; each connection lives on the next loop of
    /// `connectionLoops` (`--io-threads`), which reads and writes its socket.
    package static func serve(
        _ socket: OwnedDescriptor, kind: SocketKind, budget: ConnectionBudget, reserve: DescriptorReserve, hub: HubHandle,
        face: NIOLoopBound<SocketFace>, connectionLoops: EventLoopGroup
    ) async throws -> Channel {
        let listener = socket.raw
        let hubLoop = hub.eventLoop
        return try await ServerBootstrap(group: hub.eventLoop, childGroup: connectionLoops)
            .serverChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        OutOfDescriptorsHandler(listener: listener, reserve: reserve, kind: kind, logger: hub.logger))
                }
            }
            // A client that shuts down its writing side still hears the answers to what it sent.
            .childChannelOption(.allowRemoteHalfClosure, value: true)
            .childChannelOption(.autoRead, value: false)  // until the peer's credentials are checked
            .childChannelOption(.writeBufferWaterMark, value: .init(low: 16 * 1024, high: 64 * 1024))
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let sync = channel.pipeline.syncOperations
                    guard budget.take() else {
                        try sync.addHandler(RefusingHandler(budget: budget, kind: kind, logger: hub.logger))
                        return
                    }
                    channel.closeFuture.whenComplete { _ in budget.give() }
                    try sync.addHandler(ByteToMessageHandler(LineFrameDecoder(maxLength: maxLineLength)))
                    try sync.addHandler(ConnectionHandler(face: face, hubLoop: hubLoop, kind: kind))
                }
            }
            .withBoundSocket(socket.release())
            .get()
    }

    /// A listening-ready socket bound at `path` with `mode`, never more open than `mode`.
    ///
    /// Linux gives the new socket file the socket inode's mode (set with `fchmod` before
    /// `bind`) less the umask: at most `mode`. The umask is left alone (it is the process's,
    /// and a file another thread created while it was changed would get the wrong mode);
    /// the bits it took are given back through the file itself, never through the path (a
    /// symlink put in the socket's place would have a `chmod` of the path change its target).
    ///
    /// With `group`, the socket file is then given that group (`--control-group`): `lchown`
    /// changes the group of whatever is at the path without following a symlink, so a
    /// symlink swapped in has only its own group changed. Until then the file is the
    /// daemon's group's, which only narrows who may connect.
    static func boundSocket(path: String, mode: mode_t, group: gid_t? = nil) throws -> OwnedDescriptor {
        let address: UnixSocketAddress
        do { address = try UnixSocketAddress(path: path) } catch { throw ListenError(description: error.description) }
        let socket: OwnedDescriptor
        do { socket = try OwnedDescriptor.unixStreamSocket() } catch {
            throw ListenError(description: "cannot create a socket for \(path): \(error.reason)")
        }
        guard fchmod(socket.raw, mode) == 0 else {
            throw ListenError(description: "cannot set the mode of the socket for \(path): \(String(cString: strerror(errno)))")
        }
        let bound = address.withSockaddr { Glibc.bind(socket.raw, $0, $1) }
        guard bound == 0 else {
            throw ListenError(description: "cannot bind \(path): \(String(cString: strerror(errno)))")
        }
        if let failure = giveMode(mode, toSocketAt: path) {
            unlink(path)
            throw ListenError(description: failure)
        }
        if let group, lchown(path, uid_t.max, group) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(path)
            throw ListenError(description: "cannot give \(path) the group \(group) (--control-group): \(reason)")
        }
        return socket
    }

    /// Linux's `O_PATH` (asm-generic/fcntl.h), which Swift's Glibc module does not export.
    private static let openPath: Int32 = 0o10000000

    /// Sets the mode of the socket file just bound at `path`, through a descriptor of the
    /// file itself (`O_PATH | O_NOFOLLOW`, changed as `/proc/self/fd/N`): a symlink swapped
    /// in is refused, not followed. Why it failed, or nil.
    private static func giveMode(_ mode: mode_t, toSocketAt path: String) -> String? {
        let file = open(path, openPath | O_NOFOLLOW | O_CLOEXEC)
        guard file >= 0 else { return "cannot open \(path) to set its mode: \(String(cString: strerror(errno)))" }
        defer { close(file) }
        var info = stat()
        guard fstat(file, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK, info.st_uid == geteuid() else {
            return "\(path) is no longer the socket just bound there"
        }
        guard info.st_mode & 0o7777 != mode else { return nil }
        guard chmod("/proc/self/fd/\(file)", mode) == 0 else {
            return "cannot set the mode of \(path) (through /proc/self/fd): \(String(cString: strerror(errno)))"
        }
        return nil
    }

    /// A stale socket file (no daemon behind it) is replaced; a live one means another
    /// daemon owns this directory, and we refuse to start.
    static func prepare(path: String) throws {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard info.st_mode & S_IFMT == S_IFSOCK else {
            throw ListenError(description: "\(path) exists and is not a socket: remove it or choose another --runtime-dir")
        }
        if isLive(path) {
            throw ListenError(description: "another sextantd is already serving \(path): stop it first, or use another --runtime-dir")
        }
        guard unlink(path) == 0 else {
            throw ListenError(description: "cannot remove the stale socket \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// Whether something accepts connections on the socket at `path`.
    static func isLive(_ path: String) -> Bool {
        guard let address = try? UnixSocketAddress(path: path), let socket = try? OwnedDescriptor.unixStreamSocket() else { return false }
        return (try? socket.connect(to: address)) != nil
    }
}
