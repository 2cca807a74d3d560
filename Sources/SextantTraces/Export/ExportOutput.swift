#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Text on its way to a file through a buffer of bounded size: writers append to it, and
/// it goes to the file whenever `capacity` bytes are waiting, so that the memory an export
/// takes does not grow with the trace. `AtomicFile` makes the file one; `ExportOutput()`
/// keeps everything in memory instead (`TraceExporter.render`).
public final class ExportOutput {
    /// 256 KiB: large enough that a write(2) costs nothing next to rendering the text.
    public static let defaultCapacity = 256 * 1024

    private let fd: Int32?
    private let path: String
    private let capacity: Int
    private var buffer: [UInt8] = []

    /// An output held in memory, read back with `text`.
    public init() {
        fd = nil
        path = ""
        capacity = Int.max
    }

    /// An output to the open file `fd` (the caller closes it); `path` names the target in
    /// errors.
    init(fd: Int32, path: String, capacity: Int) {
        self.fd = fd
        self.path = path
        self.capacity = max(1, capacity)
        buffer.reserveCapacity(min(self.capacity, Self.defaultCapacity))
    }

    /// Everything written, when the output is held in memory.
    public var text: String { String(decoding: buffer, as: UTF8.self) }

    public func write(_ text: String) throws(TraceExportError) {
        var text = text
        let count = text.utf8.count
        if count >= capacity, let fd {
            // A piece larger than the buffer goes straight to the file, not through it.
            try flush()
            if let failure = text.withUTF8({ Self.writeAll($0, to: fd) }) { throw TraceExportError("\(path): \(failure)") }
            return
        }
        text.withUTF8 { buffer.append(contentsOf: $0) }
        if buffer.count >= capacity { try flush() }
    }

    /// Hands what is waiting to the file (a no-op in memory).
    func flush() throws(TraceExportError) {
        guard let fd, !buffer.isEmpty else { return }
        let failure = buffer.withUnsafeBufferPointer { Self.writeAll($0, to: fd) }
        if let failure { throw TraceExportError("\(path): \(failure)") }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes every byte, through short writes and interruptions; the reason if it cannot.
    private static func writeAll(_ bytes: UnsafeBufferPointer<UInt8>, to fd: Int32) -> String? {
        var written = 0
        while written < bytes.count {
            let n = Glibc.write(fd, bytes.baseAddress! + written, bytes.count - written)
            if n < 0 {
                if errno == EINTR { continue }
                return "write: " + String(cString: strerror(errno))
            }
            written += n
        }
        return nil
    }
}
