import Foundation
import SextantCore
import SextantProtocol
import SextantTestSupport
@testable import SextantTraces
import Testing

/// Issue 42.5: a phone's GnssLogger file whose `Fix` rows are not in time order (Android
/// hands a network or fused fix over late, with its own older time) plays, each row where
/// it was written, each fix with its own time; `trace info` says what was late.
@Suite("GnssLogger rows written late")
struct GnssLoggerLateRowTests {
    /// Pixel 7 2023 (v3.0.6.4, Traces/gnsslogger/pixel7-2023-stanford.txt): its first 12
    /// `Fix` rows, the NLP fix stamped 1699400585063 (the 3rd) moved after the 12th
    /// (1699400606641), as a fix delivered 21.6 s late is written.
    static let excerpt = """
        # Fix,Provider,LatitudeDegrees,LongitudeDegrees,AltitudeMeters,SpeedMps,AccuracyMeters,BearingDegrees,UnixTimeMillis,SpeedAccuracyMps,BearingAccuracyDegrees,elapsedRealtimeNanos,VerticalAccuracyMeters,MockLocation,NumberOfUsedSignals,VerticalSpeedAccuracyMps,SolutionType
        Fix,GPS,37.4265079783,-122.1737079613,23.67296474531974,0.0,4.2366138,,1699400582000,0.19259089,,16124559129000,3.0,0,,,
        Fix,FLP,37.4265084000,-122.1737085000,1.7895395873822721,0.032405708,4.139,,1699400584473,0.1958978,,16126559152000,1.391284,0,,,
        Fix,GPS,37.4265085234,-122.1737086237,23.58730408634848,0.0,4.137764,,1699400588000,0.19814228,,16130559277000,3.0,0,,,
        Fix,FLP,37.4265089000,-122.1737087000,1.5747113590160176,0.01595533,4.271,,1699400592472,0.19429271,,16134559289000,1.408621,0,,,
        Fix,GPS,37.4265112815,-122.1737080443,23.24230791913169,0.0,4.0901904,,1699400594000,0.20834292,,16136559319000,3.0,0,,,
        Fix,GPS,37.4264969338,-122.1737394073,22.58852262993909,0.8924806,4.107699,201.09357,1699400600000,0.16946356,10.303598,16142559392000,3.0,0,,,
        Fix,FLP,37.4264993000,-122.1737335000,1.7549287890041967,0.76968116,9.633,249.99295,1699400600630,,,16142716772889,1.4183482,0,,,
        Fix,GPS,37.4264415621,-122.1737797591,21.715970730072797,0.9455695,3.9290955,213.37006,1699400606000,0.1588222,9.325296,16148559499000,3.0,0,,,
        Fix,FLP,37.4264491000,-122.1737490000,1.6092760344572454,0.9251802,7.281,200.77103,1699400606641,,,16148728624988,1.4729532,0,,,
        Fix,NLP,37.4266961000,-122.1735829000,8.300000190734863,,15.136,,1699400585063,,,16127149000000,2.5976572,0,,,

        """

    static let lateTime = Timestamp(nanoseconds: 1_699_400_585_063_000_000)
    static let lateKey = "Fix rows written late (up to 21.6 s late): played where written, each with its own time"

    func read(_ text: String, provider: GnssProvider = .any) throws -> Trace {
        try Array(text.utf8).withUnsafeBufferPointer { try GnssLoggerReader.read($0, path: "x.txt", provider: provider) }
    }

    @Test("issue 42.5: a Fix row 21.6 s older than the rows above it plays where it was written, with its own time; the others in time order")
    func lateFixPlaysWhereWritten() throws {
        let trace = try read(Self.excerpt)
        let fixes = trace.locations.map(\.fix)
        #expect(fixes.count == 10)
        #expect(fixes.last?.latitude == 37.4266961 && fixes.last?.time == Self.lateTime, "the late NLP fix last, with its own time")
        #expect(trace.samples.map(\.offset) == trace.samples.map(\.offset).sorted())
        #expect(trace.samples.last?.offset == trace.samples.dropLast().last?.offset, "at the time of the row written before it")
        #expect(Array(fixes.dropLast().map(\.time)) == fixes.dropLast().map(\.time).sorted())
        #expect(trace.skipped == [Self.lateKey: 1])
    }

    @Test("issue 42.5: every way of loading the file takes it, and trace info tells how many fixes were late and by how much at most")
    func everyLoaderTakesIt() throws {
        let scratch = try TemporaryDirectory("gnsslogger-late")
        let path = try scratch.write("gnss_log.txt", Self.excerpt)
        let options = TraceLoadOptions(gnssProvider: .any)
        #expect(try TraceLoader.load(path: path, options: options).skipped == [Self.lateKey: 1])
        let summary = try TraceLoader.summarize(path: path, options: options).summary
        #expect(summary.skipped == [Self.lateKey: 1])
        #expect(summary.samples["location"] == 10)
        // The GPS fixes alone (the automatic choice) are in time order: nothing late.
        #expect(try TraceLoader.summarize(path: path).summary.skipped[Self.lateKey] == nil)
    }

    @Test("issue 42.5: a late sensor row plays where written too; a row that cannot be read still refuses the file")
    func lateSensorRow() throws {
        let header = GnssLoggerBadRowTests.header
        let text = header + "Fix,GPS,37.42,-122.08,10,0,4,,1699400600000,3,0\nAccel,1699400620000,1,0.1,0.2,9.8\nAccel,1699400582000,1,0.1,0.2,9.7\n"
        let trace = try read(text)
        #expect(trace.samples.map(\.offset) == [0, 20_000_000_000, 20_000_000_000])
        #expect(trace.skipped == ["rows written late (up to 38.0 s late): played where written": 1])
        let bad = header + "Fix,GPS,37.42,-122.08,10,0,4,,1699400600000,3,0\nFix,GPS,north,-122.08,10,0,4,,1699400582000,3,0\n"
        #expect(throws: TraceError.self) { try read(bad) }
    }
}
