import Testing

@testable import SextantPanel

/// The frame headers read in the raw bytes after the upgrade's head (issue 36.14: a client
/// frame without its mask closes the socket with 1002).
struct FrameHeaderScannerTests {
    static let head = Array("GET /ws HTTP/1.1\r\nHost: h\r\n\r\n".utf8)

    static func frame(_ payload: Int, masked: Bool) -> [UInt8] {
        var bytes: [UInt8] = [0x81]
        let bit: UInt8 = masked ? 0x80 : 0
        if payload < 126 {
            bytes.append(bit | UInt8(payload))
        } else if payload <= 0xFFFF {
            bytes += [bit | 126, UInt8(payload >> 8), UInt8(payload & 0xFF)]
        } else {
            bytes += [bit | 127] + (0..<8).reversed().map { UInt8((payload >> ($0 * 8)) & 0xFF) }
        }
        if masked { bytes += [1, 2, 3, 4] }
        // A payload of 0x00 bytes: were it read as headers, it would be unmasked ones.
        return bytes + [UInt8](repeating: 0, count: payload)
    }

    @Test func maskedFramesOfEveryLengthPassAndTheHeadIsNotAFrame() {
        var scanner = FrameHeaderScanner()
        scanner.read(Self.head + Self.frame(5, masked: true) + Self.frame(300, masked: true) + Self.frame(70_000, masked: true))
        #expect(!scanner.sawUnmasked)
    }

    @Test func anUnmaskedFrameAfterOthersIsSeenEvenSplitAcrossReads() {
        var scanner = FrameHeaderScanner()
        let bytes = Self.head + Self.frame(300, masked: true) + Self.frame(3, masked: false)
        for index in stride(from: 0, to: bytes.count, by: 7) { scanner.read(bytes[index..<min(index + 7, bytes.count)]) }
        #expect(scanner.sawUnmasked)
    }

    @Test func bytesBeforeTheHeadsEndAreNotFrames() {
        var scanner = FrameHeaderScanner()
        scanner.read(Array("GET /ws HTTP/1.1\r\n".utf8) + [0x81, 0x05])
        #expect(!scanner.sawUnmasked)
    }
}
