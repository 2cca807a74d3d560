import Foundation

/// What an export's path names, and so how `AtomicFile` writes it: a regular file is
/// replaced (or created), a character device or a FIFO is written to, the file this process
/// writes its standard output or error to (`/dev/stdout`, `/proc/self/fd/1`) is written to
/// through that descriptor; a directory, a socket or a block device is refused by name.
/// Symbolic links are followed: what they lead to decides.
enum OutputTarget {
    /// A regular file, at its real path (the file a symbolic link names), and what is
    /// there now (nil: nothing yet).
    case regularFile(path: String, replaced: stat?)
    /// A character device or a FIFO, opened and written to.
    case stream
    /// Standard output (1) or error (2), written to as they are.
    case standardStream(Int32)

    static func of(_ path: String) throws(TraceExportError) -> OutputTarget {
        var link = stat()
        guard lstat(path, &link) == 0 else {
            guard errno == ENOENT else { throw TraceExportError("\(path): \(AtomicFile.errorText())") }
            return .regularFile(path: path, replaced: nil)
        }
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw TraceExportError("\(path): a symbolic link to nothing that can be written (\(AtomicFile.errorText()))")
        }
        for fd in [STDOUT_FILENO, STDERR_FILENO] where isSameFile(info, as: fd) { return .standardStream(fd) }
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            guard link.st_mode & S_IFMT == S_IFLNK else { return .regularFile(path: path, replaced: info) }
            guard let real = realpath(path, nil) else { throw TraceExportError("\(path): \(AtomicFile.errorText())") }
            defer { free(real) }
            return .regularFile(path: String(cString: real), replaced: info)
        case S_IFCHR, S_IFIFO:
            return .stream
        default:
            throw TraceExportError("\(path): \(refusal(info.st_mode)): not written")
        }
    }

    /// Opens a character device or FIFO to write (a FIFO waits for its reader); refuses
    /// what became something else since it was looked at.
    static func openStream(_ path: String) throws(TraceExportError) -> Int32 {
        let fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { throw TraceExportError("\(path): \(AtomicFile.errorText())") }
        var info = stat()
        let kind = fstat(fd, &info) == 0 ? info.st_mode & S_IFMT : 0
        guard kind == S_IFCHR || kind == S_IFIFO else {
            close(fd)
            throw TraceExportError("\(path): changed while it was opened: not written")
        }
        return fd
    }

    private static func isSameFile(_ info: stat, as fd: Int32) -> Bool {
        var open = stat()
        return fstat(fd, &open) == 0 && open.st_dev == info.st_dev && open.st_ino == info.st_ino
    }

    private static func refusal(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: return "is a directory"
        case S_IFSOCK: return "is a socket"
        case S_IFBLK: return "is a block device"
        default: return "is neither a regular file, a character device nor a FIFO"
        }
    }
}
