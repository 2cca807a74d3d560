import Foundation
import Testing

@testable import SextantTraces

/// A GPX file is checked in pieces as the parser pulls it (`GPXCheckedInput`): the same
/// problem on the same line as `GPXPreflight` finds in the whole file, wherever the pieces
/// are cut (a UTF-8 sequence, a DOCTYPE, an XML declaration across two reads).
@Suite("GPX preflight in pieces")
struct GPXPreflightScanTests {
    static let inputs: [[UInt8]] = {
        let texts = [
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"2\"/></trkseg></trk></gpx>\n",
            "<?xml version='1.0' encoding='UTF-16'?>\n<gpx/>",
            "<?xml version=\"1.0\"?>\n<gpx>\n<?x?>\n</gpx>",
            "<gpx>\n<!DOCTYPE gpx [<!ENTITY a \"b\">]>\n</gpx>",
            "<gpx>\n<!DOCTYP\n</gpx>",
            "<gpx>é ü 漢字 😀\n<name>Zoë</name></gpx>",
            "  \n\t ",
            "<gpx>\n<?x?>\n\u{0}</gpx>",
            "<gpx><?xml-stylesheet href='a.css'?>\n<?xml encoding=\"latin1\"?></gpx><",
        ]
        var inputs = texts.map { Array($0.utf8) }
        // Not UTF-8: a lone continuation byte, a surrogate, an overlong form, a sequence cut
        // by the end, each after a markup problem on an earlier line.
        for bad: [UInt8] in [[0x80], [0xED, 0xA0, 0x80], [0xC0, 0xAF], [0xE2, 0x82], [0xF0, 0x9F, 0x98]] {
            inputs.append(Array("<gpx>\n<?x?>\nab".utf8) + bad + Array("\n</gpx>".utf8))
            inputs.append(Array("<gpx>".utf8) + bad)
        }
        return inputs
    }()

    @Test("Cut into pieces of 1 to 9 bytes, every input gives the whole-file check's problem and line")
    func sameProblem() {
        for bytes in Self.inputs {
            let whole = GPXPreflight.problem(in: Data(bytes))
            for piece in 1...9 {
                let input = GPXCheckedInput { pointer, count, offset in
                    let length = max(0, min(count, piece, bytes.count - Int(offset)))
                    bytes.withUnsafeBytes { if length > 0 { pointer.copyMemory(from: $0.baseAddress! + Int(offset), byteCount: length) } }
                    return length
                }
                input.finish()
                let streamed = input.problem
                #expect(streamed?.line == whole?.line && streamed?.reason == whole?.reason, "\(String(decoding: bytes, as: UTF8.self)) in pieces of \(piece)")
                let blank = bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
                if whole == nil { #expect(input.scan.sawContent == !blank) }
            }
        }
    }
}
