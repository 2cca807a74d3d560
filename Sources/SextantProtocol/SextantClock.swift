#if canImport(Glibc)
import Glibc
#endif

/// Where the parts of Sextant that are not engines read the time: a monotonic clock for
/// durations and deadlines, and the wall clock for the timestamps people read.
///
/// One value, handed in, instead of each part calling `clock_gettime` itself: tests give a
/// clock they move by hand, and the hub gives one that follows its event loop's time (so
/// NIO's testing loops drive it).
public struct SextantClock: Sendable {
    /// Nanoseconds on a clock that never goes back (CLOCK_MONOTONIC for the system clock).
    public var monotonicNanoseconds: @Sendable () -> Int64
    /// The time of day (CLOCK_REALTIME for the system clock).
    public var wallTime: @Sendable () -> Timestamp

    public init(monotonicNanoseconds: @escaping @Sendable () -> Int64, wallTime: @escaping @Sendable () -> Timestamp) {
        self.monotonicNanoseconds = monotonicNanoseconds
        self.wallTime = wallTime
    }

    /// The machine's clocks.
    public static let system = SextantClock(
        monotonicNanoseconds: { readClock(CLOCK_MONOTONIC) },
        wallTime: { Timestamp(nanoseconds: readClock(CLOCK_REALTIME)) })

    /// Monotonic seconds, for code that measures time-outs in seconds.
    public var monotonicSeconds: Double { Double(monotonicNanoseconds()) / 1e9 }
}

private func readClock(_ clock: clockid_t) -> Int64 {
    var spec = timespec()
    clock_gettime(clock, &spec)
    // A 64-bit count of nanoseconds lasts 292 years from the clock's epoch.
    return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
}
