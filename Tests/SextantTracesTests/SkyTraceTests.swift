import Foundation
import SextantCore
import SextantProtocol
import SextantTestSupport
@testable import SextantTraces
import Testing

/// Satellites in traces (RULES N8): a JSONL `sky` line written and read back, GnssLogger
/// `Status` rows read as skies, however the file is read (whole, replayed from its spool,
/// summarized).
@Suite("Satellites in traces: JSONL sky lines, GnssLogger Status rows (issue 23.4)")
struct SkyTraceTests {
    static let start = Timestamp(nanoseconds: 1_699_400_582_000_000_000)

    /// Pixel 7's v3.0.6.4 header of Fix and Status rows, as in `Traces/gnsslogger/pixel7-2023-stanford.txt`.
    static let header = """
        # Header Description:
        #
        # Fix,Provider,LatitudeDegrees,LongitudeDegrees,AltitudeMeters,SpeedMps,AccuracyMeters,BearingDegrees,UnixTimeMillis,SpeedAccuracyMps,BearingAccuracyDegrees,elapsedRealtimeNanos,VerticalAccuracyMeters,MockLocation,NumberOfUsedSignals,VerticalSpeedAccuracyMps,SolutionType
        #
        # Status,UnixTimeMillis,SignalCount,SignalIndex,ConstellationType,Svid,CarrierFrequencyHz,Cn0DbHz,AzimuthDegrees,ElevationDegrees,UsedInFix,HasAlmanacData,HasEphemerisData,BasebandCn0DbHz
        #

        """

    /// Two epochs: the first of four signals (GPS 5 on L1 and L5, Galileo 11, an IRNSS one
    /// Sextant does not carry), the second of one, then a fix.
    static let rows = """
        Status,1699400582000,4,0,1,5,1575420030,38.5,130.25,41.5,1,1,1,36.1
        Status,1699400582000,4,1,1,5,1176450050,33.0,130.25,41.5,0,1,1,31.0
        Status,1699400582000,4,2,6,11,1575420030,27.25,300.0,12.0,0,1,1,25.0
        Status,1699400582000,4,3,7,2,1176450050,30.0,100.0,60.0,0,1,1,25.0
        Status,1699400583000,1,0,3,9,1602000000,22.0,360.0,5.5,0,1,0,20.0
        Fix,GPS,37.42,-122.08,10,0,4,,1699400583000,,,1,3,0,,,

        """

    func load(_ text: String) throws -> (whole: Trace, replayed: [TraceSample], summary: TraceSummary) {
        let scratch = try TemporaryDirectory("sky")
        let path = try scratch.write("gnss_log.txt", text)
        let whole = try TraceLoader.load(path: path)
        let replay = try TraceLoader.openForReplay(path: path)
        let (summary, _) = try TraceLoader.summarize(path: path)
        return (whole, try (0..<replay.sampleCount).map { try replay.traceSample(at: $0) }, summary)
    }

    @Test("issue 23.4: GnssLogger Status rows are skies, one an epoch: a satellite on two signals is one, its strongest C/N0, used if either is")
    func gnssLoggerStatus() throws {
        let (whole, replayed, summary) = try load(Self.header + Self.rows)
        let skies = whole.samples.compactMap { sample -> SkyView? in
            sample.value.sky
        }
        #expect(skies == [
            SkyView(satellites: [
                SatelliteInView(constellation: .gps, svid: 5, elevation: 41.5, azimuth: 130.25, cn0: 38.5, used: true),
                SatelliteInView(constellation: .galileo, svid: 11, elevation: 12, azimuth: 300, cn0: 27.25, used: false),
            ]),
            // Android's azimuth of 360 is north.
            SkyView(satellites: [SatelliteInView(constellation: .glonass, svid: 9, elevation: 5.5, azimuth: 0, cn0: 22, used: false)]),
        ])
        #expect(whole.samples.map(\.offset) == [0, 1_000_000_000, 1_000_000_000])
        // The spool keeps tenths (`SatelliteWord`): 130.25° comes back as 130.3°, 27.25 dB-Hz as 27.3.
        guard let first = replayed.first?.value.sky else { Issue.record("no sky replayed: \(replayed)"); return }
        #expect(first.satellites.map(\.azimuth) == [130.3, 300] && first.satellites.map(\.cn0) == [38.5, 27.3])
        #expect(replayed.count == 3)
        #expect(summary.samples["sky"] == 2 && summary.samples["location"] == 1)
    }

    @Test("issue 23.4: a Status row with a satellite id its system has not is refused with file and line")
    func badStatusRow() throws {
        let text = Self.header + "Status,1699400582000,1,0,1,99,1575420030,38.5,130.25,41.5,1,1,1,36.1\n"
        var message = ""
        do { _ = try load(text) } catch { message = "\(error)" }
        #expect(message.hasSuffix("gnss_log.txt:7: Status row: svid 99 is not a gps satellite (1...63)"), "\(message)")
    }

    @Test("issue 23.4: the shared recordings have no Status row (grep -c '^Status' → 0 in each): no sky, none skipped")
    func sharedRecordingsHaveNoStatus() throws {
        for name in ["nexus-2016-08-22.txt", "pixel7-2023-stanford.txt", "pixel7-all-sensors.txt"] {
            let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
                + "/Traces/gnsslogger/" + name
            let trace = try TraceLoader.load(path: path)
            #expect(!trace.samples.contains { $0.value.sky != nil }, "\(name)")
            #expect(trace.skipped.keys.allSatisfy { !$0.hasPrefix("Status") }, "\(name)")
        }
    }

    @Test("issue 23.4: a JSONL sky line is written and read back; a bad one names the satellite and member")
    func jsonlSky() throws {
        let sky = SkyView(satellites: [
            SatelliteInView(constellation: .beidou, svid: 7, elevation: 33.5, azimuth: 12, cn0: 31.5, used: true),
            SatelliteInView(constellation: .sbas, svid: 124, cn0: 0, used: false),
        ])
        let line = SextantTraceFormat.line(offset: 2_500_000_000, value: .sky(sky))
        let text = SextantTraceFormat.header(start: Self.start, profile: nil) + "\n" + line + "\n"
        let trace = try SextantTraceFormat.read(text, path: "t.jsonl")
        #expect(trace.samples == [TraceSample(offset: 2_500_000_000, value: .sky(sky))])
        let bad = SextantTraceFormat.header(start: Self.start, profile: nil) + "\n"
            + #"{"t":1,"sky":{"satellites":[{"constellation":"gps","svid":3,"cn0":-4,"used":true}]}}"# + "\n"
        #expect(throws: TraceError(path: "t.jsonl", line: 2, reason: "sky.satellites[0]: satellite gps 3: cn0 must be within 0...99 dB-Hz")) {
            try SextantTraceFormat.read(bad, path: "t.jsonl")
        }
    }

    @Test("issue 36.14: a JSONL sky line listing a satellite twice is read, whole and replayed from its spool, as a sky of it once")
    func jsonlSkyDuplicate() throws {
        let line = #"{"t":1,"sky":{"satellites":[{"constellation":"gps","svid":3,"cn0":20,"used":false},{"constellation":"gps","svid":3,"cn0":35,"used":true}]}}"#
        let text = SextantTraceFormat.header(start: Self.start, profile: nil) + "\n" + line + "\n"
        let once = SkyView(satellites: [SatelliteInView(constellation: .gps, svid: 3, cn0: 35, used: true)])
        #expect(once.satellites.count == 1)
        let trace = try SextantTraceFormat.read(text, path: "t.jsonl")
        #expect(trace.samples.map(\.value) == [.sky(once)])
        let scratch = try TemporaryDirectory("sky")
        let replay = try TraceLoader.openForReplay(path: try scratch.write("t.jsonl", text))
        guard let replayed = try replay.traceSample(at: 0).value.sky else { Issue.record("no sky replayed"); return }
        #expect(replayed.satellites.count == 1 && replayed.used == 1)
    }
}
