#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SextantCore
import SextantProtocol

/// Android GnssLogger recordings (`GnssLoggerReader`): checked in one pass that writes
/// the samples, in time order, to an unlinked temporary file they play from
/// (`SpooledSampleTrace`); summarized as a stream. Memory stays bounded whatever the size.
struct GnssLoggerReaderFormat: TraceReaderFormat {
    var name: String { "gnsslogger" }
    /// None: GnssLogger names its files `gnss_log_<date>.txt`, and `.txt` says nothing
    /// of what a file holds. The first bytes do.
    var extensions: [String] { [] }

    /// A GnssLogger file starts with its header's comments (`#`): the app's
    /// `Header Description:` line, or a row kind's columns, within the first bytes.
    func looksLike(_ head: ArraySlice<UInt8>) -> Bool {
        guard head.first == UInt8(ascii: "#") else { return false }
        let text = String(decoding: head, as: UTF8.self)
        return text.contains("# Header Description") || text.contains("# Fix,") || text.contains("# Raw,")
    }

    func read(_ bytes: UnsafeBufferPointer<UInt8>, path: String, options: TraceLoadOptions) throws(TraceError) -> Trace {
        try GnssLoggerReader.read(bytes, path: path, provider: options.gnssProvider)
    }

    func openForReplay(path: String, options: TraceLoadOptions) throws(TraceLoadError) -> any ReplayableTrace {
        let fd = try TraceFile.openRegular(path: path)
        defer { close(fd) }
        do {
            let spool = try SampleSpool(for: path)
            var last: Int64 = 0
            let (start, skipped) = try GnssLoggerReader.stream(fd: fd, path: path, provider: options.gnssProvider) { sample throws(TraceError) in
                try spool.append(sample)
                last = sample.offset
            }
            return GnssLoggerSpooledTrace(spooled: try spool.sealed(start: start, durationNanoseconds: last, skipped: skipped))
        } catch {
            throw .invalid(error)
        }
    }

    func summarize(fd: Int32, path: String, options: TraceLoadOptions) throws(TraceError) -> TraceSummary {
        var tally = TraceSummary.Tally()
        let (start, skipped) = try GnssLoggerReader.stream(fd: fd, path: path, provider: options.gnssProvider) { tally.add($0) }
        return tally.summary(of: Trace(start: start, skipped: skipped))
    }
}

extension TraceFormat {
    public static let gnsslogger = TraceFormat(GnssLoggerReaderFormat())
}

/// A GnssLogger recording's spooled samples, whose fixes keep their own times (a fix
/// written late plays where written, stamped as the phone stamped it).
struct GnssLoggerSpooledTrace: ReplayableTrace {
    let spooled: SpooledSampleTrace

    var start: Timestamp { spooled.start }
    var profile: DeviceProfile? { nil }
    var sampleCount: Int { spooled.sampleCount }
    var durationNanoseconds: Int64 { spooled.durationNanoseconds }
    var skipped: [String: Int] { spooled.skipped }
    var fixesKeepOwnTime: Bool { true }
    func traceSample(at index: Int) throws(TraceError) -> TraceSample { try spooled.traceSample(at: index) }
    func firstIndex(atOrAfter offset: Int64) throws(TraceError) -> Int { try spooled.firstIndex(atOrAfter: offset) }
}
