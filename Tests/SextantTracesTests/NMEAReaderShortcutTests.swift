import Foundation
import SextantCore
import SextantProtocol
@testable import SextantTraces
import Testing

/// The reader's shortcuts through the decoding (no `Result`, no talker or type names, the
/// fix's values checked one at a time) answer what the public path and the validator answer.
@Suite("NMEA reader's shortcuts")
struct NMEAReaderShortcutTests {
    /// The sentence the reader's parser should give for what the public parser gave.
    static func unnamed(_ sentence: NMEASentence) -> NMEASentence {
        guard case .other = sentence.body else { return NMEASentence(talker: "", body: sentence.body) }
        return NMEASentence(talker: "", body: .other(""))
    }

    static func expectSameParse(_ line: String, _ reader: inout NMEASentenceParser, _ named: inout NMEASentenceParser) {
        var text = line
        text.withUTF8 { bytes in
            var problem = NMEALineProblem.notNMEA
            let fast = reader.parse(bytes[...], problem: &problem)
            switch named.parse(bytes[...]) {
            case .success(let sentence):
                #expect(fast == unnamed(sentence), "\(line)")
            case .failure(let expected):
                #expect(fast == nil && problem == expected, "\(line): \(String(describing: fast)), \(problem)")
            }
        }
    }

    @Test("Every sentence of gpsd's logs decodes on the reader's path as on the public one, names aside")
    func everyLogLine() throws {
        let logs = NMEAStreamedSummaryTests.logs(in: NMEAStreamedSummaryTests.repositoryLogs)
        #expect(logs.count >= 30)
        var reader = NMEASentenceParser(namingSentences: false)
        var named = NMEASentenceParser()
        var sentences = 0
        for path in logs {
            let text = try String(contentsOfFile: path, encoding: .isoLatin1)
            for line in text.split(separator: "\n") {
                // From each `$` or `!` to the next, as the reader cuts a line.
                var rest = Substring(line.trimmingCharacters(in: .whitespaces))
                while let start = rest.firstIndex(where: { $0 == "$" || $0 == "!" }) {
                    let next = rest[rest.index(after: start)...].firstIndex { $0 == "$" || $0 == "!" } ?? rest.endIndex
                    Self.expectSameParse(String(rest[start..<next]), &reader, &named)
                    sentences += 1
                    rest = rest[next...]
                }
            }
        }
        #expect(sentences > 3_000)
    }

    @Test("Each problem and each kind of sentence alike on both paths", arguments: [
        "GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W", "GNGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,",
        "GPGSV,3,1,11,03,03,111,00", "PGRME,15.0,M,45.0,M,25.0,M", "GPRMC,123519,A,4807.038,N", "GPXY,1", "gprmc,1", "GPZDA,201530.00,04,07,2002,00,00",
    ])
    func kinds(body: String) {
        var reader = NMEASentenceParser(namingSentences: false)
        var named = NMEASentenceParser()
        let sentence = nmea("$" + body)
        Self.expectSameParse(sentence, &reader, &named)
        Self.expectSameParse(String(sentence.dropLast()) + (sentence.last == "0" ? "1" : "0"), &reader, &named)  // bad checksum
        Self.expectSameParse("$" + body, &reader, &named)  // no checksum
        Self.expectSameParse("GPRMC", &reader, &named)  // not NMEA
    }

    @Test("A fix's values out of range are dropped exactly when the validator refuses them")
    func dropValues() {
        let edges: [Double] = [
            .nan, .infinity, -.infinity, 0, -0.0, -1, 1e-300, 45, 89.999, 90, 90.0.nextUp, -90, 179, 180, 180.0.nextUp, -180.0.nextDown,
            359.999, 360, 360.0.nextDown, LocationFix.maximumSpeed, LocationFix.maximumSpeed.nextUp, LocationFix.maximumAccuracy,
            LocationFix.maximumAccuracy.nextUp, LocationFix.altitudeRange.lowerBound, LocationFix.altitudeRange.lowerBound.nextDown,
            LocationFix.altitudeRange.upperBound, LocationFix.altitudeRange.upperBound.nextUp, 1e300,
        ]
        var generator = SystemRandomNumberGenerator()
        func pick() -> Double { edges.randomElement(using: &generator)! }
        func maybe() -> Double? { Bool.random(using: &generator) ? nil : pick() }
        for _ in 0..<20_000 {
            let (lat, lon) = Bool.random(using: &generator) ? (pick(), pick()) : (48.1, 11.5)
            var fix = LocationFix(
                latitude: lat, longitude: lon, altitude: maybe(), horizontalAccuracy: pick(), verticalAccuracy: maybe(), speed: maybe(),
                course: maybe(), time: Timestamp(nanoseconds: 0))
            let before = fix
            NMEATimeline.dropValuesOutOfRange(&fix)
            // The rule, said through the validator itself, one value at a time.
            func kept(_ value: Double?, _ problem: (Double) -> String?) -> Double? { value.flatMap { problem($0) == nil ? $0 : nil } }
            let altitude = kept(before.altitude) { LocationFix.problem(latitude: lat, longitude: lon, altitude: $0) }
            let hAcc = kept(before.horizontalAccuracy) { LocationFix.problem(latitude: lat, longitude: lon, horizontalAccuracy: $0) }
            let vAcc = kept(before.verticalAccuracy) { LocationFix.problem(latitude: lat, longitude: lon, verticalAccuracy: $0) }
            let speed = kept(before.speed) { LocationFix.problem(latitude: lat, longitude: lon, speed: $0) }
            let course = kept(before.course) { LocationFix.problem(latitude: lat, longitude: lon, course: $0) }
            var expected = before
            expected.altitude = altitude
            expected.horizontalAccuracy = hAcc ?? LocationFix.defaultHorizontalAccuracy
            expected.verticalAccuracy = vAcc
            expected.speed = speed
            expected.course = course
            // Compared by their bits: a NaN place stays NaN in both.
            #expect(String(describing: fix) == String(describing: expected), "\(before)")
        }
    }
}
