import Foundation
import SextantCore
import SextantProtocol
import Testing

@testable import SextantTraces

/// NMEA's headings (issue 21.1): HDT, HDM and HDG read into `compass` samples interleaved
/// with the fixes, checked against gpsd's own ATT `heading` in its regression logs; and the
/// NMEA writer's HDT/HDG, read back.
@Suite("NMEA headings")
struct NMEAHeadingTests {
    static let directory = NMEAReferenceTests.directory

    func heading(_ line: String) -> NMEAHeading? {
        guard case .success(let sentence) = NMEASentenceParser.parse(line), case .heading(let heading) = sentence.body else { return nil }
        return heading
    }

    func problem(_ line: String) -> NMEALineProblem? {
        if case .failure(let p) = NMEASentenceParser.parse(line) { return p }
        return nil
    }

    @Test("HDT is true, HDM magnetic; HDG's deviation makes the magnetic heading and its variation the true one, east added and west subtracted")
    func sentences() {
        #expect(heading(nmea("$GPHDT,274.07,T")) == NMEAHeading(magnetic: nil, trueHeading: 274.07))
        #expect(heading(nmea("$HCHDM,12.5,M")) == NMEAHeading(magnetic: 12.5, trueHeading: nil))
        // 101.1 + 2.0 E = 103.1 magnetic; 103.1 - 5.5 W = 97.6 true.
        let hdg = heading(nmea("$HCHDG,101.1,2.0,E,5.5,W"))
        #expect(abs((hdg?.magnetic ?? 0) - 103.1) < 1e-9 && abs((hdg?.trueHeading ?? 0) - 97.6) < 1e-9)
        // Wrapped into 0 ..< 360 both ways: 359 + 3 E = 2; 2 - 4 W = 358.
        let wrapped = heading(nmea("$HCHDG,359.0,3.0,E,4.0,W"))
        #expect(abs((wrapped?.magnetic ?? 0) - 2) < 1e-9 && abs((wrapped?.trueHeading ?? 0) - 358) < 1e-9)
        // No variation: no true heading; no deviation: the sensor's heading is the magnetic one.
        #expect(heading(nmea("$HCHDG,98.3,,,,")) == NMEAHeading(magnetic: 98.3, trueHeading: nil))
        #expect(heading(nmea("$GPHDT,360.0,T")) == NMEAHeading(magnetic: nil, trueHeading: 0))
        // A Hemisphere without a heading: nothing, and not an error.
        #expect(heading(nmea("$GPHDT,,T")) == NMEAHeading(magnetic: nil, trueHeading: nil))
    }

    @Test("A heading beyond 360° or not a number, a deviation without E/W or beyond 180°: malformed")
    func malformed() {
        for line in ["$GPHDT,361.0,T", "$GPHDT,north,T", "$HCHDM,-1,M", "$HCHDG,10.0,2.0,,,", "$HCHDG,10.0,,,190.0,E", "$HCHDG,10.0"] {
            #expect(problem(nmea(line)) == .malformed, "\(line)")
        }
    }

    /// gpsd's ATT headings in a `.chk`, in order.
    static func gpsdHeadings(_ log: String) throws -> [Double] {
        let chk = try String(contentsOfFile: directory + "/" + log + ".chk", encoding: .utf8)
        return try chk.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("{\"class\":\"ATT\"") }.map { line in
            try #require(try JSONValue.parse(line.trimmingCharacters(in: .whitespacesAndNewlines))["heading"]?.doubleValue)
        }
    }

    @Test("issue 21.1: hemi.log and rst39.log: one compass sample a heading gpsd reported as ATT, right after its cycle's fix", arguments: ["hemi.log", "rst39.log"])
    func gpsdLogs(log: String) throws {
        let trace = try NMEAReader.read(try String(contentsOfFile: Self.directory + "/" + log, encoding: .utf8), path: log)
        let compass = trace.samples.indices.filter { trace.samples[$0].value.compass != nil }
        // grep -c '"class":"ATT"' hemi.log.chk rst39.log.chk → 4 and 4 (hemi.log's other 211 HDT are empty).
        #expect(try compass.map { trace.samples[$0].value.compass?.trueHeading } == Self.gpsdHeadings(log))
        #expect(compass.count == 4)
        for index in compass {
            #expect(trace.samples[index].value.compass?.magnetic == nil)
            let before = trace.samples[index - 1]
            guard case .location = before.value else {
                Issue.record("\(log) sample \(index) follows \(before.value), not a fix")
                continue
            }
            #expect(before.offset == trace.samples[index].offset, "\(log) sample \(index) follows its fix")
        }
        let (summary, _) = try TraceLoader.summarize(path: Self.directory + "/" + log, options: TraceLoadOptions())
        #expect(summary.samples["compass"] == 4, "trace info counts them: \(summary.samples)")
    }

    @Test("issue 21.1: rst39.log's headings come with the fixes of 20:41:33 to 20:41:36, 1 to 4 s after the first fix")
    func rst39Offsets() throws {
        let trace = try NMEAReader.read(try String(contentsOfFile: Self.directory + "/rst39.log", encoding: .utf8), path: "rst39.log")
        let offsets = trace.samples.filter { $0.value.compass != nil }.map(\.offset)
        // The first fix is the RMC at 20:41:32.00; the HDTs follow the GGAs at 33.00, 34.00, 35.00, 36.00.
        #expect(offsets == [1_000_000_000, 2_000_000_000, 3_000_000_000, 4_000_000_000])
    }

    @Test("issue 21.1: the writer writes a compass sample as HDT and HDG (variation true − magnetic); the reader gives it back with its fix")
    func writerRoundTrip() throws {
        let time = try #require(Timestamp(rfc3339: "2024-05-01T10:00:00.000Z"))
        let fix = LocationFix(latitude: 48.1, longitude: 11.5, time: time)
        let trace = Trace(start: time, samples: [
            TraceSample(offset: 0, value: .location(fix)),
            TraceSample(offset: 0, value: .compass(CompassReading(magnetic: 355.5, trueHeading: 2.25))),
            TraceSample(offset: 1_000_000_000, value: .location(LocationFix(latitude: 48.1001, longitude: 11.5, time: time.adding(nanoseconds: 1_000_000_000)))),
            TraceSample(offset: 1_000_000_000, value: .compass(CompassReading(magnetic: 10))),
        ])
        let text = NMEAWriter.write(trace)
        // 2.25 − 355.5 = −353.25 ≡ 6.75° east.
        #expect(text.contains(nmea("$GPHDT,2.25,T") + "\r\n" + nmea("$GPHDG,355.50,,,6.75,E") + "\r\n"), "\(text)")
        #expect(text.contains(nmea("$GPHDG,10.00,,,,") + "\r\n"))
        let back = try NMEAReader.read(text, path: "x.nmea")
        let headings = back.samples.compactMap { $0.value.compass }
        #expect(headings.count == 2 && headings[1] == CompassReading(magnetic: 10))
        #expect(abs((headings[0].magnetic ?? 0) - 355.5) < 1e-9 && abs((headings[0].trueHeading ?? 0) - 2.25) < 1e-9)
        #expect(back.samples.map(\.offset) == trace.samples.map(\.offset))
    }
}
