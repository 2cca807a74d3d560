import Foundation
import SextantClient
import SextantProtocol
import Testing

@Suite("The manual source")
struct ManualSourceTests {
    @Test("location set takes southern and western (negative) coordinates and publishes them as given")
    func negativeCoordinates() throws {
        let daemon = try DaemonHarness()
        #expect(try daemon.ctl(["permissions", "grant", "com.example.maps"]).status == 0)
        let (app, _) = try daemon.app("com.example.maps")
        _ = try app.call(Method.locationStart)
        let result = try daemon.ctl(["location", "set", "-33.8568", "-70.6483", "--alt", "520", "--accuracy", "8"])
        #expect(result.status == 0, "\(result.stderr)")
        let fix = try app.nextEvent(timeout: 10, description: "a location") { $0.method == Event.location }.params
        #expect(fix["lat"]?.doubleValue == -33.8568 && fix["lon"]?.doubleValue == -70.6483)
        #expect(fix["alt"]?.doubleValue == 520 && fix["hAcc"]?.doubleValue == 8)
        #expect(try daemon.ctl(["location", "set", "-33.8568"]).status != 0)
    }
}
