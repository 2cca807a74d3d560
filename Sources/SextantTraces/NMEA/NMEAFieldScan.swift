/// One pass over a sentence's bytes after its start mark: the commas (where each field
/// ends), the XOR of the bytes before the `*`, and where the pass stopped: at the `*`, at
/// another sentence's start mark (when the reader asks: `endingAtStartMarks`), or at the end.
/// Eight bytes a step while a word holds none of the bytes looked for, which is most of a
/// sentence.
struct FieldScan {
    enum Stop: Equatable {
        case star(Int)
        case startMark(Int)
        case end
    }

    let bytes: UnsafePointer<UInt8>
    var index: Int
    let upper: Int
    let endingAtStartMarks: Bool

    init(bytes: UnsafePointer<UInt8>, from start: Int, to upper: Int, endingAtStartMarks: Bool) {
        self.bytes = bytes
        index = start
        self.upper = upper
        self.endingAtStartMarks = endingAtStartMarks
    }

    /// Records each comma's index in `bounds` from `count` on; the checksum and the stop.
    mutating func run(into bounds: UnsafeMutableBufferPointer<Int>, count: inout Int) -> (sum: UInt8, stop: Stop) {
        var words: UInt64 = 0
        // Whole words up to the first holding a byte below `,` (the `*`, a start mark, a
        // space: rare elsewhere), then byte by byte.
        while index + 8 <= upper {
            let w = NMEAByteScan.word(bytes, at: index)
            if NMEAByteScan.hasByteBelow(w, UInt8(ascii: ",")) != 0 { break }
            words ^= w
            var commas = NMEAByteScan.matches(w, UInt8(ascii: ","))
            while commas != 0 {
                bounds[count] = index + NMEAByteScan.firstByte(commas)
                count += 1
                commas &= commas &- 1
            }
            index += 8
        }
        var sum = NMEAByteScan.foldXOR(words)
        while index < upper {
            let b = bytes[index]
            if b == UInt8(ascii: "*") { return (sum, .star(index)) }
            if endingAtStartMarks, b == UInt8(ascii: "$") || b == UInt8(ascii: "!") { return (sum, .startMark(index)) }
            sum ^= b
            if b == UInt8(ascii: ",") {
                bounds[count] = index
                count += 1
            }
            index += 1
        }
        return (sum, .end)
    }
}
