import SextantProtocol
import Testing

@Suite("JSON values")
struct JSONTests {
    @Test("Parses every JSON type and keeps integers apart from floats")
    func parsesTypes() throws {
        let value = try JSONValue.parse(#"{"a":1,"b":-2.5,"c":"x","d":[true,false,null],"e":{},"f":1e3,"g":-0}"#)
        #expect(value["a"] == .int(1))
        #expect(value["b"] == .double(-2.5))
        #expect(value["c"] == .string("x"))
        #expect(value["d"] == .array([.bool(true), .bool(false), .null]))
        #expect(value["e"] == .object([:]))
        #expect(value["f"] == .double(1000))
        #expect(value["g"] == .int(0))
    }

    @Test("Decodes escapes, including surrogate pairs")
    func escapes() throws {
        #expect(try JSONValue.parse(#""a\"b\\c\/d\n\t\u00e9\ud83d\ude00""#) == .string("a\"b\\c/d\n\té😀"))
        #expect(throws: JSONParseError.self) { try JSONValue.parse(#""\ud83d""#) }
        #expect(throws: JSONParseError.self) { try JSONValue.parse(#""\x""#) }
    }

    @Test("Rejects malformed text with the byte where it went wrong", arguments: [
        ("{\"a\":}", 6), ("[1,]", 4), ("{\"a\" 1}", 6), ("tru", 1), ("01", 2), ("1.", 3), ("\"abc", 5), ("{} x", 4), ("", 1),
        ("\"a\u{01}\"", 3),
    ])
    func rejectsMalformed(text: String, byte: Int) throws {
        do {
            _ = try JSONValue.parse(text)
            Issue.record("\(text) parsed")
        } catch {
            #expect(error.offset + 1 == byte, "\(text): \(error)")
        }
    }

    @Test("Rejects nesting deeper than 64 levels")
    func depthLimit() {
        let deep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        #expect(throws: JSONParseError.self) { try JSONValue.parse(deep) }
        let ok = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect((try? JSONValue.parse(ok)) != nil)
    }

    @Test("Serialises compactly with sorted keys; whole floats print as integers; round trip")
    func serialises() throws {
        let value: JSONValue = ["b": 1.5, "a": [1, "x\n"], "c": .double(3), "d": .null]
        #expect(value.serialized() == #"{"a":[1,"x\n"],"b":1.5,"c":3,"d":null}"#)
        #expect(try JSONValue.parse(value.serialized())["b"] == .double(1.5))
        #expect(JSONValue.string("\u{01}").serialized() == #""\u0001""#)
        #expect(JSONValue.double(.nan).serialized() == "null")
    }

    @Test("Strings with and without characters to escape: written as the escape rules say, and read back the same")
    func stringEscapes() throws {
        let cases: [(String, String)] = [
            ("plain", #""plain""#), ("2026-03-01T08:00:00.000Z", #""2026-03-01T08:00:00.000Z""#), ("", #""""#),
            ("é北🙂\u{7F}", "\"é北🙂\u{7F}\""), ("a\"b", #""a\"b""#), ("back\\slash", #""back\\slash""#),
            ("tab\there", #""tab\there""#), ("\u{1F}", #""\u001f""#), ("\r\n", #""\r\n""#), ("ok \u{0}", #""ok \u0000""#),
        ]
        for (text, written) in cases {
            #expect(JSONValue.string(text).serialized() == written, "\(text.debugDescription)")
            #expect(try JSONValue.parse(written) == .string(text))
        }
    }
}
