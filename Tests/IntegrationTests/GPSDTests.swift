import Foundation
import SextantClient
import SextantProtocol
import SextantTestSupport
import Testing

/// The daemon's gpsd source against a real gpsd fed with receivers' NMEA logs.
///
/// The reference for every location is what gpsd itself says, read beside the daemon by
/// a plain-socket client (``GPSDWatcher``); the `.chk` files (gpsd 3.22's output for each
/// log) say how many TPVs to wait for.
@Suite(
    "gpsd source (live GPS)", .serialized,
    .requires(GPSDBinary.requirement))
struct GPSDTests {
    /// 325 sentences: a long stretch without fix, then 134 fixes with times and eph.
    static let log = "haicom-305N.log"

    /// Checks that the app's locations are gpsd's fixes, one for one, as the daemon's
    /// field mapping says (docs/sextantd.8.md).
    private func expectSame(_ locations: [JSONValue], as tpvs: [JSONValue], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(locations.count == tpvs.count, sourceLocation: sourceLocation)
        for (location, tpv) in zip(locations, tpvs) {
            let lat = location["lat"]?.doubleValue ?? .nan, lon = location["lon"]?.doubleValue ?? .nan
            #expect(abs(lat - (tpv["lat"]?.doubleValue ?? .nan)) <= 1e-6, "lat \(location) vs \(tpv)", sourceLocation: sourceLocation)
            #expect(abs(lon - (tpv["lon"]?.doubleValue ?? .nan)) <= 1e-6, "lon \(location) vs \(tpv)", sourceLocation: sourceLocation)
            #expect(location["speed"]?.doubleValue == tpv["speed"]?.doubleValue, "speed \(location) vs \(tpv)", sourceLocation: sourceLocation)
            #expect(location["course"]?.doubleValue == tpv["track"]?.doubleValue, "course \(location) vs \(tpv)", sourceLocation: sourceLocation)
            #expect(location["vAcc"]?.doubleValue == tpv["epv"]?.doubleValue, "vAcc \(location) vs \(tpv)", sourceLocation: sourceLocation)
            if let eph = tpv["eph"]?.doubleValue {
                #expect(location["hAcc"]?.doubleValue == eph, "hAcc \(location) vs \(tpv)", sourceLocation: sourceLocation)
            }
            let altitude = tpv["altMSL"]?.doubleValue ?? tpv["altHAE"]?.doubleValue ?? tpv["alt"]?.doubleValue
            #expect(location["alt"]?.doubleValue == altitude, "alt \(location) vs \(tpv)", sourceLocation: sourceLocation)
            let time = location["time"]?.stringValue.flatMap(Timestamp.init(rfc3339:))
            #expect(time != nil && time == tpv["time"]?.stringValue.flatMap(Timestamp.init(rfc3339:)), "time \(location) vs \(tpv)", sourceLocation: sourceLocation)
            #expect(location["accuracy"] == "full", sourceLocation: sourceLocation)
        }
    }

    /// A real gpsd, a plain client reading gpsd's own reports beside the daemon, the daemon
    /// reading gpsd and `app` streaming its locations; returns once the daemon watches gpsd
    /// (gpsd streams only to clients already watching).
    private func liveGPSD(app id: String) throws -> (GPSDProcess, GPSDWatcher, DaemonHarness, SextantConnection) {
        let gpsd = try GPSDProcess()
        let reference = try GPSDWatcher(port: gpsd.port)
        let daemon = try DaemonHarness(gpsdPort: gpsd.port)
        let app = try daemon.streamingApp(id)
        try daemon.waitForGPSDState("no fix")
        return (gpsd, reference, daemon, app)
    }

    @Test("gpsd's TPVs reach an authorized app as the same fixes, one for one (lat/lon within 1e-6°, speed, track, time)")
    func sideBySide() throws {
        let (gpsd, reference, daemon, app) = try liveGPSD(app: "com.example.gps")

        try gpsd.feed(GPSDLog.path(Self.log))
        let tpvs = try reference.tpvs(try GPSDLog.tpvCount(Self.log))
        let expected = fixes(among: tpvs)
        #expect(expected.count > 100, "the log has a long run of fixes")
        let locations = try app.locations(expected.count)
        expectSame(locations, as: expected)
        #expect(try daemon.gpsdState() == "fix")
        let status = try daemon.control().call(Method.status)
        #expect(status["location"]?["lat"]?.doubleValue == expected.last?["lat"]?.doubleValue, "status shows the last fix")
    }

    @Test("gpsd not running at start: the daemon serves and says lost; once gpsd starts, fixes arrive")
    func gpsdStartsLater() throws {
        let port = try freeLoopbackPort()
        let daemon = try DaemonHarness(gpsdPort: port)
        let app = try daemon.streamingApp("com.example.late")
        try daemon.waitForGPSDState("lost")
        #expect(daemon.log().contains("gpsd: cannot connect"))

        let gpsd = try GPSDProcess(port: port)
        let reference = try GPSDWatcher(port: port)
        // The back-off reaches the new gpsd within its 10 s cap.
        try daemon.waitForGPSDState("no fix", timeout: 15)
        try gpsd.feed(GPSDLog.path(Self.log))
        let expected = fixes(among: try reference.tpvs(try GPSDLog.tpvCount(Self.log)))
        let first = try app.locations(1)
        expectSame(first, as: Array(expected.prefix(1)))
    }

    @Test("gpsd killed mid-stream: one locationUnavailable per loss, retries back off, the daemon stays up; restarted, fixes resume")
    func gpsdKilledAndRestarted() throws {
        let first = try GPSDProcess()
        let port = first.port
        let daemon = try DaemonHarness(gpsdPort: port)
        let app = try daemon.streamingApp("com.example.crash")
        try daemon.waitForGPSDState("no fix")
        // Paced at 5 ms a sentence, the log takes about 1.6 s: the kill lands mid-stream.
        try first.feed(GPSDLog.path(Self.log), pause: 0.005)
        _ = try app.locations(5)
        first.kill()

        // The loss is told once...
        let untilLoss = try app.events(until: "locationUnavailable") { $0.method == Event.locationUnavailable }
        #expect(untilLoss.last?.params["reason"]?.stringValue?.contains("gpsd") == true)
        // ...however many attempts fail: gpsd's port now accepts and hangs up, silently.
        let listener = try HangingUpListener(port: port)
        let attempts = try listener.acceptAndHangUp(3, timeout: 20)
        listener.close()
        // Back-off: each wait about twice the one before (0.5 s, 1 s, 2 s, ... at most 10 s).
        let waits = zip(attempts.dropFirst(), attempts).map { $0 - $1 }
        #expect((0.7...4.6).contains(waits[0]), "waits between attempts: \(waits)")
        #expect((1.5...2.6).contains(waits[1] / waits[0]), "waits between attempts: \(waits)")
        #expect(try daemon.gpsdState() == "lost")
        #expect(daemon.process.isRunning)
        let duringOutage = try app.takeEvents()
        #expect(!duringOutage.contains { $0.method == Event.locationUnavailable }, "\(duringOutage)")
        let lostLines = daemon.log().split(separator: "\n").filter { $0.contains("gpsd: connection lost") }
        #expect(lostLines.count == 1, "logged once per state change, not per attempt")

        // gpsd comes back on the same port: the next attempt finds it.
        let second = try GPSDProcess(port: port)
        let reference = try GPSDWatcher(port: port)
        try daemon.waitForGPSDState("no fix", timeout: 20)
        try second.feed(GPSDLog.path(Self.log))
        let expected = fixes(among: try reference.tpvs(try GPSDLog.tpvCount(Self.log)))
        let resumed = try app.events(until: "the first fix after the restart") { $0.method == Event.location }
        #expect(!resumed.contains { $0.method == Event.locationUnavailable }, "\(resumed)")
        expectSame([resumed.last!.params], as: Array(expected.prefix(1)))

        // A second loss is a second notice.
        _ = try app.locations(expected.count - 1)
        second.kill()
        let secondLoss = try app.events(until: "the second locationUnavailable") { $0.method == Event.locationUnavailable }
        #expect(secondLoss.filter { $0.method == Event.locationUnavailable }.count == 1)
        #expect(daemon.process.isRunning)
    }

    @Test("A receiver without fix (mode 1 TPVs) gives no location, and status says no fix")
    func receiverWithoutFix() throws {
        let noFixLog = "tn200.log"
        let (gpsd, reference, daemon, app) = try liveGPSD(app: "com.example.nofix")

        try gpsd.feed(GPSDLog.path(noFixLog))
        let tpvs = try reference.tpvs(try GPSDLog.tpvCount(noFixLog))
        #expect(tpvs.allSatisfy { ($0["mode"]?.intValue ?? 0) < 2 }, "tn200 never has a fix")
        // Barrier: gpsd's reports reach the daemon in order, so the first location after
        // a log with fixes is fed must be that log's first fix, not anything before it.
        try gpsd.feed(GPSDLog.path(Self.log))
        let firstFix = try reference.nextReport(timeout: 30) { $0["class"] == "TPV" && ($0["mode"]?.intValue ?? 0) >= 2 && $0["lat"] != nil }
        expectSame(try app.locations(1), as: [firstFix])
        withExtendedLifetime(daemon) {}
    }

    @Test("record: fixes from gpsd are recorded, and replaying the recording gives the same location events, simulated this time (N7)")
    func recordLiveThenReplay() throws {
        let (gpsd, reference, daemon, app) = try liveGPSD(app: "com.example.rec")
        let recording = daemon.directory + "/live.jsonl"
        _ = try daemon.control().call(Method.recordStart, ["path": .string(recording)])

        try gpsd.feed(GPSDLog.path(Self.log))
        let expected = fixes(among: try reference.tpvs(try GPSDLog.tpvCount(Self.log)))
        let live = try app.locations(expected.count)
        expectSame(live, as: expected)
        _ = try daemon.control().call(Method.recordStop)

        _ = try daemon.control().call(Method.replayStart, ["path": .string(recording), "speed": "max"])
        let replayed = try app.locations(expected.count)
        // The same fixes; the replay's are made by software, the live gpsd's were not (N7).
        #expect(live.allSatisfy { $0["simulated"] == false } && replayed.allSatisfy { $0["simulated"] == true })
        func unflagged(_ locations: [JSONValue]) -> [JSONValue] {
            locations.map { location in
                var members = location.objectValue ?? [:]
                members["simulated"] = nil
                return .object(members)
            }
        }
        #expect(unflagged(replayed) == unflagged(live))
    }

    @Test("issue 23.5/N7: a receiver in simulator mode (GPSmap-76S.log: gpsd's TPV status 8) gives simulated fixes under --simulated-flag auto")
    func simulatorModeReceiver() throws {
        let log = "GPSmap-76S.log"
        let (gpsd, reference, daemon, app) = try liveGPSD(app: "com.example.sim")

        try gpsd.feed(GPSDLog.path(log))
        let tpvs = try reference.tpvs(try GPSDLog.tpvCount(log))
        let expected = fixes(among: tpvs)
        #expect(!expected.isEmpty && expected.allSatisfy { $0["status"]?.intValue == 8 }, "gpsd itself says STATUS_SIM: \(tpvs)")
        // The log's RMCs have no valid date, so gpsd's TPVs have no time: positions alone are compared.
        let locations = try app.locations(expected.count)
        #expect(zip(locations, expected).allSatisfy { abs(($0["lat"]?.doubleValue ?? .nan) - ($1["lat"]?.doubleValue ?? .nan)) <= 1e-6 }, "\(locations)")
        #expect(locations.allSatisfy { $0["simulated"] == true }, "\(locations)")
        withExtendedLifetime(daemon) {}
    }

    @Test("issue 23.4/N8: a live gpsd's SKYs reach an app's satellites stream as gpsd sends them (bu353-glonass.log: GPS and GLONASS, read beside the daemon)")
    func liveSky() throws {
        let log = "bu353-glonass.log"
        let (gpsd, reference, daemon, app) = try liveGPSD(app: "com.example.sky")
        _ = try app.call(Method.satellitesStart)

        try gpsd.feed(GPSDLog.path(log))
        let count = try GPSDLog.skyCount(log)
        #expect(count >= 4, "the log has GSV cycles")
        var skies: [JSONValue] = []
        while skies.count < count { skies.append(try reference.nextReport(timeout: 30) { $0["class"] == "SKY" && $0["satellites"] != nil }) }
        // gpsd's gnssid is u-blox's numbering.
        let systems: [Int: String] = [0: "gps", 1: "sbas", 2: "galileo", 3: "beidou", 5: "qzss", 6: "glonass"]
        func listed(_ satellites: JSONValue?, constellation: (JSONValue) -> String?, cn0 key: String) -> [String] {
            (satellites?.arrayValue ?? []).map { s in
                let values = [s["el"], s["az"], s[key]].map { $0?.doubleValue.map { "\($0)" } ?? "-" }
                return "\(constellation(s) ?? "?") \(s["svid"]?.intValue ?? -1) \(values.joined(separator: " ")) \(s["used"] == true ? "used" : "")"
            }
        }
        var glonass = false
        for sky in skies {
            let event = try app.nextEvent(timeout: 30, description: "the app's satellites") { $0.method == Event.satellites }
            let seen = listed(event.params["satellites"], constellation: { $0["constellation"]?.stringValue }, cn0: "cn0")
            let sent = listed(sky["satellites"], constellation: { $0["gnssid"]?.intValue.flatMap { systems[$0] } }, cn0: "ss")
            #expect(seen == sent, "the app's sky vs gpsd's SKY \(sky)")
            #expect(event.params["inView"] == sky["nSat"] && event.params["used"] == sky["uSat"], "\(event.params) vs \(sky)")
            glonass = glonass || seen.contains { $0.hasPrefix("glonass") }
        }
        #expect(glonass, "the log's GLONASS satellites came through")
        withExtendedLifetime(daemon) {}
    }
}
