import SextantProtocol
import Testing

@Suite("JSON-RPC envelope")
struct RPCTests {
    @Test("Requests, notifications and responses decode; bad envelopes give -32600 with the id when it is readable")
    func decode() throws {
        let request = try JSONValue.parse(#"{"jsonrpc":"2.0","id":7,"method":"hello","params":{"app":"x"}}"#)
        #expect(RPCMessage.decode(request) == .success(.request(id: 7, method: "hello", params: ["app": "x"])))
        let note = try JSONValue.parse(#"{"jsonrpc":"2.0","method":"location","params":{}}"#)
        #expect(RPCMessage.decode(note) == .success(.notification(method: "location", params: [:])))

        func failure(_ text: String) throws -> RPCDecodeFailure? {
            if case .failure(let f) = RPCMessage.decode(try JSONValue.parse(text)) { return f }
            return nil
        }
        #expect(try failure(#"{"jsonrpc":"1.0","id":3,"method":"x"}"#) == RPCDecodeFailure(id: 3, error: RPCError(.invalidRequest, "\"jsonrpc\" must be \"2.0\"")))
        #expect(try failure(#"{"jsonrpc":"2.0","id":3,"method":5}"#)?.error.code == -32600)
        #expect(try failure(#"{"jsonrpc":"2.0","id":{},"method":"x"}"#)?.id == .null)
        #expect(try failure(#"{"jsonrpc":"2.0","id":1,"method":"x","params":3}"#)?.error.code == -32600)
        #expect(try failure("[]")?.error.code == -32600)
    }

    @Test("A request id comes back exactly as sent: -0, 1.0, 1e2, 2^63, 2^64 and ordinary ids alike")
    func idsComeBackAsSent() throws {
        for id in ["-0", "1.0", "1e2", "1E+2", "-1.50", "9223372036854775808", "18446744073709551616", "7", "-3", "0.5", "\"x\"", "null"] {
            let request = try JSONValue.parse(#"{"jsonrpc":"2.0","id":"# + id + #","method":"m"}"#)
            guard case .success(.request(let parsedID, _, _)) = RPCMessage.decode(request) else {
                Issue.record("id \(id) did not decode as a request")
                continue
            }
            let answer = RPCMessage.response(id: parsedID, result: .null).line
            #expect(answer == #"{"id":"# + id + #","jsonrpc":"2.0","result":null}"# + "\n")
        }
        // Ordinary ids stay plain numbers; only a top-level id keeps its text.
        #expect(try JSONValue.parse(#"{"id":7}"#)["id"] == .int(7))
        #expect(try JSONValue.parse(#"{"id":1.0}"#)["id"] == .numberText("1.0"))
        #expect(try JSONValue.parse(#"{"id":1.0}"#)["id"]?.doubleValue == 1)
        #expect(try JSONValue.parse(#"{"params":{"id":1.0}}"#)["params"]?["id"] == .double(1))
    }

    @Test("Params report the field and what it should be")
    func params() throws {
        let p = try Params(["level": "sometimes", "n": "x", "ok": true])
        #expect(throws: RPCError(.invalidParams, "\"level\" must be one of: whenInUse, always (got \"sometimes\")")) {
            try p.name("level", as: AuthorizationLevel.self)
        }
        #expect(throws: RPCError(.invalidParams, "\"n\" must be a number")) { try p.number("n") }
        #expect(try p.bool("ok") == true)
        #expect(try p.string("missing") == nil)
        #expect(throws: RPCError(.invalidParams, "params must be an object of named parameters")) { try Params([1]) }
    }

    @Test("App ids: 1 to 255 of [A-Za-z0-9._-]")
    func appIDs() {
        #expect(AppID.isValid("com.example.maps"))
        #expect(AppID.isValid("a"))
        #expect(AppID.isValid(String(repeating: "a", count: 255)))
        #expect(!AppID.isValid(String(repeating: "a", count: 256)))
        #expect(!AppID.isValid(""))
        #expect(!AppID.isValid("com example"))
        #expect(!AppID.isValid("é"))
    }
}
