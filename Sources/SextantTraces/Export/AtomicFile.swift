import Foundation

/// Puts a file in place whole or not at all: the text goes to a new temporary file in the
/// target's directory (so that the rename stays on one file system), is flushed to disk,
/// then renamed over the target. A failure at any step removes the temporary file and
/// leaves the target as it was.
public enum AtomicFile {
    public static func write(_ text: String, to path: String) throws(TraceExportError) {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        var template = Array((directory + "/." + url.lastPathComponent + ".XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw TraceExportError("\(path): cannot create a file in \(directory): \(errorText())") }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var failure: String?
        // mkstemp makes the file 0600; a written trace is as readable as any new file.
        let mask = umask(0)
        umask(mask)
        if fchmod(fd, 0o666 & ~mask) != 0 { failure = "chmod: \(errorText())" }
        if failure == nil { failure = writeAll(Array(text.utf8), to: fd) }
        if failure == nil, fsync(fd) != 0 { failure = "fsync: \(errorText())" }
        if close(fd) != 0, failure == nil { failure = "close: \(errorText())" }
        if failure == nil, rename(temporary, path) != 0 { failure = "rename: \(errorText())" }
        if let failure {
            unlink(temporary)
            throw TraceExportError("\(path): \(failure)")
        }
    }

    private static func writeAll(_ bytes: [UInt8], to fd: Int32) -> String? {
        var written = 0
        while written < bytes.count {
            let n = bytes[written...].withUnsafeBytes { Foundation.write(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return "write: \(errorText())"
            }
            written += n
        }
        return nil
    }

    private static func errorText() -> String { String(cString: strerror(errno)) }
}
