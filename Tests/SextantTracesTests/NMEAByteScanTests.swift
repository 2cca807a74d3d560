import SextantTestSupport
@testable import SextantTraces
import Testing

/// The word-at-a-time scans answer what a byte-by-byte scan answers, wherever the bytes
/// looked for fall in a word (first byte, last byte, several in one word, none).
@Suite("NMEA byte scans")
struct NMEAByteScanTests {
    /// Lines of bytes drawn from the ones that matter and a few that do not, and bytes
    /// that differ from them by one bit (`%` is `$` ^ 1, `+` is `*` ^ 1).
    static func lines(count: Int) -> [[UInt8]] {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("$!*,%+A0\u{7F}".utf8) + [0x80, 0xA4, 0xAA, 0x00, 0xFF]
        return (0..<count).map { _ in
            (0..<Int.random(in: 0...40, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
        }
    }

    @Test("nextSentenceStart finds the first $ or ! and whether a * comes before it, as a byte loop does")
    func nextStart() {
        for line in Self.lines(count: 20_000) {
            line.withUnsafeBufferPointer { buffer in
                guard let bytes = buffer.baseAddress else { return }
                for from in 0...line.count {
                    let end = line[from...].firstIndex { $0 == UInt8(ascii: "$") || $0 == UInt8(ascii: "!") } ?? line.count
                    let star = line[from..<end].contains(UInt8(ascii: "*"))
                    let got = NMEAByteScan.nextSentenceStart(bytes, from: from, to: line.count)
                    #expect(got.index == end && got.sawStar == star, "\(line) from \(from)")
                }
            }
        }
    }

    @Test("hasByteBelow: nonzero exactly when a word holds an ASCII byte below the limit, its first such byte's high bit set and none before it")
    func byteBelow() {
        var random = SplitMix64(seed: 7)
        for _ in 0..<200_000 {
            // Bytes near the limit and across the ASCII line, where a borrow would show.
            let pool: [UInt8] = [0x00, 0x20, 0x21, 0x24, 0x2A, 0x2B, 0x2C, 0x2D, 0x30, 0x41, 0x7F, 0x80, 0xAA, 0xFF]
            let bytes = (0..<8).map { _ in pool[Int(random.next() % UInt64(pool.count))] }
            let word = bytes.enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
            let mask = NMEAByteScan.hasByteBelow(word, UInt8(ascii: ","))
            let first = bytes.firstIndex { $0 < UInt8(ascii: ",") }
            #expect((mask != 0) == (first != nil), "\(bytes)")
            if let first, mask != 0 {
                #expect(NMEAByteScan.firstByte(mask) == first, "\(bytes)")
            }
        }
    }

    @Test("Checksums and fields of sentences of every length: a one-byte change anywhere is caught")
    func checksumEveryLength() {
        for length in 0..<40 {
            let letters: [UInt8] = (0..<length).map { i -> UInt8 in i % 5 == 4 ? UInt8(ascii: ",") : UInt8(65 + i % 26) }
            let body = String(decoding: letters, as: UTF8.self)
            let sentence = nmea("$GPXXX" + (body.isEmpty ? "" : "," + body))
            guard case .success(let parsed) = NMEASentenceParser.parse(sentence) else {
                Issue.record("\(sentence) not read")
                continue
            }
            #expect(parsed == NMEASentence(talker: "GP", body: .other("XXX")))
            var bytes = Array(sentence.utf8)
            let star = bytes.lastIndex(of: UInt8(ascii: "*"))!
            for k in 1..<star {
                bytes[k] ^= 0x02
                let changed = String(decoding: bytes, as: UTF8.self)
                bytes[k] ^= 0x02
                guard case .failure(let problem) = NMEASentenceParser.parse(changed) else {
                    Issue.record("\(changed) read despite its checksum")
                    continue
                }
                #expect(problem == .badChecksum, "\(changed)")
            }
        }
    }

    @Test("Many tag names: past the cache's capacity each is still its own")
    func tagNames() throws {
        var parser = NMEASentenceParser()
        for n in 0..<(2 * NMEATagNames.capacity) {
            let type = String(decoding: [UInt8(65 + n / 26), UInt8(65 + n % 26), UInt8(ascii: "Q")], as: UTF8.self)
            var line = nmea("$GN\(type),1")
            for _ in 0..<2 {
                let parsed = line.withUTF8 { parser.parse($0[...]) }
                let expected = NMEASentence(talker: "GN", body: .other(type))
                #expect(try parsed.get() == expected)
            }
        }
    }
}
