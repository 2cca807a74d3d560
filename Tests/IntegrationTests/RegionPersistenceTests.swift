import Foundation
import SextantClient
import SextantProtocol
import SextantTestSupport
import Testing

@Suite("Regions with the real daemon and sextantctl")
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

    @Test("sextantctl regions add, list, remove for any app; status counts them; watch shows a region event as a line")
    func sextantctlRegions() throws {
        let daemon = try DaemonHarness()
        let add = try daemon.ctl(["regions", "add", "shop", "--app", "com.example.shop", "--lat", "48.0", "--lon", "2.0", "--radius", "100", "--loitering-delay", "30"])
        #expect(add.status == 0 && add.stdout.contains("com.example.shop: monitoring shop"), "\(add.stderr)")
        let tiny = try daemon.ctl(["regions", "add", "x", "--app", "com.example.shop", "--lat", "48.0", "--lon", "2.0", "--radius", "0.5"])
        #expect(tiny.status != 0 && tiny.stderr.contains("\"radius\" must be within 1...100000 m"), "\(tiny.stderr)")
        let list = try JSONValue.parse(try daemon.ctl(["regions", "list", "--json"]).stdout).arrayValue ?? []
        #expect(list.map { $0["identifier"] } == ["shop"] && list.first?["loiteringDelay"] == 30 && list.first?["app"] == "com.example.shop")
        #expect(try daemon.ctl(["status"]).stdout.contains("Regions:           1 (1 apps)"))
        #expect(try daemon.ctl(["permissions", "set", "com.example.shop", "authorizedAlways"]).status == 0)
        let (app, _) = try daemon.app("com.example.shop")

        let watcher = try daemon.watch(["--topic", "region"])
        // In and out until a line shows.
        let shown = try #require(
            try watcher.firstLine { attempt throws in
                #expect(try daemon.ctl(["location", "set", attempt % 2 == 0 ? "48.01" : "48.0", "2.0"]).status == 0)
            })
        #expect(shown.contains("com.example.shop") && shown.contains("region"), "\(shown)")
        #expect(shown.contains("shop enter (inside) @ ") || shown.contains("shop exit (outside) @ "), "\(shown)")
        _ = try app.call(Method.regionList)
        #expect(try daemon.ctl(["regions", "remove", "shop", "--app", "com.example.shop"]).stdout.contains("stopped monitoring shop"))
        #expect(try daemon.ctl(["regions", "list"]).stdout.contains("(none)"))
    }
}
