import Foundation
import SextantClient
import SextantProtocol
import Testing

/// examples/test_user_stories.py's first story in Swift, with `SextantClient`: a walk
/// replayed at max speed reaches a streaming app whole, in order, with the trace's times.
@Suite("Example: the walk in Swift")
struct ExampleWalkTests {
    @Test("A walk replayed at max speed reaches a streaming app whole (O5: the trace's own times)")
    func walkAtMaxSpeed() throws {
        let walk = Repository.root + "/Traces/demo-walk.jsonl"
        let samples = try traceLocations(walk)
        let daemon = try DaemonHarness()
        let control = try daemon.control()
        _ = try control.call(Method.permissionsSet, ["app": "com.example.maps", "status": "authorizedWhenInUse"])
        let app = try SextantConnection.app(runtimeDirectory: daemon.runtime)
        _ = try app.call(Method.hello, ["app": "com.example.maps"])
        _ = try app.call(Method.locationStart)

        _ = try control.call(Method.replayStart, ["path": .string(walk), "speed": "max"])
        var fixes: [JSONValue] = []
        while fixes.count < samples.count {
            fixes.append(try app.nextEvent(timeout: 10, description: "location \(fixes.count + 1) of \(samples.count)") { $0.method == Event.location }.params)
        }

        #expect(fixes.map { [$0["lat"]?.doubleValue ?? 0, $0["lon"]?.doubleValue ?? 0] } == samples.map { [$0.lat, $0.lon] })
        let first = try #require(fixes.first?["time"]?.stringValue.flatMap(Timestamp.init(rfc3339:)))
        let last = try #require(fixes.last?["time"]?.stringValue.flatMap(Timestamp.init(rfc3339:)))
        #expect(abs((last.seconds - first.seconds) - (samples.last!.t - samples.first!.t)) < 0.002)
    }

    /// The location samples of a Sextant trace, read from the file as JSON lines.
    private func traceLocations(_ path: String) throws -> [(t: Double, lat: Double, lon: Double)] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").compactMap { line in
            guard !line.hasPrefix("#"), let sample = try? JSONValue.parse(String(line)), let location = sample["location"] else { return nil }
            return (sample["t"]?.doubleValue ?? 0, location["lat"]?.doubleValue ?? 0, location["lon"]?.doubleValue ?? 0)
        }
    }
}
