import Foundation
import SextantClient
import SextantProtocol
import SextantTestSupport
import Testing

/// Debian's gpspipe against a real sextantd under `--platform android` (docs/platforms.md
/// AN35, AN25, AN21–AN24): a gpsd client granted Approximate gets AOSP's coarse fix — on the
/// 2000 m grid, without altitude, speed or track — at most once every 10 min.
@Suite("gpsd face on an Android phone (gpspipe)", .serialized, .requires(GPSDClients.requirement))
struct GPSDFaceAndroidTests {
    @Test("AN35, AN25: gpspipe -w with an Approximate grant gets AOSP-fudged TPVs 10 min apart (0, 600, 1200, 1800 s), none between")
    func gpspipeCoarseEveryTenMinutes() throws {
        let scratch = try TemporaryDirectory("gpspipe-android")
        let metresPerDegree = 6_371_008.8 * Double.pi / 180
        var lines = [#"{"sextant":"trace","version":1,"start":"2026-03-01T08:00:00.000Z"}"#]
        for t in 0..<1300 {
            lines.append(#"{"t":\#(t),"location":{"lat":\#(48 + 1.4 * Double(t) / metresPerDegree),"lon":2.3,"hAcc":5,"alt":35,"speed":1.4,"course":0}}"#)
        }
        // A last fix at 1800 s, 10 min after the third: gpspipe prints in order, so once it
        // has printed that one it has printed every TPV before it.
        lines.append(#"{"t":1800,"location":{"lat":48.03,"lon":2.3,"hAcc":5}}"#)
        let trace = try scratch.write("walk.jsonl", lines.joined(separator: "\n") + "\n")
        let daemon = try DaemonHarness(arguments: ["--platform", "android", "--gpsd-listen", "0"])
        _ = try daemon.control().call(Method.permissionsSet, ["app": "gpsd.gpspipe", "grants": ["coarse"]])
        let pipe = try ClientProcess([GPSDClients.gpspipe, "-w", "127.0.0.1:\(try daemon.gpsdFacePort())"], directory: scratch.path, name: "gpspipe")
        try daemon.waitForGPSDWatchers(1)
        try daemon.replayAtMax(trace)
        let start = Timestamp(rfc3339: "2026-03-01T08:00:00.000Z")!.nanoseconds
        func second(_ tpv: JSONValue) -> Int? {
            (tpv["time"]?.stringValue).flatMap(Timestamp.init(rfc3339:)).map { Int(($0.nanoseconds - start) / 1_000_000_000) }
        }
        let tpvs: [JSONValue] = try poll(timeout: 60, failure: { "gpspipe printed:\n\(pipe.output())" }) {
            let fixes = pipe.output().split(whereSeparator: \.isNewline).compactMap { try? JSONValue.parse(String($0)) }
                .filter { $0["class"] == "TPV" && $0["lat"] != nil }
            return fixes.contains { second($0) == 1800 } ? fixes : nil
        }
        #expect(tpvs.map(second) == [0, 600, 1200, 1800], "\(pipe.output())")
        for tpv in tpvs {
            let steps = (tpv["lat"]?.doubleValue ?? 0) / (2000.0 / 111_000)
            #expect(abs(steps - steps.rounded()) < 1e-6, "\(tpv)")
            #expect(tpv["alt"] == nil && tpv["altHAE"] == nil && tpv["speed"] == nil && tpv["track"] == nil, "\(tpv)")
        }
    }
}
