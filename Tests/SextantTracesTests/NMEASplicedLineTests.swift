import Foundation
import SextantCore
@testable import SextantTraces
import Testing

/// The reader finds where each sentence of a line ends in the same pass as its checksum and
/// fields (`NMEASentenceParser.parseFirst`). It must cut lines exactly as a scan for the
/// next start mark first, then a parse of the piece, did: the same sentences, the same
/// skipped pieces, whatever `$`, `!`, `*` and spaces a damaged line holds.
@Suite("NMEA lines with several start marks")
struct NMEASplicedLineTests {
    /// Reading the lines the earlier way: the next `$` or `!` found first, then the piece parsed.
    struct TwoPassReader {
        var parser = NMEASentenceParser(namingSentences: false)
        var assembler = NMEAEpochAssembler()
        var skipped: [String: Int] = [:]
        var sentences = 0

        mutating func read(_ bytes: UnsafeBufferPointer<UInt8>, number: Int) {
            guard let base = bytes.baseAddress else { return }
            var lower = 0, upper = bytes.count
            while lower < upper, NMEAByte.isSpace(bytes[lower]) { lower += 1 }
            while upper > lower, NMEAByte.isSpace(bytes[upper - 1]) { upper -= 1 }
            guard lower < upper else { return }  // a blank line
            var start = lower
            while start < upper, bytes[start] != UInt8(ascii: "$"), bytes[start] != UInt8(ascii: "!") { start += 1 }
            guard start < upper else { return skip(.notNMEA) }
            if start > lower { skip(.notNMEA) }
            while true {
                let (next, sawStar) = NMEAByteScan.nextSentenceStart(base, from: start + 1, to: upper)
                var problem = NMEALineProblem.spliced
                if next < upper, !sawStar {
                    skip(problem)
                } else if let sentence = parser.parse(bytes[start..<next], problem: &problem) {
                    sentences += 1
                    assembler.add(sentence, line: number)
                } else {
                    skip(problem)
                }
                guard next < upper else { return }
                start = next
            }
        }

        mutating func skip(_ problem: NMEALineProblem) { skipped[problem.rawValue, default: 0] += 1 }
    }

    /// Sentences of gpsd's logs, to damage.
    static func sentences() throws -> [String] {
        var found: [String] = []
        for path in NMEAStreamedSummaryTests.logs(in: NMEAStreamedSummaryTests.repositoryLogs) {
            let text = try String(contentsOfFile: path, encoding: .isoLatin1)
            found += text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.hasPrefix("$") }.prefix(40)
        }
        return found
    }

    /// A line of one to three sentences, some cut short, with start marks, stars, commas
    /// and spaces put in and bytes changed.
    static func damagedLine(_ sentences: [String], _ generator: inout some RandomNumberGenerator) -> [UInt8] {
        var line: [UInt8] = []
        for _ in 0..<Int.random(in: 1...3, using: &generator) {
            var bytes = Array(sentences.randomElement(using: &generator)!.utf8)
            if Int.random(in: 0..<3, using: &generator) == 0 { bytes = Array(bytes.prefix(Int.random(in: 1...bytes.count, using: &generator))) }
            line += bytes
        }
        let marks = Array("$!*, \r\t0A".utf8)
        for _ in 0..<Int.random(in: 0...3, using: &generator) {
            let at = Int.random(in: 0...line.count, using: &generator)
            if Bool.random(using: &generator) || line.isEmpty || at == line.count {
                line.insert(marks.randomElement(using: &generator)!, at: at)
            } else {
                line[at] = marks.randomElement(using: &generator)!
            }
        }
        if Int.random(in: 0..<4, using: &generator) == 0 { line = Array(" \t ".utf8) + line + Array("  ".utf8) }
        return line
    }

    @Test("20,000 damaged lines are cut into the same sentences and skipped pieces as by a scan then a parse")
    func damagedLines() throws {
        let sentences = try Self.sentences()
        #expect(sentences.count > 500)
        var generator = SystemRandomNumberGenerator()
        var reader = NMEAReader.LineReader()
        var reference = TwoPassReader()
        for number in 1...20_000 {
            let line = Self.damagedLine(sentences, &generator)
            line.withUnsafeBufferPointer { bytes in
                reader.read(bytes[...], number: number)
                reference.read(bytes, number: number)
            }
            #expect(reader.sentences == reference.sentences && reader.skipped == reference.skipped, "\(String(decoding: line, as: UTF8.self))")
            if reader.sentences != reference.sentences || reader.skipped != reference.skipped { return }
        }
        #expect(reader.assembler.finish() == reference.assembler.finish())
        #expect(reference.skipped[NMEALineProblem.spliced.rawValue, default: 0] > 100 && reference.skipped[NMEALineProblem.badChecksum.rawValue, default: 0] > 100)
    }
}
