#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SextantCore
import SextantProtocol

/// A GPX file played without holding it, its points or its samples in memory.
///
/// GPX is XML: a sample cannot be decoded from a byte offset on its own (the element it
/// sits in, the file's choice of tracks, routes or waypoints and whether its points have
/// times are known only at the end of the file, and each fix takes its speed and course
/// from its neighbour). So one pass parses the file as a stream (`XMLParser` pulling it
/// through `GPXCheckedInput`, a window at a time) and writes each point as a fixed-size
/// record to an unlinked temporary file (`GPXPointSpool`); passes over those records then
/// check the times and work out every fix (`GPXSampleWalk`, the rules `GPXReader` reads a
/// file whole by), writing each sample as a record to another one; the replay reads those
/// records by index, `blockSize` at a time (`SpooledSampleTrace`). Disk: 80 bytes a point while it loads, 80 bytes
/// a sample while it plays; memory: one block. A route interpolated with `--interval` is
/// planned in memory by `RoutePlanner` (at most its 1,000,000 fixes), as before.
///
/// All or nothing: a file with a bad point is refused with its line before anything plays.
/// Read from any thread, as `StreamedJSONLTrace`.
public final class StreamedGPXTrace: ReplayableTrace {
    public static let blockSize = SpooledSampleTrace.blockSize

    private let spooled: SpooledSampleTrace
    public var start: Timestamp { spooled.start }
    public var sampleCount: Int { spooled.sampleCount }
    public var durationNanoseconds: Int64 { spooled.durationNanoseconds }
    public var profile: DeviceProfile? { nil }

    public init(path: String, options: TraceLoadOptions = TraceLoadOptions()) throws(TraceLoadError) {
        let fd = try TraceFile.openRegular(path: path)
        defer { close(fd) }
        do {
            let spool = try SampleSpool(for: path)
            var last: Int64 = 0
            let start = try Self.read(fd: fd, path: path, options: options) { sample throws(TraceError) in
                try spool.append(sample)
                last = sample.offset
            }
            spooled = try spool.sealed(start: start, durationNanoseconds: last, skipped: [:])
        } catch {
            throw .invalid(error)
        }
    }

    /// Parses the open file as a stream and hands its samples to `sink`, in order;
    /// answers the trace's start. `trace info` sums them up as they come.
    static func read(fd: Int32, path: String, options: TraceLoadOptions, _ sink: (TraceSample) throws(TraceError) -> Void) throws(TraceError) -> Timestamp {
        let input = GPXCheckedInput { pointer, count, offset in
            while true {
                let got = pread(fd, pointer, count, off_t(offset))
                if got < 0, errno == EINTR { continue }
                return got
            }
        }
        let points = try GPXPointSpool(for: path)
        try GPXDocument.parse(input, path: path, into: points)
        let walk = GPXSampleWalk(
            points: SpooledGPXPoints(file: try points.chosen(path: path)), path: path, speed: options.gpxSpeed, interval: options.gpxInterval,
            fileTime: points.time)
        return try walk.run(sink)
    }

    public func traceSample(at index: Int) throws(TraceError) -> TraceSample { try spooled.traceSample(at: index) }

    public func firstIndex(atOrAfter offset: Int64) throws(TraceError) -> Int { try spooled.firstIndex(atOrAfter: offset) }
}
