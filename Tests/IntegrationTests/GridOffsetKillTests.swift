import Foundation
import SextantClient
import SextantProtocol
import Testing

@Suite("Grid offsets and kill -9")
struct GridOffsetKillTests {
    /// The cell centre an app with reduced accuracy receives for one position.
    private func firstReducedFix(_ daemon: DaemonHarness, app id: String) throws -> (Double, Double) {
        let (app, _) = try daemon.app(id)
        _ = try app.call(Method.locationStart)
        _ = try daemon.control().call(Method.deviceSet, ["location": ["lat": 48.8566, "lon": 2.3522]])
        let event = try app.nextEvent(timeout: 10, description: "the first reduced fix") { $0.method == Event.location }
        #expect(event.params["hAcc"]?.doubleValue ?? 0 >= 2000)
        return (try #require(event.params["lat"]?.doubleValue), try #require(event.params["lon"]?.doubleValue))
    }

    @Test("L10: an app's 2 km grid is the same after a kill -9 right after its first reduced fix (20 tries)")
    func gridSurvivesKill9AfterFirstReducedFix() throws {
        let daemon = try DaemonHarness()
        for round in 0..<20 {
            let app = "com.example.grid\(round)"
            #expect(try daemon.ctl(["permissions", "grant", app, "--approximate"]).status == 0)
            let before = try firstReducedFix(daemon, app: app)
            daemon.kill9()
            try daemon.restart()
            let after = try firstReducedFix(daemon, app: app)
            #expect(before == after, "round \(round): the cell centre moved from \(before) to \(after)")
        }
    }
}
