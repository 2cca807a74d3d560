import Foundation
import Synchronization

/// A program run to its end: its exit status and what it printed.
public struct CommandResult: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String

    public init(status: Int32, stdout: String, stderr: String) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
    }
}

/// Starts a process, one at a time across the test run. Foundation's Process on Linux can
/// fail with "Bad file descriptor" when tests on several threads spawn at once and the
/// file handles of one launch are closed while another is being set up.
public func launch(_ process: Process) throws {
    try processLaunch.withLock { _ in try process.run() }
}

private let processLaunch = Mutex(())

/// Runs a program to completion, capturing its output (through files, so that a chatty
/// program can never block on a full pipe).
public func run(_ command: [String], environment: [String: String]? = nil) throws -> CommandResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: command[0])
    process.arguments = Array(command.dropFirst())
    if let environment { process.environment = environment }
    let output = try TemporaryDirectory("run")
    _ = FileManager.default.createFile(atPath: output.file("out"), contents: nil)
    _ = FileManager.default.createFile(atPath: output.file("err"), contents: nil)
    process.standardOutput = FileHandle(forWritingAtPath: output.file("out"))
    process.standardError = FileHandle(forWritingAtPath: output.file("err"))
    process.standardInput = FileHandle.nullDevice
    try launch(process)
    let status = waitForEnd(of: process)
    return CommandResult(
        status: status,
        stdout: (try? String(contentsOfFile: output.file("out"), encoding: .utf8)) ?? "",
        stderr: (try? String(contentsOfFile: output.file("err"), encoding: .utf8)) ?? "")
}

/// Ends a child process and waits for it. SIGKILL: a child of the test runner starts with
/// SIGTERM blocked (the runner's mask is inherited), so SIGTERM would not end it.
public func stop(_ process: Process) {
    guard process.isRunning else { return }
    kill(process.processIdentifier, SIGKILL)
    _ = waitForEnd(of: process)
}

/// Waits until `process` has ended; its exit status, or the signal that ended it.
///
/// Not `Process.waitUntilExit()`: every child's end is noticed by one Foundation thread,
/// which on a spurious wake-up (seen once: a child's socket reported readable while the
/// child ran) waits in `waitpid` for a child that is still running. Tests waiting for any
/// other child then held both threads of the cooperative pool, so the test that would have
/// ended that child never ran again: the whole run hung. This waits for the child to end
/// without reaping it (`WNOWAIT`: Foundation's thread still does), and stops waiting as
/// soon as Foundation has, so a number the kernel gives to a new child is never waited on.
public func waitForEnd(of process: Process) -> Int32 {
    let pid = process.processIdentifier
    while process.isRunning {
        var info = siginfo_t()
        if waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT | WNOHANG) == 0, info._sifields._sigchld.si_pid == pid {
            return info._sifields._sigchld.si_status
        }
        usleep(1000)
    }
    return process.terminationStatus
}

/// Reads `handle` on a thread of its own until it ends (the writer closed it, or its
/// process ended), handing `line` each line without its newline, as it arrives.
public func readLines(from handle: FileHandle, _ line: @escaping @Sendable (String) -> Void) {
    Thread {
        var buffer = Data()
        while true {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
            while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                line(String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self))
                buffer.removeSubrange(buffer.startIndex...newline)
            }
        }
    }.start()
}

/// A program that keeps running (monitor-sensor, gdbus monitor), its standard output read
/// line by line on a thread of its own, with the time each line arrived; tests wait for a
/// line with a deadline. Stopped when released.
public final class LineReader: Sendable {
    public struct Line: Sendable {
        public var text: String
        /// When it was read, in monotonic nanoseconds.
        public var at: UInt64
    }

    private let process: Process
    private let lines = Watched<[Line]>([])

    /// `arguments` run through `stdbuf -oL`, so that a program writing to a pipe writes
    /// each line as it ends. `errors`: a file its standard error goes to (else nowhere).
    public init(_ arguments: [String], environment: [String: String]? = nil, errors: String? = nil) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/stdbuf")
        process.arguments = ["-oL"] + arguments
        if let environment { process.environment = environment }
        let out = Pipe()
        process.standardOutput = out
        if let errors, FileManager.default.createFile(atPath: errors, contents: nil), let file = FileHandle(forWritingAtPath: errors) {
            process.standardError = file
        } else {
            process.standardError = FileHandle.nullDevice
        }
        try launch(process)
        self.process = process
        // The thread holds the lines, not this object: it reads until the process ends,
        // which deinit brings about.
        let lines = self.lines
        readLines(from: out.fileHandleForReading) { text in
            let line = Line(text: text, at: DispatchTime.now().uptimeNanoseconds)
            lines.update { $0.append(line) }
        }
    }

    /// The first line from `index` on that matches, waiting at most `timeout` seconds.
    public func waitForLine(from index: Int = 0, timeout: Double = 15, where matches: (String) -> Bool) -> (index: Int, line: String, at: UInt64)? {
        lines.wait(timeout: timeout) { lines in
            guard index < lines.count, let found = lines[index...].firstIndex(where: { matches($0.text) }) else { return nil }
            return (found, lines[found].text, lines[found].at)
        }
    }

    public var allLines: [String] { lines.current.map(\.text) }

    /// The program's pid (stdbuf execs it, so it keeps the one launched).
    public var pid: Int32 { process.processIdentifier }

    public func stop() { SextantTestSupport.stop(process) }

    /// nil while the program runs; else how it ended (a failing test says it).
    public var ended: String? {
        guard !process.isRunning else { return nil }
        let how = process.terminationReason == .uncaughtSignal ? "killed by signal" : "exited with status"
        return "\(how) \(process.terminationStatus)"
    }

    /// The exit status once the program has ended, or nil if it still runs at the deadline.
    public func waitForExit(timeout: Double) -> Int32? {
        let ended = DispatchSemaphore(value: 0)
        let process = self.process
        let status = Mutex<Int32>(0)
        Thread.detachNewThread {
            let code = waitForEnd(of: process)
            status.withLock { $0 = code }
            ended.signal()
        }
        guard ended.wait(timeout: .now() + timeout) == .success else { return nil }
        return status.withLock { $0 }
    }

    deinit { stop() }
}
