extension NMEASentenceParser {
    /// One pass over a sentence's bytes: the checksum, the bounds of its fields (into a
    /// buffer on the stack, no array), and, `cuttingAtStarts`, where the next sentence of
    /// the line starts (`parseFirst`); then the fields decoded. Without `cuttingAtStarts`
    /// the bytes are one sentence whatever they hold (`parse`).
    @inline(__always)
    mutating func parse(
        _ line: Slice<UnsafeBufferPointer<UInt8>>, cuttingAtStarts cutting: Bool, problem: inout NMEALineProblem, next: inout Int
    ) -> NMEASentence? {
        next = line.endIndex
        guard let first = line.first, first == UInt8(ascii: "$") || first == UInt8(ascii: "!"), let bytes = line.base.baseAddress else {
            problem = .notNMEA
            return nil
        }
        var end = line.endIndex
        while end > line.startIndex, NMEAByte.isSpace(bytes[end - 1]) { end -= 1 }
        // A field ends at a comma, the `*` or the end: at most one more than the bytes.
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: end - line.startIndex + 1) { bounds in
            // bounds[n] is the byte before field n (the start mark for the tag, field 0).
            bounds[0] = line.startIndex
            var count = 1
            // Checksum: XOR of everything between the start mark and `*`. Whole words up to
            // the one holding the `*` (or a start mark), then byte by byte.
            var star: Int?
            var i = line.startIndex + 1
            var sum = Self.scanWords(bytes, from: &i, end: end, cutting: cutting, bounds: bounds, count: &count)
            while i < end {
                let b = bytes[i]
                if b == UInt8(ascii: "*") {
                    star = i
                    break
                }
                if cutting, b == UInt8(ascii: "$") || b == UInt8(ascii: "!") {
                    next = i
                    problem = .spliced
                    return nil
                }
                sum ^= b
                if b == UInt8(ascii: ",") {
                    bounds[count] = i
                    count += 1
                }
                i += 1
            }
            if let star {
                if cutting { (end, next) = Self.sentenceEnd(bytes, star: star, lineEnd: line.endIndex) }
                guard Self.checksum(bytes, star: star, end: end, matches: sum) else {
                    problem = .badChecksum
                    return nil
                }
                end = star
            }
            bounds[count] = end
            return decode(NMEAFields(base: line.base, bounds: UnsafeBufferPointer(rebasing: bounds[...count])), problem: &problem)
        }
    }

    /// The XOR of the whole words from `i` on that hold no `*` (and, `cutting`, no start
    /// mark), their commas into `bounds` from `count`; `i` left at the first other word.
    @inline(__always)
    private static func scanWords(
        _ bytes: UnsafePointer<UInt8>, from i: inout Int, end: Int, cutting: Bool, bounds: UnsafeMutableBufferPointer<Int>, count: inout Int
    ) -> UInt8 {
        var words: UInt64 = 0
        while i + 8 <= end {
            let w = NMEAByteScan.word(bytes, at: i)
            var stops = NMEAByteScan.matches(w, UInt8(ascii: "*"))
            if cutting { stops |= NMEAByteScan.matches(w, UInt8(ascii: "$")) | NMEAByteScan.matches(w, UInt8(ascii: "!")) }
            if stops != 0 { break }
            words ^= w
            var commas = NMEAByteScan.matches(w, UInt8(ascii: ","))
            while commas != 0 {
                bounds[count] = i + NMEAByteScan.firstByte(commas)
                count += 1
                commas &= commas &- 1
            }
            i += 8
        }
        return NMEAByteScan.foldXOR(words)
    }

    /// Where the sentence whose `*` is at `star` ends: where the next one of the line
    /// starts, if another does (`next`), less the spaces before it (`end`).
    @inline(__always)
    private static func sentenceEnd(_ bytes: UnsafePointer<UInt8>, star: Int, lineEnd: Int) -> (end: Int, next: Int) {
        let next = NMEAByteScan.nextSentenceStart(bytes, from: star + 1, to: lineEnd).index
        var end = next
        while end > star, NMEAByte.isSpace(bytes[end - 1]) { end -= 1 }
        return (end, next)
    }
}
