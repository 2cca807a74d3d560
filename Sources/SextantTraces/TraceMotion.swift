import SextantCore

/// The figures of `trace info` about movement and pacing: how far the locations go, how
/// fast, where the trace falls silent, and how often each kind of sample comes.
public struct TraceMotion: Sendable, Equatable {
    /// A stretch of more than `TraceMotion.gapThreshold` without any sample.
    public struct Gap: Sendable, Equatable {
        /// Seconds from the trace's start to the last sample before the gap.
        public var after: Double
        public var length: Double

        public init(after: Double, length: Double) {
            self.after = after
            self.length = length
        }
    }

    public struct SpeedFigures: Sendable, Equatable {
        public var minimum: Double
        public var median: Double
        public var maximum: Double
    }

    /// Gaps longer than this many seconds are reported.
    public static let gapThreshold = 1.0
    /// At most this many gaps are listed (all are counted).
    public static let listedGaps = 10

    /// Metres along the great circles from each location to the next.
    public var distance: Double
    /// Over the locations: each one's own speed, else the speed of the leg that arrives at
    /// it (distance / time); nil when no location has either.
    public var speed: SpeedFigures?
    /// How many gaps, the longest, and the first `listedGaps` of them in time order.
    public var gapCount: Int
    public var longestGap: Gap?
    public var gaps: [Gap]
    /// Samples per second of each kind (`location`, `accel`, `hinge`, `gps`) that has two
    /// samples or more at different times: (count − 1) / the span from its first to its last.
    public var rates: [String: Double]

    public init(_ trace: Trace) {
        var tally = Tally()
        for sample in trace.samples { tally.add(sample) }
        self = tally.motion
    }

    /// The figures summed up one sample at a time, in time order, so that a trace read as
    /// a stream needs no array of its samples (only one speed per location, for the median).
    public struct Tally {
        private var distance = 0.0
        private var speeds: [Double] = []
        private var lastLocation: (offset: Int64, fix: LocationFix)?
        /// The last sample's offset: only it is needed, and a whole sample (a sky's
        /// satellites) would be copied and released each time.
        private var lastOffset: Int64?
        private var gapCount = 0
        private var longest: Gap?
        private var listed: [Gap] = []
        /// By kind (`SampleValue.kindIndex`): an array, not a dictionary, so that a sample
        /// costs no hashing.
        private var spans = [(first: Int64, last: Int64, count: Int)?](repeating: nil, count: SampleValue.kindNames.count)

        public init() {}

        public mutating func add(_ sample: TraceSample) {
            if case .location(let fix) = sample.value { addLocation(fix, at: sample.offset) }
            if let lastOffset {
                let length = Double(sample.offset - lastOffset) / 1e9
                if length > gapThreshold {
                    let gap = Gap(after: Double(lastOffset) / 1e9, length: length)
                    gapCount += 1
                    if listed.count < listedGaps { listed.append(gap) }
                    if length > longest?.length ?? 0 { longest = gap }
                }
            }
            lastOffset = sample.offset
            let kind = sample.value.kindIndex
            if let span = spans[kind] {
                spans[kind] = (span.first, sample.offset, span.count + 1)
            } else {
                spans[kind] = (sample.offset, sample.offset, 1)
            }
        }

        private mutating func addLocation(_ fix: LocationFix, at offset: Int64) {
            var leg: (metres: Double, seconds: Double)?
            if let previous = lastLocation {
                leg = (Geo.distance(previous.fix, fix), Double(offset - previous.offset) / 1e9)
                distance += leg!.metres
            }
            if let speed = fix.speed {
                speeds.append(speed)
            } else if let leg, leg.seconds > 0 {
                speeds.append(leg.metres / leg.seconds)
            }
            lastLocation = (offset, fix)
        }

        public var motion: TraceMotion {
            TraceMotion(
                distance: distance, speed: TraceMotion.figures(speeds), gapCount: gapCount, longestGap: longest, gaps: listed,
                rates: Dictionary(
                    uniqueKeysWithValues: zip(SampleValue.kindNames, spans).compactMap { kind, span in
                        guard let span, span.count >= 2, span.last > span.first else { return nil }
                        return (kind, Double(span.count - 1) / (Double(span.last - span.first) / 1e9))
                    }))
        }
    }

    init(distance: Double, speed: SpeedFigures?, gapCount: Int, longestGap: Gap?, gaps: [Gap], rates: [String: Double]) {
        self.distance = distance
        self.speed = speed
        self.gapCount = gapCount
        self.longestGap = longestGap
        self.gaps = gaps
        self.rates = rates
    }

    static func figures(_ values: [Double]) -> SpeedFigures? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        let median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        return SpeedFigures(minimum: sorted[0], median: median, maximum: sorted[sorted.count - 1])
    }
}

extension SampleValue {
    /// The kind's name in the JSONL format: `location`, `gps`, a sensor kind's (`accel`) or a
    /// record kind's (`sky`).
    public var kindName: String {
        switch self {
        case .location: return "location"
        case .gps: return "gps"
        case .reading(let reading): return reading.kind.description
        case .record(let record): return record.kind.name
        }
    }

    /// The kinds' names, by `kindIndex`: `location`, `gps`, then the registered sensor
    /// kinds in ``SensorKinds/all``'s order, then the record kinds in ``RecordKinds/all``'s.
    public static let kindNames = ["location", "gps"] + SensorKinds.all.kinds.map(\.name) + RecordKinds.all.kinds.map(\.name)

    /// The kind as a number from 0, in `kindNames`' order. A reading's or a record's kind
    /// must be registered: tallies of a trace count the kinds Sextant knows.
    public var kindIndex: Int {
        switch self {
        case .location: return 0
        case .gps: return 1
        case .reading(let reading):
            guard let index = SensorKinds.all.index(of: reading.kind) else { preconditionFailure("unregistered sensor kind \(reading.kind)") }
            return 2 + index
        case .record(let record):
            guard let index = RecordKinds.all.index(of: record.kind) else { preconditionFailure("unregistered record kind \(record.kind)") }
            return 2 + SensorKinds.all.kinds.count + index
        }
    }
}
