import SextantCore
import SextantProtocol
import Testing

@testable import SextantTraces

/// `trace convert --to nmea` and the gpsd face write NMEA with one encoder: the same
/// sentences, fields and rounding, the face's options giving the fix's own milliseconds
/// and leaving the satellites and dilutions a fix does not carry empty.
@Suite("NMEA encoder: one encoder, two faces")
struct NMEAEncoderTests {
    static func bodies(_ sentences: [String]) -> [String] {
        sentences.map { sentence in
            #expect(sentence.hasPrefix("$") && sentence.hasSuffix("\r\n"))
            #expect(NMEAEncoder.sentence(String(sentence.dropFirst().prefix { $0 != "*" })) == sentence, "its checksum")
            return String(sentence.dropFirst().prefix { $0 != "*" })
        }
    }

    @Test("the same fix through both faces: same fields, the face's time to the millisecond and no dilutions; GGA before RMC, as gpsd writes them")
    func bothFaces() throws {
        let time = try #require(Timestamp(rfc3339: "2007-04-08T09:53:05.802Z"))
        let fix = LocationFix(
            latitude: -27.2109116, longitude: 153.05225, altitude: 3, horizontalAccuracy: 10, verticalAccuracy: 20, speed: 1, course: 90, time: time)
        #expect(Self.bodies(NMEAEncoder.traceExport.sentences(for: fix)) == [
            "GPGGA,095305.80,2712.654696,S,15303.135000,E,1,08,2.00,3.00,M,,,,",
            "GPRMC,095305.80,A,2712.654696,S,15303.135000,E,1.944,90.00,080407,,,A",
            "GPGSA,A,3,01,02,03,04,05,06,07,08,,,,,4.47,2.00,4.00",
        ])
        #expect(Self.bodies(NMEAEncoder.gpsdFace.sentences(for: fix)) == [
            "GPGGA,095305.802,2712.654696,S,15303.135000,E,1,,,3.00,M,,,,",
            "GPRMC,095305.802,A,2712.654696,S,15303.135000,E,1.944,90.00,080407,,,A",
            "GPGSA,A,3,,,,,,,,,,,,,,,",
        ])
        #expect(NMEAEncoder.traceExport.cycle(for: fix) == NMEAEncoder.traceExport.sentences(for: fix).joined())
    }

    @Test("a year RMC cannot say: left out of an export, written by the face; 23:59:59.996 rounds into the next day only in the export")
    func yearsAndRounding() throws {
        let old = LocationFix(latitude: 1, longitude: 2, time: try #require(Timestamp(rfc3339: "1979-12-31T12:00:00.000Z")))
        #expect(NMEAEncoder.traceExport.sentences(for: old).isEmpty)
        #expect(NMEAEncoder.traceExport.cycle(for: old) == nil)
        #expect(Self.bodies(NMEAEncoder.gpsdFace.sentences(for: old))[1].hasPrefix("GPRMC,120000.000,A,0100.000000,N,00200.000000,E,,,311279,"))
        let late = LocationFix(latitude: 1, longitude: 2, time: try #require(Timestamp(rfc3339: "2020-01-01T23:59:59.996Z")))
        #expect(Self.bodies(NMEAEncoder.traceExport.sentences(for: late))[1].hasPrefix("GPRMC,000000.00,A,"))
        #expect(Self.bodies(NMEAEncoder.traceExport.sentences(for: late))[1].contains(",020120,"))
        #expect(Self.bodies(NMEAEncoder.gpsdFace.sentences(for: late))[1].hasPrefix("GPRMC,235959.996,A,"))
        #expect(Self.bodies(NMEAEncoder.gpsdFace.sentences(for: late))[1].contains(",010120,"))
    }
}
