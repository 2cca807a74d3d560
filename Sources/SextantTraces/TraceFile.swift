#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a trace file into one buffer, refusing what is not a regular file or is too big
/// before reading a byte of it.
///
/// One copy of the file is held while it is parsed (the readers parse from the buffer);
/// the file is read with read(2), not mapped, so that a file truncated while it is loaded
/// ends the read early instead of raising SIGBUS in the daemon.
public enum TraceFile {
    /// Opens a regular file to read (the caller closes it); anything else is refused by
    /// name before a byte of it is read.
    static func openRegular(path: String) throws(TraceLoadError) -> Int32 {
        // O_NONBLOCK: opening a FIFO with no writer must not wait for one.
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw .unreadable(path: path, reason: describe(errno: errno)) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            close(fd)
            throw .unreadable(path: path, reason: describe(errno: code))
        }
        if let kind = kindIfNotRegular(info.st_mode) {
            close(fd)
            throw .unreadable(path: path, reason: kind)
        }
        return fd
    }

    /// The first bytes of an open file (at most `count`), to tell its format by.
    static func head(fd: Int32, count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let got = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, count, 0) }
        return Array(bytes.prefix(max(0, got)))
    }

    /// `kind`: what the limit is for, in the error ("a trace", "a GeoJSON or KML trace …").
    static func read(path: String, limit: Int, kind: String = "a trace") throws(TraceLoadError) -> [UInt8] {
        let fd = try openRegular(path: path)
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .unreadable(path: path, reason: describe(errno: errno)) }
        let size = Int(info.st_size)
        guard size <= limit else {
            throw .unreadable(path: path, reason: "the file is \(size) bytes, over the \(limit / 1024 / 1024) MiB \(kind) may be")
        }
        // The size may change while the file is read: read what is there, up to the limit.
        var bytes = [UInt8](repeating: 0, count: size)
        var count = 0
        while true {
            if count == bytes.count {
                guard count <= limit else { throw .unreadable(path: path, reason: "the file grew over the \(limit / 1024 / 1024) MiB \(kind) may be") }
                bytes.append(contentsOf: repeatElement(0, count: max(4096, count / 4)))
            }
            let got = bytes.withUnsafeMutableBytes { buffer in Glibc.read(fd, buffer.baseAddress! + count, buffer.count - count) }
            if got < 0 {
                if errno == EINTR { continue }
                throw .unreadable(path: path, reason: describe(errno: errno))
            }
            if got == 0 { break }
            count += got
        }
        bytes.removeLast(bytes.count - count)
        return bytes
    }

    /// What a file that is not a regular one is, as an error reason.
    public static func kindIfNotRegular(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "is a directory, not a trace file"
        case S_IFIFO: return "is not a regular file (a FIFO)"
        case S_IFCHR: return "is not a regular file (a character device)"
        case S_IFBLK: return "is not a regular file (a block device)"
        case S_IFSOCK: return "is not a regular file (a socket)"
        default: return "is not a regular file"
        }
    }

    public static func describe(errno code: Int32) -> String {
        switch code {
        case ENOENT: return "no such file"
        case EACCES, EPERM: return "permission denied"
        case ENOTDIR: return "a part of the path is not a directory"
        case ELOOP: return "too many symbolic links"
        default: return String(cString: strerror(code))
        }
    }
}
