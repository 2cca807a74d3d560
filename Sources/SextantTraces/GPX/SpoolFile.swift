import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Records of `words` 64-bit words in a temporary file that has no name (unlinked as soon
/// as it is made, so nothing is left behind whatever happens), written in order and read
/// back by index: what a GPX or GnssLogger trace keeps on disk instead of in memory
/// (`SpooledSampleTrace`).
final class SpoolFile {
    static let words = 10
    static let recordBytes = words * 8
    /// Records written or read at a time.
    static let chunk = 4_096

    private let fd: Int32
    private let path: String
    private(set) var count = 0
    private var pending: [UInt64] = []
    private var written = 0

    /// `path`: the trace, for errors.
    init(for path: String) throws(TraceError) {
        self.path = path
        let directory = NSTemporaryDirectory()
        var template = Array((directory + (directory.hasSuffix("/") ? "" : "/") + "sextant-trace-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw TraceError(path: path, line: 1, reason: "cannot make a temporary file in \(directory): \(String(cString: strerror(errno)))")
        }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        self.fd = fd
        pending.reserveCapacity(Self.chunk * Self.words)
    }

    deinit { close(fd) }

    func append(_ record: [UInt64]) throws(TraceError) {
        pending.append(contentsOf: record)
        count += 1
        if pending.count >= Self.chunk * Self.words { try flush() }
    }

    /// Keeps the first `newCount` records only.
    func truncate(to newCount: Int) throws(TraceError) {
        guard newCount < count else { return }
        if newCount >= written {
            pending.removeLast((count - newCount) * Self.words)
        } else {
            pending.removeAll(keepingCapacity: true)
            guard ftruncate(fd, off_t(newCount * Self.recordBytes)) == 0 else { throw failure("cannot shorten") }
            written = newCount
        }
        count = newCount
    }

    func flush() throws(TraceError) {
        guard !pending.isEmpty else { return }
        let offset = written * Self.recordBytes
        let ok = pending.withUnsafeBytes { bytes in
            var done = 0
            while done < bytes.count {
                let got = pwrite(fd, bytes.baseAddress! + done, bytes.count - done, off_t(offset + done))
                if got < 0, errno == EINTR { continue }
                guard got > 0 else { return false }
                done += got
            }
            return true
        }
        guard ok else { throw failure("cannot write") }
        written += pending.count / Self.words
        pending.removeAll(keepingCapacity: true)
    }

    /// Records `first..<first + count` (within what was flushed).
    func read(from first: Int, count wanted: Int) throws(TraceError) -> [UInt64] {
        try Self.read(fd: fd, path: path, from: first, count: min(wanted, written - first))
    }

    /// What was written, flushed, as records that are only read from now on.
    func sealed() throws(TraceError) -> SpooledRecords {
        try flush()
        let copy = dup(fd)
        guard copy >= 0 else { throw Self.failure("cannot keep", path: path) }
        _ = fcntl(copy, F_SETFD, FD_CLOEXEC)
        return SpooledRecords(fd: copy, count: written, path: path)
    }

    /// `count` records from record `first` of the file `fd`.
    fileprivate static func read(fd: Int32, path: String, from first: Int, count: Int) throws(TraceError) -> [UInt64] {
        var words = [UInt64](repeating: 0, count: max(0, count) * Self.words)
        let ok = words.withUnsafeMutableBytes { bytes in
            var done = 0
            while done < bytes.count {
                let got = pread(fd, bytes.baseAddress! + done, bytes.count - done, off_t(first * Self.recordBytes + done))
                if got < 0, errno == EINTR { continue }
                guard got > 0 else { return false }
                done += got
            }
            return true
        }
        guard ok else { throw failure("cannot read", path: path) }
        return words
    }

    /// Every record in order, a chunk at a time.
    func forEach(_ body: (ArraySlice<UInt64>) throws(TraceError) -> Void) throws(TraceError) {
        try flush()
        var first = 0
        while first < written {
            let words = try read(from: first, count: Self.chunk)
            var k = 0
            while k < words.count {
                try body(words[k..<(k + Self.words)])
                k += Self.words
            }
            first += words.count / Self.words
        }
    }

    private func failure(_ what: String) -> TraceError { Self.failure(what, path: path) }

    fileprivate static func failure(_ what: String, path: String) -> TraceError {
        TraceError(path: path, line: 1, reason: "\(what) the temporary file a trace is kept in: \(String(cString: strerror(errno)))")
    }
}

/// The records of a sealed ``SpoolFile``, read by index from any thread (`pread` moves
/// no shared offset): what a GPX trace plays from.
final class SpooledRecords: Sendable {
    let count: Int
    private let fd: Int32
    private let path: String

    fileprivate init(fd: Int32, count: Int, path: String) {
        self.fd = fd
        self.count = count
        self.path = path
    }

    deinit { close(fd) }

    /// Records `first..<first + count`, fewer past the end.
    func read(from first: Int, count wanted: Int) throws(TraceError) -> [UInt64] {
        try SpoolFile.read(fd: fd, path: path, from: first, count: min(wanted, count - first))
    }
}
