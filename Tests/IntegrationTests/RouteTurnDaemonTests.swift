import Foundation
import SextantClient
import SextantCore
import SextantProtocol
import Testing

/// A route driven by hand turns the device (sextant-rules(7) A17): the real sextantd, the
/// real `sextantctl location route`, an app streaming `deviceMotion` on app.sock.
@Suite("A route's turns on the gyroscope through the real daemon (A17)")
struct RouteTurnDaemonTests {
    @Test("A17: sextantctl location route north then east at 15 m/s: the app's gyroscope about the device's up integrates to −π/2 (the quarter turn right)")
    func drivenRouteTurnsA17() throws {
        let daemon = try DaemonHarness(arguments: ["--no-gpsd"])
        let (app, _) = try daemon.app("com.example.navigator")
        _ = try app.call(Method.deviceMotionStart, ["interval": 0, "referenceFrame": "gameRotationVector"])
        let start = "2026-03-01T08:00:00Z"
        // 0.0005° is 55.6 m: 3.7 s north, then 3.7 s east.
        let route = try daemon.ctl(["location", "route", "0,10", "0.0005,10", "0.0005,10.0005", "--speed", "15", "--start", start])
        #expect(route.status == 0, "\(route.stderr)")
        let end = Timestamp(rfc3339: start)!.adding(nanoseconds: 9_000_000_000)
        let events = try app.events(until: "the drive and the 2 s after its last fix", timeout: 30) { event in
            guard event.method == Event.deviceMotion, let time = event.params["time"]?.stringValue.flatMap(Timestamp.init(rfc3339:)) else { return false }
            return time >= end
        }
        let rated = try events.filter { $0.method == Event.deviceMotion }.map { try WireDeviceMotion(json: $0.params) }.filter { $0.rotationRate != nil }
        var turned = 0.0
        for (before, after) in zip(rated, rated.dropFirst()) {
            let seconds = Double(after.time.nanoseconds - before.time.nanoseconds) / 1e9
            let r = after.rotationRate!, g = after.gravity
            let up = Vector3(g.x, g.y, g.z).direction ?? Vector3(0, 1, 0)
            turned += seconds * Vector3(r.x, r.y, r.z).dot(up)
        }
        #expect(rated.count > 300, "a gyroscope reading each 20 ms: \(rated.count)")
        #expect(abs(turned + .pi / 2) < 0.1 * .pi / 2, "∫ω·up dt = \(turned) rad, the route turned 90° right")
    }
}
