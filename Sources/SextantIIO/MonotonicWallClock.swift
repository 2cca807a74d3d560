#if canImport(Glibc)
import Glibc
#endif
import SextantProtocol

/// Stamps sensor readings with wall-clock `Timestamp`s (as the manual source does) whose
/// spacing is the monotonic clock's.
///
/// A reading's time is `wall₀ + (monotonic − monotonic₀)` for an anchor pair taken
/// together. Between two readings the step is exactly the monotonic step: NTP slewing or a
/// clock step does not jitter the intervals the orientation filter works on (RULES O2).
/// When the mapped time and the wall clock disagree by more than `tolerance` (after a
/// suspend, during which CLOCK_MONOTONIC stops, or after the wall clock was set), the
/// anchor is taken again, so the samples stay comparable with everyone else's.
public struct MonotonicWallClock: Sendable {
    private var monotonicAnchor: Int64
    private var wallAnchor: Int64
    /// How far the mapping may drift from the wall clock before it is anchored again.
    public var tolerance: Int64 = 1_000_000_000

    private var clock: SextantClock

    public init(clock: SextantClock = .system) {
        self.clock = clock
        monotonicAnchor = clock.monotonicNanoseconds()
        wallAnchor = clock.wallTime().nanoseconds
    }

    /// For tests: an anchor pair given by hand.
    public init(monotonicAnchor: Int64, wallAnchor: Int64) {
        self.clock = .system
        self.monotonicAnchor = monotonicAnchor
        self.wallAnchor = wallAnchor
    }

    /// The time of a reading taken at `monotonic`, given the wall clock now.
    public mutating func timestamp(monotonic: Int64, wall: Int64) -> Timestamp {
        let mapped = wallAnchor + (monotonic - monotonicAnchor)
        if abs(mapped - wall) > tolerance {
            monotonicAnchor = monotonic
            wallAnchor = wall
            return Timestamp(nanoseconds: wall)
        }
        return Timestamp(nanoseconds: mapped)
    }

    /// The time of a reading taken just now.
    public mutating func now() -> Timestamp {
        let monotonic = clock.monotonicNanoseconds()
        return timestamp(monotonic: monotonic, wall: clock.wallTime().nanoseconds)
    }
}
