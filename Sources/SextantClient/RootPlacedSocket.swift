#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether root put the socket at a path there, so that whoever serves it was chosen by root.
///
/// A client trusts a daemon of its own uid or root (docs/security.md). A system daemon
/// that systemd started under a user of its own (`DynamicUser=`), on sockets systemd
/// created, is neither: once it calls `listen` on the socket passed, `SO_PEERCRED` names it.
/// Root vouches for it all the same when the socket file belongs to root and no one but
/// root can change any directory on the way to it: no other user can then have bound,
/// renamed or swapped anything there. A socket another user planted fails the check (its
/// file is theirs, or a directory on its way is theirs or writable by them).
enum RootPlacedSocket {
    static func check(_ path: String) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK, info.st_uid == 0 else { return false }
        guard let directory = realDirectory(of: path) else { return false }
        // Every directory from the socket's up to /: root's, and writable by root alone.
        var current = directory
        while true {
            guard stat(current, &info) == 0, info.st_uid == 0, info.st_mode & (S_IWGRP | S_IWOTH) == 0 else { return false }
            if current == "/" { return true }
            let parent = current.split(separator: "/").dropLast().joined(separator: "/")
            current = "/" + parent
        }
    }

    /// The socket's directory with every symlink resolved.
    private static func realDirectory(of path: String) -> String? {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        guard let resolved = realpath(directory, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
