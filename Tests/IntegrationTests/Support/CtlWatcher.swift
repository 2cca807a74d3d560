import Foundation
import SextantTestSupport

/// A `sextantctl watch` on a test's daemon, its standard output a pipe; it is ended when
/// the test lets go of it.
final class CtlWatcher {
    private let process = Process()
    private let output = Pipe()

    /// Starts `sextantctl watch ARGUMENTS --runtime-dir RUNTIME`.
    init(_ arguments: [String], runtime: String) throws {
        process.executableURL = URL(fileURLWithPath: Binaries.sextantctl)
        process.arguments = ["watch"] + arguments + ["--runtime-dir", runtime]
        process.standardOutput = output
        try launch(process)
    }

    deinit {
        process.terminate()
        _ = waitForEnd(of: process)
    }

    /// Its next line, waiting at most `timeout` seconds.
    func line(timeout: Double) throws -> String { try readLine(output.fileHandleForReading.fileDescriptor, timeout: timeout) }

    /// The watcher subscribes at some point after it starts: `poke` (given the attempt's
    /// number) makes something it would show, again each 0.1 s until a line shows, at most
    /// 200 times; nil if none did.
    func firstLine(poking poke: (_ attempt: Int) throws -> Void) throws -> String? {
        for attempt in 0..<200 {
            try poke(attempt)
            if let line = try? line(timeout: 0.1) { return line }
        }
        return nil
    }
}

extension DaemonHarness {
    /// `sextantctl watch ARGUMENTS` on this daemon.
    func watch(_ arguments: [String]) throws -> CtlWatcher { try CtlWatcher(arguments, runtime: runtime) }
}
