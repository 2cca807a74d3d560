import Foundation
import NIOCore
import NIOPosix

/// Why a socket could not be served.
public struct ListenError: Error, CustomStringConvertible {
    public var description: String
}

/// Binds one of the daemon's Unix sockets.
enum SocketListener {
    /// The largest line a client may send (PROTOCOL: 64 KiB).
    static let maxLineLength = 65_536

    static func bind(path: String, kind: SocketKind, mode: mode_t, hub: Hub) async throws -> Channel {
        try prepare(path: path)
        let channel = try await ServerBootstrap(group: hub.eventLoop)
            .serverChannelOption(.backlog, value: 128)
            .childChannelOption(.autoRead, value: false)  // until the peer's credentials are checked
            .childChannelOption(.writeBufferWaterMark, value: .init(low: 16 * 1024, high: 64 * 1024))
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let sync = channel.pipeline.syncOperations
                    try sync.addHandler(ByteToMessageHandler(LineFrameDecoder(maxLength: maxLineLength)))
                    try sync.addHandler(ConnectionHandler(hub: hub, kind: kind))
                }
            }
            .bind(unixDomainSocketPath: path, cleanupExistingSocketFile: false)
            .get()
        guard chmod(path, mode) == 0 else {
            try? await channel.close()
            throw ListenError(description: "cannot set the mode of \(path): \(String(cString: strerror(errno)))")
        }
        return channel
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
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        return result == 0
    }
}
