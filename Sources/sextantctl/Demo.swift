import ArgumentParser
import Foundation
import SextantClient
import SextantProtocol

/// `sextantctl demo`: a private daemon, a sample app, a prompt answered, a replayed walk,
/// a revoke; then everything stops. Ends by itself in well under a minute.
struct Demo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run a self-contained demo: a private daemon, a sample app, a prompt, a replayed walk.",
        discussion: "Needs sextant-sample-app beside sextantctl, and sextantd beside it or in ../sbin as installed (swift build builds all three).")

    @Option(help: ArgumentHelp("The trace to replay (default: the demo walk, installed in PREFIX/share/sextant or in the checkout's Traces/).", valueName: "path"), completion: .file()) var trace: String?
    @Option(
        parsing: .unconditional, help: ArgumentHelp("The replay's speed: a factor of real time, or max.", valueName: "N|max"),
        completion: Completions.speeds) var speed: String = "10"

    func validate() throws {
        guard ReplaySpeed(parsing: speed) != nil else { throw ValidationError(ReplaySpeed.optionProblem) }
    }

    func run() throws {
        try reporting {
            let tools = try DemoTools.locate()
            let tracePath = try trace ?? DemoTools.defaultTrace()
            let session = try DemoSession()
            defer { session.end() }

            step("Starting a private sextantd (runtime dir \(session.runtime))")
            try session.startDaemon(tools.sextantd)
            let control = try DemoTools.waitForControlSocket(session)
            _ = try control.call(WatchRequest(topics: [Event.prompt, Event.authorization, Event.replay, Event.promptClosed, Event.interfaceOrientation]))

            let app = "com.example.demo.maps"
            step("Launching the sample app \(app); it asks for location permission")
            try session.startApp(tools.sampleApp, ["--runtime-dir", session.runtime, "--app", app])

            try answerPrompt(control, app: app)
            step("Replaying \(tracePath) at \(speed == "max" ? "max speed" : speed + "×")")
            try replay(tracePath, control)

            step("Turning the device to landscape: the accelerometer's gravity moves to +x, the judge decides")
            say("      (by hand: sextantctl rotate landscapeLeft)")
            _ = try control.call(DeviceSet(orientation: .landscapeLeft))
            _ = try control.nextEvent(timeout: 10, description: "the app's interface to turn") {
                $0.method == Event.interfaceOrientation && $0.params["app"]?.stringValue == app
            }

            step("Revoking \(app)'s permission: it stops receiving locations at once")
            _ = try control.call(PermissionsSet(app: app, status: .denied))
            _ = try control.nextEvent(timeout: 10, description: "the app to hear of the revoke") {
                $0.method == Event.authorization && $0.params["app"]?.stringValue == app && $0.params["status"]?.stringValue == AuthorizationStatus.denied.rawValue
            }
            let apps = try control.call(AppsList())
            say(Apps.table(apps).split(separator: "\n").map { "  ctl │ \($0)" }.joined(separator: "\n"))

            step("Stopping the daemon (SIGTERM): it closes every session, and the app sees it go")
            let status = session.stopDaemon()
            guard status == 0 else {
                let log = (try? String(contentsOfFile: session.logPath, encoding: .utf8)) ?? ""
                throw Failure("sextantd exited with status \(status); its log:\n\(log)")
            }
            session.waitForApp(timeout: 10)
            let ctl = DemoTools.typed(DemoTools.ownDirectory() + "/sextantctl")
            step("Done. Try it yourself: \(DemoTools.typed(tools.sextantd)) & then \(ctl) status, watch, prompts list, replay start …")
        }
    }

    /// Waits for the sample app's prompt and answers it as a user would.
    private func answerPrompt(_ control: SextantConnection, app: String) throws {
        let prompt = try control.nextEvent(timeout: 15, description: "the app's permission prompt") { $0.method == Event.prompt }
        let id = prompt.params["id"]?.stringValue ?? "?"
        step("Prompt \(id): \"Allow \(app) to use your location?\"  → answering Allow While Using App (precise)")
        say("      (by hand: sextantctl prompts answer \(id) allowWhileUsing)")
        _ = try control.call(PromptsAnswer(id: id, choice: .allowWhileUsing, precise: true))
        _ = try control.nextEvent(timeout: 10, description: "the app's authorization") { $0.method == Event.authorization && $0.params["app"]?.stringValue == app }
    }

    /// Plays the walk, showing its progress about five times, until it finishes.
    private func replay(_ tracePath: String, _ control: SextantConnection) throws {
        _ = try control.call(ReplayStart(path: tracePath, speed: ReplaySpeed(parsing: speed) ?? .factor(10)))
        var lastShown = -1.0
        while true {
            let event = try control.nextEvent(timeout: 120, description: "the replay to finish") { $0.method == Event.replay }
            let position = event.params["position"]?.doubleValue ?? 0, duration = event.params["duration"]?.doubleValue ?? 0
            let state = event.params["state"]?.stringValue
            if position - lastShown >= duration / 5 || state == "finished" {
                lastShown = position
                say(String(format: "  ctl │ replay %@ %5.1f/%.1fs (%3.0f%%)", state ?? "?", position, duration, duration > 0 ? 100 * position / duration : 100))
                fflush(nil)
            }
            if state == "finished" || state == "stopped" { break }
        }
    }

    private func step(_ text: String) {
        say("▸ \(text)")
        fflush(nil)
    }
}
