import Foundation
import SextantClient
import SextantProtocol
import SextantTestSupport
import Testing

@Suite("Regions survive the daemon")
struct RegionPersistenceTests {
    @Test("R12: a region region.monitor acknowledged survives kill -9; one region.stop acknowledged stays gone")
    func regionsSurviveKill9() throws {
        let daemon = try DaemonHarness()
        #expect(try daemon.ctl(["permissions", "set", "com.example.shop", "authorizedAlways"]).status == 0)
        let (app, _) = try daemon.app("com.example.shop")
        for n in 0..<3 {
            _ = try app.call(Method.regionMonitor, ["identifier": .string("shop\(n)"), "lat": 48.0, "lon": 2.0, "radius": 100, "loiteringDelay": 30])
        }
        _ = try app.call(Method.regionMonitor, ["identifier": "shop1", "lat": 48.001, "lon": 2.0, "radius": 250])
        #expect(try app.call(Method.regionStop, ["identifier": "shop2"]) == ["removed": true])
        // Each answer comes once the change is on disk: kill at once after the last.
        daemon.kill9()
        try daemon.restart()
        let (again, _) = try daemon.app("com.example.shop")
        let regions = try again.call(Method.regionList)["regions"]?.arrayValue ?? []
        #expect(regions.map { $0["identifier"] } == ["shop0", "shop1"])
        #expect(regions.first?["loiteringDelay"] == 30)
        #expect(regions.last?["radius"] == 250 && regions.last?["lat"] == 48.001 && regions.last?["loiteringDelay"] == nil)
        #expect(regions.allSatisfy { $0["state"] == "unknown" })
    }
}
