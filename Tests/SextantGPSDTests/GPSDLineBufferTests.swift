import Testing

@testable import SextantGPSD

/// The bounded splitter the source reads gpsd's socket through (on the hub's event loop).
@Suite("gpsd line buffer (bounded, lines split wherever the reads end)")
struct GPSDLineBufferTests {
    typealias Piece = GPSDLineBuffer.Piece

    /// Feeds `chunks` one read at a time; every piece in order.
    func split(_ chunks: [[UInt8]], into buffer: inout GPSDLineBuffer) -> [Piece] {
        var pieces: [Piece] = []
        for chunk in chunks {
            chunk.withUnsafeBytes { buffer.append($0) { pieces.append($0) } }
        }
        return pieces
    }

    func split(_ chunks: [String]) -> [Piece] {
        var buffer = GPSDLineBuffer()
        return split(chunks.map { Array($0.utf8) }, into: &buffer)
    }

    @Test("CR LF lines whole, split across reads at every byte, and several in one read")
    func linesAcrossReads() {
        let text = #"{"class":"VERSION"}"# + "\r\n" + #"{"class":"TPV","mode":1}"# + "\r\n"
        let expected: [Piece] = [.line(#"{"class":"VERSION"}"#), .line(#"{"class":"TPV","mode":1}"#)]
        #expect(split([text]) == expected)
        let bytes = Array(text.utf8)
        for cut in 1..<bytes.count {
            var buffer = GPSDLineBuffer()
            let pieces = split([Array(bytes[..<cut]), Array(bytes[cut...])], into: &buffer)
            #expect(pieces == expected, "cut at \(cut)")
            #expect(buffer.bufferedByteCount == 0)
        }
        #expect(split(text.map { String($0) }) == expected, "one byte per read")
    }

    @Test("A bare LF ends a line too; empty lines make nothing; an unfinished line waits for its newline")
    func bareNewlinesAndRest() {
        var buffer = GPSDLineBuffer()
        #expect(split([Array("a\n\n\r\nb".utf8)], into: &buffer) == [.line("a")])
        #expect(buffer.bufferedByteCount == 1)
        #expect(split([Array("c\r\n".utf8)], into: &buffer) == [.line("bc")])
    }

    @Test("A line of exactly the limit (CR included) is a line; one byte more is told once, dropped, and the next line is read")
    func limit() {
        let max = GPSDLineBuffer.maximumLineLength
        let atLimit = String(repeating: "x", count: max - 1) + "\r\n"
        #expect(split([atLimit]) == [.line(String(repeating: "x", count: max - 1))])

        let over = String(repeating: "y", count: max) + "\r\n" + "next\r\n"
        let prefix = String(repeating: "y", count: GPSDLineBuffer.reportedPrefixLength)
        #expect(split([over]) == [.overlong(prefix: prefix), .line("next")])
        #expect(split(over.map { String($0) }) == [.overlong(prefix: prefix), .line("next")], "one byte per read")
    }

    @Test("An endless line (4 MiB in 64 KiB reads, no newline) holds at most the limit and is told once")
    func endlessLine() {
        var buffer = GPSDLineBuffer()
        let read = [UInt8](repeating: UInt8(ascii: "z"), count: 65_536)
        var pieces: [Piece] = []
        for _ in 0..<64 {
            pieces += split([read], into: &buffer)
            #expect(buffer.bufferedByteCount <= GPSDLineBuffer.maximumLineLength)
        }
        #expect(pieces.count == 1)
        #expect(pieces.first == .overlong(prefix: String(repeating: "z", count: GPSDLineBuffer.reportedPrefixLength)))
        #expect(split([Array("\r\nafter\r\n".utf8)], into: &buffer) == [.line("after")])
    }

    @Test("Invalid UTF-8 is repaired into a line (the report parser refuses it), not a crash")
    func invalidUTF8() {
        var buffer = GPSDLineBuffer()
        #expect(split([[0x7B, 0xFF, 0xFE, 0x7D, 0x0A]], into: &buffer) == [.line("{\u{FFFD}\u{FFFD}}")])
    }
}
