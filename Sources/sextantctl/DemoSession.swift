#if canImport(Glibc)
import Glibc
#endif
import Foundation
import SextantClient
import Synchronization

/// What `sextantctl demo` starts (a private daemon, the sample app, a directory), taken down
/// however the demo ends: at its end; on SIGINT or SIGTERM; when the reader of its standard
/// output goes (`sextantctl demo | head -3`); and, through the kernel, on SIGKILL. The same
/// supervision as `run` (RunSupervision.swift): the daemon watches a pipe only the demo holds
/// and then removes the directory (`--exit-with-fd`, `--exit-removes`); the app has SIGTERM
/// as its parent-death signal (`exec-supervised`).
final class DemoSession: Sendable {
    let directory: String
    var runtime: String { directory + "/run" }
    var logPath: String { directory + "/sextantd.log" }
    /// The children still to stop, 0 once one is taken to be stopped: whoever takes a pid
    /// (the demo's end or the watcher) alone signals and reaps it.
    private let daemon = Atomic<Int32>(0)
    private let app = Atomic<Int32>(0)
    /// Set once the watcher ends the demo: the demo's own thread, seeing its connection to
    /// the stopped daemon fail, then waits for the watcher's exit instead of reporting it.
    private let stopping = Atomic<Bool>(false)

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("sextant-demo-\(getpid())").path
        try? FileManager.default.removeItem(atPath: directory)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        // A closed standard output is seen by the watcher, not as a signal that kills before cleaning up.
        signal(SIGPIPE, SIG_IGN)
        try SignalPipe.install()
        // The watcher inherits the signals unblocked; the demo's own thread then blocks them,
        // so that they reach the watcher alone.
        Thread.detachNewThread { [self] in watch() }
        var handled = sigset_t()
        sigemptyset(&handled)
        for number in [SIGINT, SIGTERM, SIGCHLD] { sigaddset(&handled, number) }
        pthread_sigmask(SIG_BLOCK, &handled, nil)
    }

    /// sextantd on the demo's directory, its log in the directory, only the demo's trace and
    /// hand-set values (no live gpsd, no live sensors); in a process group of its own, so
    /// that the demo decides when it stops.
    func startDaemon(_ sextantd: String) throws {
        let pipe = try SupervisorPipe()
        let arguments = [
            sextantd, "--runtime-dir", runtime, "--state-dir", directory + "/state", "--log-level", "notice", "--no-gpsd", "--no-iio",
            "--exit-with-fd", String(SupervisorPipe.daemonDescriptor), "--exit-removes", directory,
        ]
        let pid = try spawn(
            arguments, environment: ProcessInfo.processInfo.environment, logPath: logPath, ownProcessGroup: true,
            passing: (pipe.readEnd, SupervisorPipe.daemonDescriptor))
        close(pipe.readEnd)
        daemon.store(pid, ordering: .releasing)
    }

    /// The sample app, printing into the demo's standard output.
    func startApp(_ sampleApp: String, _ arguments: [String]) throws {
        let pid = try spawn(PrivateDaemon.supervised([sampleApp] + arguments), environment: ProcessInfo.processInfo.environment)
        app.store(pid, ordering: .releasing)
    }

    /// The daemon's exit status if it has ended (then it is reaped and forgotten), else nil.
    func daemonEnded() -> Int32? {
        let pid = daemon.load(ordering: .acquiring)
        guard pid > 0, let status = ChildExit.poll(pid) else { return nil }
        daemon.store(0, ordering: .releasing)
        return status
    }

    /// SIGTERM to the daemon, then its exit status (SIGKILL after 10 s).
    func stopDaemon() -> Int32 {
        Self.stop(daemon.exchange(0, ordering: .acquiringAndReleasing), grace: 10)
    }

    /// Waits for the app to end by itself (it does when the daemon goes), SIGKILL after `timeout` s.
    func waitForApp(timeout: Double) {
        Self.stop(app.exchange(0, ordering: .acquiringAndReleasing), grace: timeout, signal: 0)
    }

    /// Stops what is still running and removes the directory; once the watcher is ending
    /// the demo, waits for it to exit the process instead.
    func end() {
        while stopping.load(ordering: .acquiring) { pause() }
        stopAll()
    }

    private func stopAll() {
        Self.stop(app.exchange(0, ordering: .acquiringAndReleasing), grace: 5)
        Self.stop(daemon.exchange(0, ordering: .acquiringAndReleasing), grace: 10)
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Sends `signal` (none when 0), waits up to `grace` s for the end, then SIGKILL; the
    /// exit status as a shell gives it. A pid of 0 is nothing to stop.
    @discardableResult
    private static func stop(_ pid: pid_t, grace: Double, signal: Int32 = SIGTERM) -> Int32 {
        guard pid > 0 else { return 0 }
        if signal != 0 { kill(pid, signal) }
        let deadline = Date().addingTimeInterval(grace)
        while Date() < deadline {
            if let status = ChildExit.poll(pid) { return status }
            usleep(20_000)  // waitpid(2) has no timed form
        }
        kill(pid, SIGKILL)
        var raw: Int32 = 0
        waitpid(pid, &raw, 0)
        return ChildExit.status(raw)
    }

    /// On SIGINT or SIGTERM, or once standard output's reader is gone, ends the demo as a
    /// shell reports it (128 + the signal, SIGPIPE's for the closed output), children
    /// stopped and directory removed.
    private func watch() {
        // Asking for no event, poll reports POLLERR on a pipe whose reader has gone
        // (and nothing on a terminal or a file that stays writable).
        var descriptors = [pollfd(fd: SignalPipe.readEnd, events: Int16(POLLIN), revents: 0), pollfd(fd: STDOUT_FILENO, events: 0, revents: 0)]
        while true {
            guard poll(&descriptors, nfds_t(descriptors.count), -1) > 0 else { continue }
            let output = descriptors[1].revents
            if output & Int16(POLLNVAL) != 0 { descriptors[1].fd = -1 }
            if output & Int16(POLLERR | POLLHUP) != 0 { finish(128 + SIGPIPE) }
            if let stop = SignalPipe.drain().first(where: { $0.number != SIGCHLD }) { finish(128 + stop.number) }
        }
    }

    private func finish(_ status: Int32) -> Never {
        stopping.store(true, ordering: .releasing)
        stopAll()
        _exit(status)
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

    /// How a user types `program` in a shell: its name when PATH finds it there (installed),
    /// else its path (a checkout's build folder is on no PATH).
    static func typed(_ program: String) -> String {
        let directory = URL(fileURLWithPath: (program as NSString).deletingLastPathComponent).resolvingSymlinksInPath().path
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map {
            URL(fileURLWithPath: String($0)).resolvingSymlinksInPath().path
        }
        return path.contains(directory) ? (program as NSString).lastPathComponent : program
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

    /// Connects as soon as the daemon listens; fails with its log if it exits first.
    static func waitForControlSocket(_ session: DemoSession) throws -> SextantConnection {
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline {
            if let connection = try? SextantConnection.control(runtimeDirectory: session.runtime) { return connection }
            if session.daemonEnded() != nil {
                let text = (try? String(contentsOfFile: session.logPath, encoding: .utf8)) ?? ""
                throw Failure("sextantd exited at start:\n\(text)")
            }
            usleep(20_000)  // polling a socket that does not exist yet: nothing to wait on
        }
        throw Failure("sextantd did not open its control socket within 15 s; its log: \(session.logPath)")
    }
}
