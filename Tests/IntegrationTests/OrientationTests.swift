import Foundation
import SextantClient
import SextantProtocol
import Testing

/// What sextantctl shows and refuses of device orientation, interface orientation and
/// posture, on the real daemon. The rules themselves (O3–O11, P1–P4, O5's replays) are tested
/// in process: Tests/SextantServerTests/OrientationHubTests and PostureAndReplayedTurnHubTests.
@Suite("Orientation and posture through the real daemon")
struct OrientationTests {
    /// An app that said hello and subscribed to orientation events.
    private func orientedApp(_ daemon: DaemonHarness, _ id: String = "com.example.game", orientations: [String]? = nil) throws -> (SextantConnection, JSONValue) {
        let (app, hello) = try daemon.app(id, orientations: orientations)
        _ = try app.call(Method.orientationStart)
        return (app, hello)
    }

    @Test("status, apps list and watch show device orientation, interface orientation and posture")
    func shownInStatusAppsAndWatch() throws {
        let daemon = try DaemonHarness(arguments: ["--profile", "foldable"])
        let watcher = try daemon.control()
        _ = try watcher.call(Method.watch)
        let (app, _) = try orientedApp(daemon)
        #expect(try daemon.ctl(["rotate", "landscapeLeft"]).status == 0)
        let device = try watcher.nextEvent(timeout: 10, description: "deviceOrientation") { $0.method == Event.deviceOrientation }
        #expect(device.params["orientation"] == "landscapeLeft" && device.params["app"] == "com.example.game")
        let interface = try watcher.nextEvent(timeout: 10, description: "interfaceOrientation") { $0.method == Event.interfaceOrientation }
        #expect(interface.params["orientation"] == "landscapeRight" && interface.params["app"] == "com.example.game")
        #expect(try daemon.ctl(["hinge", "100"]).status == 0)
        let posture = try watcher.nextEvent(timeout: 10, description: "posture") { $0.method == Event.posture }
        #expect(posture.params["state"] == "halfOpened" && posture.params["fold"] == "horizontal")
        _ = app

        let status = try daemon.ctl(["status"])
        #expect(status.stdout.contains("Device:            landscapeLeft, rotation lock off"), "\(status.stdout)")
        #expect(status.stdout.contains("Posture:           halfOpened (hinge 100°)"), "\(status.stdout)")
        #expect(status.stdout.contains("iio (off), manual (active), replay (idle)"), "\(status.stdout)")
        let apps = try daemon.ctl(["apps", "list"])
        let row = try #require(apps.stdout.split(separator: "\n").first { $0.contains("com.example.game") })
        #expect(row.contains("landscapeRight"), "\(apps.stdout)")
        #expect(try daemon.ctl(["accel", "1", "2"]).status != 0)
        #expect(try daemon.ctl(["hinge", "181"]).status != 0)
    }
}
