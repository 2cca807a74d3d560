import Foundation
import SextantClient
import SextantProtocol
import Testing

/// A real phone's GnssLogger recording replayed by the daemon to a real app (issue 23.1).
@Suite("GnssLogger replay")
struct GnssLoggerReplayTests {
    static var traces: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path + "/Traces/gnsslogger/"
    }

    @Test("Issue 23.1: the Pixel 7 recording replays; an app's first fix is the file's first GPS fix, at its UTC time")
    func pixel7FirstFix() throws {
        let daemon = try DaemonHarness()
        let path = try daemon.write("gnss_log_2023_11_07.txt", try String(contentsOfFile: Self.traces + "pixel7-2023-stanford.txt", encoding: .utf8))
        #expect(try daemon.ctl(["permissions", "grant", "com.example.gnss"]).status == 0)
        let (app, _) = try daemon.app("com.example.gnss")
        _ = try app.call(Method.locationStart)
        _ = try daemon.control().call(Method.replayStart, ["path": .string(path), "speed": "max"], timeout: 60)
        var first: JSONValue?
        while first == nil {
            let event = try app.nextEvent(timeout: 30)
            if event.method == Event.location { first = event.params }
        }
        // grep '^Fix,GPS,' pixel7-2023-stanford.txt | head -1:
        // Fix,GPS,37.4265079783,-122.1737079613,23.67296474531974,0.0,4.2366138,,1699400582000,…,3.0,…
        #expect(first?["lat"]?.doubleValue == 37.4265079783 && first?["lon"]?.doubleValue == -122.1737079613)
        #expect(first?["alt"]?.doubleValue == 23.67296474531974 && first?["hAcc"]?.doubleValue == 4.2366138 && first?["vAcc"]?.doubleValue == 3.0)
        #expect(first?["time"] == "2023-11-07T23:43:02.000Z")
        let status = try daemon.control().call(Method.replayStatus)
        // 1699401141957 − 1699400582000 ms: the first GPS fix to the last UncalMag row (issue 21.1).
        #expect(status["duration"]?.doubleValue == 559.957, "\(status)")
    }
}
