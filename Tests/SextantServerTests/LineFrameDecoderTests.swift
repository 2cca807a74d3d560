import NIOCore
import NIOEmbedded
import Testing

@testable import SextantHub
@testable import SextantServer
@testable import SextantSocketFace

@Suite("NDJSON framing")
struct LineFrameDecoderTests {
    private func frames(_ chunks: [String], max: Int = 16) throws -> [String] {
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(LineFrameDecoder(maxLength: max)))
        for chunk in chunks { try channel.writeInbound(ByteBuffer(string: chunk)) }
        var out: [String] = []
        while let frame = try channel.readInbound(as: InboundFrame.self) {
            switch frame {
            case .line(let buffer): out.append(String(buffer: buffer))
            case .tooLong: out.append("<too long>")
            }
        }
        _ = try? channel.finish()
        return out
    }

    @Test("Lines split across reads and several lines in one read")
    func splitsLines() throws {
        #expect(try frames(["ab", "c\nde", "f\n\ng\n"]) == ["abc", "def", "", "g"])
    }

    @Test("A line of exactly the limit passes; one byte more is too long, with or without its newline")
    func limit() throws {
        #expect(try frames([String(repeating: "x", count: 16) + "\n"]) == [String(repeating: "x", count: 16)])
        #expect(try frames([String(repeating: "x", count: 17) + "\n"]) == ["<too long>"])
        #expect(try frames([String(repeating: "x", count: 10), String(repeating: "x", count: 10)]) == ["<too long>"])
    }
}
