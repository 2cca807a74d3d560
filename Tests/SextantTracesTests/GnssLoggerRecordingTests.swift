import Foundation
import SextantCore
import SextantProtocol
import SextantTestSupport
@testable import SextantTraces
import Testing

/// The three real GnssLogger recordings in `Traces/gnsslogger/` (issue 23.1), each read the
/// three ways a trace is read (whole, streamed for a replay, summarized), against numbers
/// read off the files by hand: the `grep`/`sort` commands by each number say how.
@Suite("GnssLogger recordings")
struct GnssLoggerRecordingTests {
    static func path(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
            + "/Traces/gnsslogger/" + name
    }

    /// The trace as `TraceLoader.load` reads it, checked equal to what a replay plays and
    /// to what `trace info` says.
    func read(_ name: String, provider: GnssProvider = .automatic) throws -> Trace {
        let options = TraceLoadOptions(gnssProvider: provider)
        let (trace, format) = try TraceLoader.loadDetectingFormat(path: Self.path(name), options: options)
        #expect(format == .gnsslogger)
        let replay = try TraceLoader.openForReplay(path: Self.path(name), options: options)
        #expect(replay.sampleCount == trace.samples.count && replay.start == trace.start && replay.durationNanoseconds == trace.durationNanoseconds)
        #expect(try (0..<replay.sampleCount).map { try replay.traceSample(at: $0) } == trace.samples, "a replay plays what is read whole")
        #expect(replay.skipped == trace.skipped)
        let (summary, _) = try TraceLoader.summarize(path: Self.path(name), options: options)
        #expect(summary == TraceSummary(trace), "trace info streams what is read whole")
        return trace
    }

    static func time(_ millis: Int64) -> Timestamp { Timestamp(nanoseconds: millis * 1_000_000) }

    @Test("Nexus 2016, format 1.4 ((UTC)TimeInMs, Latitude, Accuracy): 207 GPS fixes over 206 s")
    func nexus() throws {
        let trace = try read("nexus-2016-08-22.txt")
        let fixes = trace.locations
        // grep -c '^Fix,gps' → 207; no other kind of row plays.
        #expect(fixes.count == 207 && trace.samples.count == 207)
        // grep '^Fix' | sed -n '1p;$p': the first and the last row (the file is in time order).
        let first = try #require(fixes.first?.fix), last = try #require(fixes.last?.fix)
        #expect(first.latitude == 37.422604 && first.longitude == -122.081709 && first.altitude == -19.820693)
        #expect(first.speed == 0 && first.horizontalAccuracy == 4 && first.course == nil && first.verticalAccuracy == nil)
        #expect(first.time == Self.time(1_471_902_355_999) && trace.start == first.time)
        #expect(last.latitude == 37.422577 && last.longitude == -122.081653 && last.altitude == -23.879362)
        #expect(last.time == Self.time(1_471_902_561_999))
        // 1471902561999 − 1471902355999 ms.
        #expect(trace.durationNanoseconds == 206_000_000_000)
        // grep -c '^Raw' → 5041.
        #expect(trace.skipped == ["Raw (not replayed yet)": 5041])
    }

    @Test("Pixel 7 2023, v3.0.6.4: the 94 GPS fixes (of 243: 95 FLP, 54 NLP), 10 UncalAccel, 10 UncalMag and 10 UncalGyro less their bias, 10 OrientationDeg, in time order")
    func pixel7() throws {
        let trace = try read("pixel7-2023-stanford.txt")
        let fixes = trace.locations
        // grep -c '^Fix,GPS,' → 94; grep -c '^UncalAccel' → 10 (and no Accel row);
        // grep -c '^UncalMag' → 10 (and no Mag row); grep -c '^OrientationDeg' → 10;
        // grep -c '^UncalGyro' → 10 (and no Gyro row).
        #expect(fixes.count == 94)
        #expect(trace.samples.count == 134)
        // grep '^Fix,GPS,' | sort -t, -k9 -n | sed -n '1p;$p'.
        let first = try #require(fixes.first?.fix), last = try #require(fixes.last?.fix)
        #expect(first.latitude == 37.4265079783 && first.longitude == -122.1737079613 && first.altitude == 23.67296474531974)
        #expect(first.speed == 0 && first.horizontalAccuracy == 4.2366138 && first.verticalAccuracy == 3.0 && first.course == nil)
        #expect(first.time == Self.time(1_699_400_582_000) && trace.start == first.time)
        #expect(last.latitude == 37.4264821760 && last.longitude == -122.1737348618 && last.altitude == 15.699315401278927)
        #expect(last.speed == 0.15529393 && last.course == 20.880743 && last.horizontalAccuracy == 3.6410787 && last.verticalAccuracy == 3.0460837)
        #expect(last.time == Self.time(1_699_401_140_000))
        // The last UncalAccel row (grep '^UncalAccel' | sort -t, -k2 -n | tail -1), less its bias columns.
        let lastAccel = try #require(trace.samples.last { $0.value.acceleration != nil }?.value.acceleration)
        #expect(abs(lastAccel.x - (0.28115666 - 0.065623306)) < 1e-12 && abs(lastAccel.z - (9.650852 + 0.031848617)) < 1e-12)
        #expect(trace.samples.map(\.offset) == trace.samples.map(\.offset).sorted(), "rows out of order in the file play in time order")
        // grep -c '^Fix,FLP,' + grep -c '^Fix,NLP,' → 149; the other kinds, counted by kind.
        #expect(trace.skipped["Fix rows of another provider"] == 149)
        #expect(trace.skipped["Raw (not replayed yet)"] == 930 && trace.skipped["Agc (not replayed yet)"] == 80)
        #expect(trace.skipped["UncalMag (not replayed yet)"] == nil && trace.skipped["OrientationDeg (not replayed yet)"] == nil)
    }

    @Test("issue 21.1: Pixel 7 2023: UncalMag rows play as magnet less their bias, OrientationDeg's yaw as the compass's magnetic heading")
    func pixel7Heading() throws {
        let trace = try read("pixel7-2023-stanford.txt")
        let fields = trace.samples.compactMap { $0.value.magneticField }
        let headings = trace.samples.compactMap { $0.value.compass }
        #expect(fields.count == 10 && headings.count == 10)
        // grep '^UncalMag' | sort -t, -k2 -n | sed -n '1p;$p': uncalibrated minus bias.
        let first = try #require(fields.first), last = try #require(fields.last)
        #expect(abs(first.x - (-68.1492 + 79.950134)) < 1e-9 && abs(first.y - (-103.2242 + 76.57953)) < 1e-9)
        #expect(abs(first.z - (-155.2694 + 113.967804)) < 1e-9)
        #expect(abs(last.x - (-73.5904 + 79.950134)) < 1e-9 && abs(last.y - (-58.2184 + 76.57953)) < 1e-9)
        #expect(abs(last.z - (-150.426 + 113.967804)) < 1e-9)
        // grep '^OrientationDeg' | sort -t, -k2 -n | sed -n '1p;$p': yawDeg 229.0, then 343.0.
        #expect(headings.first == CompassReading(magnetic: 229) && headings.last == CompassReading(magnetic: 343))
        let firstHeading = try #require(trace.samples.first { $0.value.compass != nil })
        #expect(trace.start.adding(nanoseconds: firstHeading.offset) == Self.time(1_699_400_633_245))
        // The last sample is the last UncalMag row, 1699401141957 − 1699400582000 ms after the first fix.
        #expect(trace.samples.last?.value.magneticField == last)
        #expect(trace.durationNanoseconds == 559_957_000_000)
        // trace info counts them by kind.
        let (summary, _) = try TraceLoader.summarize(path: Self.path("pixel7-2023-stanford.txt"), options: TraceLoadOptions())
        #expect(summary.samples["magnet"] == 10 && summary.samples["compass"] == 10 && summary.samples["accel"] == 10, "\(summary.samples)")
    }

    @Test("Pixel 7: --gnss-provider flp plays the 95 FLP fixes, any all 243, nlp the 54 NLP")
    func pixel7Providers() throws {
        let flp = try read("pixel7-2023-stanford.txt", provider: .flp).locations
        #expect(flp.count == 95)
        // grep '^Fix,FLP,' | head -1.
        #expect(flp.first?.fix.latitude == 37.4265084000 && flp.first?.fix.time == Self.time(1_699_400_584_473))
        #expect(try read("pixel7-2023-stanford.txt", provider: .any).locations.count == 243)
        #expect(try read("pixel7-2023-stanford.txt", provider: .nlp).locations.count == 54)
    }

    @Test("Nexus: --gnss-provider flp finds no FLP fix and says which providers the file has")
    func missingProvider() throws {
        #expect(throws: TraceLoadError.invalid(TraceError(
            path: Self.path("nexus-2016-08-22.txt"), line: 1,
            reason: "no Fix row of the FLP provider (the file's fixes are from GPS; choose with --gnss-provider)"))) {
            try TraceLoader.load(path: Self.path("nexus-2016-08-22.txt"), options: TraceLoadOptions(gnssProvider: .flp))
        }
    }

    @Test("issue 21.1, 40.1: Pixel 7, every sensor: Accel, Mag and Gyro play (not their Uncal forms), OrientationDeg as the compass")
    func allSensors() throws {
        let trace = try read("pixel7-all-sensors.txt")
        // Mag at 1699400576748: -54.1436,-88.937996,-147.3638; 2 ms later the Accel row
        // (0.17288144,0.44925246,9.886545) and the OrientationDeg row (yaw 245.0), in file order,
        // after the Gyro row of the same time.
        #expect(
            trace.samples == [
                TraceSample(offset: 0, value: .magneticField(MagneticField(x: -54.1436, y: -88.937996, z: -147.3638))),
                TraceSample(offset: 2_000_000, value: .rotationRate(RotationRate(x: -0.06261369, y: -0.09315695, z: 0.036651913))),
                TraceSample(offset: 2_000_000, value: .acceleration(Acceleration(x: 0.17288144, y: 0.44925246, z: 9.886545))),
                TraceSample(offset: 2_000_000, value: .compass(CompassReading(magnetic: 245))),
            ])
        #expect(trace.start == Self.time(1_699_400_576_748))
        #expect(
            trace.skipped == [
                "UncalAccel (Accel played instead)": 1, "UncalMag (Mag played instead)": 1, "UncalGyro (Gyro played instead)": 1,
            ])
    }

    @Test("issue 40.1: Pixel 7 2023: UncalGyro rows play as gyro (rad/s) less their drift columns")
    func pixel7Gyroscope() throws {
        let rates = try read("pixel7-2023-stanford.txt").samples.compactMap { $0.value.rotationRate }
        #expect(rates.count == 10)
        // grep '^UncalGyro' | sort -t, -k2 -n | sed -n '1p;$p': uncalibrated minus drift.
        let first = try #require(rates.first), last = try #require(rates.last)
        #expect(abs(first.x - (0.36483926 + 0.0020647193)) < 1e-12 && abs(first.y - (-0.033750303 + 0.0038371063)) < 1e-12)
        #expect(abs(first.z - (0.05467244 + 0.0013321454)) < 1e-12)
        #expect(abs(last.x - (0.04810564 + 0.0018032808)) < 1e-12 && abs(last.z - (0.00992656 + 0.0012268312)) < 1e-12)
        let (summary, _) = try TraceLoader.summarize(path: Self.path("pixel7-2023-stanford.txt"), options: TraceLoadOptions())
        #expect(summary.samples["gyro"] == 10, "\(summary.samples)")
    }
}
