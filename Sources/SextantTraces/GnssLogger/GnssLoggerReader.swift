import SextantCore
import SextantProtocol

/// Reads a recording of Android's GnssLogger app (Google's; any version of its text
/// format) as a trace.
///
/// **Format.** Comment lines (`#`) make the header: `# Kind,Column,Column,…` names the
/// columns of each kind of row, and the names differ between versions (1.4:
/// `Fix,Provider,Latitude,Longitude,Altitude,Speed,Accuracy,(UTC)TimeInMs`; v3:
/// `Fix,Provider,LatitudeDegrees,…,UnixTimeMillis,…,VerticalAccuracyMeters,MockLocation,…`),
/// so every value is found by its column's name, never by its position. Each other line
/// is a row whose first field is its kind.
///
/// **What plays.** `Fix` rows of one provider (`GnssProvider`: GPS, else FLP, else NLP,
/// unless `TraceLoadOptions.gnssProvider` says) as fixes, with altitude, speed, bearing,
/// accuracy and vertical accuracy when the row has them; `Accel` rows as the
/// accelerometer, or, in a file without them, `UncalAccel` rows less their bias; `Mag`
/// rows as the magnetometer (`magnet`, µT), or, in a file without them, `UncalMag` rows
/// less their bias; `Gyro` rows as the gyroscope (`gyro`, rad/s), or, in a file without
/// them, `UncalGyro` rows less their drift; `OrientationDeg` rows' `yawDeg` as a compass's
/// magnetic heading (`compass`). Each at the UTC instant of its row
/// (`UnixTimeMillis`, `utcTimeMillis` or `(UTC)TimeInMs`), in time order
/// (`GnssLoggerOrdering`). The other kinds GnssLogger writes (`Raw`, `Agc`, rotation vectors, …)
/// are counted by kind in `skipped` ("not replayed yet"), rows of a kind it does not write
/// as "rows of an unknown kind": neither is an error. `MockLocation` (`1`, `0`) is the fix's
/// `recordedSimulated`: the simulated flag under `--simulated-flag auto` (RULES N7).
///
/// **Errors.** A row that cannot be read (a `Fix` row whose latitude is not a number, a
/// row with no usable time, a `Fix` or `Accel` row before the header names its columns)
/// refuses the file with its path and line.
public enum GnssLoggerReader {
    /// A whole file's bytes as a trace.
    public static func read(_ bytes: UnsafeBufferPointer<UInt8>, path: String, provider choice: GnssProvider = .automatic) throws(TraceError) -> Trace {
        var samples: [TraceSample] = []
        let (start, skipped) = try pass(.bytes(bytes), path: path, choice: choice) { samples.append($0) }
        var trace = Trace(start: start, samples: samples, skipped: skipped)
        trace.fixesKeepOwnTime = true
        return trace
    }

    /// The open file `fd` read as a stream, a line at a time: its samples handed to `sink`
    /// in time order; answers the trace's start and the rows skipped, by reason.
    static func stream(
        fd: Int32, path: String, provider choice: GnssProvider, _ sink: (TraceSample) throws(TraceError) -> Void
    ) throws(TraceError) -> (start: Timestamp, skipped: [String: Int]) {
        try pass(.file(fd), path: path, choice: choice, sink)
    }

    /// Reads the lines `lines` hands out twice: once for the providers the file has fixes
    /// of and whether it has `Accel` and `Mag` rows, once for its samples.
    private static func pass(
        _ source: Source, path: String, choice: GnssProvider, _ sink: (TraceSample) throws(TraceError) -> Void
    ) throws(TraceError) -> (start: Timestamp, skipped: [String: Int]) {
        var scan = GnssLoggerPass(path: path, provider: nil, providersOnly: true)
        try source.forEachLine(path: path) { line, number throws(TraceError) in try scan.line(line, number: number) { _ in } }
        var reading = GnssLoggerPass(path: path, provider: choice.chosen(among: scan.providers), playsUncalibrated: Set(GnssLoggerPass.uncalibrated.filter { !scan.calibratedKinds.contains($0.key) }.values))
        try source.forEachLine(path: path) { line, number throws(TraceError) in try reading.line(line, number: number, sink) }
        let start = try reading.finish(sink)
        return (start, reading.skipped)
    }

    /// Where the lines come from: bytes in memory, or an open file read a buffer at a time.
    private enum Source {
        case bytes(UnsafeBufferPointer<UInt8>)
        case file(Int32)

        /// Calls `body` with each line (without its `\n`) and its 1-based number.
        func forEachLine(path: String, _ body: (UnsafeBufferPointer<UInt8>, Int) throws(TraceError) -> Void) throws(TraceError) {
            switch self {
            case .file(let fd):
                try FileLines.forEach(fd: fd, path: path) { line, number, _ throws(TraceError) in
                    try body(line, number)
                    return true
                }
            case .bytes(let bytes):
                var start = 0, number = 0
                while start < bytes.count {
                    let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
                    number += 1
                    try body(UnsafeBufferPointer(rebasing: bytes[start..<end]), number)
                    start = end + 1
                }
            }
        }
    }
}
