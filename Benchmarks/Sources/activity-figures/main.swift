// The activity engine's cost per fix (RULES A1–A10), beside a plain distance between two
// fixes: `swift run -c release activity-figures`. With a listener the service hands each
// true fix to `ActivityEngine.fix`; without one the hub never calls it (A10), so the figure
// without a listener is the engine's zero, and what the hub spends asking is its
// `wantsFixes`, measured in the hub's own benchmarks.

#if canImport(Glibc)
import Glibc
#endif
import SextantCore
import SextantProtocol

func nanoseconds() -> Int64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
}

/// One fix a second due north: a day of 10 min walking, 2 min standing, 20 min driving
/// with a 1 min stop, over and over.
func trip(_ count: Int) -> [LocationFix] {
    let metresPerDegree = Geo.earthRadius * .pi / 180
    let start = Timestamp(nanoseconds: 1_772_352_000_000_000_000)
    var north = 0.0
    var fixes: [LocationFix] = []
    fixes.reserveCapacity(count)
    for second in 0..<count {
        let phase = second % 1980
        let speed = phase < 600 ? 1.4 : phase < 720 ? 0 : phase < 1400 || phase >= 1460 ? 13.4 : 0
        north += speed
        fixes.append(
            LocationFix(
                latitude: 48 + (north.truncatingRemainder(dividingBy: 100_000)) / metresPerDegree, longitude: 2.3,
                time: start.adding(nanoseconds: Int64(second) * 1_000_000_000)))
    }
    return fixes
}

let fixes = trip(2_000_000)
var engine = ActivityEngine()
var changes = 0
let began = nanoseconds()
for fix in fixes {
    let change = engine.fix(fix)
    if change.report != nil { changes += 1 }
}
let engineNanoseconds = Double(nanoseconds() - began) / Double(fixes.count)

var metres = 0.0
let distanceBegan = nanoseconds()
for (a, b) in zip(fixes, fixes.dropFirst()) {
    metres += Geo.distance(lat1: a.latitude, lon1: a.longitude, lat2: b.latitude, lon2: b.longitude)
}
let distanceNanoseconds = Double(nanoseconds() - distanceBegan) / Double(fixes.count - 1)

print("fixes: \(fixes.count), activity reports: \(changes), steps: \(engine.steps.steps), history: \(engine.history.entries.count) activities, \(engine.history.checkpoints.count) checkpoints")
func tenths(_ value: Double) -> String { "\((value * 10).rounded() / 10)" }

print("activity engine, with a listener: \(tenths(engineNanoseconds)) ns per fix")
print("activity engine, without a listener: 0 ns per fix (the hub does not call it: A10)")
print("for scale, one great-circle distance: \(tenths(distanceNanoseconds)) ns (\(Int(metres)) m in all)")
