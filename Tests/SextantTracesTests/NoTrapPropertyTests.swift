import Foundation
import SextantCore
import SextantProtocol
import SextantTestSupport
import SextantTraces
import Testing

/// The values the property tests draw: edges and any bit pattern as well as ordinary ones.
extension SplitMix64 {
    /// A finite double from every part of the range: edges, huge and tiny values, any bit
    /// pattern, and ordinary values where the readers' ranges lie.
    mutating func double() -> Double {
        switch Int.random(in: 0..<6, using: &self) {
        case 0:
            return [0, -0.0, 1e308, -1e308, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .leastNonzeroMagnitude, 1e-300,
                9.3e9, 1e10, 1e9, 9.223372036854775807e18, -9.3e18, 360, 180, 90, 1000, 1e5, 2e7].randomElement(using: &self)!
        case 1:
            let d = Double(bitPattern: next())
            return d.isFinite ? d : 1e300
        case 2: return Double.random(in: -1e12...1e12, using: &self)
        default: return Double.random(in: -400...400, using: &self)
        }
    }

    /// Any instant a timestamp holds, often near the ends.
    mutating func timestamp() -> Timestamp {
        switch Int.random(in: 0..<4, using: &self) {
        case 0: return Timestamp(nanoseconds: Int64(bitPattern: next()))
        case 1: return Timestamp(nanoseconds: Bool.random(using: &self) ? .max - Int64.random(in: 0...1_000_000_000_000, using: &self) : .min + Int64.random(in: 0...1_000_000_000_000, using: &self))
        default: return Timestamp(nanoseconds: Int64.random(in: 0...4_000_000_000_000_000_000, using: &self))
        }
    }

    /// An RFC 3339-shaped text with any four-digit year, often broken.
    mutating func rfc3339Text() -> String {
        func two(_ range: ClosedRange<Int>) -> String { String(format: "%02d", Int.random(in: range, using: &self)) }
        var text = String(format: "%04d", Int.random(in: 0...9999, using: &self)) + "-" + two(0...13) + "-" + two(0...32) + "T" + two(0...25)
            + ":" + two(0...61) + ":" + two(0...61)
        if Bool.random(using: &self) { text += "." + String(UInt64.random(in: 0...UInt64.max, using: &self)) }
        text += ["Z", "+14:00", "-23:59", "", "z", "+99:99"].randomElement(using: &self)!
        return text
    }
}

/// Random numbers and times thrown at everything that reads them from outside: none may
/// trap. A failing seed is printed by the test that found it.
@Suite("No trap on random numbers and times (seeded)")
struct NoTrapPropertyTests {
    static let seeds: [UInt64] = [1, 2, 3, 0xDEAD_BEEF, 20_261_123]
    static let rounds = 400

    @Test("JSONL: random t, start, accelerations and location fields load or fail cleanly", arguments: seeds)
    func jsonl(seed: UInt64) {
        var g = SplitMix64(seed: seed)
        for _ in 0..<Self.rounds {
            let start = Bool.random(using: &g) ? g.rfc3339Text() : g.timestamp().rfc3339
            var lines = [#"{"sextant":"trace","version":1,"start":""# + start + #""}"#]
            for _ in 0..<4 {
                let t = "\(g.double())"
                let (a, b, c, d) = (g.double(), g.double(), g.double(), g.double())
                lines.append([
                    #"{"t":\#(t),"accel":{"x":\#(a),"y":\#(b),"z":\#(c)}}"#,
                    #"{"t":\#(t),"location":{"lat":\#(a / 1e6),"lon":\#(b / 1e6),"alt":\#(c),"hAcc":\#(d),"vAcc":\#(a),"speed":\#(b),"course":\#(c)}}"#,
                    #"{"t":\#(t),"hinge":{"angle":\#(d)}}"#,
                ].randomElement(using: &g)!)
            }
            if let trace = try? SextantTraceFormat.read(lines.joined(separator: "\n"), path: "p.jsonl") {
                check(trace, seed: seed)
            }
        }
    }

    @Test("NMEA: random numbers in every field and random dates read or are skipped", arguments: seeds)
    func nmea(seed: UInt64) {
        var g = SplitMix64(seed: seed)
        func number() -> String {
            let d = g.double()
            return Bool.random(using: &g) ? String(format: "%.4f", d) : "\(d)"
        }
        func sentence(_ body: String) -> String {
            "$" + body + "*" + String(format: "%02X", body.utf8.reduce(UInt8(0)) { $0 ^ $1 })
        }
        for _ in 0..<Self.rounds {
            var lines = ["# Date: \(g.rfc3339Text().prefix(10))"]
            for _ in 0..<6 {
                let time = String(format: "%02d%02d%02d.%02d", Int.random(in: 0...25, using: &g), Int.random(in: 0...61, using: &g), Int.random(in: 0...61, using: &g), Int.random(in: 0...99, using: &g))
                let date = String(format: "%02d%02d%02d", Int.random(in: 0...32, using: &g), Int.random(in: 0...13, using: &g), Int.random(in: 0...99, using: &g))
                lines.append(sentence("GPGGA,\(time),\(number()),N,\(number()),E,1,08,\(number()),\(number()),M,\(number()),M,,"))
                lines.append(sentence("GPRMC,\(time),A,\(number()),S,\(number()),W,\(number()),\(number()),\(date),,,A"))
                lines.append(sentence("GPGST,\(time),\(number()),\(number()),\(number()),\(number()),\(number()),\(number()),\(number())"))
                lines.append(sentence("GPZDA,\(time),\(Int.random(in: 0...40, using: &g)),\(Int.random(in: 0...13, using: &g)),\(Int.random(in: 0...9999, using: &g)),00,00"))
            }
            if let trace = try? NMEAReader.read(lines.joined(separator: "\n"), path: "p.nmea") {
                check(trace, seed: seed)
            }
        }
    }

    @Test("GPX: random points, times and walking speeds read or fail cleanly", arguments: seeds)
    func gpx(seed: UInt64) {
        var g = SplitMix64(seed: seed)
        for _ in 0..<Self.rounds {
            let timed = Bool.random(using: &g)
            let element = ["trkpt", "rtept", "wpt"].randomElement(using: &g)!
            var points: [String] = []
            for _ in 0..<5 {
                let (lat, lon) = (Double.random(in: -90...90, using: &g), Double.random(in: -180...180, using: &g))
                var body = "<ele>\(g.double())</ele><hdop>\(g.double())</hdop><vdop>\(g.double())</vdop>"
                if timed { body += "<time>\(Bool.random(using: &g) ? g.rfc3339Text() : g.timestamp().rfc3339)</time>" }
                if Bool.random(using: &g) { body += "<speed>\(abs(g.double()))</speed><course>\(abs(g.double()))</course>" }
                points.append("<\(element) lat=\"\(lat)\" lon=\"\(lon)\">\(body)</\(element)>")
            }
            let list = element == "trkpt" ? "<trk><trkseg>\(points.joined())</trkseg></trk>" : element == "rtept" ? "<rte>\(points.joined())</rte>" : points.joined()
            let text = "<gpx version=\"1.1\"><metadata><time>\(g.timestamp().rfc3339)</time></metadata>\(list)</gpx>"
            let speed = abs(g.double())
            if let trace = try? GPXReader.read(text, path: "p.gpx", speed: speed > 0 ? speed : 1) {
                check(trace, seed: seed)
            }
        }
    }

    @Test("RFC 3339: random texts parse or not; every instant formats and parses back to its millisecond", arguments: seeds)
    func timestamps(seed: UInt64) {
        var g = SplitMix64(seed: seed)
        for _ in 0..<(Self.rounds * 10) {
            _ = Timestamp(rfc3339: g.rfc3339Text())
            let t = g.timestamp()
            _ = t.adding(nanoseconds: g.timestamp().nanoseconds)
            _ = t.nanoseconds(since: g.timestamp())
            _ = Timestamp(seconds: g.double())
            // Formatting rounds down to the millisecond: the first instants format before the earliest.
            guard t.nanoseconds >= Timestamp.earliest.nanoseconds + 1_000_000 else { continue }
            let millisecond = t.nanoseconds - ((t.nanoseconds % 1_000_000) + 1_000_000) % 1_000_000
            #expect(Timestamp(rfc3339: t.rfc3339)?.nanoseconds == millisecond, "seed \(seed): \(t.nanoseconds)")
        }
    }

    @Test(
        "The orientation judge takes random readings at random times, backwards and jumps of centuries: each change it reports is one (O4), from the orientation it held to the one it holds, at the reading's time",
        arguments: seeds)
    func judge(seed: UInt64) {
        var g = SplitMix64(seed: seed)
        var judge = OrientationJudge()
        var time = Timestamp(nanoseconds: 0)
        for _ in 0..<(Self.rounds * 10) {
            switch Int.random(in: 0..<8, using: &g) {
            case 0: time = g.timestamp()
            case 1: time = time.adding(nanoseconds: -Int64.random(in: 0...1_000_000_000, using: &g))
            case 2: time = time.adding(nanoseconds: Int64.random(in: 0...4_000_000_000_000_000_000, using: &g))
            default: time = time.adding(nanoseconds: Int64.random(in: 0...50_000_000, using: &g))
            }
            let reading = Int.random(in: 0..<3, using: &g) == 0
                ? Acceleration(x: g.double(), y: g.double(), z: g.double())
                : Acceleration(x: Double.random(in: -12...12, using: &g), y: Double.random(in: -12...12, using: &g), z: Double.random(in: -12...12, using: &g))
            let held = judge.orientation
            let change = judge.judge(reading, at: time)
            if let change {
                #expect(change == DeviceOrientationChange(previous: held, orientation: judge.orientation, time: time), "seed \(seed)")
                #expect(change.orientation != held && change.orientation != .unknown, "seed \(seed): \(change)")
            } else {
                #expect(judge.orientation == held, "seed \(seed): the orientation changed unreported")
            }
            if [reading.x, reading.y, reading.z].contains(where: { !$0.isFinite || abs($0) > 1e6 }) {
                #expect(change == nil, "seed \(seed): a reading out of range decided \(String(describing: change))")
            }
            #expect(judge.lastUprightOrientation?.isUpright ?? true, "seed \(seed)")
        }
    }

    /// What a reader returns is within bounds: offsets in order and ≤ the maximum, fixes valid.
    func check(_ trace: Trace, seed: UInt64) {
        var last: Int64 = 0
        for sample in trace.samples {
            #expect(sample.offset >= last && sample.offset <= Trace.maximumOffset, "seed \(seed)")
            last = sample.offset
            switch sample.value {
            case .location(let fix): #expect(fix.problem == nil, "seed \(seed): \(fix)")
            case .reading(let reading):
                if let a = Acceleration(reading) { #expect(Acceleration.problem(x: a.x, y: a.y, z: a.z) == nil, "seed \(seed)") }
            default: break
            }
        }
        _ = TraceSummary(trace)
        _ = SextantTraceFormat.write(trace)
    }
}
