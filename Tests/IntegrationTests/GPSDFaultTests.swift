import Foundation
import SextantClient
import SextantProtocol
import SextantTestSupport
import Testing

/// A gpsd that stops talking, and a gpsd that says nonsense (issue 9, points 6, 9 and 10).
///
/// The documented time-outs (sextantd(8), LIVE GPS): no VERSION banner within 5 s of
/// connecting is a failed attempt; once connected, 10 s without a byte (gpsd is asked
/// `?VERSION;` after 5 s) is a loss.
@Suite(
    "gpsd source faults (silent and hostile peers)", .serialized,
    .requires(GPSDBinary.requirement))
struct GPSDFaultTests {
    static let bannerTimeout = 5.0
    static let probeAfter = 5.0
    static let silenceLimit = 10.0
    /// Room for a loaded machine on top of a documented time-out; never a reason to pass early.
    static let slack = 3.0

    @Test("A SIGSTOPped gpsd is lost within 10 s (one locationUnavailable); after SIGCONT fixes resume")
    func frozenGPSD() throws {
        let gpsd = try GPSDProcess()
        let daemon = try DaemonHarness(gpsdPort: gpsd.port)
        let app = try daemon.streamingApp("com.example.frozen")
        try daemon.waitForGPSDState("no fix")
        try gpsd.feed(GPSDLog.path(GPSDTests.log), pause: 0.005)
        _ = try app.locations(5)
        gpsd.freeze()
        let frozenAt = monotonicSeconds()

        let untilLoss = try app.events(until: "locationUnavailable", timeout: Self.silenceLimit + Self.slack + 5) {
            $0.method == Event.locationUnavailable
        }
        let elapsed = monotonicSeconds() - frozenAt
        // Due 10 s after the last byte, which came at most a moment before the freeze (the
        // feed was still running): not at the ?VERSION probe, and not late.
        #expect(elapsed > Self.probeAfter && elapsed <= Self.silenceLimit + Self.slack, "lost after \(elapsed) s")
        #expect(untilLoss.last?.params["reason"]?.stringValue?.contains("gpsd") == true)
        #expect(try daemon.gpsdState() == "lost")
        #expect(daemon.log().contains("not even an answer to ?VERSION"))
        #expect(daemon.process.isRunning)

        gpsd.thaw()
        // The next attempt (each waits at most 5 s for the banner, then backs off) finds it.
        try daemon.waitForGPSDState("no fix", timeout: 20)
        try gpsd.feed(GPSDLog.path(GPSDTests.log))
        let resumed = try app.events(until: "a fix after SIGCONT", timeout: 30) { $0.method == Event.location }
        #expect(!resumed.contains { $0.method == Event.locationUnavailable }, "\(resumed)")
        #expect(daemon.process.isRunning)
    }

    @Test("A quiet gpsd (a device that sends nothing) answers ?VERSION and is not lost")
    func quietButAlive() throws {
        let gpsd = try GPSDProcess()
        let daemon = try DaemonHarness(gpsdPort: gpsd.port)
        try daemon.waitForGPSDState("no fix")
        // Asked at 5 s of silence, gpsd answers; only because it did is there a second
        // question 5 s after that answer (unanswered, the source would have given up at 10 s).
        try daemon.waitForLog("asking ?VERSION;", count: 2, timeout: 2 * Self.silenceLimit + Self.slack)
        #expect(try daemon.gpsdState() == "no fix")
        #expect(!daemon.log().contains("gpsd: connection lost"))
    }

    @Test("A peer that accepts and never speaks: the attempt fails after the 5 s banner time-out and is retried")
    func acceptsAndNeverSpeaks() throws {
        let port = try freeLoopbackPort()
        let silent = try ScriptedGPSD(port: port)
        let daemon = try DaemonHarness(gpsdPort: port)
        let first = try silent.accept(timeout: 10)
        let second = try silent.accept(timeout: Self.bannerTimeout + Self.slack + 5)
        // Given up at 5 s, retried after the first back-off step (0.5 s): about 5.5 s apart.
        // The lower bound leaves a second for the acceptor thread waking late on a loaded
        // machine; a source without the time-out would never come back at all.
        let wait = second - first
        #expect(wait >= Self.bannerTimeout - 1 && wait <= Self.bannerTimeout + 0.5 + Self.slack, "second attempt after \(wait) s")
        try daemon.waitForGPSDState("lost", timeout: 5)
        #expect(daemon.log().contains("no VERSION banner from gpsd within 5 s"))
        #expect(daemon.process.isRunning)
    }

    /// A daemon on a scripted gpsd (on `port`) that has said its banner, and an app
    /// streaming from it.
    static func daemonOnScriptedGPSD(app: String) throws -> (peer: ScriptedGPSD, port: UInt16, daemon: DaemonHarness, app: SextantConnection) {
        let port = try freeLoopbackPort()
        let peer = try ScriptedGPSD(port: port)
        let daemon = try DaemonHarness(gpsdPort: port)
        try peer.accept(timeout: 10)
        try peer.say([ScriptedGPSD.banner])
        try daemon.waitForGPSDState("no fix")
        return (peer, port, daemon, try daemon.streamingApp(app))
    }

    @Test("TPVs with epx 1e200, speed -3, track 99999, time 3000-… and 0001-…: bad fixes and fields are dropped, the daemon stays up")
    func hostileValues() throws {
        // gpsd derives TPVs from what receivers send and would not produce these (NMEA has
        // two-digit years): a scripted gpsd says them instead.
        let (peer, _, daemon, app) = try Self.daemonOnScriptedGPSD(app: "com.example.hostile")
        func tpv(_ lat: Double, _ fields: String) -> String {
            #"{"class":"TPV","device":"/dev/ttyS0","mode":3,"lat":\#(lat),"lon":2.25,"# + fields + "}"
        }
        try peer.say([
            tpv(10, #""time":"2026-03-01T08:00:00.000Z","eph":7,"speed":1.5,"track":90"#),
            tpv(11, #""time":"2026-03-01T08:00:01.000Z","eph":7,"speed":-3,"track":99999,"epv":-1"#),
            tpv(12, #""time":"2026-03-01T08:00:02.000Z","epx":1e200,"epy":1e200"#),
            tpv(13, #""time":"3000-01-01T00:00:00.000Z","eph":7"#),
            tpv(14, #""time":"0001-01-01T00:00:00.000Z","eph":7"#),
            tpv(15, #""time":"2026-03-01T08:00:05.000Z","eph":7"#),
        ])
        let locations = try app.locations(3)
        #expect(locations.map { $0["lat"]?.doubleValue } == [10, 11, 15])
        #expect(locations[0]["speed"]?.doubleValue == 1.5 && locations[0]["course"]?.doubleValue == 90)
        #expect(locations[1]["speed"] == nil && locations[1]["course"] == nil && locations[1]["vAcc"] == nil, "\(locations[1])")
        #expect(locations.allSatisfy { $0["hAcc"]?.doubleValue == 7 })
        #expect(daemon.process.isRunning)
        #expect(try daemon.gpsdState() == "fix")
    }

    @Test("A line that is not JSON and a 16 MiB line: each skipped and logged with gpsd's address, memory bounded, the connection kept, the next fix delivered")
    func badAndEndlessLines() throws {
        let (peer, port, daemon, app) = try Self.daemonOnScriptedGPSD(app: "com.example.endless")
        let peakBefore = try peakResidentKiB(of: daemon.process.processIdentifier)
        // gpsd keeps a report under 10 KiB; the source holds at most 16 KiB of a line.
        try peer.say(["this is not JSON"])
        try peer.send(raw: String(repeating: "x", count: 16 << 20))
        try peer.say(["", #"{"class":"TPV","device":"/dev/ttyS0","mode":3,"lat":10,"lon":2.25,"time":"2026-03-01T08:00:00.000Z","eph":7}"#])
        let locations = try app.locations(1)
        #expect(locations.first?["lat"]?.doubleValue == 10)
        let growth = try peakResidentKiB(of: daemon.process.processIdentifier) - peakBefore
        #expect(growth < 6 * 1024, "the daemon's peak RSS grew by \(growth) KiB over a 16 MiB line")
        let log = daemon.log()
        #expect(log.contains("gpsd: skipped a line longer than 16384 bytes") && log.contains("xxxxxxxx"), "\(log)")
        #expect(log.contains("gpsd: skipped a line") && log.contains("this is not JSON"), "\(log)")
        #expect(log.contains("127.0.0.1:\(port)"), "the log says which gpsd")
        #expect(!log.contains("gpsd: connection lost"), "\(log)")
        #expect(try daemon.gpsdState() == "fix")
        #expect(daemon.process.isRunning)
    }

    /// The process's peak resident memory (VmHWM), in KiB.
    private func peakResidentKiB(of pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kib = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        else { throw HarnessError("no VmHWM in /proc/\(pid)/status") }
        return kib
    }
}

extension DaemonHarness {
    /// Waits (reading the log every 20 ms) until it contains `text` `count` times.
    func waitForLog(_ text: String, count: Int = 1, timeout: Double) throws {
        let deadline = monotonicSeconds() + timeout
        while monotonicSeconds() < deadline {
            if log().components(separatedBy: text).count - 1 >= count { return }
            usleep(20_000)  // the log has no notification: read it again
        }
        throw HarnessError("the log never said \"\(text)\" within \(timeout) s:\n\(log())")
    }
}
