// The time-zone table's size, load time and lookup cost (docs/timezone.md), built from the
// reader's own sources, so that two versions of the reader and their tables compare in one
// run (Tools/bench/bench-zone-table.sh builds and runs it). CPU time of the thread, the
// fastest of 3 rounds; 1,000,000 lookups a set.
import Foundation

#if canImport(Glibc)
import Glibc
#endif

func cpuNanoseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
    return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
}

func fastest(_ items: Int, _ body: () -> Int) -> (Double, Int) {
    var best = Int64.max, result = 0
    for _ in 0..<3 {
        let before = cpuNanoseconds()
        result = body()
        best = min(best, cpuNanoseconds() - before)
    }
    return (Double(best) / Double(items), result)
}

/// A fixed pseudo-random sequence, so that runs and versions compare.
struct Sequence64 {
    var seed: UInt64 = 41
    mutating func next() -> Double {
        seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Double(seed >> 11) / Double(1 << 53)
    }
}

let arguments = Array(CommandLine.arguments.dropFirst())
let path = arguments[0], label = arguments.count > 1 ? arguments[1] : ""
let count = 1_000_000
let bytes = [UInt8](FileManager.default.contents(atPath: path)!)
let (loadNs, _) = fastest(1) { (try? ZoneTable(bytes: bytes))?.zoneNames.count ?? 0 }
let table = try ZoneTable(bytes: bytes)
print("\(label)\(path): \(bytes.count) bytes; load (parse + check + CRC) \(String(format: "%.1f", loadNs / 1e6)) ms")
var random = Sequence64()
let anywhere = (0..<count).map { _ in (random.next() * 180 - 90, random.next() * 360 - 180) }
// Within ~1 km of borders: Elvas–Badajoz (a river), Indiana's county lines, the Navajo Nation.
func near(_ lat: Double, _ lon: Double) -> [(Double, Double)] {
    (0..<count).map { _ in (lat + (random.next() - 0.5) * 0.02, lon + (random.next() - 0.5) * 0.02) }
}
let sets = [("random points", anywhere), ("within 1 km of Elvas–Badajoz", near(38.879, -7.033)),
            ("within 1 km of Knox–Plymouth, Indiana", near(41.3195, -86.468)),
            ("within 1 km of Kayenta, the Navajo Nation", near(36.0885, -110.424))]
for (name, points) in sets {
    let (ns, answered) = fastest(points.count) {
        var n = 0
        for (lat, lon) in points where table.zoneIndex(latitude: lat, longitude: lon) != nil { n += 1 }
        return n
    }
    print("\(label)  lookup, \(name): \(String(format: "%.0f", ns)) ns (\(answered) of \(points.count) answered)")
}
