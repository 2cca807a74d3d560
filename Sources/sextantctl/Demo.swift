import ArgumentParser
import Foundation
import SextantClient
import SextantProtocol

/// `sextantctl demo`: a private daemon, a sample app, a prompt answered, a replayed walk,
/// a revoke; then everything stops. Ends by itself in well under a minute.
struct Demo: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a self-contained demo: a private daemon, a sample app, a prompt, a replayed walk.",
        discussion: "Needs sextant-sample-app beside sextantctl, and sextantd beside it or in ../sbin as installed (swift build builds all three).")

    @Option(help: ArgumentHelp("The trace to replay (default: the demo walk, installed in PREFIX/share/sextant or in the checkout's Traces/).", valueName: "path"), completion: .file()) var trace: String?
    @Option(help: "Replay speed factor.") var speed: Double = 10

    func run() throws {
        try reporting {
            let tools = try DemoTools.locate()
            let tracePath = try trace ?? DemoTools.defaultTrace()
            let work = FileManager.default.temporaryDirectory.appendingPathComponent("sextant-demo-\(getpid())").path
            try? FileManager.default.removeItem(atPath: work)
            try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: work) }
            let runtime = work + "/run", logPath = work + "/sextantd.log"

            step("Starting a private sextantd (runtime dir \(runtime))")
            // Only the demo's own trace and hand-set values: no live gpsd, no live sensors.
            let daemon = try DemoTools.spawn(
                tools.sextantd, ["--runtime-dir", runtime, "--state-dir", work + "/state", "--log-level", "notice", "--no-gpsd", "--no-iio"],
                stderrTo: logPath)
            defer { DemoTools.stop(daemon) }
            let control = try DemoTools.waitForControlSocket(runtime: runtime, daemon: daemon, log: logPath)
            _ = try control.call(WatchRequest(topics: [Event.prompt, Event.authorization, Event.replay, Event.promptClosed, Event.interfaceOrientation]))

            let app = "com.example.demo.maps"
            step("Launching the sample app \(app); it asks for location permission")
            let appProcess = try DemoTools.spawn(tools.sampleApp, ["--runtime-dir", runtime, "--app", app])
            defer { DemoTools.stop(appProcess) }

            try answerPrompt(control, app: app)
            step("Replaying \(tracePath) at \(speed)×")
            try replay(tracePath, control)

            step("Turning the device to landscape: the accelerometer's gravity moves to +x, the judge decides")
            print("      (by hand: sextantctl rotate landscapeLeft)")
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
            print(Apps.table(apps).split(separator: "\n").map { "  ctl │ \($0)" }.joined(separator: "\n"))

            step("Stopping the daemon (SIGTERM): it closes every session, and the app sees it go")
            let status = DemoTools.stop(daemon)
            guard status == 0 else { throw Failure("sextantd exited with status \(status); its log: \(logPath)") }
            DemoTools.waitForExit(appProcess, timeout: 10)
            step("Done. Try it yourself: sextantd & then sextantctl status, watch, prompts list, replay start …")
        }
    }

    /// Waits for the sample app's prompt and answers it as a user would.
    private func answerPrompt(_ control: SextantConnection, app: String) throws {
        let prompt = try control.nextEvent(timeout: 15, description: "the app's permission prompt") { $0.method == Event.prompt }
        let id = prompt.params["id"]?.stringValue ?? "?"
        step("Prompt \(id): \"Allow \(app) to use your location?\"  → answering Allow While Using App (precise)")
        print("      (by hand: sextantctl prompts answer \(id) allowWhileUsing)")
        _ = try control.call(PromptsAnswer(id: id, choice: .allowWhileUsing, precise: true))
        _ = try control.nextEvent(timeout: 10, description: "the app's authorization") { $0.method == Event.authorization && $0.params["app"]?.stringValue == app }
    }

    /// Plays the walk, showing its progress about five times, until it finishes.
    private func replay(_ tracePath: String, _ control: SextantConnection) throws {
        _ = try control.call(ReplayStart(path: tracePath, speed: .factor(speed)))
        var lastShown = -1.0
        while true {
            let event = try control.nextEvent(timeout: 120, description: "the replay to finish") { $0.method == Event.replay }
            let position = event.params["position"]?.doubleValue ?? 0, duration = event.params["duration"]?.doubleValue ?? 0
            let state = event.params["state"]?.stringValue
            if position - lastShown >= duration / 5 || state == "finished" {
                lastShown = position
                print(String(format: "  ctl │ replay %@ %5.1f/%.1fs (%3.0f%%)", state ?? "?", position, duration, duration > 0 ? 100 * position / duration : 100))
                fflush(nil)
            }
            if state == "finished" || state == "stopped" { break }
        }
    }

    private func step(_ text: String) {
        print("▸ \(text)")
        fflush(nil)
    }
}

enum DemoTools {
    struct Tools {
        var sextantd: String
        var sampleApp: String
    }

    /// The directory sextantctl runs from, links resolved.
    static func ownDirectory() -> String {
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return (me as NSString).deletingLastPathComponent
    }

    /// The sample app lives beside sextantctl; sextantd too in a build folder, and in the
    /// sibling sbin once installed (PREFIX/bin/sextantctl, PREFIX/sbin/sextantd).
    static func locate() throws -> Tools {
        let directory = ownDirectory()
        let daemons = [directory + "/sextantd", (directory as NSString).deletingLastPathComponent + "/sbin/sextantd"]
        let tools = Tools(
            sextantd: daemons.first(where: FileManager.default.isExecutableFile) ?? daemons[0],
            sampleApp: directory + "/sextant-sample-app")
        for path in [tools.sextantd, tools.sampleApp] where !FileManager.default.isExecutableFile(atPath: path) {
            throw Failure("\(path) is missing: build everything first (swift build)")
        }
        return tools
    }

    /// The demo walk: installed in PREFIX/share/sextant (sextantctl being PREFIX/bin/sextantctl),
    /// else in a checkout's Traces/, from the current directory or from the build folder up.
    static func defaultTrace() throws -> String {
        var directory = ownDirectory()
        var candidates = [
            (directory as NSString).deletingLastPathComponent + "/share/sextant/demo-walk.jsonl",
            FileManager.default.currentDirectoryPath + "/Traces/demo-walk.jsonl",
        ]
        for _ in 0..<5 {
            candidates.append(directory + "/Traces/demo-walk.jsonl")
            directory = (directory as NSString).deletingLastPathComponent
        }
        guard let found = candidates.first(where: FileManager.default.fileExists) else {
            throw Failure("the demo walk is in none of \(candidates.prefix(2).joined(separator: ", ")), ...: pass --trace")
        }
        return URL(fileURLWithPath: found).standardizedFileURL.path
    }

    static func spawn(_ path: String, _ arguments: [String], stderrTo log: String? = nil) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        if let log {
            _ = FileManager.default.createFile(atPath: log, contents: nil)
            process.standardError = FileHandle(forWritingAtPath: log)
        }
        try process.run()
        return process
    }

    /// Connects as soon as the daemon listens; fails with its log if it exits first.
    static func waitForControlSocket(runtime: String, daemon: Process, log: String) throws -> SextantConnection {
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline {
            if let connection = try? SextantConnection.control(runtimeDirectory: runtime) { return connection }
            if !daemon.isRunning {
                let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
                throw Failure("sextantd exited at start:\n\(text)")
            }
            usleep(20_000)  // polling a socket that does not exist yet: nothing to wait on
        }
        throw Failure("sextantd did not open its control socket within 15 s; its log: \(log)")
    }

    /// Waits for a process that should end by itself; kills it if it does not in time.
    static func waitForExit(_ process: Process, timeout: Double) {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { usleep(20_000) }  // Process offers no timed wait
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// SIGTERM, then the exit status.
    @discardableResult
    static func stop(_ process: Process) -> Int32 {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
