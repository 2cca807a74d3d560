#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Lines out of the chunks a socket delivers, each at most `limit` bytes (without its
/// newline). What it holds between chunks is at most `limit` bytes as well: a peer that
/// sends an endless line costs that much, then an error, never more memory.
struct LineFramer {
    let limit: Int
    private var pending: [UInt8] = []

    init(limit: Int) { self.limit = limit }

    /// The lines `chunk` completes, in order, and whether a line then went over the limit
    /// (nothing after it is read: the connection is to be closed).
    mutating func lines(in chunk: UnsafeRawBufferPointer) -> (lines: [[UInt8]], overLimit: Bool) {
        guard let base = chunk.baseAddress else { return ([], false) }
        var lines: [[UInt8]] = []
        var start = 0
        // memchr: the newline is looked for by the C library, whatever the build's optimisation.
        while let found = memchr(base + start, Int32(UInt8(ascii: "\n")), chunk.count - start) {
            let newline = base.distance(to: UnsafeRawPointer(found))
            guard pending.count + (newline - start) <= limit else { return (lines, true) }
            let piece = UnsafeRawBufferPointer(start: base + start, count: newline - start)
            if pending.isEmpty {
                lines.append(Array(piece))
            } else {
                pending.append(contentsOf: piece)
                lines.append(pending)
                pending = []
            }
            start = newline + 1
        }
        guard pending.count + (chunk.count - start) <= limit else { return (lines, true) }
        pending.append(contentsOf: UnsafeRawBufferPointer(start: base + start, count: chunk.count - start))
        return (lines, false)
    }
}
