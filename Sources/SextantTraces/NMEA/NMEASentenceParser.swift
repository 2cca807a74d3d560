import SextantProtocol

/// Why a line of an NMEA log was skipped. The raw values are the keys of `Trace.skipped`.
public enum NMEALineProblem: String, Error, Sendable, CaseIterable {
    /// The `*hh` checksum does not match the sentence, or is not two hex digits.
    case badChecksum = "bad checksum"
    /// The line holds no sentence at all (no `$` or `!`): garbage, a half line.
    case notNMEA = "not NMEA"
    /// The start of a sentence that another sentence's `$` cut short (a receiver or a
    /// serial link dropped bytes): the fragment is skipped, the sentence after it is read.
    case spliced = "spliced sentence"
    /// The checksum is right (or absent) but a field Sextant needs is unreadable: a bad
    /// time, a latitude beyond 90°, too few fields, a valid status without a position.
    case malformed = "malformed sentence"
}

/// Turns one NMEA 0183 sentence (`$GPRMC,…*hh`) into an `NMEASentence`.
///
/// Checksums: a `*hh` suffix must match the XOR of the bytes between `$` and `*`
/// (either case of hex digit). A sentence without `*` is accepted unchecked, as gpsd
/// accepts it; several receivers (MTK, Ashtech `$PASHR`) send some that way.
///
/// Works on the line's UTF-8 bytes without building strings for the fields, nor any
/// array: the checksum and the field bounds come from one pass over the bytes, into a
/// buffer on the stack. A log of tens of megabytes decodes at the speed of a scan.
public struct NMEASentenceParser: Sendable {
    private var names = NMEATagNames()
    /// Whether sentences carry their talker and the type of an `.other` one. A reader
    /// that uses neither (`NMEAReader`) turns it off and spares a lookup a sentence.
    private let namesSentences: Bool
    /// Whether GSV sentences carry their satellites and GSA ones those in use. A reader
    /// whose consumer never looks into a sky (`trace info` counts sky samples) turns it off:
    /// the fields are still checked, a bad one still makes the sentence malformed, but no
    /// satellite is kept, so GSV and GSA cost no allocation.
    private let decodesSatellites: Bool

    public init() {
        namesSentences = true
        decodesSatellites = true
    }

    /// A parser whose sentences have an empty talker, and `.other("")` for every type
    /// Sextant does not decode: the same decoding, for a reader that reads neither.
    /// Without `decodingSatellites`, GSV's `satellites` and GSA's `used` are empty.
    init(namingSentences: Bool, decodingSatellites: Bool = true) {
        namesSentences = namingSentences
        decodesSatellites = decodingSatellites
    }

    /// Parses one sentence given as text (tests, tools).
    public static func parse(_ sentence: String) -> Result<NMEASentence, NMEALineProblem> {
        var parser = NMEASentenceParser()
        var text = sentence
        return text.withUTF8 { parser.parse($0[...]) }
    }

    /// Parses one sentence: its bytes start at `$` or `!` and hold no line break.
    public mutating func parse(_ line: Slice<UnsafeBufferPointer<UInt8>>) -> Result<NMEASentence, NMEALineProblem> {
        var problem = NMEALineProblem.notNMEA
        guard let sentence = parse(line, problem: &problem) else { return .failure(problem) }
        return .success(sentence)
    }

    /// `parse` without a `Result`: the sentence, or nil and `problem` set. (A `Result` of a
    /// sentence is destroyed through the standard library's generic value witness.)
    mutating func parse(_ line: Slice<UnsafeBufferPointer<UInt8>>, problem: inout NMEALineProblem) -> NMEASentence? {
        var next = line.endIndex
        var kept = KeptSentence()
        let parsed = parse(line.base, from: line.startIndex, to: line.endIndex, endingAtStartMarks: false, next: &next, problem: &problem, into: &kept, line: 0)
        return parsed ? kept.sentence : nil
    }

    /// The reader's path: the sentence that starts at `start` in a line ending at `upper`
    /// goes to `sink` (with `line`, for the sink), and `next` says where the next one starts
    /// (`upper` when none does): a line may hold several starts (bytes lost on a serial
    /// link, as gpsd's packet lexer sees them). A `$` or `!` before any `*` cuts the sentence
    /// short: a spliced fragment, skipped. The marks are looked for in the same pass over the
    /// bytes as the commas and the checksum. False, and `problem` set, when nothing went to
    /// the sink. The sentence is handed over where it is made, not returned: a sentence
    /// returned is copied whole at each call it goes back through, and read back as it was
    /// just written, which stalls the core (2 % of a log's decoding).
    mutating func parseNext<Sink: NMEASentenceSink>(
        _ base: UnsafeBufferPointer<UInt8>, from start: Int, to upper: Int, next: inout Int, problem: inout NMEALineProblem,
        into sink: inout Sink, line: Int
    ) -> Bool {
        parse(base, from: start, to: upper, endingAtStartMarks: true, next: &next, problem: &problem, into: &sink, line: line)
    }

    private mutating func parse<Sink: NMEASentenceSink>(
        _ base: UnsafeBufferPointer<UInt8>, from start: Int, to upper: Int, endingAtStartMarks: Bool, next: inout Int,
        problem: inout NMEALineProblem, into sink: inout Sink, line: Int
    ) -> Bool {
        next = upper
        guard start < upper, let bytes = base.baseAddress, bytes[start] == UInt8(ascii: "$") || bytes[start] == UInt8(ascii: "!") else {
            problem = .notNMEA
            return false
        }
        // A field ends at a comma, the `*` or the end: at most one more than the bytes.
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: upper - start + 1) { bounds in
            // bounds[n] is the byte before field n (the start mark for the tag, field 0).
            bounds[0] = start
            var count = 1
            var scan = FieldScan(bytes: bytes, from: start + 1, to: upper, endingAtStartMarks: endingAtStartMarks)
            let (sum, stop) = scan.run(into: bounds, count: &count)
            var end = upper
            switch stop {
            case .startMark(let mark):
                problem = .spliced
                next = mark
                return false
            case .end:
                break
            case .star(let star):
                if endingAtStartMarks { next = Self.nextStart(after: star, bytes, upper) }
                end = next
                while end > star, NMEAByte.isSpace(bytes[end - 1]) { end -= 1 }
                guard Self.checksum(bytes, star: star, end: end, matches: sum) else {
                    problem = .badChecksum
                    return false
                }
                end = star
            }
            if stop == .end { while end > start, NMEAByte.isSpace(bytes[end - 1]) { end -= 1 } }
            bounds[count] = end
            let fields = NMEAFields(base: base, bounds: UnsafeBufferPointer(rebasing: bounds[...count]))
            var malformed = false
            let sentence = fields.decode(names: &names, naming: namesSentences, satellites: decodesSatellites, malformed: &malformed)
            guard !malformed else {
                problem = .malformed
                return false
            }
            sink.take(sentence, line: line)
            return true
        }
    }

    /// Where the sentence after the one whose `*` is at `star` starts (`upper` when none does).
    /// Most sentences end their line with `*hh`: two hex digits after it, nothing to look for.
    @inline(__always)
    private static func nextStart(after star: Int, _ bytes: UnsafePointer<UInt8>, _ upper: Int) -> Int {
        if upper - star == 3, NMEAByte.hexPair(bytes[star + 1], bytes[star + 2]) != nil { return upper }
        return NMEAByteScan.nextSentenceStart(bytes, from: star + 1, to: upper).index
    }

    /// Whether the `*hh` at `star` is the last thing before `end` and says `sum`.
    @inline(__always)
    private static func checksum(_ bytes: UnsafePointer<UInt8>, star: Int, end: Int, matches sum: UInt8) -> Bool {
        guard end - star == 3, let written = NMEAByte.hexPair(bytes[star + 1], bytes[star + 2]) else { return false }
        return written == sum
    }
}

/// What a parser hands its sentences to (`NMEASentenceParser.parseNext`).
protocol NMEASentenceSink {
    mutating func take(_ sentence: borrowing NMEASentence, line: Int)
}

/// Keeps the last sentence it is handed: `parse`'s own sink.
struct KeptSentence: NMEASentenceSink {
    var sentence: NMEASentence?

    mutating func take(_ sentence: borrowing NMEASentence, line: Int) { self.sentence = copy sentence }
}
