// The regions' cost per fix (sextant-rules(7) R1–R9): 1000 apps × 20 regions each judged
// against a walk's fixes at 10 Hz, most regions far away (the box test) and one per app on
// the walk's line (distance, segment and transitions), and the same for 100,000 regions;
// in CPU time of the thread.
//
//   swift run -c release --package-path Benchmarks region-figures [FIXES]   (default 2000)
import SextantCore
import SextantProtocol

#if canImport(Glibc)
import Glibc
#endif

let fixes = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 2000
let northScale = Geo.earthRadius * .pi / 180
let eastScale = northScale * cos(48.0 * .pi / 180)
let start = Timestamp(nanoseconds: 1_772_352_000_000_000_000)

/// A walk east from 48.0, 2.0 at 1.4 m/s, 10 fixes a second.
let walk = (0..<fixes).map { i in
    LocationFix(
        latitude: 48.0, longitude: 2.0 + Double(i) * 0.14 / eastScale, horizontalAccuracy: 5,
        time: Timestamp(nanoseconds: start.nanoseconds + Int64(i) * 100_000_000))
}

/// `apps` apps with `perApp` regions each: the first of each on the walk's line, every
/// 10 m, the rest scattered over 100 km around.
func monitor(apps: Int, perApp: Int) -> RegionMonitor {
    var monitor = RegionMonitor(maxRegionsPerApp: perApp)
    var seed: UInt64 = 42
    func next() -> Double {
        seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Double(seed >> 11) / Double(1 << 53)
    }
    for app in 0..<apps {
        for n in 0..<perApp {
            let east = n == 0 ? Double(app % 100) * 10 : (next() - 0.5) * 100_000
            let north = n == 0 ? 0 : (next() - 0.5) * 100_000
            let region = CircularRegion(
                identifier: "r\(n)", latitude: 48.0 + north / northScale, longitude: 2.0 + east / eastScale, radius: 50 + next() * 150)
            try! monitor.monitor(region, for: "com.example.app\(app)")
        }
    }
    return monitor
}

/// This thread's CPU time in nanoseconds: the figure holds on a loaded machine too.
func cpuNanoseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
    return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
}

for (apps, perApp) in [(1000, 20), (5000, 20)] {
    var fastest = Int64.max
    var transitions = 0
    for _ in 0..<3 {
        var regions = monitor(apps: apps, perApp: perApp)
        var count = 0
        let before = cpuNanoseconds()
        for fix in walk { count += regions.evaluate(fix).count }
        fastest = min(fastest, cpuNanoseconds() - before)
        transitions = count
    }
    let perFix = Double(fastest) / Double(fixes)
    print(
        "\(apps) apps × \(perApp) regions (\(apps * perApp)): \(Int(perFix / 1000)) µs a fix, \(transitions) transitions over \(fixes) fixes;"
            + " at 10 Hz \((perFix * 10 / 1e7 * 1000).rounded() / 1000) % of a core")
}
