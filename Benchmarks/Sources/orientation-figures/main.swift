// Figures for the orientation judge: decision latency in trace time, and a plain timing
// of its cost per sample with the monotonic clock.
//
//     swift run -c release orientation-figures

import OrientationWorkload
import SextantCore
import SextantProtocol

let millisecond: Int64 = 1_000_000

/// Judges a 3 s stream in which the hand turns at 1 s for 0.4 s, and returns the time
/// from the turn's end (the first sample at the new resting gravity) to the decision
/// of `expected`, in ms; nil if it never came.
func latency(of turn: HandTurn, noise: Double, seed: UInt64, expected: DeviceOrientation) -> Double? {
    let samples = Workload.samples(
        of: turn.gravity(at:), from: Workload.epoch, through: Workload.epoch + 3000 * millisecond,
        period: 10 * millisecond, noise: noise, seed: seed)
    var judge = OrientationJudge()
    for sample in samples {
        if let change = judge.judge(sample.acceleration, at: sample.time), change.orientation == expected {
            return Double(change.time.nanoseconds - turn.end) / Double(millisecond)
        }
    }
    return nil
}

func percentile(_ sorted: [Double], _ p: Double) -> Double { sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }

func format(_ value: Double) -> String {
    let rounded = (value * 10).rounded() / 10
    return String(rounded)
}

print("Decision latency, trace time, from the first sample at the new resting gravity to the decision")
print("(100 Hz, turn over 0.4 s with a half-cosine profile, device leaned back 20°):")
let turns: [(String, HandTurn, DeviceOrientation)] = [
    ("portrait → landscapeLeft", HandTurn(from: 0, to: 90, start: Workload.epoch + 1000 * millisecond, duration: 400 * millisecond), .landscapeLeft),
    ("portrait → landscapeRight", HandTurn(from: 0, to: -90, start: Workload.epoch + 1000 * millisecond, duration: 400 * millisecond), .landscapeRight),
    ("landscapeLeft → portrait", HandTurn(from: 90, to: 0, start: Workload.epoch + 1000 * millisecond, duration: 400 * millisecond), .portrait),
]
for (name, turn, expected) in turns {
    let clean = latency(of: turn, noise: 0, seed: 0, expected: expected).map(format) ?? "never"
    let noisy = (UInt64(1)...1000).compactMap { latency(of: turn, noise: 0.15, seed: $0, expected: expected) }.sorted()
    print(
        "  \(name): clean \(clean) ms; σ = 0.15 m/s² over \(noisy.count) seeds: median \(format(percentile(noisy, 0.5))) ms,"
            + " p95 \(format(percentile(noisy, 0.95))) ms, min \(format(noisy.first!)) ms, max \(format(noisy.last!)) ms")
}

print("\nCost per sample (a minute of use at 100 Hz, σ = 0.15 m/s², 6000 samples, fresh judge per run):")
let minute = Workload.minuteOfUse(seed: 1)
var decisions = 0
let clock = ContinuousClock()
var best = Duration.seconds(1000)
for _ in 0..<20 {
    let elapsed = clock.measure {
        for _ in 0..<50 {
            var judge = OrientationJudge()
            for sample in minute where judge.judge(sample.acceleration, at: sample.time) != nil { decisions += 1 }
        }
    }
    best = min(best, elapsed)
}
let nanoseconds = Double(best.components.seconds) * 1e9 + Double(best.components.attoseconds) / 1e9
print("  \(format(nanoseconds / Double(50 * minute.count))) ns/sample (best of 20 runs of 50 minutes; \(decisions / 1000) decisions per run)")
