import Foundation

/// Writes an export (`trace convert`, `trace route`, `trace plot`) to its path by what is
/// there (`OutputTarget`): a regular file, new or existing, is put in place whole or not at
/// all; a character device, a FIFO or this process's standard output or error is written
/// to as it is; anything else is refused, untouched.
///
/// A regular file is written through a bounded buffer (`ExportOutput`) to a new temporary
/// file in the target's directory (so that the rename stays on one file system), flushed to
/// disk, given the mode (and, for root, the owner) of the file it replaces, then renamed
/// over it; reached through a symbolic link, the file the link names is replaced and the
/// link stays. A failure at any step, the writer's own included (a bad line in the trace it
/// reads), removes the temporary file and leaves the target as it was.
public enum AtomicFile {
    public static func write(_ text: String, to path: String) throws(TraceExportError) {
        try write(to: path) { output throws(TraceExportError) in try output.write(text) }
    }

    /// Runs `body` on an output to `path` (for a regular file, a temporary file beside it,
    /// put in place when `body` returns); if `body` throws, its error is thrown as it is and
    /// no regular file is put in place.
    public static func write(
        to path: String, bufferSize: Int = ExportOutput.defaultCapacity, _ body: (ExportOutput) throws(TraceExportError) -> Void
    ) throws(TraceExportError) {
        switch try OutputTarget.of(path) {
        case .regularFile(let target, let replaced):
            try replace(target, shownAs: path, keeping: replaced, bufferSize: bufferSize, body)
        case .stream:
            let fd = try OutputTarget.openStream(path)
            defer { close(fd) }
            try writeThrough(fd, path: path, bufferSize: bufferSize, body)
        case .standardStream(let fd):
            try writeThrough(fd, path: path, bufferSize: bufferSize, body)
        }
    }

    /// Writes to an open device, FIFO or standard stream as the text is made.
    private static func writeThrough(
        _ fd: Int32, path: String, bufferSize: Int, _ body: (ExportOutput) throws(TraceExportError) -> Void
    ) throws(TraceExportError) {
        let output = ExportOutput(fd: fd, path: path, capacity: bufferSize)
        try body(output)
        try output.flush()
    }

    /// Writes a temporary file beside `target` and renames it over `target`; `path` names it
    /// in errors; `replaced` is what is there now, whose mode and owner the new file keeps.
    private static func replace(
        _ target: String, shownAs path: String, keeping replaced: stat?, bufferSize: Int, _ body: (ExportOutput) throws(TraceExportError) -> Void
    ) throws(TraceExportError) {
        let url = URL(fileURLWithPath: target)
        let directory = url.deletingLastPathComponent().path
        var template = Array((directory + "/." + url.lastPathComponent + ".XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw TraceExportError("\(path): cannot create a file in \(directory): \(errorText())") }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var failure = keep(replaced, on: fd, path: path)
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
        if failure == nil, rename(temporary, target) != 0 { failure = TraceExportError("\(path): rename: \(errorText())") }
        if let failure {
            unlink(temporary)
            throw failure
        }
    }

    /// Gives the new file `fd` the owner (when root writes) and mode of the file it
    /// replaces, or a new file's mode (0666 less the umask: mkstemp makes it 0600).
    private static func keep(_ replaced: stat?, on fd: Int32, path: String) -> TraceExportError? {
        guard let replaced else {
            return fchmod(fd, 0o666 & ~currentUmask()) == 0 ? nil : TraceExportError("\(path): chmod: \(errorText())")
        }
        // The owner first: a change of owner clears set-id bits, which the mode then restores.
        if geteuid() == 0, fchown(fd, replaced.st_uid, replaced.st_gid) != 0 { return TraceExportError("\(path): chown: \(errorText())") }
        return fchmod(fd, replaced.st_mode & 0o7777) == 0 ? nil : TraceExportError("\(path): chmod: \(errorText())")
    }

    static func errorText() -> String { String(cString: strerror(errno)) }

    /// The process's umask, read without changing it (`/proc/self/status`, Linux 4.7 and
    /// later): setting it to read it back would give a file another thread creates meanwhile
    /// the wrong mode. Without /proc, the usual 022.
    static func currentUmask() -> mode_t {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Umask:") }),
            let mask = mode_t(line.dropFirst("Umask:".count).trimmingCharacters(in: .whitespaces), radix: 8)
        else { return 0o022 }
        return mask
    }
}
