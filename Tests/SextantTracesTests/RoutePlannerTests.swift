import Foundation
import SextantCore
import SextantProtocol
import SextantTraces
import Testing

/// Routes from waypoints, checked against distances worked out by hand on the
/// 6,371,008.8 m sphere: along the equator and a meridian, d = R · Δangle.
@Suite("Route planner")
struct RoutePlannerTests {
    static let radius = 6_371_008.8
    static let start = Timestamp(rfc3339: "2026-03-01T08:00:00Z")!
    /// Metres in 0.001° of a great circle: 6,371,008.8 × 0.001 × π / 180 = 111.1951 m.
    static let milliDegree = radius * 0.001 * .pi / 180

    func fixes(_ trace: Trace) -> [(t: Double, fix: LocationFix)] { trace.locations.map { (Double($0.offset) / 1e9, $0.fix) } }

    @Test("along the equator at 10 m/s every 10 s: a fix every 100 m, the last at the end")
    func equator() throws {
        let planner = RoutePlanner(
            waypoints: [RouteWaypoint(latitude: 0, longitude: 0), RouteWaypoint(latitude: 0, longitude: 0.01)],
            speed: 10, spacing: .interval(seconds: 10), start: Self.start)
        let got = fixes(try planner.trace())
        let length = 10 * Self.milliDegree  // 1,111.951 m
        #expect(got.count == 13)  // 0, 100, …, 1100 m, then 1,111.95 m
        for (k, (t, fix)) in got.enumerated() {
            let metres = k < 12 ? Double(k) * 100 : length
            #expect(abs(t - metres / 10) < 1e-6, "time of fix \(k)")
            #expect(abs(fix.longitude - metres / Self.radius * 180 / .pi) < 1e-12, "longitude of fix \(k)")
            #expect(abs(fix.latitude) < 1e-12)
            #expect(fix.speed == 10)
            #expect(abs(fix.course! - 90) < 1e-9)
            #expect(fix.time == Self.start.adding(nanoseconds: Int64((metres / 10 * 1e9).rounded())))
        }
    }

    @Test("a corner is passed, not cut: the waypoint is a fix, and the course turns there")
    func corner() throws {
        let planner = RoutePlanner(
            waypoints: [
                RouteWaypoint(latitude: 0, longitude: 0, altitude: 10), RouteWaypoint(latitude: 0, longitude: 0.001, altitude: 20),
                RouteWaypoint(latitude: 0.001, longitude: 0.001, altitude: 20),
            ],
            speed: 2, spacing: .distance(metres: 50), start: Self.start)
        let got = fixes(try planner.trace())
        let d = Self.milliDegree
        // Path distances: 0, 50, 100 on the first leg; the corner at d; d+… at the next
        // multiples of 50 (150, 200); the end at 2d.
        let expected: [Double] = [0, 50, 100, d, 150, 200, 2 * d]
        #expect(got.map(\.t).count == expected.count)
        for (k, metres) in expected.enumerated() where k < got.count {
            #expect(abs(got[k].t - metres / 2) < 1e-6, "fix \(k)")
        }
        #expect(abs(got[3].fix.longitude - 0.001) < 1e-12 && abs(got[3].fix.latitude) < 1e-12)
        #expect(got[0...2].allSatisfy { abs($0.fix.course! - 90) < 1e-9 })
        #expect(got[3...].allSatisfy { abs($0.fix.course!) < 1e-6 || abs($0.fix.course! - 360) < 1e-6 })
        // Altitude: 10 → 20 along the first leg (50 m of 111.195 m: 14.4966 m), 20 after.
        #expect(abs(got[1].fix.altitude! - (10 + 10 * 50 / d)) < 1e-9)
        #expect(got[5].fix.altitude == 20)
        // On the second leg, latitude grows by distance / R.
        #expect(abs(got[4].fix.latitude - (150 - d) / Self.radius * 180 / .pi) < 1e-12)
    }

    @Test("issue 21.1: --heading course: every fix is followed, at its time, by a compass whose true heading is its course, turning at the corner")
    func headingFollowsCourse() throws {
        let waypoints = [RouteWaypoint(latitude: 0, longitude: 0), RouteWaypoint(latitude: 0, longitude: 0.001), RouteWaypoint(latitude: 0.001, longitude: 0.001)]
        let plain = try RoutePlanner(waypoints: waypoints, speed: 2, spacing: .distance(metres: 50), start: Self.start).trace()
        #expect(plain.samples.allSatisfy { $0.value.compass == nil })
        let trace = try RoutePlanner(waypoints: waypoints, speed: 2, spacing: .distance(metres: 50), start: Self.start, heading: .course).trace()
        // The corner test's 7 fixes, each with its heading.
        #expect(trace.samples.count == 2 * plain.samples.count && plain.samples.count == 7)
        for k in stride(from: 0, to: trace.samples.count, by: 2) {
            guard case .location(let fix) = trace.samples[k].value, let heading = trace.samples[k + 1].value.compass else {
                Issue.record("sample \(k) is not a fix followed by a heading")
                continue
            }
            #expect(trace.samples[k + 1].offset == trace.samples[k].offset)
            #expect(heading == CompassReading(trueHeading: fix.course) && heading.magnetic == nil && heading.accuracy == nil)
        }
        // East along the equator, then north from the corner.
        #expect(abs((trace.samples[1].value.compass?.trueHeading ?? 0) - 90) < 1e-9)
        let last = try #require(trace.samples.last?.value.compass?.trueHeading)
        #expect(last < 1e-6 || last > 360 - 1e-6)
    }

    @Test("bad routes are refused with a reason", arguments: [
        (["0,0"], 1.0, 1.0, "at least two points"),
        (["0,0", "0,1"], 1.0, 0.0, "interval must be a positive"),
        (["0,0", "0,1"], 1.0, -2.0, "interval must be a positive"),
        (["0,0", "0,1"], 0.0, 1.0, "speed must be a positive"),
        (["0,0", "91,1"], 1.0, 1.0, "point 2: lat must be within"),
        (["5,5", "5,5"], 1.0, 1.0, "two distinct points"),
        (["0,0", "0,179"], 1.0, 0.001, "more than 1000000"),
        // 1e-300 m a fix: a count beyond any integer, said, not converted.
        (["0,0", "0,1"], 1e-300, 1.0, "more than 1000000"),
    ])
    func refused(points: [String], speed: Double, interval: Double, reason: String) {
        let waypoints = points.map { text in
            let parts = text.split(separator: ",").map { Double($0)! }
            return RouteWaypoint(latitude: parts[0], longitude: parts[1])
        }
        let planner = RoutePlanner(waypoints: waypoints, speed: speed, spacing: .interval(seconds: interval), start: Self.start)
        #expect {
            _ = try planner.trace()
        } throws: { error in
            (error as? RouteError)?.description.contains(reason) == true
        }
    }

    @Test("a GPX route without times is interpolated like a route when an interval is given")
    func gpxRoute() throws {
        let gpx = #"<gpx version="1.1"><metadata><time>2026-03-01T08:00:00Z</time></metadata><rte><rtept lat="0" lon="0"/><rtept lat="0" lon="0.001"/></rte></gpx>"#
        let trace = try GPXReader.read(gpx, path: "r.gpx", speed: 5, interval: 4)
        let got = fixes(trace)
        // 111.195 m at 5 m/s = 22.239 s: fixes at 0, 4, …, 20 s and at the end.
        #expect(got.count == 7)
        #expect(abs(got[2].fix.longitude - 40 / Self.radius * 180 / .pi) < 1e-12)
        #expect(abs(got[6].t - Self.milliDegree / 5) < 1e-6)
        #expect(trace.start == Self.start)
    }
}
