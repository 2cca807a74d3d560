import SextantProtocol

/// The device's clocks: the host's, moved by what the control side asked (`time.advance`,
/// `time.set`, `time.reset`; RULES C1–C10 in docs/platforms.md).
///
/// A phone's timers ("Only this time" revoked 60 s after the app left the foreground,
/// permissions reset after 90 days unused) are what tests need to reach without waiting,
/// and the same at every replay speed. So the device keeps its own time as two offsets
/// over the host's, and everything that decides (the engines, the timers they ask for, the
/// stamps people read) reads the device's time; only the transport (sockets' idle limits,
/// replay pacing, flushing) keeps the host's. A value, not a clock: the hub hands it the
/// host's time, so tests move either.
public struct DeviceClock: Sendable, Equatable {
    /// Added to the host's monotonic time. Never decreases (C2): durations measured on the
    /// device, and the deadlines of its timers, must never see time go back.
    public private(set) var monotonicOffset: Int64 = 0
    /// Added to the host's wall time (C1). Decreases when the wall is set earlier (C4).
    public private(set) var wallOffset: Int64 = 0

    /// The farthest the device's monotonic clock may run ahead of the host's: 200 years,
    /// so that a deadline on it (now + a timer) never overflows 64 bits of nanoseconds.
    public static let longestMonotonicOffset: Int64 = 200 * 365 * 86_400 * 1_000_000_000
    /// The device's wall clock stays within these (C8): any instant a timestamp holds with
    /// room for a timer after it, and none before the epoch (stamps people read).
    public static let earliestWall = Timestamp(nanoseconds: 0)
    public static let latestWall = Timestamp(nanoseconds: 7_258_118_400_000_000_000)  // 2200-01-01T00:00:00Z

    public init() {}

    /// Whether the control side has moved the clock at all.
    public var isHostTime: Bool { monotonicOffset == 0 && wallOffset == 0 }

    /// The device's time, given the host's.
    public func time(host: EngineTime) -> EngineTime {
        EngineTime(monotonic: host.monotonic &+ monotonicOffset, wall: host.wall.adding(nanoseconds: wallOffset))
    }

    /// C3: both clocks move forward by `nanoseconds`, as if the device had lived through
    /// them at once.
    public mutating func advance(by nanoseconds: Int64, host: EngineTime) throws(DeviceClockRefusal) {
        guard nanoseconds >= 0 else { throw .backwards }
        try move(monotonic: nanoseconds, wall: nanoseconds, host: host)
    }

    /// C4: the wall clock reads `wall` from now on. Later than the device's wall: the
    /// monotonic clock moves forward by as much (the device lived through the interval, so
    /// its timers fire). Earlier: only the wall moves; the monotonic clock never goes back.
    public mutating func set(wall: Timestamp, host: EngineTime) throws(DeviceClockRefusal) {
        let current = time(host: host).wall
        guard let delta = wall.nanoseconds(since: current) else { throw .wallOutOfRange }
        try move(monotonic: max(0, delta), wall: delta, host: host)
    }

    /// C5: the wall clock is the host's again; the monotonic clock keeps what it ran ahead
    /// (it never goes back, C2).
    public mutating func resetWall() {
        wallOffset = 0
    }

    private mutating func move(monotonic: Int64, wall: Int64, host: EngineTime) throws(DeviceClockRefusal) {
        let (newWall, wallOverflow) = wallOffset.addingReportingOverflow(wall)
        guard !wallOverflow, let wallNow = host.wall.checkedAdding(nanoseconds: newWall),
            wallNow >= Self.earliestWall, wallNow <= Self.latestWall
        else { throw .wallOutOfRange }
        let (newMonotonic, overflow) = monotonicOffset.addingReportingOverflow(monotonic)
        guard !overflow, newMonotonic <= Self.longestMonotonicOffset else { throw .monotonicOutOfRange }
        (monotonicOffset, wallOffset) = (newMonotonic, newWall)
    }
}

/// Why the device's clock did not move (C8); the clock is left as it was.
public enum DeviceClockRefusal: Error, Equatable, Sendable, CustomStringConvertible {
    /// `time.advance` with a negative amount: use `time.set` to set the wall earlier.
    case backwards
    /// The wall would leave 1970-01-01 … 2200-01-01.
    case wallOutOfRange
    /// The monotonic clock would run more than 200 years ahead of the host's.
    case monotonicOutOfRange

    public var description: String {
        switch self {
        case .backwards: "time only advances: set an earlier wall time with time.set"
        case .wallOutOfRange:
            "the device's wall clock must stay between \(DeviceClock.earliestWall.rfc3339) and \(DeviceClock.latestWall.rfc3339)"
        case .monotonicOutOfRange: "the device's clock may run at most 200 years ahead of the host's"
        }
    }
}
