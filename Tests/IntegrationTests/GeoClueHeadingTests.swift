import Foundation
import SextantCore
import SextantProtocol
import SextantTestSupport
import Testing

/// Issue 21.4: GeoClue's `Heading` on Location objects, read by GeoClue's own where-am-i:
/// the course while the fix moves, the compass's true heading when it does not (as GeoClue
/// 2.6 takes iio-sensor-proxy's compass), -1 (not printed) when neither is known.
@Suite("GeoClue face: Heading from the course or the compass", .serialized, .requires(GeoClueClients.requirement))
struct GeoClueHeadingTests {
    /// A compass at 120° magnetic, then four fixes 37 m apart: standing (no course), moving
    /// east (course 90, speed 1.5), standing with the course kept (speed 0), and standing
    /// ten seconds after the last compass reading.
    static let trace = """
        {"sextant":"trace","version":1,"start":"2026-03-01T08:00:00.000Z"}
        {"t":0.0,"compass":{"magnetic":120.0}}
        {"t":0.1,"location":{"lat":48.0,"lon":2.35,"hAcc":4}}
        {"t":0.3,"location":{"lat":48.0,"lon":2.3505,"hAcc":4,"speed":1.5,"course":90}}
        {"t":0.5,"location":{"lat":48.0,"lon":2.351,"hAcc":4,"speed":0,"course":90}}
        {"t":10.0,"location":{"lat":48.0,"lon":2.3515,"hAcc":4}}

        """

    @Test("issue 21.4: where-am-i's Heading is the compass's true heading standing, the course moving, and unknown with neither")
    func headingFromCourseOrCompass() throws {
        let bus = try GeoClueTestBus()
        let daemon = try DaemonHarness.onBus(bus, grant: true)
        let client = try WhereAmI(bus: bus, directory: daemon.directory)
        try daemon.waitForActiveGeoClueClient()
        try daemon.replay("heading.jsonl", Self.trace, speed: 10)
        let printed = try client.waitForLocations(4, timeout: 30)
        let declination = WorldMagneticModel.wmm2025.elements(
            latitude: 48.0, longitude: 2.35, height: 0, year: WorldMagneticModel.decimalYear(Timestamp(rfc3339: "2026-03-01T08:00:00Z")!)
        ).declination
        let compassTrue = HeadingMath.normalized(120 + declination)
        #expect(printed.count == 4, "\(printed)")
        let headings = printed.map(\.heading)
        func heading(_ index: Int) -> Double { index < headings.count ? headings[index] ?? .nan : .nan }
        // where-am-i prints six decimals.
        #expect(abs(heading(0) - compassTrue) < 1e-5, "standing: the compass's true heading \(compassTrue): \(headings)")
        #expect(heading(1) == 90, "moving: the course: \(headings)")
        #expect(abs(heading(2) - compassTrue) < 1e-5, "speed 0: the compass: \(headings)")
        #expect(headings.count == 4 && headings[3] == nil, "no course and a compass 9.9 s old: unknown: \(headings)")
    }
}
