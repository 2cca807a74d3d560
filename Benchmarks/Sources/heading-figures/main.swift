// The heading engine's cost per sample beside the orientation judge's, on the same minute
// of use, timed with the monotonic clock (issue 21, "Performance").
//
//     swift run -c release heading-figures

import OrientationWorkload
import SextantCore
import SextantProtocol

#if canImport(Glibc)
import Glibc
#endif

/// The best of 20 runs of `body`, in ns per sample of `count`.
func nanosecondsPerSample(_ count: Int, _ body: () -> Int) -> (Double, Int) {
    let clock = ContinuousClock()
    var best = Duration.seconds(1000)
    var decided = 0
    for _ in 0..<20 {
        let elapsed = clock.measure { decided = body() }
        best = min(best, elapsed)
    }
    let ns = Double(best.components.seconds) * 1e9 + Double(best.components.attoseconds) / 1e9
    return (ns / Double(count), decided)
}

func format(_ value: Double) -> String { String((value * 10).rounded() / 10) }

let minute = Workload.minuteOfUse(seed: 1)
// The same minute with a magnetometer reading at each accelerometer sample: Earth's field
// (20 µT north, 40 µT down) turned into the device frame by the hand's gravity, plus noise.
var generator = SeededGenerator(seed: 7)
let fields: [MagneticField] = minute.map { sample in
    let g = sample.acceleration
    let noise = { Double.random(in: -0.3...0.3, using: &generator) }
    return MagneticField(x: 0.2 * g.x + noise() + 15, y: -0.5 * g.y + noise() + 10, z: -4 * g.z / 9.8 + noise() - 30)
}

let judge = nanosecondsPerSample(minute.count * 10) {
    var decisions = 0
    for _ in 0..<10 {
        var judge = OrientationJudge()
        for sample in minute where judge.judge(sample.acceleration, at: sample.time) != nil { decisions += 1 }
    }
    return decisions
}
let engine = nanosecondsPerSample(minute.count * 10) {
    var decided = 0
    for _ in 0..<10 {
        var engine = HeadingEngine()
        engine.expected = WorldMagneticModel.wmm2025.elements(latitude: 48.85, longitude: 2.29, height: 0, year: 2026.2)
        for (sample, field) in zip(minute, fields) {
            engine.gravity(sample.acceleration)
            if engine.judge(field, at: sample.time) != nil { decided += 1 }
        }
    }
    return decided
}
var cache = MagneticModelCache()
let model = nanosecondsPerSample(1000) {
    var sum = 0
    for i in 0..<1000 {
        let e = WorldMagneticModel.wmm2025.elements(latitude: Double(i % 180) - 89.5, longitude: Double(i), height: 0, year: 2026.5)
        sum += e.declination > 0 ? 1 : 0
    }
    return sum
}
let cached = nanosecondsPerSample(minute.count) {
    var sum = 0
    for sample in minute where cache.elements(latitude: 48.85, longitude: 2.29, height: 0, at: sample.time).declination > 0 {
        sum += 1
    }
    return sum
}
print("Cost per sample, best of 20 runs (a minute of use at 100 Hz, 6000 samples, ×10):")
print("  orientation judge: \(format(judge.0)) ns/sample")
print("  heading engine (tilt compensation, field quality): \(format(engine.0)) ns/sample (\(engine.1 / 10) headings per run)")
print("  WMM2025 at a new place: \(format(model.0)) ns; through the cache at the same place: \(format(cached.0)) ns")
