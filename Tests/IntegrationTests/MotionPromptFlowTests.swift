import Foundation
import SextantClient
import SextantProtocol
import Testing

/// The motion prompts through the real sextantd, its app socket, and sextantctl answering
/// (docs/motion.md A13–A16).
@Suite("Motion permission prompts through the real daemon")
struct MotionPromptFlowTests {
    static let app = "com.example.fit"

    static func app(_ daemon: DaemonHarness, _ declarations: [String: JSONValue]) throws -> SextantConnection {
        let connection = try SextantConnection.app(runtimeDirectory: daemon.runtime)
        _ = try connection.call(Method.hello, .object(["app": .string(Self.app)].merging(declarations) { $1 }))
        return connection
    }

    @Test("A13, A16: iOS's pedometer.start waits for the motionFitness prompt; sextantctl prompts answer ID allow starts it; the status is stored")
    func iosPromptAnsweredBySextantctl() throws {
        let daemon = try DaemonHarness()
        let app = try Self.app(daemon, ["motionUsageDescription": "Counts your steps"])
        let control = try daemon.control()
        _ = try control.call(Method.watch, ["topics": ["prompt"]])
        let request = try app.send(Method.pedometerStart)
        let prompt = try control.nextEvent(timeout: 10, description: "the Motion & Fitness prompt") { $0.method == Event.prompt }
        #expect(prompt.params["kind"] == "motionFitness")
        let answered = try daemon.ctl(["prompts", "answer", try #require(prompt.params["id"]?.stringValue), "allow"])
        #expect(answered.status == 0, "\(answered.stderr)")
        #expect(try app.response(to: request) == [:])
        #expect(try control.call(Method.motionPermissionsList) == [["app": .string(Self.app), "status": "authorized"]])
    }

    @Test("A15: Android's activity.requestAuthorization opens the dialog; sextantctl answers dontAllow, then allow")
    func androidDialogAnsweredBySextantctl() throws {
        let daemon = try DaemonHarness(arguments: ["--platform", "android", "--android-api", "31"])
        let app = try Self.app(daemon, [:])
        let control = try daemon.control()
        _ = try control.call(Method.watch, ["topics": ["prompt"]])
        for (choice, status) in [("dontAllow", "denied"), ("allow", "authorized")] {
            let request = try app.send(Method.activityRequestAuthorization)
            let prompt = try control.nextEvent(timeout: 10, description: "the ACTIVITY_RECOGNITION dialog") { $0.method == Event.prompt }
            #expect(prompt.params["kind"] == "androidActivityRecognition")
            let answered = try daemon.ctl(["prompts", "answer", try #require(prompt.params["id"]?.stringValue), choice])
            #expect(answered.status == 0, "\(answered.stderr)")
            #expect(try app.response(to: request)["status"] == .string(status))
        }
        #expect(try app.call(Method.activityStart) == [:])
    }

    @Test("AN42: two ACTIVITY_RECOGNITION denials survive kill -9: after the restart no dialog opens; sextantctl permissions explain says so")
    func androidDenialsSurviveKillAN42() throws {
        let daemon = try DaemonHarness(arguments: ["--platform", "android", "--android-api", "34"])
        let app = try Self.app(daemon, [:])
        let control = try daemon.control()
        _ = try control.call(Method.watch, ["topics": ["prompt"]])
        for _ in 1...2 {
            let request = try app.send(Method.activityRequestAuthorization)
            let prompt = try control.nextEvent(timeout: 10, description: "the ACTIVITY_RECOGNITION dialog") { $0.method == Event.prompt }
            #expect(try daemon.ctl(["prompts", "answer", try #require(prompt.params["id"]?.stringValue), "dontAllow"]).status == 0)
            #expect(try app.response(to: request)["status"] == "denied")
        }
        daemon.kill9()
        try daemon.restart()
        let reopened = try Self.app(daemon, [:])
        #expect(try reopened.call(Method.activityRequestAuthorization)["status"] == "denied", "answered at once")
        #expect(try daemon.control().call(Method.promptsList) == [], "AN42: still don't ask again after the restart")
        let explained = try daemon.ctl(["permissions", "explain", Self.app])
        #expect(explained.stdout.contains("Motion:    denied (ACTIVITY_RECOGNITION, denied twice: don't ask again)"), "\(explained.stdout)")
    }
}
