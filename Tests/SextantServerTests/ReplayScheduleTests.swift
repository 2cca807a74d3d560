import SextantCore
import SextantProtocol
import SextantTraces
import Testing

@testable import SextantServer

/// The replay's virtual clock as a value: pacing, `max`, laps and the edges of time, with
/// the monotonic time handed in by the test (PROTOCOL "Trace files", RULES O5).
@Suite("Replay schedule")
struct ReplayScheduleTests {
    static let second: Int64 = 1_000_000_000
    static let start = Timestamp(nanoseconds: 1_772_352_000 * second)  // 2026-03-01T08:00:00Z

    /// Three fixes at t = 0, 1 and 2 s.
    static func walk(start: Timestamp = start) -> Trace {
        Trace(
            start: start,
            samples: (0..<3).map { i in
                TraceSample(
                    offset: Int64(i) * second,
                    value: .location(LocationFix(latitude: 48.85 + Double(i) * 0.001, longitude: 2.29, time: Timestamp(nanoseconds: 0))))
            })
    }

    /// Takes every sample due at `now`.
    static func drain(_ schedule: inout ReplaySchedule, at now: Int64) -> [Sample] {
        var out: [Sample] = []
        while let sample = schedule.takeIfDue(now: now) { out.append(sample) }
        return out
    }

    @Test("At speed 2, sample i is due t_i / 2 after the start, and carries its trace time")
    func pacedByFactor() throws {
        let t0: Int64 = 5 * Self.second
        var schedule = ReplaySchedule(trace: Self.walk(), speed: .factor(2), loop: false, startedAt: t0)
        #expect(Self.drain(&schedule, at: t0).map(\.time) == [Self.start])
        #expect(schedule.nextDue(now: t0) == t0 + Self.second / 2)
        #expect(Self.drain(&schedule, at: t0 + Self.second / 2 - 1).isEmpty, "not a nanosecond early")
        let second = Self.drain(&schedule, at: t0 + Self.second / 2)
        #expect(second.map(\.time) == [Self.start.adding(nanoseconds: Self.second)])
        if case .location(let fix) = second.first?.value { #expect(fix.time == second.first?.time) } else { Issue.record("not a fix") }
        #expect(Self.drain(&schedule, at: t0 + 10 * Self.second).count == 1)
        #expect(schedule.isFinished && schedule.nextDue(now: t0) == nil)
        #expect(schedule.emitted == 3 && schedule.position == 2 * Self.second)
    }

    @Test("O5: every speed gives the same samples with the same times")
    func sameSamplesAtEverySpeed() {
        var reference: [Sample]?
        for speed in [ReplaySpeed.factor(0.5), .factor(1), .factor(1000), .max] {
            var schedule = ReplaySchedule(trace: Self.walk(), speed: speed, loop: false, startedAt: 0)
            let samples = Self.drain(&schedule, at: 100 * Self.second)
            #expect(samples.count == 3)
            if let reference { #expect(samples == reference, "\(speed)") } else { reference = samples }
        }
    }

    @Test("At max every sample is due at once; the driver paces by its clients")
    func maxIsAlwaysDue() {
        var schedule = ReplaySchedule(trace: Self.walk(), speed: .max, loop: false, startedAt: 7)
        #expect(schedule.nextDue(now: 7) == 7)
        #expect(Self.drain(&schedule, at: 7).count == 3)
    }

    @Test("A loop starts its next lap 1 s after the last sample, in trace time and in pacing")
    func lapBoundary() {
        var schedule = ReplaySchedule(trace: Self.walk(), speed: .factor(1), loop: true, startedAt: 0)
        #expect(Self.drain(&schedule, at: 2 * Self.second).count == 3)
        #expect(schedule.lap == 1 && !schedule.isFinished)
        #expect(schedule.nextDue(now: 2 * Self.second) == 3 * Self.second, "lap period = duration 2 s + gap 1 s")
        let lap2 = Self.drain(&schedule, at: 3 * Self.second)
        #expect(lap2.map(\.time) == [Self.start.adding(nanoseconds: 3 * Self.second)])
        // Many laps later, the pace is still exact: at 3000 s, laps 0…999 are done and the
        // first sample of lap 1000 is due (3001 in all, 4 of them taken above).
        #expect(Self.drain(&schedule, at: 3 * 1000 * Self.second).count == 3001 - 4)
        #expect(schedule.lap == 1000 && schedule.emitted == 3001)
    }

    @Test("A loop whose times would pass what a Timestamp holds finishes instead of trapping")
    func loopNearTheEndOfTime() {
        let nearEnd = Timestamp(nanoseconds: Int64.max - 4 * Self.second)
        var schedule = ReplaySchedule(trace: Self.walk(start: nearEnd), speed: .max, loop: true, startedAt: 0)
        let samples = Self.drain(&schedule, at: 0)
        // Lap 1's first two samples end exactly at Int64.max nanoseconds; its third would pass it.
        #expect(samples.count == 5)
        #expect(samples.last?.time == Timestamp(nanoseconds: Int64.max))
        #expect(schedule.isFinished)
    }

    @Test("A slow factor on a long trace puts a sample far away without trapping")
    func slowFactorLongTrace() {
        let long = Trace(
            start: Self.start,
            samples: [
                TraceSample(offset: 0, value: .hingeAngle(10)),
                TraceSample(offset: 900_000_000 * Self.second, value: .hingeAngle(20)),
            ])
        var schedule = ReplaySchedule(trace: long, speed: .factor(ReplaySpeed.slowest), loop: true, startedAt: Int64.max / 2)
        #expect(Self.drain(&schedule, at: Int64.max / 2).count == 1)
        let due = schedule.nextDue(now: Int64.max / 2)
        #expect(due != nil && due! > Int64.max / 2)
    }

    @Test("Speeds outside 0.001…1e6 are refused")
    func speedBounds() {
        #expect(ReplaySpeed(factor: 1e-12) == nil)
        #expect(ReplaySpeed(factor: 0) == nil)
        #expect(ReplaySpeed(factor: .infinity) == nil)
        #expect(ReplaySpeed(factor: 2e6) == nil)
        #expect(ReplaySpeed(factor: 0.001) == .factor(0.001))
        #expect(ReplaySpeed(factor: 1e6) == .factor(1e6))
    }
}
