import Foundation
import NIOCore
import SextantCore
import SextantProtocol
import Testing

@testable import SextantHub
@testable import SextantServer

/// The Motion & Fitness prompt and Android's ACTIVITY_RECOGNITION dialog through app.sock
/// and control.sock, in process (docs/motion.md A13–A16).
@Suite("Motion permission prompts, in process (A13–A16)", .timeLimit(.minutes(1)))
struct MotionPromptHubTests {
    static let app = "com.example.fit"

    static func setUp(_ platform: DevicePlatform, hello: [String: JSONValue]) async throws -> (InProcessHub, TestClient, TestClient) {
        let hub = try InProcessHub { $0.platform = platform }
        let control = try await hub.connect(.control)
        let app = try await hub.connect(.app)
        _ = try await app.call(Method.hello, .object(["app": .string(Self.app)].merging(hello) { $1 }))
        return (hub, control, app)
    }

    /// Sends a request whose answer is read later (`app.response(to: id)`).
    static func send(_ app: TestClient, _ id: Int, _ method: String) async throws {
        try await app.send(#"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)"}"#)
    }

    @Test("A13: iOS's activity.start from notDetermined opens the motionFitness prompt and waits; OK (allow) starts it and stores authorized")
    func testA13_startWaitsForThePrompt() async throws {
        let (hub, control, app) = try await Self.setUp(.ios, hello: ["motionUsageDescription": "Counts your steps"])
        defer { withExtendedLifetime(hub) {} }
        try await Self.send(app, 100, Method.activityStart)
        try await Self.send(app, 101, Method.pedometerStart)
        let prompts = try await control.call(Method.promptsList).arrayValue ?? []
        #expect(prompts.count == 1 && prompts.first?["kind"] == "motionFitness", "one prompt, joined: \(prompts)")
        let answered = try await control.call(Method.promptsAnswer, ["id": prompts[0]["id"] ?? .null, "choice": "allow"])
        #expect(answered["kind"] == "motionFitness" && answered["choice"] == "allow")
        #expect(try await app.response(to: 100)["result"] == [:])
        #expect(try await app.response(to: 101)["result"] == [:])
        #expect(try await app.call(Method.activityAuthorization)["status"] == "authorized")
        #expect(try await control.call(Method.motionPermissionsList) == [["app": .string(Self.app), "status": "authorized"]])
    }

    @Test("A13: Don't Allow answers the waiting query with 1001 denied; A14: without motionUsageDescription no prompt opens")
    func testA13_dontAllowAndA14() async throws {
        let (hub, control, app) = try await Self.setUp(.ios, hello: ["motionUsageDescription": "Counts your steps"])
        defer { withExtendedLifetime(hub) {} }
        try await app.send(#"{"jsonrpc":"2.0","id":100,"method":"activity.query","params":{"from":"2026-03-01T08:00:00Z","to":"2026-03-01T09:00:00Z"}}"#)
        _ = try await control.call(Method.promptsAnswer, ["app": .string(Self.app), "kind": "motionFitness", "choice": "dontAllow"])
        let refused = try await app.response(to: 100)["error"]
        #expect(refused?["code"] == 1001 && refused?["data"]?["status"] == "denied", "\(String(describing: refused))")
        let bare = try await hub.connect(.app)
        _ = try await bare.call(Method.hello, ["app": "com.example.plain"])
        let error = try await bare.request(Method.activityStart)["error"]
        #expect(error?["code"] == 1001 && error?["message"]?.stringValue?.contains("NSMotionUsageDescription") == true)
        #expect(try await control.call(Method.promptsList) == [])
    }

    @Test("A15: Android's starts never prompt; activity.requestAuthorization opens the dialog; Allow grants; twice denied, no more dialog")
    func testA15_androidRequest() async throws {
        let (hub, control, app) = try await Self.setUp(.android(api: 34), hello: ["androidPermissions": ["ACTIVITY_RECOGNITION"]])
        defer { withExtendedLifetime(hub) {} }
        #expect(try await app.errorCode(Method.activityStart) == 1001)
        #expect(try await control.call(Method.promptsList) == [])
        for id in [100, 101] {
            try await Self.send(app, id, Method.activityRequestAuthorization)
            _ = try await control.call(Method.promptsAnswer, ["app": .string(Self.app), "kind": "androidActivityRecognition", "choice": "dontAllow"])
            #expect(try await app.response(to: .int(Int64(id)))["result"]?["status"] == "denied")
        }
        #expect(try await app.call(Method.activityRequestAuthorization)["status"] == "denied", "no dialog after two denials")
        #expect(try await control.call(Method.promptsList) == [])
        _ = try await control.call(Method.motionPermissionsSet, ["app": .string(Self.app), "status": "notDetermined"])
        try await Self.send(app, 102, Method.activityRequestAuthorization)
        _ = try await control.call(Method.promptsAnswer, ["app": .string(Self.app), "kind": "androidActivityRecognition", "choice": "allow"])
        #expect(try await app.response(to: 102)["result"]?["status"] == "authorized")
        #expect(try await app.call(Method.activityStart) == [:])
    }

    @Test("A16: the app going to the background cancels the prompt: the waiting start fails with 1001 notDetermined")
    func testA16_backgroundCancels() async throws {
        let (hub, control, app) = try await Self.setUp(.ios, hello: ["motionUsageDescription": "Counts your steps"])
        defer { withExtendedLifetime(hub) {} }
        try await Self.send(app, 100, Method.pedometerStart)
        _ = try await control.call(Method.appsUpdate, ["app": .string(Self.app), "state": "background"])
        let error = try await app.response(to: 100)["error"]
        #expect(error?["code"] == 1001 && error?["data"]?["status"] == "notDetermined", "\(String(describing: error))")
        #expect(try await control.call(Method.promptsList) == [])
    }
}
