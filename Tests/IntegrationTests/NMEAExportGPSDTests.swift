import Foundation
import SextantCore
import SextantProtocol
import SextantTestSupport
import SextantTraces
import Testing

/// The NMEA that `sextantctl trace convert … .nmea` writes, read by the real gpsd: its TPVs
/// must be the trace's fixes.
@Suite("NMEA export read by gpsd", .requires(GPSDBinary.requirement))
final class NMEAExportGPSDTests {
    let scratch: TemporaryDirectory
    var directory: String { scratch.path }

    init() throws { scratch = try TemporaryDirectory("nmea-export") }

    @Test("gpsd's TPVs for exported NMEA match the trace: lat/lon within 3e-8° (NMEA keeps 1e-6′), time to 10 ms, speed, track, altMSL, mode 3")
    func gpsdReadsExport() throws {
        // A drive through a corner, with altitude, in a Sextant trace written by hand.
        let trace = try RoutePlanner(
            waypoints: [RouteWaypoint(latitude: 51.5007, longitude: -0.1246, altitude: 12), RouteWaypoint(latitude: 51.5033, longitude: -0.1196, altitude: 18),
                        RouteWaypoint(latitude: 51.5055, longitude: -0.0754, altitude: 10)],
            speed: 15, spacing: .interval(seconds: 1), start: Timestamp(rfc3339: "2026-03-01T08:00:00Z")!, horizontalAccuracy: 4
        ).trace()
        let input = directory + "/drive.jsonl"
        try SextantTraceFormat.write(trace).write(toFile: input, atomically: true, encoding: .utf8)
        let output = directory + "/drive.nmea"
        let result = try run([Binaries.sextantctl, "trace", "convert", input, output])
        #expect(result.status == 0, "\(result.stderr)")

        let gpsd = try GPSDProcess()
        let watcher = try GPSDWatcher(port: gpsd.port)
        try gpsd.feed(output)
        let fixes = trace.locations.map(\.fix)
        // gpsd reports a cycle when it has seen its end; the last cycle has no successor to
        // end it, so every fix but the last is compared.
        let expected = fixes.dropLast()
        #expect(expected.count > 200)
        var byTime: [Int64: JSONValue] = [:]
        let deadline = monotonicSeconds() + 30
        while byTime.count < expected.count || !expected.allSatisfy({ byTime[centiseconds($0.time)] != nil }) {
            let tpv = try watcher.nextReport(timeout: max(0, deadline - monotonicSeconds())) { $0["class"] == "TPV" && ($0["mode"]?.intValue ?? 0) >= 2 }
            guard let time = tpv["time"]?.stringValue.flatMap(Timestamp.init(rfc3339:)) else { continue }
            // A later TPV of the same cycle holds what the earlier ones did, and more.
            byTime[centiseconds(time)] = tpv
        }
        for fix in expected {
            let tpv = try #require(byTime[centiseconds(fix.time)])
            #expect(abs(tpv["lat"]!.doubleValue! - fix.latitude) < 3e-8 && abs(tpv["lon"]!.doubleValue! - fix.longitude) < 3e-8, "\(tpv) vs \(fix)")
            #expect(tpv["mode"]?.intValue == 3)
            #expect(abs((tpv["speed"]?.doubleValue ?? -1) - fix.speed!) < 0.001, "speed \(tpv)")
            #expect(abs((tpv["track"]?.doubleValue ?? -1) - fix.course!) < 0.01, "track \(tpv)")
            #expect(abs((tpv["altMSL"]?.doubleValue ?? -1000) - fix.altitude!) < 0.01, "altMSL \(tpv)")
        }
    }

    func centiseconds(_ time: Timestamp) -> Int64 { (time.nanoseconds + 5_000_000) / 10_000_000 }
}
