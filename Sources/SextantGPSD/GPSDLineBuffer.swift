/// Splits what gpsd sends into lines, holding at most ``maximumLineLength`` bytes. No I/O.
///
/// gpsd ends each JSON report with CR LF and keeps a report under 10 KiB (its
/// `GPS_JSON_RESPONSE_MAX`), so a longer line is not a report: it is told once, when it
/// passes the limit, with its first bytes, and the rest of it is dropped up to its newline.
/// A peer that sends an endless line therefore costs the limit and no more.
struct GPSDLineBuffer {
    /// The longest line kept, its CR included.
    static let maximumLineLength = 16_384
    /// How much of an over-long line is kept to say what it was.
    static let reportedPrefixLength = 120

    /// What the bytes handed in made.
    enum Piece: Equatable {
        /// One whole line, without its CR LF (invalid UTF-8 repaired, for the parser to refuse).
        case line(String)
        /// A line passed ``maximumLineLength``; it starts with `prefix`. Its remaining
        /// bytes are dropped; the line after its newline is read again.
        case overlong(prefix: String)
    }

    /// The start of the line not finished yet; never more than ``maximumLineLength`` bytes.
    private var pending: [UInt8] = []
    /// True while the rest of an over-long line is being dropped.
    private var discarding = false

    /// Bytes held for the line not finished yet.
    var bufferedByteCount: Int { pending.count }

    /// Hands each line finished by `bytes` to `take`, in order, and keeps the unfinished rest.
    mutating func append(_ bytes: UnsafeRawBufferPointer, _ take: (Piece) -> Void) {
        var start = 0
        while start < bytes.count {
            guard let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) else {
                keep(UnsafeRawBufferPointer(rebasing: bytes[start...]), take)
                return
            }
            keep(UnsafeRawBufferPointer(rebasing: bytes[start..<newline]), take)
            if discarding {
                discarding = false
            } else {
                var end = pending.endIndex
                if end > 0, pending[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                if end > 0 { take(.line(String(decoding: pending[..<end], as: UTF8.self))) }
            }
            pending.removeAll(keepingCapacity: true)
            start = newline + 1
        }
    }

    /// Adds part of a line, or tells and drops the line once it is over the limit.
    private mutating func keep(_ part: UnsafeRawBufferPointer, _ take: (Piece) -> Void) {
        guard !discarding, !part.isEmpty else { return }
        guard pending.count + part.count > Self.maximumLineLength else {
            pending.append(contentsOf: part)
            return
        }
        let room = max(0, Self.reportedPrefixLength - pending.count)
        var prefix = Array(pending.prefix(Self.reportedPrefixLength))
        prefix.append(contentsOf: part.prefix(room))
        take(.overlong(prefix: String(decoding: prefix, as: UTF8.self)))
        discarding = true
        pending.removeAll(keepingCapacity: true)
    }
}
