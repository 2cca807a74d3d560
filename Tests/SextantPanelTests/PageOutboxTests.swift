import NIOCore
import SextantProtocol
import Testing

@testable import SextantPanel

@Suite struct PageOutboxTests {
    @Test func aPageThatDoesNotReadKeepsTheNewest4096EventsAndCountsTheRest() {
        let outbox = PageOutbox()
        for index in 0..<5000 { outbox.push(event: ByteBuffer(string: "{\"n\":\(index)}")) }
        let (events, dropped) = outbox.takeEvents()
        #expect(events.count == 4096)
        #expect(dropped == 5000 - 4096)
        #expect(String(buffer: events.first!) == "{\"n\":904}")
        #expect(String(buffer: events.last!) == "{\"n\":4999}")
        // The count goes with the batch that carries it, once.
        outbox.push(event: ByteBuffer(string: "{}"))
        #expect(outbox.takeEvents().dropped == 0)
    }

    @Test func answersAreNeverDropped() {
        let outbox = PageOutbox(capacity: 2)
        for index in 0..<100 { outbox.push(answer: "\(index)") }
        for _ in 0..<10 { outbox.push(event: ByteBuffer(string: "{}")) }
        #expect(outbox.takeAnswers().count == 100)
        let (events, dropped) = outbox.takeEvents()
        #expect(events.count == 2)
        #expect(dropped == 8)
    }

    @Test func aBatchSplicesTheDaemonsLinesAsTheyAre() throws {
        let lines = [#"{"jsonrpc":"2.0","method":"location","params":{"lat":1}}"#, #"{"jsonrpc":"2.0","method":"prompt","params":{}}"#]
        let frame = PageSession.batch(lines.map { ByteBuffer(string: $0) }, dropped: 3)
        let parsed = try JSONValue.parse(String(buffer: frame))
        #expect(parsed["events"]?.arrayValue?.count == 2)
        #expect(parsed["events"]?.arrayValue?.first?["method"] == "location")
        #expect(parsed["dropped"] == 3)
        #expect(try JSONValue.parse(String(buffer: PageSession.batch([], dropped: 0))) == ["events": []])
    }
}

@Suite struct PageRequestTests {
    func error(_ text: String) -> (Int, String)? {
        guard case .failure(let answer) = PageRequest.read(ByteBuffer(string: text)), case .failure(let error) = answer.outcome else { return nil }
        return (error.code, error.message)
    }

    @Test func badRequestsAreAnsweredWithTheCodeAndWhatWasWrong() {
        #expect(error("{nope")?.0 == -32700)
        #expect(error("[1]")?.0 == -32600)
        #expect(error(#"{"id": 1, "method": 7}"#).map { $0.0 == -32600 && $0.1.contains("method") } == true)
        #expect(error(#"{"id": 1, "method": "status", "params": [1]}"#).map { $0.0 == -32602 && $0.1.contains("status") } == true)
        #expect(error(#"{"id": {}, "method": "status"}"#)?.0 == -32600)
        let big = #"{"id": 1, "method": "status", "params": {"x": ""# + String(repeating: "a", count: 70_000) + #""}}"#
        #expect(error(big).map { $0.0 == -32600 && $0.1.contains("64 KiB") } == true)
    }

    @Test func aGoodRequestKeepsItsIdMethodAndParams() throws {
        guard case .success(let request) = PageRequest.read(ByteBuffer(string: #"{"id": "a", "method": "device.set", "params": {"orientation": "portrait"}}"#)) else {
            Issue.record("refused")
            return
        }
        #expect(request.id == "a")
        #expect(request.method == "device.set")
        #expect(request.params?["orientation"] == "portrait")
    }
}

@Suite struct PanelAccessTests {
    @Test func theTokenIs32RandomBytesInHex() {
        let token = PanelAccess.makeToken()
        #expect(token.count == 64)
        #expect(token.allSatisfy { $0.isHexDigit })
        #expect(token != PanelAccess.makeToken())
    }

    @Test func onlyThePanelsOwnHostAndOriginAreAllowed() {
        let access = PanelAccess(listen: .loopback)
        access.bound(to: 4321)
        #expect(access.allowsHost("127.0.0.1:4321"))
        #expect(access.allowsHost("localhost:4321"))
        #expect(!access.allowsHost("evil.example:4321"))
        #expect(!access.allowsHost("127.0.0.1:80"))
        #expect(!access.allowsHost(nil))
        #expect(access.allowsOrigin("http://localhost:4321", host: "localhost:4321"))
        #expect(!access.allowsOrigin("http://evil.example", host: "127.0.0.1:4321"))
        #expect(!access.allowsOrigin("null", host: "127.0.0.1:4321"))
        #expect(!access.allowsOrigin(nil, host: "127.0.0.1:4321"))
    }

    @Test func aWildcardListenerAnswersToAddressesNotNames() throws {
        let access = PanelAccess(listen: try ListenAddress(parsing: "0.0.0.0:4321"))
        #expect(access.allowsHost("192.0.2.7:4321"))
        #expect(!access.allowsHost("rebound.example:4321"))
        #expect(throws: PanelError.self) { try ListenAddress(parsing: "example.com:80") }
        #expect(throws: PanelError.self) { try ListenAddress(parsing: "127.0.0.1:99999") }
    }

    @Test func theTileHostIsTheOnlyOtherImageSource() {
        #expect(ContentPolicy.tileSource("https://{s}.tile.example/{z}/{x}/{y}.png") == "https://*.tile.example")
        #expect(ContentPolicy.tileSource("http://127.0.0.1:8080/{z}/{x}/{y}.png") == "http://127.0.0.1:8080")
        #expect(ContentPolicy.tileSource("javascript:alert(1)") == nil)
        #expect(ContentPolicy.tileSource("https://a.example';script-src *") == nil)
    }
}
