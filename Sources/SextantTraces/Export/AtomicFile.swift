import Foundation

/// Puts a file in place whole or not at all: what is written goes through a bounded buffer
/// (`ExportOutput`) to a new temporary file in the target's directory (so that the rename
/// stays on one file system), which is flushed to disk, then renamed over the target. A
/// failure at any step, the writer's own included (a bad line in the trace it reads),
/// removes the temporary file and leaves the target as it was.
public enum AtomicFile {
    public static func write(_ text: String, to path: String) throws(TraceExportError) {
        try write(to: path) { output throws(TraceExportError) in try output.write(text) }
    }

    /// Runs `body` on an output to a temporary file beside `path`, then puts the file at
    /// `path`; if `body` throws, its error is thrown as it is and nothing is put in place.
    public static func write(
        to path: String, bufferSize: Int = ExportOutput.defaultCapacity, _ body: (ExportOutput) throws(TraceExportError) -> Void
    ) throws(TraceExportError) {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        var template = Array((directory + "/." + url.lastPathComponent + ".XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw TraceExportError("\(path): cannot create a file in \(directory): \(errorText())") }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var failure: TraceExportError?
        // mkstemp makes the file 0600; a written trace is as readable as any new file.
        let mask = umask(0)
        umask(mask)
        if fchmod(fd, 0o666 & ~mask) != 0 { failure = TraceExportError("\(path): chmod: \(errorText())") }
        if failure == nil {
            let output = ExportOutput(fd: fd, path: path, capacity: bufferSize)
            do {
                try body(output)
                try output.flush()
            } catch {
                failure = error
            }
        }
        if failure == nil, fsync(fd) != 0 { failure = TraceExportError("\(path): fsync: \(errorText())") }
        if close(fd) != 0, failure == nil { failure = TraceExportError("\(path): close: \(errorText())") }
        if failure == nil, rename(temporary, path) != 0 { failure = TraceExportError("\(path): rename: \(errorText())") }
        if let failure {
            unlink(temporary)
            throw failure
        }
    }

    private static func errorText() -> String { String(cString: strerror(errno)) }
}
