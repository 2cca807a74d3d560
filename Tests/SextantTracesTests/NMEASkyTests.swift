import Foundation
import SextantCore
import SextantProtocol
@testable import SextantTraces
import Testing

/// An NMEA log's own sky: GSV groups (in view) and GSA (used) as `sky` samples (RULES N8;
/// sextant-trace(5) "Satellites").
@Suite("NMEA GSV and GSA as sky samples (N8)")
struct NMEASkyTests {
    static let repository = #filePath.components(separatedBy: "/Tests/")[0]

    func read(_ lines: [String]) throws -> Trace { try NMEAReader.read(lines.joined(separator: "\n") + "\n", path: "t.nmea") }

    func skies(_ trace: Trace) -> [(offset: Int64, sky: SkyView)] {
        trace.samples.compactMap { sample in sample.value.sky.map { (sample.offset, $0) } }
    }

    func satellite(_ sky: SkyView, _ constellation: Constellation, _ svid: Int) -> SatelliteInView? {
        sky.satellites.first { $0.constellation == constellation && $0.svid == svid }
    }

    /// bu353-glonass.log, read by hand: the one cycle with a fix and GSV groups is 08:14:15
    /// (lines 29–39), 4 s after the first fix (08:14:11). Its `$GPGSV,3,x,12` lists 12 GPS
    /// satellites and its `$GLGSV,3,x,10` 10 GLONASS ones (65–96: svid − 64); its two
    /// `$GNGSA` say GPS 03, 19, 27, 13 and GLONASS 88, 87 are used. gpsd's own .chk says
    /// the same: `"nSat":22,"uSat":6`. The later GSV groups fall in cycles without a fix.
    @Test("N8: bu353-glonass.log's 08:14:15 cycle: 22 in view (12 GPS, 10 GLONASS), 6 used, as read off the file by hand")
    func realLog() throws {
        let trace = try NMEAReader.read(
            String(contentsOfFile: Self.repository + "/Traces/gpsd/bu353-glonass.log", encoding: .isoLatin1), path: "bu353-glonass.log")
        let found = skies(trace)
        #expect(found.count == 1)
        let (offset, sky) = try #require(found.first)
        #expect(offset == 4_000_000_000)
        #expect(sky.inView == 22 && sky.used == 6)
        #expect(sky.satellites.filter { $0.constellation == .gps }.count == 12 && sky.satellites.filter { $0.constellation == .glonass }.count == 10)
        let used = Set(sky.satellites.filter(\.used).map { "\($0.constellation) \($0.svid)" })
        #expect(used == ["gps 3", "gps 19", "gps 27", "gps 13", "glonass 24", "glonass 23"])
        // `07,59,081,24` and `08,88,068,` (no SNR: tracked without a signal), `81,03,117,27`.
        #expect(satellite(sky, .gps, 7) == SatelliteInView(constellation: .gps, svid: 7, elevation: 59, azimuth: 81, cn0: 24, used: false))
        #expect(satellite(sky, .gps, 8)?.cn0 == 0)
        #expect(satellite(sky, .glonass, 17) == SatelliteInView(constellation: .glonass, svid: 17, elevation: 3, azimuth: 117, cn0: 27, used: false))
        // The sky comes right after its cycle's fix.
        let index = try #require(trace.samples.firstIndex { $0.value.sky != nil })
        guard case .location(let fix) = trace.samples[index - 1].value else { Issue.record("no fix before the sky"); return }
        #expect(fix.time == Timestamp(rfc3339: "2014-05-26T08:14:15Z"))
    }

    @Test("N8: NMEA 4.10 talkers and system ids: GAGSV is Galileo, a GN GSA's system id 3 names Galileo's numbers, BeiDou 201–263 under GP")
    func talkersAndSystemIDs() throws {
        let trace = try read([
            nmea("$GNGGA,120000.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
            nmea("$GNGSA,A,3,05,,,,,,,,,,,,1.5,0.9,1.2,1"),
            nmea("$GNGSA,A,3,11,,,,,,,,,,,,1.5,0.9,1.2,3"),
            nmea("$GPGSV,1,1,03,05,40,083,46,205,17,308,41,40,10,100,30"),
            nmea("$GAGSV,1,1,02,11,60,200,44,12,05,010,,7"),
            nmea("$GNRMC,120000.00,A,4807.038,N,01131.000,E,0.0,0.0,230394,,,A"),
        ])
        let sky = try #require(skies(trace).first?.sky)
        #expect(sky.inView == 5 && sky.used == 2, "\(sky)")
        #expect(satellite(sky, .gps, 5)?.used == true && satellite(sky, .galileo, 11)?.used == true)
        #expect(satellite(sky, .beidou, 5)?.elevation == 17 && satellite(sky, .sbas, 127)?.cn0 == 30)
        #expect(satellite(sky, .galileo, 12) == SatelliteInView(constellation: .galileo, svid: 12, elevation: 5, azimuth: 10, cn0: 0, used: false))
    }

    @Test("N8: a group with a sentence lost gives no sky; a satellite listed once a signal is one, with its strongest SNR; an empty group is an empty sky")
    func groups() throws {
        let fix = nmea("$GPRMC,120000.00,A,4807.038,N,01131.000,E,0.0,0.0,230394,,,A")
        let lost = try read([fix, nmea("$GPGSV,3,1,09,01,40,083,46,02,17,308,41,03,07,344,39,04,22,228,45"), nmea("$GPGSV,3,3,09,09,10,010,20")])
        #expect(skies(lost).isEmpty)
        let twice = try read([
            fix, nmea("$GPGSV,1,1,01,01,40,083,30,1"), nmea("$GPGSV,1,1,01,01,40,083,42,8"),
        ])
        #expect(skies(twice).map(\.sky.satellites) == [[SatelliteInView(constellation: .gps, svid: 1, elevation: 40, azimuth: 83, cn0: 42, used: false)]])
        let none = try read([fix, nmea("$GPGSV,1,1,00")])
        #expect(skies(none).map(\.sky) == [SkyView(satellites: [])])
    }

    @Test("A GSV whose counts, elevation, azimuth or SNR cannot be read, or a GSA whose satellite numbers cannot, is a malformed sentence, counted")
    func malformed() throws {
        let bad = [
            "$GPGSV,3,4,09,01,40,083,46", "$GPGSV,x,1,09", "$GPGSV,1,1,01,01,95,083,46", "$GPGSV,1,1,01,01,40,361,46",
            "$GPGSV,1,1,01,01,40,083,120", "$GPGSV,1,1,01,xx,40,083,46", "$GPGSA,A,3,0x,,,,,,,,,,,,1.5,0.9,1.2",
        ]
        for sentence in bad {
            #expect(NMEASentenceParser.parse(nmea(sentence)) == .failure(.malformed), "\(sentence)")
        }
        let trace = try read([nmea("$GPRMC,120000.00,A,4807.038,N,01131.000,E,0.0,0.0,230394,,,A")] + bad.map(nmea))
        #expect(trace.skipped[NMEALineProblem.malformed.rawValue] == bad.count && skies(trace).isEmpty)
    }
}
