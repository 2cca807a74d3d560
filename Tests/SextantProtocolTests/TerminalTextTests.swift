import SextantProtocol
import Testing

/// Issue 36.11: the one escaping of what others wrote before a terminal or a log.
@Suite("TerminalText: control characters and bidi controls made visible")
struct TerminalTextTests {
    @Test("C0, DEL, C1 and the bidi controls are escaped; printable text, accents and backslashes are kept as they are")
    func escapes() {
        #expect(TerminalText.escaped("a\u{1B}[31mb\r\n\t\u{7F}\u{9B}c") == #"a\x1b[31mb\r\n\t\x7f\u{9b}c"#)
        #expect(TerminalText.escaped("\u{202E}gpj.exe\u{2066}\u{200F}\u{061C}\u{2028}") == #"\u{202e}gpj.exe\u{2066}\u{200f}\u{61c}\u{2028}"#)
        #expect(TerminalText.escaped(#"Café 東京 a\x1b"#) == #"Café 東京 a\x1b"#)
        #expect(TerminalText.escapedKeepingLines("one\ntwo\u{1B}\tthree\r") == "one\ntwo\\x1b\tthree\\r")
    }

    @Test("JSON for a terminal: DEL, C1 and bidi controls as \\u escapes, the same JSON read back")
    func json() throws {
        let value = JSONValue.object(["id": .string("a\u{7F}\u{85}\u{202E}b\u{1B}")])
        let text = TerminalText.jsonForTerminal(value.serialized())
        #expect(!text.unicodeScalars.contains(where: TerminalText.isUnsafe), "\(text.debugDescription)")
        #expect(text.contains(#"\u007f\u0085\u202e"#), "\(text)")
        #expect(try JSONValue.parse(text) == value)
    }
}
