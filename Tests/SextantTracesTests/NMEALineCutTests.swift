import Foundation
import SextantCore
import SextantTestSupport
@testable import SextantTraces
import Testing

/// The reader cuts a line at each `$` or `!` while it parses (`parseNext`): what it decides
/// for each piece — a sentence, a spliced fragment, a bad checksum — is what a separate
/// search for the next start mark, then a parse of the piece before it, decides (the way
/// gpsd's packet lexer reads a line that lost bytes), on real lines cut and spliced at random.
@Suite("NMEA: a line cut at its start marks in the parser's pass")
struct NMEALineCutTests {
    enum Outcome: Equatable {
        case sentence(NMEASentence)
        case skipped(NMEALineProblem)
    }

    /// The reference: the next mark found first (`nextSentenceStart`), the piece before it
    /// parsed whole, a piece with no `*` before the next mark a spliced fragment.
    static func reference(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, _ parser: inout NMEASentenceParser) -> [Outcome] {
        var outcomes: [Outcome] = []
        var start = start
        while true {
            let (next, sawStar) = NMEAByteScan.nextSentenceStart(bytes.baseAddress!, from: start + 1, to: bytes.count)
            if next < bytes.count, !sawStar {
                outcomes.append(.skipped(.spliced))
            } else {
                var problem = NMEALineProblem.notNMEA
                if let sentence = parser.parse(bytes[start..<next], problem: &problem) {
                    outcomes.append(.sentence(sentence))
                } else {
                    outcomes.append(.skipped(problem))
                }
            }
            guard next < bytes.count else { return outcomes }
            start = next
        }
    }

    static func inOnePass(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, _ parser: inout NMEASentenceParser) -> [Outcome] {
        var outcomes: [Outcome] = []
        var start = start
        while true {
            var problem = NMEALineProblem.notNMEA
            var next = bytes.count
            var kept = KeptSentence()
            let parsed = parser.parseNext(bytes, from: start, to: bytes.count, next: &next, problem: &problem, into: &kept, line: 0)
            outcomes.append(parsed ? .sentence(kept.sentence!) : .skipped(problem))
            guard next < bytes.count else { return outcomes }
            start = next
        }
    }

    @Test("gpsd's logs' lines, spliced into each other and sprinkled with $, !, * and spaces at random places: the same sentences and problems")
    func splicedLines() throws {
        let logs = NMEAStreamedSummaryTests.logs(in: NMEAStreamedSummaryTests.repositoryLogs)
        var lines: [String] = []
        for path in logs {
            let text = try String(contentsOfFile: path, encoding: .isoLatin1)
            lines += text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { $0.hasPrefix("$") || $0.hasPrefix("!") }
        }
        #expect(lines.count > 2_000)
        var random = SplitMix64(seed: 42)
        var reference = NMEASentenceParser(namingSentences: false)
        var onePass = NMEASentenceParser(namingSentences: false)
        var compared = 0, spliced = 0
        for _ in 0..<20_000 {
            var line = Array(lines[Int(random.next() % UInt64(lines.count))].utf8)
            // Half the lines lose a tail to the next sentence; some gain a stray mark or space.
            if random.next() % 2 == 0 {
                let other = Array(lines[Int(random.next() % UInt64(lines.count))].utf8)
                line = Array(line.prefix(Int(random.next() % UInt64(line.count + 1)))) + other
            }
            for _ in 0..<Int(random.next() % 3) {
                let stray: [UInt8] = [UInt8(ascii: "$"), UInt8(ascii: "!"), UInt8(ascii: "*"), UInt8(ascii: " "), UInt8(ascii: ",")]
                line.insert(stray[Int(random.next() % 5)], at: Int(random.next() % UInt64(line.count + 1)))
            }
            guard let start = line.firstIndex(where: { $0 == UInt8(ascii: "$") || $0 == UInt8(ascii: "!") }) else { continue }
            line.withUnsafeBufferPointer { bytes in
                let expected = Self.reference(bytes, from: start, &reference)
                let got = Self.inOnePass(bytes, from: start, &onePass)
                #expect(got == expected, "\(String(decoding: line, as: UTF8.self))")
                spliced += expected.filter { $0 == .skipped(.spliced) }.count
            }
            compared += 1
        }
        #expect(compared > 19_000 && spliced > 1_000, "compared \(compared) lines, \(spliced) spliced fragments")
    }
}
