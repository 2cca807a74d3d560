import Foundation
import SextantClient
import SextantProtocol
import SextantTestSupport
import Testing

/// A JSONL trace, an NMEA log, a GPX file or a GnssLogger recording is read as it plays (issue 12 point 1): the daemon's
/// memory does not grow with the trace, a second `replay.start` does not hold two traces,
/// and a file rewritten while it plays stops the replay where it no longer reads as it
/// was checked.
@Suite("Streamed replay")
struct StreamedReplayTests {
    /// Starts `text`'s replay, seeks to `seek`, starts it again (the old trace and the new
    /// one at once, if either were held), and checks the daemon's peak memory grew by less
    /// than `limitMiB`. Answers the replay's status.
    private func peakGrowthOfTwoStarts(_ name: String, _ text: String, seek: Double, limitMiB: Int) throws -> JSONValue {
        let daemon = try DaemonHarness()
        let path = try daemon.write(name, text)
        let control = try daemon.control()
        _ = try control.call(Method.status)
        try daemon.resetMemoryPeak()
        let before = try daemon.memoryKiB("VmRSS")
        _ = try control.call(Method.replayStart, ["path": .string(path), "speed": 1], timeout: 120)
        _ = try control.call(Method.replaySeek, ["position": .double(seek)], timeout: 30)
        _ = try control.call(Method.replayStart, ["path": .string(path), "speed": 1], timeout: 120)
        let status = try control.call(Method.replayStatus)
        let growth = try daemon.memoryKiB("VmHWM") - before
        #expect(growth < limitMiB * 1024, "\(name): peak grew by \(growth) KiB")
        return status
    }

    @Test("A 34 MB trace, started twice: the daemon's peak memory grows by less than 32 MiB (it grew by twice the file before)")
    func boundedMemory() throws {
        let text = syntheticTrace(count: 400_000, step: 0.1)
        #expect(text.utf8.count > 30_000_000)
        let status = try peakGrowthOfTwoStarts("day.jsonl", text, seek: 30_000, limitMiB: 32)
        #expect(status["state"] == "running" && (status["duration"]?.doubleValue ?? 0) > 39_999)
    }

    @Test("A 27 MB NMEA log, started twice: the daemon's peak memory grows by less than 16 MiB (it grew by the file and its samples before)")
    func boundedMemoryNMEA() throws {
        let text = syntheticNMEA(epochs: 200_000)
        #expect(text.utf8.count > 26_000_000)
        let status = try peakGrowthOfTwoStarts("day.nmea", text, seek: 30_000, limitMiB: 16)
        // 200,000 epochs at 5 Hz: 39,999.8 s from the first fix to the last.
        #expect(status["state"] == "running" && abs((status["duration"]?.doubleValue ?? 0) - 39_999.8) < 1e-6, "\(status)")
    }

    @Test("A 19 MB GPX track, started twice: the daemon's peak memory grows by less than 16 MiB (it grew by several times the file before)")
    func boundedMemoryGPX() throws {
        let text = syntheticGPX(points: 200_000)
        #expect(text.utf8.count > 18_000_000)
        let status = try peakGrowthOfTwoStarts("day.gpx", text, seek: 150_000, limitMiB: 16)
        #expect(status["state"] == "running" && status["duration"]?.doubleValue == 199_999, "\(status)")
    }

    @Test("Issue 23.1: a 20 MB GnssLogger recording, started twice: the daemon's peak memory grows by less than 16 MiB (5 MiB measured)")
    func boundedMemoryGnssLogger() throws {
        // 200,000 GPS fixes a second apart, each with an Accel row and a Raw row between.
        var text = "# Header Description:\n# Fix,Provider,LatitudeDegrees,LongitudeDegrees,AltitudeMeters,SpeedMps,AccuracyMeters,UnixTimeMillis\n"
        text += "# Accel,utcTimeMillis,elapsedRealtimeNanos,AccelXMps2,AccelYMps2,AccelZMps2\n"
        for k in 0..<200_000 {
            let millis = 1_699_400_582_000 + Int64(k) * 1000
            text += "Fix,GPS,37.\(4_265_000 + k % 1000),-122.1737,23.5,1.2,4.1,\(millis)\nAccel,\(millis + 500),1,0.1,0.2,9.8\nRaw,\(millis),1,2\n"
        }
        #expect(text.utf8.count > 18_000_000)
        let status = try peakGrowthOfTwoStarts("gnss_log.txt", text, seek: 150_000, limitMiB: 16)
        // The first fix to the last Accel row: 199,999.5 s.
        #expect(status["state"] == "running" && status["duration"]?.doubleValue == 199_999.5, "\(status)")
    }

    @Test("`sextantctl trace info` on a 19 MB GPX track peaks less than 16 MiB above a one-point file")
    func boundedMemoryGPXInfo() throws {
        let scratch = try TemporaryDirectory("gpx-info")
        let directory = scratch.path
        let small = directory + "/one.gpx", large = directory + "/day.gpx"
        try syntheticGPX(points: 1).write(toFile: small, atomically: false, encoding: .utf8)
        try syntheticGPX(points: 200_000).write(toFile: large, atomically: false, encoding: .utf8)
        let base = try peakKiB(of: [Binaries.sextantctl, "trace", "info", small, "--json"])
        let (result, peak) = try peakKiB(of: [Binaries.sextantctl, "trace", "info", large, "--json"])
        #expect(base.peak > 0 && peak > 0, "\(result)")
        #expect(peak - base.peak < 16 * 1024, "trace info peaked \(peak - base.peak) KiB above a one-point file")
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
