// What keeping the zone rules' last answer saves (docs/timezone.md, "The service"): the
// daemon's SystemZoneRules reduced to what it does, against asking Foundation on every fix.
//     swiftc -O -o /tmp/bench-zone-rules Tools/bench/bench-zone-rules.swift && /tmp/bench-zone-rules Europe/Madrid
import Foundation
import Synchronization

struct Offset: Equatable { var seconds: Int; var dst: Bool }
final class Kept: Sendable {
    struct Answer { var zone: String; var from: Double; var until: Double; var offset: Offset? }
    let last = Mutex<Answer?>(nil)
    func offset(_ zone: String, _ t: Double) -> Offset? {
        let kept: Offset?? = last.withLock { a in
            guard let a, a.zone == zone, a.from <= t, t < a.until else { return .none }
            return .some(a.offset)
        }
        if let kept { return kept }
        let a = Self.lookUp(zone, t)
        last.withLock { $0 = a }
        return a.offset
    }
    static func lookUp(_ zone: String, _ t: Double) -> Answer {
        guard let tz = TimeZone(identifier: zone) else { return Answer(zone: zone, from: t, until: .infinity, offset: nil) }
        let d = Date(timeIntervalSince1970: t)
        let next = tz.nextDaylightSavingTimeTransition(after: d)?.timeIntervalSince1970 ?? .infinity
        return Answer(zone: zone, from: t, until: next, offset: Offset(seconds: tz.secondsFromGMT(for: d), dst: tz.isDaylightSavingTime(for: d)))
    }
}
func direct(_ zone: String, _ t: Double) -> Offset? {
    guard let tz = TimeZone(identifier: zone) else { return nil }
    let d = Date(timeIntervalSince1970: t)
    return Offset(seconds: tz.secondsFromGMT(for: d), dst: tz.isDaylightSavingTime(for: d))
}
func cpu() -> Double { var ts = timespec(); clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts); return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9 }
let zone = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "Europe/Madrid"
let start = 1_782_900_000.0  // 2026-07-01
let n = 200_000
var sink = 0
for round in 0..<3 {
    let kept = Kept()
    var t0 = cpu()
    for i in 0..<n { sink &+= kept.offset(zone, start + Double(i) * 0.1)?.seconds ?? 0 }
    let keptNs = (cpu() - t0) / Double(n) * 1e9
    t0 = cpu()
    for i in 0..<(n / 10) { sink &+= direct(zone, start + Double(i) * 0.1)?.seconds ?? 0 }
    let directNs = (cpu() - t0) / Double(n / 10) * 1e9
    print(String(format: "round %d, %@, 10 Hz fixes: kept answer %.0f ns a fix; Foundation asked every fix %.0f ns", round, zone, keptNs, directNs))
}
print(sink == 42 ? "" : "done")
