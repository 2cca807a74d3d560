import Foundation
import Logging
import ServiceLifecycle
import Synchronization

/// `--exit-with-fd N` (for tools such as `sextantctl run`): the daemon stops, as on SIGTERM,
/// when descriptor N reaches end of file. N is the read end of a pipe whose write end only
/// the process that started the daemon holds, so the kernel closes it however that process
/// ends, SIGKILL included. A pipe rather than PR_SET_PDEATHSIG: the death signal follows the
/// thread that forked, not the process, and is lost if the parent dies before the child
/// sets it; the end of a pipe is a state, seen however late the daemon looks.
public final class SupervisorWatch: Service, Sendable {
    public let descriptor: Int32
    private let gone = Atomic<Bool>(false)
    private let ended: AsyncStream<Void>
    private let logger: Logger

    /// Checks `descriptor` and starts watching it at once, so that an end of file during the
    /// start is not missed.
    public init(descriptor: Int32, logger: Logger) throws(DaemonStartError) {
        var info = stat()
        guard descriptor > 2, fstat(descriptor, &info) == 0 else {
            throw DaemonStartError(description: "--exit-with-fd \(descriptor): not an open descriptor above 2")
        }
        guard info.st_mode & S_IFMT == S_IFIFO || info.st_mode & S_IFMT == S_IFSOCK else {
            throw DaemonStartError(description: "--exit-with-fd \(descriptor): not a pipe or a socket")
        }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        self.descriptor = descriptor
        self.logger = logger
        let (stream, continuation) = AsyncStream<Void>.makeStream()
        ended = stream
        // A thread of its own: it sleeps in read(2) for the daemon's whole life.
        Thread.detachNewThread { [self] in
            // Blocking: made non-blocking, it would read nothing until poll(2) said so.
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
            var bytes = [UInt8](repeating: 0, count: 64)
            // Bytes written are ignored; end of file, or an error other than EINTR, ends the wait.
            while true {
                let count = read(descriptor, &bytes, bytes.count)
                if count == 0 || (count < 0 && errno != EINTR) { break }
            }
            gone.store(true, ordering: .releasing)
            continuation.finish()
        }
    }

    /// Whether the descriptor has reached end of file: whoever held the write end is gone.
    public var supervisorGone: Bool { gone.load(ordering: .acquiring) }

    /// Returns at end of file, which stops the daemon's other services; or when they stop.
    public func run() async throws {
        await cancelWhenGracefulShutdown { [ended] in
            for await _ in ended {}
        }
        if supervisorGone { logger.notice("the process that started sextantd is gone (--exit-with-fd \(descriptor)): stopping") }
    }

    /// `--exit-removes DIR`'s check at start: a directory of the daemon's own uid, not a
    /// link, so that what is removed at the end is what the starter made.
    public static func checkRemovable(_ path: String) throws(DaemonStartError) {
        var info = stat()
        guard path.hasPrefix("/"), lstat(path, &info) == 0 else { throw DaemonStartError(description: "--exit-removes \(path): no such directory (give an absolute path)") }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw DaemonStartError(description: "--exit-removes \(path): not a directory") }
        guard info.st_uid == getuid() else { throw DaemonStartError(description: "--exit-removes \(path): belongs to uid \(info.st_uid), not this daemon's") }
    }

    /// Removes `path` with everything in it, once the daemon has stopped because its
    /// supervisor is gone (and only then: while the supervisor lives, it removes the
    /// directory itself, after reading the daemon's log if it must).
    public func removeIfGone(_ path: String) {
        guard supervisorGone, (try? Self.checkRemovable(path)) != nil else { return }
        do {
            try FileManager.default.removeItem(atPath: path)
        } catch {
            logger.error("--exit-removes \(path): \(error)")
        }
    }
}
