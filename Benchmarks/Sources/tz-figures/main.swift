// The time-zone engine's cost (sextant-rules(7) Z1–Z6): the table's size and load time, a
// lookup's cost at random points and at points near borders, the follower's cost per fix,
// and beside them a plain fix's cost in the same run (a stream's distance filter, the work
// every fix already costs an app); in CPU time of the thread.
//
//   swift run -c release --package-path Benchmarks tz-figures [TABLE] [LOOKUPS]
//   (default Traces/tz/zones.sxtz if built, else Traces/tz/test-regions.sxtz; 1,000,000)
import Foundation
import SextantCore
import SextantProtocol

#if canImport(Glibc)
import Glibc
#endif

func cpuNanoseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
    return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
}

/// The fastest of three runs of `body`, per item, in ns.
func fastest(_ items: Int, _ body: () -> Int) -> (Double, Int) {
    var best = Int64.max, result = 0
    for _ in 0..<3 {
        let before = cpuNanoseconds()
        result = body()
        best = min(best, cpuNanoseconds() - before)
    }
    return (Double(best) / Double(items), result)
}

let root = #filePath.components(separatedBy: "/Benchmarks/")[0]
let arguments = Array(CommandLine.arguments.dropFirst())
let world = root + "/Traces/tz/zones.sxtz"
let path = arguments.first ?? (FileManager.default.fileExists(atPath: world) ? world : root + "/Traces/tz/test-regions.sxtz")
let count = arguments.dropFirst().first.flatMap { Int($0) } ?? 1_000_000
let bytes = [UInt8](FileManager.default.contents(atPath: path)!)

let (loadNs, _) = fastest(1) { (try? ZoneTable(bytes: bytes))?.zoneNames.count ?? 0 }
let table = try ZoneTable(bytes: bytes)
print("table \(path): \(bytes.count) bytes, \(table.zoneNames.count) zones, data \(table.dataVersion); "
      + "load (parse + check + CRC) \(String(format: "%.1f", loadNs / 1e6)) ms")

/// A fixed pseudo-random sequence, so runs compare.
struct Sequence64 {
    var seed: UInt64 = 41
    mutating func next() -> Double {
        seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Double(seed >> 11) / Double(1 << 53)
    }
}
var random = Sequence64()
// Points over the table's covered area: the world, or the test regions' boxes (Elvas–Badajoz).
let anywhere = (0..<count).map { _ in (random.next() * 180 - 90, random.next() * 360 - 180) }
let border = (0..<count).map { _ in (38.879 + (random.next() - 0.5) * 0.02, -7.033 + (random.next() - 0.5) * 0.02) }
for (name, points) in [("random points", anywhere), ("within 1 km of Elvas–Badajoz", border)] {
    let (ns, answered) = fastest(points.count) {
        var n = 0
        for (lat, lon) in points where table.zoneIndex(latitude: lat, longitude: lon) != nil { n += 1 }
        return n
    }
    print("lookup, \(name): \(String(format: "%.0f", ns)) ns (\(answered) of \(points.count) answered)")
}

let start = Timestamp(nanoseconds: 1_782_900_000_000_000_000)
let fixes = (0..<count).map { i in
    LocationFix(latitude: border[i].0, longitude: border[i].1, horizontalAccuracy: 5,
                time: start.adding(nanoseconds: Int64(i) * 100_000_000))
}
struct OffsetRules: ZoneRules {
    func offset(zone: String, at instant: Timestamp) -> ZoneOffset? { ZoneOffset(seconds: 3600, isDaylightSaving: true) }
}
let (followNs, decisions) = fastest(fixes.count) {
    var follower = ZoneFollower(table: table, rules: OffsetRules())
    var n = 0
    for fix in fixes where follower.observe(fix) != nil { n += 1 }
    return n
}
print("follower, fixes scattered across the border at 10 Hz: \(String(format: "%.0f", followNs)) ns a fix (\(decisions) decisions; rules a constant)")
let (plainNs, served) = fastest(fixes.count) {
    var stream = LocationStream(desiredAccuracy: 0, distanceFilter: 10)
    let fudger = LocationFudger(offsetEast: 0, offsetNorth: 0)
    var n = 0
    for fix in fixes where stream.offer(fix, authorized: .full, fudger: fudger) != nil { n += 1 }
    return n
}
print("plain fix (a stream's distance filter, same fixes): \(String(format: "%.0f", plainNs)) ns a fix (\(served) served)")
