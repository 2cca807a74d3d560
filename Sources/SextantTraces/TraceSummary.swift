import SextantCore
import SextantProtocol

/// What `sextantctl trace info` tells about a trace: its time span, how many samples of
/// each kind, where its locations lie, and what a lenient reader skipped.
public struct TraceSummary: Sendable, Equatable {
    /// The south-west and north-east corners of the locations (plain minima and maxima
    /// of latitude and longitude: a trace across the antimeridian spans the globe).
    public struct BoundingBox: Sendable, Equatable {
        public var south: Double
        public var west: Double
        public var north: Double
        public var east: Double
    }

    public var start: Timestamp
    /// Seconds from the first sample to the last (offset 0 is the start).
    public var duration: Double
    /// Samples by kind, as the JSONL format names them: `location`, `accel`, `hinge`, `gps`.
    public var samples: [String: Int]
    /// `gps` samples by state (`lost`, `noFix`, `ok`).
    public var gpsStates: [String: Int]
    public var boundingBox: BoundingBox?
    /// Lines skipped by reason (NMEA: bad checksum, not NMEA, spliced, malformed).
    public var skipped: [String: Int]
    public var profile: DeviceProfile?
    /// Distance, speeds, gaps and sample rates.
    public var motion: TraceMotion
    /// The instant of the last sample.
    public var end: Timestamp

    public init(_ trace: Trace) {
        start = trace.start
        end = trace.start.adding(nanoseconds: trace.durationNanoseconds)
        duration = trace.duration
        profile = trace.profile
        skipped = trace.skipped
        samples = [:]
        gpsStates = [:]
        var box: BoundingBox?
        for sample in trace.samples {
            switch sample.value {
            case .location(let fix):
                samples["location", default: 0] += 1
                if var b = box {
                    b.south = min(b.south, fix.latitude)
                    b.north = max(b.north, fix.latitude)
                    b.west = min(b.west, fix.longitude)
                    b.east = max(b.east, fix.longitude)
                    box = b
                } else {
                    box = BoundingBox(south: fix.latitude, west: fix.longitude, north: fix.latitude, east: fix.longitude)
                }
            case .acceleration: samples["accel", default: 0] += 1
            case .hingeAngle: samples["hinge", default: 0] += 1
            case .gps(let signal):
                samples["gps", default: 0] += 1
                gpsStates[signal.rawValue, default: 0] += 1
            }
        }
        boundingBox = box
        motion = TraceMotion(trace)
    }
}
