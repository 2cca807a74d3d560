import Foundation
import SextantClient
import SextantProtocol
import SextantTestSupport
import Testing

/// Issue 14 point 6: `status` tells an integrator which gpsd the daemon reads, the devices
/// that gpsd reads, how old the last fix is, and since when the source is lost.
@Suite(
    "gpsd source in status", .serialized,
    .requires(GPSDBinary.requirement))
struct GPSDStatusTests {
    static func gpsdEntry(_ daemon: DaemonHarness) throws -> JSONValue {
        let sources = try daemon.control().call(Method.status)["sources"]?.arrayValue ?? []
        return try #require(sources.first { $0["name"] == "gpsd" })
    }

    @Test("A live gpsd: server host:port, gpsd's device (its FIFO), the last fix's age; lost: since when, the last fix still aged")
    func liveThenLost() throws {
        let gpsd = try GPSDProcess()
        let daemon = try DaemonHarness(gpsdPort: gpsd.port)
        let app = try daemon.streamingApp("com.example.integrator")
        try daemon.waitForGPSDState("no fix")
        let before = try Self.gpsdEntry(daemon)
        #expect(before["server"] == .string("127.0.0.1:\(gpsd.port)"))
        #expect(before["devices"] == .array([.string(gpsd.fifo)]), "\(before.serialized())")
        #expect(before["lastFixAge"] == .null, "no fix yet")
        #expect(before["lostSince"] == .null)

        try gpsd.feed(GPSDLog.path(GPSDTests.log))
        _ = try app.locations(1)
        let fixed = try Self.gpsdEntry(daemon)
        let age = try #require(fixed["lastFixAge"]?.doubleValue, "\(fixed.serialized())")
        #expect(age >= 0 && age < 30, "\(fixed.serialized())")

        let lostAfter = SextantClock.system.wallTime().adding(nanoseconds: -1_000_000_000)
        gpsd.kill()
        try daemon.waitForGPSDState("lost")
        let lost = try Self.gpsdEntry(daemon)
        let since = try #require(lost["lostSince"]?.stringValue.flatMap(Timestamp.init(rfc3339:)), "\(lost.serialized())")
        #expect(since >= lostAfter && since <= SextantClock.system.wallTime().adding(nanoseconds: 1_000_000_000), "lost since \(since)")
        #expect(lost["server"] == .string("127.0.0.1:\(gpsd.port)"))
        // Fixes fed after the one read above may still have arrived before the kill, so
        // the age while lost is compared with a later look, not with `age`.
        let lostAge = try #require(lost["lastFixAge"]?.doubleValue, "the last fix's age stays while lost")
        #expect(lostAge >= 0 && lostAge < 30, "\(lost.serialized())")

        // Later reconnection attempts (all failing) keep the moment the loss began, and no
        // fix arrives meanwhile: the last one only grows older.
        let again = try Self.gpsdEntry(daemon)
        #expect(again["lostSince"] == lost["lostSince"])
        let againAge = try #require(again["lastFixAge"]?.doubleValue, "\(again.serialized())")
        #expect(againAge >= lostAge, "\(againAge) then \(lostAge)")
    }
}

/// Issue 24.5: a lost gpsd source says why and since when, in `status` and in
/// `sextantctl status`.
@Suite("Why the gpsd source is lost", .serialized, .requires(GPSDBinary.requirement))
struct GPSDLostReasonTests {
    /// Waits until the gpsd source is lost with a reason containing `words`; its entry.
    private func lost(_ daemon: DaemonHarness, saying words: String) throws -> JSONValue {
        var last: JSONValue = .null
        return try poll(timeout: 30, failure: { "no lostReason with \"\(words)\": \(last.serialized())\n\(daemon.log())" }) {
            last = try GPSDStatusTests.gpsdEntry(daemon)
            // JSONValue takes nil as null: the Optional is spelled out.
            return last["state"] == "lost" && (last["lostReason"]?.stringValue ?? "").contains(words) ? Optional(last) : Optional<JSONValue>.none
        }
    }

    @Test("issue 24.5: a real gpsd stopped: lost since when, because the connection is refused; sextantctl status prints both")
    func stoppedGPSD() throws {
        let gpsd = try GPSDProcess()
        let daemon = try DaemonHarness(gpsdPort: gpsd.port)
        try daemon.waitForGPSDState("no fix")
        #expect(try GPSDStatusTests.gpsdEntry(daemon)["lostReason"] == .null)
        gpsd.kill()
        let entry = try lost(daemon, saying: "connection refused (127.0.0.1:\(gpsd.port))")
        let since = try #require(entry["lostSince"]?.stringValue, "\(entry.serialized())")
        #expect(Timestamp(rfc3339: since) != nil, "\(since)")
        let text = try daemon.ctl(["status"]).stdout
        #expect(text.contains("gpsd (lost since \(since): connection refused"), "\(text)")
    }

    @Test("issue 24.5: a port nothing listens on: connection refused; a host that does not exist: no such host")
    func nothingThere() throws {
        let port = try freeLoopbackPort()
        let refused = try DaemonHarness(gpsdPort: port)
        _ = try lost(refused, saying: "connection refused (127.0.0.1:\(port))")
        let nowhere = try DaemonHarness(arguments: ["--gpsd", "no-such-host.invalid:2947"])
        _ = try lost(nowhere, saying: "no such host: no-such-host.invalid")
    }
}
