import Foundation
import SextantCore
import SextantProtocol
import SextantTestSupport
import Testing

@testable import SextantTraces

/// The JSONL fast path against the general parser: whatever line the fast path reads, it
/// reads exactly as the general parser does (same offset, same numbers to the bit), and
/// it does read the lines traces are made of (issue 12: sample lines at ≥ 200 MB/s).
@Suite("JSONL sample lines: fast path and general parser agree (seeded)")
struct SampleLineFastPathTests {
    static let start = Timestamp(rfc3339: "2026-03-01T08:00:00Z")!

    /// The general parser's answer for a sample line: nil when it refuses the line.
    static func general(_ line: String) -> TraceSample? {
        guard case .object(let o)? = try? JSONValue.parse(line) else { return nil }
        let ignore: (String) -> TraceError = { TraceError(path: "", line: 0, reason: $0) }
        guard let (offset, value) = try? SextantTraceFormat.readSample(o, start: start, fail: ignore) else { return nil }
        return TraceSample(offset: offset, value: value)
    }

    static func fast(_ line: String) -> TraceSample? {
        var line = line
        return line.withUTF8 { SampleLineFastPath.read($0, start: start) }
    }

    /// Every number of a sample as its bits, so that 0 and -0 differ.
    static func bits(_ sample: TraceSample) -> [UInt64?] {
        var numbers: [Double?]
        switch sample.value {
        case .location(let f):
            numbers = [f.latitude, f.longitude, f.altitude, f.horizontalAccuracy, f.verticalAccuracy, f.speed, f.course]
            numbers.append(Double(f.time.nanoseconds))
        case .reading(let reading): numbers = (0..<SensorReading.capacity).map { reading[$0] }
        case .gps(let signal): numbers = [Double(GPSSignal.allCases.firstIndex(of: signal)!)]
        case .record(let record): numbers = record.spoolWords.map { Double(bitPattern: $0) }
        }
        return [UInt64(bitPattern: sample.offset)] + numbers.map { $0?.bitPattern }
    }

    /// Checks one line; answers whether the fast path read it.
    @discardableResult
    static func agree(_ line: String, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        guard let fast = fast(line) else { return false }
        guard let general = general(line) else {
            Issue.record("the fast path read a line the general parser refuses: \(line)", sourceLocation: sourceLocation)
            return true
        }
        #expect(bits(fast) == bits(general), "\(line)", sourceLocation: sourceLocation)
        return true
    }

    @Test("Lines the writer writes, and the demo walk's lines, take the fast path and read as the general parser reads them")
    func realLines() throws {
        let demo = try String(contentsOfFile: #filePath.components(separatedBy: "/Tests/")[0] + "/Traces/demo-walk.jsonl", encoding: .utf8)
        let samples = demo.split(separator: "\n").dropFirst().filter { $0.hasPrefix("{") }
        #expect(samples.count > 100)
        for line in samples { #expect(Self.agree(String(line)), "\(line)") }
        let written: [SampleValue] = [
            .location(LocationFix(latitude: 48.8558388, longitude: -2.2982986, altitude: -35.25, horizontalAccuracy: 5.1, speed: 0, course: 359.9, time: Self.start)),
            .acceleration(Acceleration(x: 0.02, y: 9.79, z: -0.31)), .hingeAngle(92.5), .gps(.lost),
        ]
        for value in written { #expect(Self.agree(SextantTraceFormat.line(offset: 12_345_000_000, value: value))) }
    }

    @Test("Generated lines: numbers in every JSON form, nulls, spaces, key orders, odd keys and bytes", arguments: [UInt64(1), 2, 3, 4])
    func generated(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var taken = 0
        for _ in 0..<4000 where Self.agree(Self.line(using: &random)) { taken += 1 }
        #expect(taken > 400, "the fast path must read most plain lines (\(taken) of 4000)")
    }

    @Test("Numbers at the edges of the exact path read as strtod reads them")
    func edgeNumbers() {
        let texts = [
            "0", "-0", "0.0", "-0.0", "1e22", "1e23", "9007199254740993", "900719925474099.3", "123456789012345678", "1234567890123456789",
            "0.1", "0.3", "1.7976931348623157e308", "5e-324", "1e-22", "1e-23", "4.35", "48.85837", "-2.2944800000000001",
            "0.000000000000000000001", "1E+2", "1e-0", "01", "1.", ".5", "+1", "-", "1e", "0x10", "1_0", "1e400",
        ]
        for text in texts {
            Self.agree(#"{"t":0,"hinge":{"angle":\#(text)}}"#)
            Self.agree(#"{"t":\#(text),"accel":{"x":\#(text),"y":1,"z":2}}"#)
        }
        #expect(Self.fast(#"{"t":0,"hinge":{"angle":1e23}}"#) == nil, "not exact in one operation: left to strtod")
    }

    static func number(using random: inout SplitMix64) -> String {
        let sign = Bool.random(using: &random) ? "-" : ""
        switch Int.random(in: 0..<9, using: &random) {
        case 0: return sign + String(Int.random(in: 0...200, using: &random))
        case 1: return sign + String(format: "%.\(Int.random(in: 0...17, using: &random))f", Double.random(in: 0...400, using: &random))
        case 2: return sign + "\(Double.random(in: -1e6...1e6, using: &random))"
        case 3: return sign + "\(Int.random(in: 1...99999, using: &random))e\(Int.random(in: -30...30, using: &random))"
        case 4: return sign + "0.\(String(repeating: "0", count: Int.random(in: 0...25, using: &random)))\(Int.random(in: 1...999, using: &random))"
        case 5: return sign + String(UInt64.random(in: 0...UInt64.max, using: &random)) + (Bool.random(using: &random) ? ".5" : "")
        case 6: return ["null", "\"1\"", "true", "01", "1.", ".5", "+1", "1e", "-", "1E+02", "2.50E-3", "[1]", "{}"].randomElement(using: &random)!
        case 7: return sign + String(format: "%.\(Int.random(in: 1...9, using: &random))e", Double.random(in: 0...10, using: &random))
        default: return "\(Double.random(in: -90...90, using: &random))"
        }
    }

    /// A sample line: mostly well formed, sometimes with a member missing, repeated or
    /// unknown, spaces, an escape, a byte outside ASCII or something after the object.
    static func line(using random: inout SplitMix64) -> String {
        let kinds: [(String, [String])] = [
            ("location", ["lat", "lon", "alt", "hAcc", "vAcc", "speed", "course"]), ("accel", ["x", "y", "z"]), ("hinge", ["angle"]), ("gps", ["state"]),
        ]
        let (kind, keys) = kinds.randomElement(using: &random)!
        func space() -> String { ["", "", "", " ", "\t", "  "].randomElement(using: &random)! }
        var members = keys.filter { _ in Int.random(in: 0..<8, using: &random) > 0 }.map { key in
            key == "state" ? #""state":"\#(["lost", "noFix", "ok", "bad", "l\u{e9}", #"o\u006b"#].randomElement(using: &random)!)""# : "\"\(key)\"\(space()):\(space())\(number(using: &random))"
        }
        if Int.random(in: 0..<10, using: &random) == 0 { members.append(["\"extra\":1", "\"lat\":1", "\"l\\u0061t\":2", "\"é\":3"].randomElement(using: &random)!) }
        members.shuffle(using: &random)
        let t = Int.random(in: 0..<10, using: &random) == 0 ? number(using: &random) : String(format: "%.3f", Double.random(in: 0...86400, using: &random))
        var outer = ["\"t\":\(space())\(t)", "\"\(kind)\":\(space()){\(members.joined(separator: ",\(space())"))}"]
        if Int.random(in: 0..<15, using: &random) == 0 { outer.append(["\"t\":1", "\"hinge\":{\"angle\":1}", "\"note\":\"x\""].randomElement(using: &random)!) }
        outer.shuffle(using: &random)
        let tail = Int.random(in: 0..<20, using: &random) == 0 ? [" ", "x", "}", ","].randomElement(using: &random)! : ""
        return "{\(space())" + outer.joined(separator: ",") + "\(space())}" + tail
    }
}
