#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The physical lines of an open file, read with pread(2) through one buffer of
/// `bufferSize` bytes: however big the file, this is all the memory reading it takes.
///
/// pread, not a mapping: a file truncated while it is read ends the read early instead of
/// raising SIGBUS in the daemon, and pages read stay out of the process's resident set.
enum FileLines {
    /// The buffer, and so the longest line a trace may have: 1 MiB.
    static let bufferSize = 1 << 20

    /// Calls `body` with each line from byte `from` on (without its `\n`), its 1-based
    /// number (counting from `firstNumber`) and the file offset of its first byte, until
    /// the end of the file or until `body` answers false. Answers how many lines it read.
    @discardableResult
    static func forEach(
        fd: Int32, path: String, from: Int64 = 0, firstNumber: Int = 1,
        _ body: (UnsafeBufferPointer<UInt8>, Int, Int64) throws(TraceError) -> Bool
    ) throws(TraceError) -> Int {
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: bufferSize)
        defer { buffer.deallocate() }
        var fileOffset = from  // of buffer[0]
        var filled = 0
        var number = firstNumber
        while true {
            let got = pread(fd, buffer + filled, bufferSize - filled, off_t(fileOffset) + off_t(filled))
            if got < 0 {
                if errno == EINTR { continue }
                throw TraceError(path: path, line: number, reason: "cannot read the file: \(String(cString: strerror(errno)))")
            }
            filled += got
            let atEnd = got == 0
            var start = 0
            while start < filled {
                guard let end = JSONLLines.newline(in: buffer, from: start, to: filled) ?? (atEnd ? filled : nil) else { break }
                let keepGoing = try body(UnsafeBufferPointer(start: buffer + start, count: end - start), number, fileOffset + Int64(start))
                number += 1
                start = end + 1
                if !keepGoing { return number - firstNumber }
            }
            if atEnd { return number - firstNumber }
            // What is left is the start of a line: move it to the front for the next read.
            let left = max(0, filled - start)
            guard left < bufferSize else {
                throw TraceError(path: path, line: number, reason: "a line is longer than \(bufferSize / 1024 / 1024) MiB")
            }
            if left > 0, start > 0 { memmove(buffer, buffer + start, left) }
            fileOffset += Int64(min(start, filled))
            filled = left
        }
    }
}
