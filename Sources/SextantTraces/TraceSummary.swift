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
    /// Samples by kind, as the JSONL format names them: `location`, `gps`, and the sensor
    /// kinds' names (`accel`, `hinge`).
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
        var tally = Tally()
        for sample in trace.samples { tally.add(sample) }
        self = tally.summary(of: trace)
    }

    /// The summary summed up one sample at a time, for a trace read as a stream.
    public struct Tally {
        private var samples = [Int](repeating: 0, count: SampleValue.kindNames.count)
        private var gpsStates: [String: Int] = [:]
        private var box: BoundingBox?
        private var motion = TraceMotion.Tally()
        private var lastOffset: Int64 = 0

        public init() {}

        public mutating func add(_ sample: TraceSample) {
            samples[sample.value.kindIndex] += 1
            switch sample.value {
            case .location(let fix):
                if var b = box {
                    b.south = min(b.south, fix.latitude)
                    b.north = max(b.north, fix.latitude)
                    b.west = min(b.west, fix.longitude)
                    b.east = max(b.east, fix.longitude)
                    box = b
                } else {
                    box = BoundingBox(south: fix.latitude, west: fix.longitude, north: fix.latitude, east: fix.longitude)
                }
            case .gps(let signal): gpsStates[signal.rawValue, default: 0] += 1
            case .reading, .record: break
            }
            motion.add(sample)
            lastOffset = sample.offset
        }

        /// The summary, with the start, profile and skipped lines of `header` (its samples
        /// are not looked at: they are those added).
        public func summary(of header: Trace) -> TraceSummary {
            TraceSummary(
                start: header.start, duration: Double(lastOffset) / 1e9,
                samples: Dictionary(uniqueKeysWithValues: zip(SampleValue.kindNames, samples).filter { $0.1 > 0 }), gpsStates: gpsStates, boundingBox: box,
                skipped: header.skipped, profile: header.profile, motion: motion.motion, end: header.start.adding(nanoseconds: lastOffset))
        }
    }

    init(
        start: Timestamp, duration: Double, samples: [String: Int], gpsStates: [String: Int], boundingBox: BoundingBox?,
        skipped: [String: Int], profile: DeviceProfile?, motion: TraceMotion, end: Timestamp
    ) {
        self.start = start
        self.duration = duration
        self.samples = samples
        self.gpsStates = gpsStates
        self.boundingBox = boundingBox
        self.skipped = skipped
        self.profile = profile
        self.motion = motion
        self.end = end
    }
}
