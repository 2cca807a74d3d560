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
        var lines: [[UInt8]] = []
        var start = chunk.startIndex
        while let newline = chunk[start...].firstIndex(of: UInt8(ascii: "\n")) {
            guard pending.count + (newline - start) <= limit else { return (lines, true) }
            if pending.isEmpty {
                lines.append(Array(chunk[start..<newline]))
            } else {
                pending.append(contentsOf: chunk[start..<newline])
                lines.append(pending)
                pending = []
            }
            start = newline + 1
        }
        guard pending.count + (chunk.endIndex - start) <= limit else { return (lines, true) }
        pending.append(contentsOf: chunk[start...])
        return (lines, false)
    }
}
