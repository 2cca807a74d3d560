import SextantCore
import SextantProtocol
import SextantTraces
import Testing

@testable import SextantHub
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
        drainItems(&schedule, at: now).compactMap { if case .sample(let sample) = $0 { sample } else { nil } }
    }

    static func drainItems(_ schedule: inout ReplaySchedule, at now: Int64) -> [ReplaySchedule.Item] {
        var out: [ReplaySchedule.Item] = []
        while let item = schedule.takeIfDue(now: now) { out.append(item) }
        return out
    }

    /// What came out, as `s<offset s>` and `c<method>@<offset s>`.
    static func names(_ items: [ReplaySchedule.Item], start: Timestamp = start) -> [String] {
        items.map { item in
            switch item {
            case .sample(let sample): "s\((sample.time.nanoseconds - start.nanoseconds) / second)"
            case .control(let control, let time): "c\(control.method)@\((time.nanoseconds - start.nanoseconds) / second)"
            }
        }
    }

    /// An action before sample 1 (at 0.5 s, read as 0 in names), one after the last sample at 4 s.
    static let controls = [
        TraceControl(offset: second / 2, beforeSample: 1, method: "a", params: [:], path: "x", line: 3),
        TraceControl(offset: 4 * second, beforeSample: 3, method: "b", params: [:], path: "x", line: 6),
    ]

    @Test("issue 24.3: control actions come in their place among the samples at every speed; one after the last sample extends the lap")
    func controlsInTheirPlace() {
        for speed in [ReplaySpeed.factor(1), .factor(7), .max] {
            var schedule = ReplaySchedule(trace: Self.walk(), controls: Self.controls, speed: speed, loop: true, startedAt: 0)
            #expect(schedule.duration == 4 * Self.second && schedule.lapPeriod == 5 * Self.second)
            var items: [ReplaySchedule.Item] = []
            if speed == .max {
                for _ in 0..<6 { items += schedule.takeIfDue(now: 0).map { [$0] } ?? [] }
            } else {
                items = Self.drainItems(&schedule, at: Self.scaled(Self.second / 2, speed))
                #expect(Self.names(items) == ["s0", "ca@0"], "\(speed)")
                items += Self.drainItems(&schedule, at: Self.scaled(4 * Self.second, speed) - 1)
                #expect(Self.names(items).last == "s2", "b is due at 4 s, not before")
                items += Self.drainItems(&schedule, at: Self.scaled(5 * Self.second, speed))
            }
            #expect(Self.names(items) == ["s0", "ca@0", "s1", "s2", "cb@4", "s5"], "\(speed): lap 1 starts 1 s after b")
        }
    }

    @Test("issue 24.3: seek skips the actions in between; step plays the actions before the sample it steps; until pauses after the actions at its time")
    func controlsWithSeekStepAndUntil() {
        var schedule = ReplaySchedule(trace: Self.walk(), controls: Self.controls, speed: .factor(1), loop: false, until: Self.second / 2, startedAt: 0)
        #expect(Self.names(Self.drainItems(&schedule, at: Self.second)) == ["s0", "ca@0"])
        #expect(schedule.isPaused && schedule.position == Self.second / 2)
        #expect(Self.names([schedule.stepOne(), schedule.stepOne()].compactMap { $0 }) == ["s1", "s2"])
        schedule.seek(to: Self.second / 4, now: 0)
        #expect(Self.names([schedule.stepOne()].compactMap { $0 }) == ["ca@0"], "at 0.25 s, a (0.5 s) is ahead")
        schedule.seek(to: 3 * Self.second, now: 0)
        #expect(Self.names([schedule.stepOne(), schedule.stepOne()].compactMap { $0 }) == ["cb@4"])
        #expect(schedule.isFinished)
    }

    static func scaled(_ nanoseconds: Int64, _ speed: ReplaySpeed) -> Int64 {
        guard case .factor(let factor) = speed else { return 0 }
        return ReplaySchedule.scaled(nanoseconds, by: factor)
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
