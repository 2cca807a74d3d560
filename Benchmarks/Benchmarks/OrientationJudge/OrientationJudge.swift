import Benchmark
import OrientationWorkload
import SextantCore

/// The CPU cost of O2/O3: each iteration judges a minute of 100 Hz noisy samples
/// (6000 samples) with a fresh judge. Divide the time per iteration by 6000 for ns/sample.
let benchmarks: @Sendable () -> Void = {
    let samples = Workload.minuteOfUse(seed: 1)

    Benchmark(
        "OrientationJudge 60 s at 100 Hz (6000 samples)",
        configuration: .init(metrics: [.wallClock, .throughput, .mallocCountTotal], maxDuration: .seconds(5))
    ) { benchmark in
        for _ in benchmark.scaledIterations {
            var judge = OrientationJudge()
            var events = 0
            for sample in samples where judge.judge(sample.acceleration, at: sample.time) != nil { events += 1 }
            blackHole(events)
        }
    }
}
