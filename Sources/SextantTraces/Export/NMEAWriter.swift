import SextantCore
import SextantProtocol

/// Writes a trace's locations as NMEA 0183, one cycle of RMC, GGA and GSA a fix, as a
/// receiver sends them (``NMEAEncoder/traceExport``): the time of day to 10 ms (rounded),
/// the accuracies as DOPs as the readers turn them back (HDOP = hAcc / 5 m, VDOP = vAcc /
/// 5 m). RMC carries a two-digit year: times before 1980 or after 2079 cannot be written
/// as NMEA and are not.
public enum NMEAWriter {
    public static func write(_ trace: Trace) -> String { TraceExporter.render(trace, as: .nmea) }

    /// Writes the fixes as they are read, in one pass.
    /// - Returns: how many locations it read.
    static func write(_ trace: some ReplayableTrace, to output: ExportOutput) throws(TraceExportError) -> Int {
        let encoder = NMEAEncoder.traceExport
        return try trace.forEachLocation { _, fix throws(TraceExportError) in
            if let cycle = encoder.cycle(for: fix) { try output.write(cycle) }
        }
    }
}

extension NMEAWriter: TraceWriterFormat {
    static let name = "nmea"
    static let extensions = ["nmea", "log"]
}

extension TraceExportFormat {
    public static let nmea = TraceExportFormat(NMEAWriter.self)
}
