/// Eight bytes at a time: the scans of an NMEA line (for the next `$`, for commas, the
/// checksum's XOR) test a whole 64-bit word per step instead of a byte, as most words of
/// a sentence hold none of the bytes looked for.
enum NMEAByteScan {
    /// The 8 bytes from `at`, the first byte in the lowest bits whatever the machine.
    @inline(__always)
    static func word(_ bytes: UnsafePointer<UInt8>, at: Int) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(bytes + at).loadUnaligned(as: UInt64.self))
    }

    /// The high bit of every byte of `word` equal to `byte`, and no other bit (exact:
    /// no borrow runs from one byte into the next).
    @inline(__always)
    static func matches(_ word: UInt64, _ byte: UInt8) -> UInt64 {
        let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        let x = word ^ (0x0101_0101_0101_0101 &* UInt64(byte))
        return ~(((x & low7) &+ low7) | x) & ~low7
    }

    /// Nonzero when `word` holds an ASCII byte below `limit` (at most 0x80): the high bit
    /// of the first such byte is set, and bits after it may be too (a borrow runs on from
    /// it), never one before it. One subtraction tests for every byte a scan stops at — `*`,
    /// `$`, `!` and spaces are all below `,` — where a `matches` per byte would cost three.
    @inline(__always)
    static func hasByteBelow(_ word: UInt64, _ limit: UInt8) -> UInt64 {
        (word &- 0x0101_0101_0101_0101 &* UInt64(limit)) & ~word & 0x8080_8080_8080_8080
    }

    /// The index (0–7) of the first byte a mask from `matches` marks.
    @inline(__always)
    static func firstByte(_ mask: UInt64) -> Int { mask.trailingZeroBitCount >> 3 }

    /// The XOR of a word's eight bytes.
    @inline(__always)
    static func foldXOR(_ word: UInt64) -> UInt8 {
        var w = word ^ (word >> 32)
        w ^= w >> 16
        w ^= w >> 8
        return UInt8(truncatingIfNeeded: w)
    }

    /// The first `$` or `!` in `bytes[from..<to]` (`to` when none), and whether a `*`
    /// comes before it: where the sentence that starts before `from` ends.
    static func nextSentenceStart(_ bytes: UnsafePointer<UInt8>, from: Int, to: Int) -> (index: Int, sawStar: Bool) {
        var i = from
        var sawStar = false
        while i + 8 <= to {
            let w = word(bytes, at: i)
            let starts = matches(w, UInt8(ascii: "$")) | matches(w, UInt8(ascii: "!"))
            let stars = matches(w, UInt8(ascii: "*"))
            if starts != 0 {
                // Only the stars in the bytes before the first start count.
                let before = (starts & (~starts &+ 1)) &- 1
                return (i + firstByte(starts), sawStar || stars & before != 0)
            }
            if stars != 0 { sawStar = true }
            i += 8
        }
        while i < to {
            let b = bytes[i]
            if b == UInt8(ascii: "$") || b == UInt8(ascii: "!") { return (i, sawStar) }
            if b == UInt8(ascii: "*") { sawStar = true }
            i += 1
        }
        return (to, sawStar)
    }
}

/// The strings of the tags met so far (talkers `GP`, `GN`; types `GSV`, `TXT`), so that a
/// sentence's talker and type are not built again from its bytes each time: a log repeats
/// a handful of them.
struct NMEATagNames {
    private var known: [(key: UInt64, name: String)] = []
    /// Beyond this many, a name is built each time (a log of garbled but well-summed tags
    /// does not grow the list).
    static let capacity = 32

    mutating func name(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> String {
        guard bytes.count <= 7 else { return String(decoding: bytes, as: UTF8.self) }
        var key = UInt64(bytes.count) << 56
        var shift: UInt64 = 0
        for b in bytes {
            key |= UInt64(b) << shift
            shift += 8
        }
        for entry in known where entry.key == key { return entry.name }
        let name = String(decoding: bytes, as: UTF8.self)
        if known.count < Self.capacity { known.append((key, name)) }
        return name
    }
}
