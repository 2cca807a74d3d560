import Foundation
import Testing

/// Issue 14 point 4: when systemd says stderr is the journal (JOURNAL_STREAM names stderr's
/// device and inode), every log line starts with its syslog priority, `<N>`.
@Suite("Logging to journald")
struct JournalLogTests {
    /// Sets JOURNAL_STREAM to what the daemon's stderr (the harness's log file) is, as
    /// systemd does for the stream it connects, then runs the daemon in the shell's place.
    static let asJournal = ["/bin/sh", "-c", "JOURNAL_STREAM=$(stat -L -c %d:%i /proc/self/fd/2) exec \"$0\" \"$@\""]

    @Test("JOURNAL_STREAM matching stderr: each line carries <N>, info as <6>, debug as <7>, warnings as <4>")
    func prioritiesWhenStderrIsTheJournal() throws {
        let daemon = try DaemonHarness(arguments: ["--gpsd", "127.0.0.1:1"], launcher: Self.asJournal)
        // An unreachable gpsd is a warning.
        try daemon.waitForStatus("gpsd lost") { status in
            status["sources"]?.arrayValue?.contains { $0["name"] == "gpsd" && $0["state"] == "lost" } ?? false
        }
        #expect(daemon.terminate() == 0)
        let lines = daemon.log().split(separator: "\n")
        #expect(!lines.isEmpty)
        for line in lines {
            #expect(line.range(of: #"^<[0-7]>\S"#, options: .regularExpression) != nil, "no priority: \(line)")
        }
        #expect(lines.contains { $0.hasPrefix("<6>sextantd: sextantd ready") }, "\(daemon.log())")
        #expect(lines.contains { $0.hasPrefix("<7>") }, "\(daemon.log())")
        #expect(lines.contains { $0.hasPrefix("<4>") }, "\(daemon.log())")
    }

    @Test("JOURNAL_STREAM naming another stream (inherited, then stderr redirected): plain lines, no <N>")
    func plainWhenTheVariableIsStale() throws {
        let daemon = try DaemonHarness(environment: ProcessInfo.processInfo.environment.merging(["JOURNAL_STREAM": "1:1"]) { $1 })
        #expect(daemon.terminate() == 0)
        let lines = daemon.log().split(separator: "\n")
        #expect(lines.contains { $0.contains("sextantd ready") })
        #expect(!lines.contains { $0.hasPrefix("<") }, "\(daemon.log())")
    }
}
