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
/// records by index, `blockSize` at a time. Disk: 80 bytes a point while it loads, 80 bytes
/// a sample while it plays; memory: one block. A route interpolated with `--interval` is
/// planned in memory by `RoutePlanner` (at most its 1,000,000 fixes), as before.
///
/// All or nothing: a file with a bad point is refused with its line before anything plays.
/// Read from any thread, as `StreamedJSONLTrace`.
public final class StreamedGPXTrace: ReplayableTrace {
    public static let blockSize = 1024

    public let start: Timestamp
    public let sampleCount: Int
    public let durationNanoseconds: Int64
    public var profile: DeviceProfile? { nil }
    private let samples: SpooledRecords
    private let decoded = DecodedBlock()

    public init(path: String, options: TraceLoadOptions = TraceLoadOptions()) throws(TraceLoadError) {
        let fd = try TraceFile.openRegular(path: path)
        defer { close(fd) }
        do {
            let spool = try SpoolFile(for: path)
            var last: Int64 = 0
            start = try Self.read(fd: fd, path: path, options: options) { sample throws(TraceError) in
                try spool.append(Self.record(sample))
                last = sample.offset
            }
            samples = try spool.sealed()
            sampleCount = samples.count
            durationNanoseconds = last
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

    public func traceSample(at index: Int) throws(TraceError) -> TraceSample {
        let number = index / Self.blockSize
        return try decoded.with(number, decode: decode) { $0[index - number * Self.blockSize] }
    }

    /// Reads block `number`'s records from the spool.
    private func decode(_ number: Int) throws(TraceError) -> [TraceSample] {
        let words = try samples.read(from: number * Self.blockSize, count: Self.blockSize)
        return stride(from: 0, to: words.count, by: SpoolFile.words).map { Self.sample(words[$0..<($0 + SpoolFile.words)]) }
    }

    public func firstIndex(atOrAfter offset: Int64) throws(TraceError) -> Int {
        var low = 0, high = sampleCount
        while low < high {
            let middle = (low + high) / 2
            if try traceSample(at: middle).offset < offset { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// offset, lat, lon, alt, hAcc, vAcc, speed, course, time, flags (which of alt, vAcc,
    /// speed, course are there, bits 0–3). A GPX sample is always a location.
    static func record(_ sample: TraceSample) -> [UInt64] {
        guard case .location(let fix) = sample.value else { preconditionFailure("a GPX sample is a location") }
        let optionals = [fix.altitude, fix.verticalAccuracy, fix.speed, fix.course]
        var flags: UInt64 = 0
        for (bit, value) in optionals.enumerated() where value != nil { flags |= 1 << UInt64(bit) }
        return [UInt64(bitPattern: sample.offset), fix.latitude.bitPattern, fix.longitude.bitPattern, (fix.altitude ?? 0).bitPattern,
            fix.horizontalAccuracy.bitPattern, (fix.verticalAccuracy ?? 0).bitPattern, (fix.speed ?? 0).bitPattern,
            (fix.course ?? 0).bitPattern, UInt64(bitPattern: fix.time.nanoseconds), flags]
    }

    static func sample(_ r: ArraySlice<UInt64>) -> TraceSample {
        let w = Array(r)
        func optional(_ k: Int, bit: UInt64) -> Double? { w[9] & (1 << bit) != 0 ? Double(bitPattern: w[k]) : nil }
        let fix = LocationFix(
            latitude: Double(bitPattern: w[1]), longitude: Double(bitPattern: w[2]), altitude: optional(3, bit: 0),
            horizontalAccuracy: Double(bitPattern: w[4]), verticalAccuracy: optional(5, bit: 1), speed: optional(6, bit: 2),
            course: optional(7, bit: 3), time: Timestamp(nanoseconds: Int64(bitPattern: w[8])))
        return TraceSample(offset: Int64(bitPattern: w[0]), value: .location(fix))
    }
}
