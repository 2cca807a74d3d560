import SextantCore
import SextantProtocol

/// Reads an NMEA 0183 log (`.nmea`, `.log`) as a trace of locations and `gps noFix`
/// samples: one location per receiver cycle that has a fix.
///
/// Lenient, as a receiver's log needs: a line with a bad checksum, a garbled or a
/// spliced line, a sentence whose fields cannot be read is skipped and counted in
/// `Trace.skipped` by `NMEALineProblem`; sentences Sextant has no use for (TXT,
/// proprietary `$P…`, depth, wind, AIS) are ignored without being counted. Blank lines
/// and `#` comments are skipped too; a `# Date: YYYY-MM-DD` comment dates a log whose
/// sentences carry no date. Only a file without a single NMEA sentence is an error.
///
/// The pieces: `NMEASentenceParser` (checksum, fields), `NMEAEpochAssembler` (cycles),
/// `NMEATimeline` (dates, midnight, offsets, the fixes' values).
public enum NMEAReader {
    public static func read(_ text: String, path: String) throws(TraceError) -> Trace {
        var text = text
        let result = text.withUTF8 { read($0, path: path) }
        return try result.get()
    }

    static func read(_ bytes: UnsafeBufferPointer<UInt8>, path: String) -> Result<Trace, TraceError> {
        var reader = LineReader()
        var lineStart = 0
        var lineNumber = 0
        while lineStart < bytes.count {
            var lineEnd = lineStart
            while lineEnd < bytes.count, bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
            lineNumber += 1
            reader.read(bytes[lineStart..<lineEnd], number: lineNumber)
            lineStart = lineEnd + 1
        }
        guard reader.sentences > 0 else { return .failure(reader.noSentenceError(path: path)) }
        let (start, samples) = NMEATimeline.samples(from: reader.assembler.finish(), commentDate: reader.commentDate)
        return .success(Trace(start: start, samples: samples, skipped: reader.skipped))
    }

    /// The state of one pass over the lines.
    struct LineReader: Sendable {
        /// Talkers and the types of unused sentences are not read: only the epochs matter.
        var parser: NMEASentenceParser
        var assembler = NMEAEpochAssembler()
        var skipped: [String: Int] = [:]
        var sentences = 0
        var commentDate: NMEADate?
        var firstContentLine: Int?

        /// Without `satellites`, the sky samples come at the same places but empty: for a
        /// consumer that only counts them (`NMEASentenceParser`'s `decodingSatellites`).
        init(satellites: Bool = true) {
            parser = NMEASentenceParser(namingSentences: false, decodingSatellites: satellites)
        }

        mutating func read(_ raw: Slice<UnsafeBufferPointer<UInt8>>, number: Int) {
            guard let bytes = raw.base.baseAddress else { return }
            var lower = raw.startIndex, upper = raw.endIndex
            while lower < upper, NMEAByte.isSpace(bytes[lower]) { lower += 1 }
            while upper > lower, NMEAByte.isSpace(bytes[upper - 1]) { upper -= 1 }
            guard lower < upper else { return }
            if bytes[lower] == UInt8(ascii: "#") {
                if commentDate == nil { commentDate = NMEAReader.dateComment(raw.base[lower..<upper]) }
                return
            }
            if firstContentLine == nil { firstContentLine = number }
            // A line may hold several starts of sentences when bytes were lost (gpsd's
            // triton400.log: `$GPGGA,030130$GPGLL,…*41`). Like gpsd's packet lexer, each
            // `$` or `!` starts a sentence again; a piece cut short by the next one is a
            // spliced fragment, unless it ends with a checksum of its own.
            func isStart(_ b: UInt8) -> Bool { b == UInt8(ascii: "$") || b == UInt8(ascii: "!") }
            var start = lower
            while start < upper, !isStart(bytes[start]) { start += 1 }
            guard start < upper else {
                count(.notNMEA)
                return
            }
            if start > lower { count(.notNMEA) }
            while true {
                var problem = NMEALineProblem.notNMEA
                var next = upper
                if parser.parseNext(raw.base, from: start, to: upper, next: &next, problem: &problem, into: &assembler, line: number) {
                    sentences += 1
                } else {
                    count(problem)
                }
                guard next < upper else { return }
                start = next
            }
        }

        /// A file without a single sentence is not an NMEA log.
        func noSentenceError(path: String) -> TraceError {
            var reason = "not an NMEA 0183 log: no sentence ($…*hh) in it"
            if let bad = skipped[NMEALineProblem.badChecksum.rawValue] { reason += " with a good checksum (\(bad) bad)" }
            return TraceError(path: path, line: firstContentLine ?? 1, reason: reason)
        }

        mutating func count(_ problem: NMEALineProblem) {
            skipped[problem.rawValue, default: 0] += 1
        }
    }

    /// The date of a `# Date: 2008-08-23` comment (gpsd's logs; `2019-3-14` too).
    static func dateComment(_ line: Slice<UnsafeBufferPointer<UInt8>>) -> NMEADate? {
        let text = String(decoding: line, as: UTF8.self).dropFirst().drop { $0 == " " || $0 == "\t" }
        guard text.hasPrefix("Date:") else { return nil }
        guard let word = text.dropFirst(5).split(whereSeparator: { $0 == " " || $0 == "\t" }).first else { return nil }
        let parts = word.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, let year = Int(parts[0]), (1970...2099).contains(year), let month = Int(parts[1]), let day = Int(parts[2]),
            (1...12).contains(month), (1...Timestamp.daysIn(month: month, year: year)).contains(day)
        else { return nil }
        return NMEADate(year: year, month: month, day: day)
    }
}
