import CThreadCredentials
import Foundation
import Synchronization

/// Opens the files a control client names (`replay.start`, `record.start`) with the
/// client's rights, not the daemon's (docs/security.md, "Paths a client names").
///
/// A client of the daemon's own uid, or root, has the daemon's rights. For another uid (a
/// member of `--control-group`) a daemon running as root does the work on a thread of its
/// own that first takes the client's filesystem ids — uid, primary gid and the
/// supplementary groups of its process — with raw system calls that change that thread
/// alone, and ends with it: the kernel then judges every open, path and symlink as it would
/// the client's, and a file it creates belongs to the client. A daemon that is not root
/// cannot take another uid's ids: for such a client it reads only a file every user may
/// read, at a place no one but root and the daemon can change, and writes nothing.
public struct PeerFileAccess: Sendable, Equatable {
    enum Rights: Sendable, Equatable {
        /// The daemon's own: the client is the daemon's uid, or root.
        case daemons
        /// The client's, taken by a thread of the daemon (root) for the work.
        case clients(uid: UInt32, gid: UInt32, pid: Int32)
        /// Every user's: the daemon cannot take the client's rights.
        case everyones(clientUID: UInt32, daemonUID: UInt32)
    }

    let rights: Rights

    /// The daemon's own rights (its `--replay`, and peers without credentials: in-process tests).
    public static let daemons = PeerFileAccess(rights: .daemons)

    init(rights: Rights) { self.rights = rights }

    init(peer: PeerCredentials?, daemonUID: UInt32 = geteuid()) {
        guard let peer, peer.uid != 0, peer.uid != daemonUID else {
            self.init(rights: .daemons)
            return
        }
        self.init(rights: daemonUID == 0 ? .clients(uid: peer.uid, gid: peer.gid, pid: peer.pid) : .everyones(clientUID: peer.uid, daemonUID: daemonUID))
    }

    /// `body`'s result, run with the client's rights on the path it is handed: `path`, or
    /// for `everyones` the real path of a file every user may read (`readableByEveryone`).
    /// Blocks until it is done, so call it off the event loop (the hub's file thread). The
    /// reason, when those rights cannot be had: `writing` is never allowed with `everyones`.
    func perform<T: Sendable>(
        on path: String, writing: Bool, _ body: @escaping @Sendable (String) -> T
    ) -> Result<T, PeerFileRefusal> {
        switch rights {
        case .daemons:
            return .success(body(path))
        case .everyones(let client, let daemon):
            let why = "the daemon runs as uid \(daemon) and cannot open files with uid \(client)'s rights (a daemon running as root can)"
            guard !writing else { return .failure(PeerFileRefusal(why)) }
            guard let real = Self.readableByEveryone(path) else {
                return .failure(PeerFileRefusal("permission denied (\(why), and reads for it only files every user may read)"))
            }
            return .success(body(real))
        case .clients(let uid, let gid, let pid):
            let groups = ProcessGroups.supplementary(pid: pid, uid: uid) ?? []
            return Self.onThreadOfItsOwn(uid: uid, gid: gid, groups: groups) { body(path) }
        }
    }

    /// The real path of the regular file at `path` when every user may read it there: the
    /// file is readable by others, and every directory above it may be searched by others
    /// and written by its owner alone, root or the daemon — so no one else can put another
    /// file at that path between this check and the open. nil otherwise.
    static func readableByEveryone(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        let real = String(cString: resolved)
        free(resolved)
        var info = stat()
        guard stat(real, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_mode & S_IROTH != 0 else { return nil }
        var directory = real
        repeat {
            directory = URL(fileURLWithPath: directory).deletingLastPathComponent().path
            guard stat(directory, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_mode & S_IXOTH != 0,
                info.st_mode & (S_IWGRP | S_IWOTH) == 0, info.st_uid == 0 || info.st_uid == geteuid()
            else { return nil }
        } while directory != "/"
        return real
    }

    /// Runs `body` on a new thread that holds the given filesystem ids, and waits for it.
    private static func onThreadOfItsOwn<T: Sendable>(
        uid: UInt32, gid: UInt32, groups: [UInt32], _ body: @escaping @Sendable () -> T
    ) -> Result<T, PeerFileRefusal> {
        let outcome = ThreadOutcome<T>()
        let thread = Thread {
            // Its credentials end with it: the thread does nothing after `body`.
            if let reason = takeFilesystemIDs(uid: uid, gid: gid, groups: groups) {
                outcome.finish(.failure(PeerFileRefusal("cannot take uid \(uid)'s rights: \(reason)")))
            } else {
                outcome.finish(.success(body()))
            }
        }
        thread.name = "sextantd-peer-files"
        thread.start()
        return outcome.wait()
    }

    /// Gives the calling thread the filesystem ids of a client: groups first (which needs
    /// CAP_SETGID), then gid, then uid (which drops the thread's file capabilities). nil
    /// when all three hold, else why not.
    private static func takeFilesystemIDs(uid: UInt32, gid: UInt32, groups: [UInt32]) -> String? {
        let set = groups.withUnsafeBufferPointer { sextant_thread_setgroups($0.count, $0.baseAddress) }
        if set != 0 { return "setgroups: " + String(cString: strerror(errno)) }
        // setfsuid/setfsgid answer the previous id; asked an impossible one, they change nothing.
        _ = sextant_thread_setfsgid(gid)
        guard sextant_thread_setfsgid(UInt32.max) == Int(gid) else { return "setfsgid(\(gid)) did not take" }
        _ = sextant_thread_setfsuid(uid)
        guard sextant_thread_setfsuid(UInt32.max) == Int(uid) else { return "setfsuid(\(uid)) did not take" }
        return nil
    }
}

/// Why a client's path was not opened at all.
struct PeerFileRefusal: Error, Sendable, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The result a thread hands to the one waiting for it.
private final class ThreadOutcome<T: Sendable>: Sendable {
    private let value = Mutex<Result<T, PeerFileRefusal>?>(nil)
    private let done = DispatchSemaphore(value: 0)

    func finish(_ result: Result<T, PeerFileRefusal>) {
        value.withLock { $0 = result }
        done.signal()
    }

    func wait() -> Result<T, PeerFileRefusal> {
        done.wait()
        return value.withLock { $0! }
    }
}
