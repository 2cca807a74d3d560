@testable import SextantTraces
import Testing

/// GSV's satellite fields (N8) against a reading written here the long way: every
/// combination of whole numbers, empty fields, decimals, signs, long and garbled ones, so
/// that the parser's shortcut for one-to-four-digit fields decides what its general reading
/// does, whether the satellites are kept or only checked.
@Suite("NMEA GSV satellite fields")
struct NMEAGSVFieldTests {
    static let texts = ["", "0", "7", "45", "090", "91", "359", "360", "361", "99", "100", "12.5", "-5", "+5", "007", "1000", "12345", "x"]

    /// What a satellite's four fields make: `.some(nil)` for padding (no id), nil when the
    /// sentence is malformed.
    static func expected(_ id: String, _ el: String, _ az: String, _ snr: String) -> GSVSatellite?? {
        if id.isEmpty { return .some(nil) }
        guard id.first != "+", id.filter({ $0 != "-" }).count <= 9, let number = Int(id) else { return nil }
        func value(_ text: String, _ range: ClosedRange<Double>) -> Double?? {
            if text.isEmpty { return .some(nil) }
            guard let v = Double(text), range.contains(v) else { return nil }
            return .some(v)
        }
        guard let elevation = value(el, -90...90), let azimuth = value(az, 0...360), let cn0 = value(snr, 0...99) else { return nil }
        return GSVSatellite(id: NMEASatelliteID(system: .mixed, number: number), elevation: elevation, azimuth: azimuth.map { $0 == 360 ? 0 : $0 }, snr: cn0)
    }

    static func parse(_ line: String, keeping: Bool) -> GSV?? {
        var parser = NMEASentenceParser(namingSentences: true, decodingSatellites: keeping)
        var text = line
        return text.withUTF8 { bytes -> GSV?? in
            var problem = NMEALineProblem.notNMEA
            guard let sentence = parser.parse(bytes[...], problem: &problem) else { return problem == .malformed ? .some(nil) : nil }
            guard case .gsv(let gsv) = sentence.body else { return nil }
            return .some(gsv)
        }
    }

    @Test("N8: each of a satellite's four fields, from every kind, read as the long way reads it (kept or only checked); the satellite beside it stays whole")
    func fields() throws {
        let other = ["12", "40", "083", "46"]
        var combinations = 0
        for id in ["", "7", "-5", "12.5", "1000", "x"] {
            for el in Self.texts {
                for az in ["", "0", "360", "361", "12.5", "x"] {
                    for snr in ["", "46", "99", "100", "12.5", "-5", "x"] {
                        let sentence = nmea("$GPGSV,1,1,08," + ([id, el, az, snr] + other).joined(separator: ","))
                        let kept = try #require(Self.parse(sentence, keeping: true), "\(sentence): not a GSV nor malformed")
                        let checked = try #require(Self.parse(sentence, keeping: false), "\(sentence): not a GSV nor malformed")
                        guard let satellite = Self.expected(id, el, az, snr) else {
                            #expect(kept == nil && checked == nil, "\(sentence) is malformed")
                            continue
                        }
                        let second = try #require(Self.expected(other[0], other[1], other[2], other[3]) ?? nil)
                        #expect(kept?.satellites == [satellite].compactMap { $0 } + [second], "\(sentence)")
                        #expect(checked?.satellites == [], "\(sentence)")
                        combinations += 1
                    }
                }
            }
        }
        #expect(combinations > 100)
    }
}
