// The GNSS profile's cost per fix (sextant-rules(7) N1–N6), beside the decision a fix goes
// through for an app in the same run: the authorization engine's answer for its session
// and its location stream's offer (L1, L10, L11), the work the hub does per fix and app.
//
//   swift run -c release --package-path Benchmarks gnss-figures [FIXES]   (default 200000)
import SextantCore
import SextantProtocol

let fixes = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 200_000
let start = Timestamp(nanoseconds: 1_772_352_000_000_000_000)
let track = (0..<fixes).map { i in
    LocationFix(
        latitude: 48.85837 + Double(i) * 1e-5, longitude: 2.29448, altitude: 35, horizontalAccuracy: 5, verticalAccuracy: 3,
        speed: 1.4, course: 0, time: Timestamp(nanoseconds: start.nanoseconds + Int64(i) * 1_000_000_000))
}
let clock = ContinuousClock()

func nanosecondsPerFix(_ duration: Duration) -> Double {
    (Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9) / Double(fixes)
}

/// The best of five runs, in nanoseconds per fix; `work` returns a count that keeps the
/// optimiser from dropping the loop.
func best(_ work: () -> Int) -> (Double, Int) {
    var fastest = Duration.seconds(1_000_000)
    var kept = 0
    for _ in 0..<5 {
        var count = 0
        fastest = min(fastest, clock.measure { count = work() })
        kept = count
    }
    return (nanosecondsPerFix(fastest), kept)
}

var profileResults: [(String, Double, Int)] = []
for preset in GNSSPreset.all {
    let (ns, reported) = best {
        var engine = GNSSDegradation(spec: GNSSProfileSpec(preset: preset), seed: 7)
        var count = 0
        for fix in track where engine.report(fix) != nil { count += 1 }
        return count
    }
    profileResults.append((preset.name, ns, reported))
}

let time = EngineTime(monotonic: 0, wall: start)
var engine = AuthorizationEngine(permissions: ["com.example.maps": StoredPermission(status: .authorizedAlways, accuracy: .full, updated: start)])
engine.openSession(1, app: "com.example.maps", state: .foreground, at: time)
let fudger = LocationFudger(offsetEast: 731, offsetNorth: 1234)
let (decisionNs, delivered) = best {
    var stream = LocationStream(desiredAccuracy: 0, distanceFilter: 0.5)
    var count = 0
    for fix in track {
        guard let accuracy = engine.locationAccuracy(for: 1), stream.offer(fix, authorized: accuracy, fudger: fudger) != nil else { continue }
        count += 1
    }
    return count
}

print("Cost per fix, \(fixes) fixes at 1 Hz, best of 5 runs:")
for (name, ns, reported) in profileResults {
    print("  GNSS profile \(name): \(String(format1: ns)) ns/fix (\(reported) fixes reported)")
}
print("  decision (authorization + location stream, full accuracy): \(String(format1: decisionNs)) ns/fix (\(delivered) delivered)")
let worst = profileResults.map(\.1).max() ?? 0
print(worst < 1000 ? "  profile under 1 µs a fix: yes" : "  profile under 1 µs a fix: NO (\(String(format1: worst)) ns)")

extension String {
    /// One decimal, without Foundation.
    init(format1 value: Double) {
        let tenths = Int64((value * 10).rounded())
        self = "\(tenths / 10).\(abs(tenths % 10))"
    }
}
