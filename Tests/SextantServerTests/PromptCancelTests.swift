import NIOCore
import SextantProtocol
import Testing

@testable import SextantHub
@testable import SextantServer

/// A prompt that closes unanswered says why on the control side (issue 43.8): a tester whose
/// browser tab flickered to the background sees that L6 closed the prompt, not that it
/// vanished.
@Suite("A cancelled prompt's reason, in process", .timeLimit(.minutes(1)))
struct PromptCancelTests {
    static func closedPrompts(_ control: TestClient) async throws -> [JSONValue] {
        try await control.drainEvents().filter { $0.method == Event.promptClosed }.map(\.params)
    }

    static func asking(_ hub: InProcessHub, _ app: String) async throws -> TestClient {
        let client = try await hub.connect(.app)
        _ = try await client.call(Method.hello, ["app": .string(app)])
        try await client.send(#"{"jsonrpc":"2.0","id":"ask","method":"authorization.request","params":{"level":"whenInUse"}}"#)
        return client
    }

    @Test("L6: an app that goes to the background closes its prompt with reason appInBackground; a session that ends, sessionEnded")
    func cancelledPromptsSayWhy() async throws {
        let hub = try InProcessHub()
        let control = try await hub.connect(.control)
        _ = try await control.call(Method.watch)
        let hidden = try await Self.asking(hub, "com.example.hidden")
        let gone = try await Self.asking(hub, "com.example.gone")
        #expect(try await control.call(Method.promptsList).arrayValue?.count == 2)
        _ = try await control.drainEvents()

        _ = try await hidden.call(Method.appUpdate, ["state": "background"])
        let afterHidden = try await Self.closedPrompts(control)
        #expect(afterHidden.map { $0["app"] } == ["com.example.hidden"])
        #expect(afterHidden.first?["cancelled"] == true && afterHidden.first?["reason"] == "appInBackground")

        try await gone.channel.close()
        let afterGone = try await Self.closedPrompts(control)
        #expect(afterGone.map { $0["app"] } == ["com.example.gone"])
        #expect(afterGone.first?["cancelled"] == true && afterGone.first?["reason"] == "sessionEnded")
        #expect(try await control.call(Method.promptsList).arrayValue?.isEmpty == true)
    }
}
