import Foundation
import SextantProtocol
import SextantTestSupport
import Testing

/// Issue 24.5: gpsd's own client tools work against the gpsd face as against gpsd: one
/// device, with a path such as gpsd gives (`host:port:device` splits at colons).
@Suite("gpsd client tools on the gpsd face", .serialized, .requires(.tool("/usr/bin/gpsprof", package: "gpsd-clients")))
struct GPSDFaceClientToolTests {
    @Test("issue 24.5: gpsprof gathers fixes from the face (one device, /dev/sextant0) and prints its plot")
    func gpsprofPlots() throws {
        let scratch = try TemporaryDirectory("gpsprof")
        let trace = try scratch.write("walk.jsonl", syntheticTrace(count: 30, step: 1))
        let daemon = try DaemonHarness(arguments: ["--gpsd-listen", "0", "--prompt-policy", "allowAlways", "--replay", trace, "--speed", "5", "--loop"])
        let port = try daemon.gpsdFacePort()
        let result = try run(["/usr/bin/timeout", "120", "/usr/bin/gpsprof", "-n", "3", "-f", "space", "127.0.0.1:\(port)"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("plot") && result.stdout.contains("/dev/sextant0"), "\(result.stdout)")
        #expect(result.stderr.contains("gathering 3 samples"), "\(result.stderr)")
        let devices = try run(["/usr/bin/timeout", "30", "/usr/bin/gpspipe", "-w", "-n", "2", "127.0.0.1:\(port)"])
        let listed = devices.stdout.split(whereSeparator: \.isNewline).compactMap { try? JSONValue.parse(String($0)) }.first { $0["class"] == "DEVICES" }
        #expect(listed?["devices"]?.arrayValue?.map { $0["path"] } == ["/dev/sextant0"], "\(devices.stdout)")
        #expect(listed?["devices"]?.arrayValue?.first?["subtype"] == "sextant replay", "\(devices.stdout)")
    }
}
