import Foundation
import SextantTestSupport
import Testing

@Suite("The demo")
struct DemoTests {
    @Test("sextantctl demo runs a private daemon and the sample app end to end and exits 0 by itself")
    func demoRunsToTheEnd() throws {
        let trace = Repository.root + "/Traces/demo-walk.jsonl"
        let result = try run([Binaries.sextantctl, "demo", "--trace", trace, "--speed", "50"])
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        let out = result.stdout
        #expect(out.contains("permission: authorizedWhenInUse, full accuracy"), "\(out)")
        #expect(out.contains("replay finished"), "\(out)")
        #expect(out.contains("interface orientation: portrait → landscapeRight"), "\(out)")
        #expect(out.contains("authorization changed: denied"), "\(out)")
        #expect(out.contains("the daemon went away"), "the app sees the daemon stop: \(out)")
        #expect(out.components(separatedBy: "  app │ location ").count > 50, "the walk's fixes reach the app")
        // Issue 43.11: a build folder is on no PATH: the closing line gives the paths.
        #expect(out.contains("Try it yourself: \(Binaries.sextantd) & then \(Binaries.sextantctl) status"), "\(out)")
    }

    @Test("issue 43.11: with the programs on PATH (installed), the demo's closing line names them as typed: sextantd &")
    func closingLineByNameOnPath() throws {
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = Binaries.directory + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        let result = try run(
            [Binaries.sextantctl, "demo", "--trace", Repository.root + "/Traces/demo-walk.jsonl", "--speed", "max"], environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Try it yourself: sextantd & then sextantctl status"), "\(result.stdout)")
    }
}

/// issue 24.5: however the demo is stopped, nothing it started is left: no daemon, no
/// sample app, no `sextant-demo-PID` directory. The demo runs at real speed (the walk lasts
/// 90 s), so that it is stopped mid-walk; each test gives it a TMPDIR of its own.
@Suite("The demo stopped early", .serialized)
struct DemoInterruptedTests {
    private let temporary: TemporaryDirectory

    init() throws { temporary = try TemporaryDirectory("demotest") }

    /// The demo, its standard output a pipe, once it has printed a line starting with `until`;
    /// with the pids of the processes naming its directory (the daemon and the app).
    private func startDemo(until marker: String, extra: [String] = []) throws -> (process: Process, output: Pipe, children: [pid_t]) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Binaries.sextantctl)
        process.arguments = ["demo", "--trace", Repository.root + "/Traces/demo-walk.jsonl", "--speed", "1"]
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = temporary.path
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try launch(process)
        var seen: [String] = []
        while !(seen.last ?? "").hasPrefix(marker) {
            seen.append(try readLine(output.fileHandleForReading.fileDescriptor, timeout: 60))
        }
        let children = processes(naming: temporary.path)
        return (process, output, children)
    }

    /// The demo and every child ended (waited on with a deadline: they are not the test's
    /// children), the directory gone; what is left is killed so that the suite goes on.
    private func expectNothingLeft(_ demo: pid_t, _ children: [pid_t], sourceLocation: SourceLocation = #_sourceLocation) throws {
        defer { for pid in [demo] + children where RunCommandTests.isRunning(pid) { kill(pid, SIGKILL) } }
        for pid in [demo] + children {
            _ = try poll(timeout: 30, failure: { "process \(pid) is still running: \(RunCommandTests.commandLine(pid))" }) {
                RunCommandTests.isRunning(pid) ? nil : ()
            }
        }
        _ = try poll(timeout: 30, failure: { "left in TMPDIR: \((try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? [])" }) {
            ((try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []).isEmpty ? () : nil
        }
    }

    @Test("issue 24.5: SIGINT or SIGTERM on sextantctl demo stops its daemon and sample app and removes its directory", arguments: [SIGINT, SIGTERM])
    func signalStopsEverything(signal: Int32) throws {
        let (process, output, children) = try startDemo(until: "▸ Replaying")
        #expect(children.count == 2, "the daemon and the app name the demo's directory: \(children.map(RunCommandTests.commandLine))")
        kill(process.processIdentifier, signal)
        try expectNothingLeft(process.processIdentifier, children)
        #expect(waitForEnd(of: process) == 128 + signal)
        output.fileHandleForReading.closeFile()
    }

    @Test("issue 24.5: sextantctl demo | head -3 (its output's reader gone) stops its daemon and sample app and removes its directory")
    func closedOutputStopsEverything() throws {
        let (process, output, children) = try startDemo(until: "▸ Replaying")
        #expect(children.count == 2, "\(children.map(RunCommandTests.commandLine))")
        output.fileHandleForReading.closeFile()
        try expectNothingLeft(process.processIdentifier, children)
        #expect(waitForEnd(of: process) == 128 + SIGPIPE, "ends as a shell reports a closed pipe")
    }

    @Test("issue 24.5: demo --speed takes ReplaySpeed's one range and message, max included")
    func speedRange() throws {
        for bad in ["-1", "1e9", "fast"] {
            let result = try run([Binaries.sextantctl, "demo", "--speed", bad])
            #expect(result.status == 64 && result.stderr.contains("--speed must be \"max\" or a number from 0.001 to 1000000"), "\(bad): \(result.stderr)")
        }
    }
}
