import Foundation
import SextantClient
import SextantProtocol
import Testing

/// A JSONL trace is read as it plays (issue 12 point 1): the daemon's memory does not grow
/// with the trace, a second `replay.start` does not hold two traces, and a file rewritten
/// while it plays stops the replay where it no longer reads as it was checked.
@Suite("Streamed replay")
struct StreamedReplayTests {
    /// The daemon's resident memory, or its peak since `resetPeak` (KiB).
    func kib(_ daemon: DaemonHarness, _ field: String) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(daemon.process.processIdentifier)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix(field + ":") })
        return try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
    }

    /// Sets the peak (VmHWM) back to the resident memory now (proc(5), clear_refs).
    func resetPeak(_ daemon: DaemonHarness) throws {
        try "5".write(toFile: "/proc/\(daemon.process.processIdentifier)/clear_refs", atomically: false, encoding: .utf8)
    }

    @Test("A 34 MB trace, started twice: the daemon's peak memory grows by less than 32 MiB (it grew by twice the file before)")
    func boundedMemory() throws {
        let daemon = try DaemonHarness()
        let text = syntheticTrace(count: 400_000, step: 0.1)
        #expect(text.utf8.count > 30_000_000)
        let path = try daemon.write("day.jsonl", text)
        let control = try daemon.control()
        _ = try control.call(Method.status)
        try resetPeak(daemon)
        let before = try kib(daemon, "VmRSS")
        _ = try control.call(Method.replayStart, ["path": .string(path), "speed": 1], timeout: 120)
        _ = try control.call(Method.replaySeek, ["position": 30_000], timeout: 30)
        _ = try control.call(Method.replayStart, ["path": .string(path), "speed": 1], timeout: 120)
        let status = try control.call(Method.replayStatus)
        #expect(status["state"] == "running" && (status["duration"]?.doubleValue ?? 0) > 39_999)
        let growth = try kib(daemon, "VmHWM") - before
        #expect(growth < 32 * 1024, "peak grew by \(growth) KiB")
    }

    @Test("A trace rewritten in place while it plays: the replay stops where the file no longer reads as it was checked")
    func rewrittenWhilePlaying() throws {
        let daemon = try DaemonHarness()
        let path = try daemon.write("walk.jsonl", syntheticTrace(count: 5000, step: 1))
        let control = try daemon.control()
        _ = try control.call(Method.replayStart, ["path": .string(path), "speed": 1], timeout: 60)
        // Same inode, new contents: the blocks after the first no longer hold what they held.
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(syntheticTrace(count: 10, step: 1).utf8))
        try handle.close()
        _ = try control.call(Method.replaySeek, ["position": 4000])
        try daemon.waitForStatus("the replay stopped") { $0["replay"]?["state"] == "stopped" }
        #expect(daemon.log().contains("the trace changed while it played"), "\(daemon.log())")
        // The daemon is up and takes the next replay.
        let fresh = try daemon.write("fresh.jsonl", syntheticTrace(count: 3, step: 1))
        _ = try control.call(Method.replayStart, ["path": .string(fresh), "speed": "max"], timeout: 60)
        try daemon.waitForStatus("the new replay finished") { $0["replay"]?["state"] == "finished" }
    }
}
