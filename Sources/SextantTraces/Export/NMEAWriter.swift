import SextantCore
import SextantProtocol

/// Writes a trace's locations as NMEA 0183, one cycle of RMC, GGA and GSA a fix, as a
/// receiver sends them (``NMEAEncoder/traceExport``): the time of day to 10 ms (rounded),
/// the accuracies as DOPs as the readers turn them back (HDOP = hAcc / 5 m, VDOP = vAcc /
/// 5 m). RMC carries a two-digit year: times before 1980 or after 2079 cannot be written
/// as NMEA and are not. A compass sample is written where it comes, as HDT (its true
/// heading) and HDG (its magnetic heading, with the variation between the two when it has
/// both): NMEA's headings carry no time, so a reader puts them in the cycle before them.
public enum NMEAWriter {
    public static func write(_ trace: Trace) -> String { TraceExporter.render(trace, as: .nmea) }

    /// Writes the fixes and headings as they are read, in one pass.
    /// - Returns: how many samples it wrote (locations and headings).
    static func write(_ trace: some ReplayableTrace, to output: ExportOutput) throws(TraceExportError) -> Int {
        let encoder = NMEAEncoder.traceExport
        var written = 0
        try trace.forEachSample { sample throws(TraceExportError) in
            switch sample.value {
            case .location(let fix):
                written += 1
                if let cycle = encoder.cycle(for: fix) { try output.write(cycle) }
            case .reading(let reading):
                guard let heading = CompassReading(reading) else { return }
                written += 1
                try output.write(NMEAEncoder.headings(heading))
            case .gps, .record:
                break
            }
        }
        return written
    }
}

extension NMEAWriter: TraceWriterFormat {
    static let name = "nmea"
    static let extensions = ["nmea", "log"]
}

extension TraceExportFormat {
    public static let nmea = TraceExportFormat(NMEAWriter.self)
}
