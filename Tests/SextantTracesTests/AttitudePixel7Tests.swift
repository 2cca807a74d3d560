import Foundation
import SextantCore
import SextantProtocol
@testable import SextantTraces
import Testing

/// Sextant's attitude beside a real phone's (issue 40.2): at each `OrientationDeg` row of the
/// Pixel 7 recording (the phone's own azimuth, pitch and roll, whole degrees), the attitude
/// the engine makes from the recording's nearest accelerometer and field rows.
///
/// Sign conventions (both sides are Android's `SensorManager.getOrientation`, which
/// `AttitudeAngles` computes): azimuth clockwise from magnetic north of the device's top;
/// pitch about x, negative when the top is raised; roll about y, negative when the right edge
/// is raised. GnssLogger writes them as `yawDeg,rollDeg,pitchDeg`, in that order.
///
/// The recording is of a walk, with rows about a minute apart: the accelerometer row is
/// within 30 ms of each orientation row, but the field row up to 31 s away, so the azimuth is
/// bounded only where the field was read within a second; the tilt (the angle between the
/// phone's up and Sextant's, free of pitch and roll's ambiguity near vertical) everywhere.
@Suite("Attitude against a Pixel 7")
struct AttitudePixel7Tests {
    struct Row {
        var time: Int64
        var azimuth, roll, pitch: Double
    }

    static let path = GnssLoggerRecordingTests.path("pixel7-2023-stanford.txt")

    /// The `OrientationDeg` rows, read by hand (the reader keeps only the azimuth).
    func orientationRows() throws -> [Row] {
        try String(contentsOfFile: Self.path, encoding: .utf8).split(whereSeparator: \.isNewline).compactMap { line in
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard f.first == "OrientationDeg", let millis = Int64(f[1]), let yaw = Double(f[3]), let roll = Double(f[4]), let pitch = Double(f[5])
            else { return nil }
            return Row(time: millis * 1_000_000, azimuth: yaw, roll: roll, pitch: pitch)
        }
    }

    /// The phone's up in its own frame from its pitch and roll (getOrientation inverted).
    static func up(pitch: Double, roll: Double) -> Vector3 {
        let (p, r) = (pitch * .pi / 180, roll * .pi / 180)
        return Vector3(-cos(p) * sin(r), -sin(p), cos(p) * cos(r))
    }

    @Test("issue 40.2: tilt within 9° at every row; azimuth within 5° where the field was read within 1 s")
    func besidePixel7() throws {
        let trace = try TraceLoader.load(path: Self.path, options: TraceLoadOptions())
        let times = trace.samples.map { trace.start.nanoseconds + $0.offset }
        func nearest<T>(_ value: (SampleValue) -> T?, to time: Int64) -> (T, Int64)? {
            zip(trace.samples, times).compactMap { sample, t in value(sample.value).map { ($0, t) } }.min { abs($0.1 - time) < abs($1.1 - time) }
        }
        let rows = try orientationRows()
        #expect(rows.count == 10)
        var azimuthChecked = 0
        print("time (ms)      Δt accel  Δt field | phone az pitch roll | Sextant az pitch roll | Δaz  Δtilt")
        for row in rows {
            let (acceleration, accelTime) = try #require(nearest({ $0.acceleration }, to: row.time))
            let (field, fieldTime) = try #require(nearest({ $0.magneticField }, to: row.time))
            var engine = AttitudeEngine()
            engine.accelerometer(acceleration, at: Timestamp(nanoseconds: accelTime))
            engine.magnetometer(field, at: Timestamp(nanoseconds: fieldTime))
            let ours = AttitudeAngles(try #require(engine.magnetic))
            let azimuthDifference = HeadingMath.separation(ours.azimuth, row.azimuth)
            let tilt = acos(min(1, Self.up(pitch: row.pitch, roll: row.roll).dot(Self.up(pitch: ours.pitch, roll: ours.roll)))) * 180 / .pi
            let fieldGap = Double(fieldTime - row.time) / 1e9
            print(String(
                format: "%lld %7.3f s %8.3f s | %6.1f %5.1f %5.1f | %6.1f %5.1f %5.1f | %5.1f %5.1f", row.time / 1_000_000,
                Double(accelTime - row.time) / 1e9, fieldGap, row.azimuth, row.pitch, row.roll, ours.azimuth, ours.pitch, ours.roll,
                azimuthDifference, tilt))
            #expect(abs(accelTime - row.time) < 50_000_000, "each orientation row has an accelerometer row within 50 ms")
            #expect(tilt < 9, "the tilt at \(row.time / 1_000_000): \(tilt)°")
            if abs(fieldGap) < 1 {
                azimuthChecked += 1
                #expect(azimuthDifference < 5, "the azimuth at \(row.time / 1_000_000): \(azimuthDifference)°")
            }
        }
        #expect(azimuthChecked >= 1)
    }
}
