import Foundation
import SextantClient
import SextantProtocol
import Testing

/// `sextantctl location route`: a route played at once through the daemon's replay.
@Suite("sextantctl location route")
struct LocationRouteTests {
    static let radius = 6_371_008.8

    @Test("an app receives the route's fixes along the equator, 20 m apart at 100 m/s, course 90°; --loop loops")
    func playsRoute() throws {
        let daemon = try DaemonHarness()
        let app = try daemon.streamingApp("com.example.route")
        let result = try daemon.ctl([
            "location", "route", "0,10", "0,10.01", "--speed", "100", "--distance", "20", "--start", "2026-03-01T08:00:00Z", "--loop", "--json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let locations = try app.locations(5)
        for (k, location) in locations.enumerated() {
            // 20 m along the equator is 20 / R radians of longitude; every 0.2 s at 100 m/s.
            let lon = 10 + Double(k) * 20 / Self.radius * 180 / .pi
            #expect(abs(location["lon"]!.doubleValue! - lon) < 1e-9, "fix \(k): \(location)")
            #expect(abs(location["lat"]!.doubleValue!) < 1e-9)
            #expect(location["speed"]?.doubleValue == 100)
            #expect(abs((location["course"]?.doubleValue ?? 0) - 90) < 1e-6)
            let time = try #require(location["time"]?.stringValue.flatMap(Timestamp.init(rfc3339:)))
            #expect(time == Timestamp(rfc3339: "2026-03-01T08:00:00Z")!.adding(nanoseconds: Int64(k) * 200_000_000))
        }
        let status = try daemon.control().call(Method.replayStatus)
        #expect(status["loop"]?.boolValue == true)
        #expect(status["state"]?.stringValue == "running")
        // The route's file was private and is gone once the daemon loaded it.
        let path = try #require(status["path"]?.stringValue)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("a route with one point is refused before the daemon is asked")
    func onePoint() throws {
        let daemon = try DaemonHarness()
        let result = try daemon.ctl(["location", "route", "0,10"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("at least two points"), "\(result.stderr)")
        #expect(try daemon.control().call(Method.replayStatus)["state"]?.stringValue != "running")
    }
}

/// A GPX route without times, replayed by a daemon started with `--gpx-interval`.
@Suite("GPX routes replayed with --gpx-interval")
struct GPXIntervalReplayTests {
    @Test("a two-point GPX route plays as a fix every second along it, not as two fixes")
    func interpolated() throws {
        let daemon = try DaemonHarness(arguments: ["--gpx-speed", "10", "--gpx-interval", "1"])
        let app = try daemon.streamingApp("com.example.gpx")
        let gpx = #"<gpx version="1.1"><metadata><time>2026-03-01T08:00:00Z</time></metadata><rte><rtept lat="0" lon="20"/><rtept lat="0" lon="20.001"/></rte></gpx>"#
        let path = try daemon.write("route.gpx", gpx)
        _ = try daemon.control().call(Method.replayStart, ["path": .string(path), "speed": "max"])
        // 0.001° of the equator is 111.195 m: at 10 m/s, fixes at 0, 1, …, 11 s and 11.12 s.
        let locations = try app.locations(13)
        for (k, location) in locations.prefix(12).enumerated() {
            #expect(abs(location["lon"]!.doubleValue! - (20 + Double(k) * 10 / 6_371_008.8 * 180 / .pi)) < 1e-9, "fix \(k)")
            #expect(location["speed"]?.doubleValue == 10)
        }
        #expect(abs(locations[12]["lon"]!.doubleValue! - 20.001) < 1e-12)
    }
}
