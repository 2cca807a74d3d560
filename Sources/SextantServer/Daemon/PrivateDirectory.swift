import Foundation

/// The daemon's runtime and state directories must be its own: a directory another user
/// owns or may write to lets that user swap a socket or the store for something of theirs
/// (a symlink to a file of ours, a fake control socket), so such a directory is refused,
/// never used as found.
enum PrivateDirectory {
    /// Creates `path` (mode 0700, with its parents) when missing, then checks that it is a
    /// directory owned by this process's uid that neither its group nor others may write.
    /// `option` names the flag that chooses the directory, for the message.
    static func prepare(_ path: String, option: String) throws(DaemonStartError) {
        var info = stat()
        if stat(path, &info) != 0 {
            guard errno == ENOENT else { throw DaemonStartError(description: "\(option) \(path): \(String(cString: strerror(errno)))") }
            do {
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw DaemonStartError(description: "cannot create \(option) \(path): \(error.localizedDescription)")
            }
            guard stat(path, &info) == 0 else { throw DaemonStartError(description: "\(option) \(path): \(String(cString: strerror(errno)))") }
        }
        try check(path, info, option: option)
        try checkParent(of: path, option: option)
    }

    /// In a parent every user may write without the sticky bit (unlike /tmp), anyone could
    /// rename the checked directory away and put one of theirs in its place after the check.
    static func checkParent(of path: String, option: String) throws(DaemonStartError) {
        let parent = (path as NSString).deletingLastPathComponent
        var info = stat()
        guard !parent.isEmpty, stat(parent, &info) == 0 else { return }
        guard info.st_mode & S_IWOTH == 0 || info.st_mode & S_ISVTX != 0 else {
            throw DaemonStartError(
                description: "\(option) \(path) is in \(parent), which everyone may write without the sticky bit (mode "
                    + String(info.st_mode & 0o7777, radix: 8) + "): another user could replace the directory; use another place")
        }
    }

    static func check(_ path: String, _ info: stat, option: String) throws(DaemonStartError) {
        guard info.st_mode & S_IFMT == S_IFDIR else { throw DaemonStartError(description: "\(option) \(path) is not a directory") }
        let uid = geteuid()
        guard info.st_uid == uid else {
            throw DaemonStartError(
                description: "\(option) \(path) belongs to uid \(info.st_uid), not to this daemon's uid \(uid): "
                    + "its owner could replace what the daemon puts there; use a directory of your own")
        }
        let othersMayWrite = info.st_mode & (S_IWGRP | S_IWOTH)
        guard othersMayWrite == 0 else {
            throw DaemonStartError(
                description: "\(option) \(path) is writable by \(info.st_mode & S_IWOTH != 0 ? "everyone" : "its group") (mode "
                    + String(info.st_mode & 0o7777, radix: 8) + "): another user could replace what the daemon puts there; "
                    + "run chmod go-w on it or use another directory")
        }
    }
}
