/// `GPXPreflight`'s checks over a file read in pieces, for a GPX file parsed as it is read
/// (`GPXCheckedInput`): the same problems on the same lines, with the same precedence
/// (a byte that is not UTF-8, or a NUL, anywhere in the file before any markup problem).
///
/// `scan` answers how many bytes at the front of what it was given are settled: checked,
/// and safe to hand to the parser while no problem is known. The rest (a UTF-8 sequence
/// cut by the end of the piece, a `<` whose check needs bytes after it) is given again,
/// with the bytes that follow.
struct GPXPreflightScan {
    private(set) var line = 1
    /// A byte that is not UTF-8 or a NUL: the file's problem, whatever else it has.
    private(set) var encodingProblem: (line: Int, reason: String)?
    /// The first markup problem; the file's problem unless an encoding one comes later.
    private(set) var markupProblem: (line: Int, reason: String)?
    /// Whether a byte other than white space was seen (for "the file is empty").
    private(set) var sawContent = false

    var problem: (line: Int, reason: String)? { encodingProblem ?? markupProblem }

    private enum Verdict { case fine, problem(String), needMore }

    /// Checks `b`; `atEnd` when no byte follows it in the file. Stops at an encoding
    /// problem; goes on after a markup problem (a later encoding problem wins).
    mutating func scan(_ b: UnsafeBufferPointer<UInt8>, atEnd: Bool) -> Int {
        var i = 0
        while i < b.count, encodingProblem == nil {
            let c = b[i]
            if c < 0x80 {
                if c == 0 {
                    encodingProblem = (line, "a NUL byte (GPX is read as UTF-8 text)")
                    return i
                }
                if c == UInt8(ascii: "<"), markupProblem == nil {
                    switch markup(b, at: i, atEnd: atEnd) {
                    case .needMore: return i
                    case .problem(let reason):
                        // The parser gets nothing from here on; the scan goes on from
                        // here when asked again.
                        markupProblem = (line, reason)
                        return i
                    case .fine: break
                    }
                }
                if c == 0x0A { line += 1 }
                if !(c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D) { sawContent = true }
                i += 1
                continue
            }
            sawContent = true
            switch Self.sequenceLength(b, at: i) {
            case nil:
                if !atEnd && Self.isCutShort(b, at: i) { return i }
                encodingProblem = (line, "not UTF-8 text (GPX is read as UTF-8)")
                return i
            case let length?: i += length
            }
        }
        return i
    }

    /// The length of the well-formed UTF-8 sequence at `i` (Unicode table 3-7), or nil.
    static func sequenceLength(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> Int? {
        let lead = b[i]
        let length: Int
        var second: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; second = 0xA0...0xBF
        case 0xED: length = 3; second = 0x80...0x9F
        case 0xE1...0xEF: length = 3
        case 0xF0: length = 4; second = 0x90...0xBF
        case 0xF4: length = 4; second = 0x80...0x8F
        case 0xF1...0xF3: length = 4
        default: return nil
        }
        guard i + length <= b.count, second.contains(b[i + 1]) else { return nil }
        for k in 2..<length where !(0x80...0xBF).contains(b[i + k]) { return nil }
        return length
    }

    /// Whether the sequence at `i` is only cut short by the end of `b` (what is there of
    /// it is right so far): the next piece may complete it.
    static func isCutShort(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> Bool {
        guard b.count - i < 4 else { return false }
        var padded = Array(b[i...])
        let lead = b[i]
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
        guard padded.count < length else { return false }
        // Complete it with the smallest continuation bytes its lead allows and look again.
        let second: UInt8 = lead == 0xE0 ? 0xA0 : lead == 0xF0 ? 0x90 : 0x80
        while padded.count < length { padded.append(padded.count == 1 ? second : 0x80) }
        return padded.withUnsafeBufferPointer { sequenceLength($0, at: 0) } != nil
    }

    /// `GPXPreflight.markupProblem`'s look at the `<` at `i`, or `needMore` when it needs
    /// bytes past the end of `b` that the file still has.
    private func markup(_ b: UnsafeBufferPointer<UInt8>, at i: Int, atEnd: Bool) -> Verdict {
        func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }
        guard i + 1 < b.count else { return atEnd ? .fine : .needMore }
        let doctype = Array("<!DOCTYPE".utf8)
        let have = min(doctype.count, b.count - i)
        if (0..<have).allSatisfy({ b[i + $0] == doctype[$0] }) {
            if have == doctype.count { return .problem("a DOCTYPE: GPX needs none, and entities are not expanded") }
            if !atEnd { return .needMore }
        }
        guard b[i + 1] == UInt8(ascii: "?") else { return .fine }
        var k = i + 2
        while k < b.count, !isSpace(b[k]), b[k] != UInt8(ascii: "?") { k += 1 }
        let target = String(decoding: b[(i + 2)..<k], as: UTF8.self)
        while k < b.count, isSpace(b[k]) { k += 1 }
        if !atEnd, k + 2 > b.count { return .needMore }
        if k + 1 < b.count, b[k] == UInt8(ascii: "?"), b[k + 1] == UInt8(ascii: ">") {
            return .problem("a processing instruction <?\(target)?> without data")
        }
        guard target == "xml" else { return .fine }
        var end = k
        while end + 1 < b.count, !(b[end] == UInt8(ascii: "?") && b[end + 1] == UInt8(ascii: ">")) { end += 1 }
        if end + 1 >= b.count, !atEnd { return .needMore }
        if let encoding = GPXPreflight.declaredEncoding(b, from: k), !GPXPreflight.encodings.contains(encoding.lowercased()) {
            return .problem("encoding \(encoding): GPX is read as UTF-8")
        }
        return .fine
    }
}
