import SextantCore
import SextantProtocol
import Testing

/// The activity and step engine (RULES A1–A9), driven with hand-made fixes: one a second,
/// due north at the speeds of a plan.
@Suite("Activity and steps (A1–A9)")
struct ActivityEngineTests {
    static let start = Timestamp(nanoseconds: 1_772_352_000_000_000_000)
    static let metresPerDegree = Geo.earthRadius * .pi / 180

    static func time(_ seconds: Int) -> Timestamp { start.adding(nanoseconds: Int64(seconds) * 1_000_000_000) }
    static func seconds(_ time: Timestamp) -> Int { Int((time.nanoseconds - start.nanoseconds) / 1_000_000_000) }

    /// What the engine said over a plan of (seconds, m/s) legs, fixes without a speed.
    struct Run {
        var engine = ActivityEngine()
        var reports: [(second: Int, report: ActivityEngine.Report)] = []
        var transitions: [ActivityEngine.Transition] = []
        var steps: [(second: Int, steps: Int, distance: Double, walked: Double)] = []
        var north = 0.0
        var walked = 0.0
        var second = 0

        mutating func go(_ plan: [(seconds: Int, speed: Double)]) {
            if second == 0 { take(ActivityEngineTests.fix(0, north: 0)) }
            for leg in plan {
                for _ in 0..<leg.seconds {
                    second += 1
                    north += leg.speed
                    if ActivityModel.stepLength(speed: leg.speed) != nil { walked += leg.speed }
                    take(ActivityEngineTests.fix(second, north: north))
                }
            }
        }

        mutating func take(_ fix: LocationFix) {
            let change = engine.fix(fix)
            if let report = change.report { reports.append((second, report)) }
            transitions += change.transitions
            steps.append((second, engine.steps.steps, engine.steps.distance, walked))
        }

        /// The flags reported, as (second, types).
        var said: [(Int, [ActivityType])] { reports.map { ($0.second, $0.report.state.flags.types) } }
        var flagChanges: [(Int, [ActivityType])] {
            var out: [(Int, [ActivityType])] = []
            for (second, types) in said where out.last?.1 != types { out.append((second, types)) }
            return out
        }
    }

    static func fix(_ second: Int, north: Double) -> LocationFix {
        LocationFix(latitude: 48 + north / metresPerDegree, longitude: 2.3, time: time(second))
    }

    static func run(_ plan: [(seconds: Int, speed: Double)]) -> Run {
        var run = Run()
        run.go(plan)
        return run
    }

    @Test("A1: the bands of true speed: < 0.2 stationary, < 2.2 walking, < 4.5 running, < 8.5 cycling, automotive above")
    func a1Bands() {
        let cases: [(Double, ActivityType)] = [
            (0, .stationary), (0.19, .stationary), (0.2, .walking), (2.19, .walking), (2.2, .running), (4.49, .running),
            (4.5, .cycling), (8.49, .cycling), (8.5, .automotive), (40, .automotive),
        ]
        for (speed, type) in cases { #expect(ActivityModel.band(speed: speed) == type, "\(speed) m/s") }
    }

    @Test("A2: one fix 25 m/s fast in a walk (a GNSS jump) changes nothing: the median of five seconds holds the band")
    func a2MedianHoldsASpike() {
        let run = Self.run([(60, 1.4), (1, 25), (60, 1.4)])
        #expect(run.flagChanges.map(\.1) == [[.walking]])
    }

    @Test("A3: walking is entered 10 s after the walk began, automotive 60 s after the drive began (a few seconds of median later), each starting when its band did")
    func a3EntryDelays() throws {
        let run = Self.run([(120, 1.4), (180, 13.4)])
        let changes = run.flagChanges
        #expect(changes.map(\.1) == [[.walking], [.automotive]])
        let walking = try #require(run.reports.first { $0.report.state.flags.contains(.walking) })
        #expect(walking.second == 11 && Self.seconds(walking.report.state.start) == 1)
        let driving = try #require(run.reports.first { $0.report.state.flags.contains(.automotive) })
        let bandBegan = Self.seconds(driving.report.state.start)
        #expect((121...124).contains(bandBegan), "the median sees the drive within three fixes: \(bandBegan)")
        #expect(driving.second - bandBegan == 60)
    }

    @Test("A4: confidence low at entry, medium after 30 s, high after 120 s; Android's percent 50 rising to 100")
    func a4ConfidenceRisesWithDwell() {
        let run = Self.run([(200, 1.4)])
        let levels = run.reports.map { ($0.second - 1, $0.report.state.confidence, $0.report.state.percent) }
        #expect(levels.map(\.0) == [10, 30, 120])
        #expect(levels.map(\.1) == [.low, .medium, .high])
        #expect(levels.map(\.2) == [54, 62, 100])
    }

    @Test("A5: a 60 s stop in a drive is automotive and stationary, then automotive again; a 300 s stop is stationary alone after 180 s")
    func a5AutomotiveThroughStops() {
        let light = Self.run([(120, 13.4), (60, 0), (60, 13.4)])
        #expect(light.flagChanges.map(\.1) == [[.automotive], [.stationary, .automotive], [.automotive]])
        let parked = Self.run([(120, 13.4), (300, 0)])
        let changes = parked.flagChanges
        #expect(changes.map(\.1) == [[.automotive], [.stationary, .automotive], [.stationary]])
        // The stop's band began within the median's lag of 121 s; stationary alone 180 s on.
        #expect((300...304).contains(changes[2].0))
    }

    @Test("A6: walk → drive: exit walking and enter automotive at the drive's start (in the past); a light's stop enters and exits stationary")
    func a6Transitions() {
        let run = Self.run([(120, 1.4), (180, 13.4), (60, 0), (60, 13.4)])
        let list = run.transitions.map { ($0.activity, $0.kind) }
        #expect(list.map(\.0) == [.walking, .walking, .automotive, .stationary, .stationary])
        #expect(list.map(\.1) == [.enter, .exit, .enter, .enter, .exit])
        let driveStart = run.reports.first { $0.report.state.flags.contains(.automotive) }!.report.state.start
        #expect(run.transitions[1].time == driveStart && run.transitions[2].time == driveStart)
    }

    @Test("A7: whole steps at speed / step length, monotone, the distance their lengths' sum, within one step of the distance walked; none when still or driving")
    func a7StepsAgreeWithDistance() throws {
        let run = Self.run([(300, 1.4), (60, 0), (120, 3.5), (120, 13.4), (60, 1.0)])
        for (a, b) in zip(run.steps, run.steps.dropFirst()) { #expect(b.steps >= a.steps && b.distance >= a.distance) }
        for sample in run.steps {
            #expect(sample.distance <= sample.walked + 1e-6 && sample.walked - sample.distance < 1.7, "at \(sample.second) s")
        }
        let walk = try #require(run.steps.first { $0.second == 300 })
        let length = 0.45 + 0.2 * 1.4
        #expect(walk.steps == Int((420 / length).rounded(.down)) && abs(walk.distance - Double(walk.steps) * length) < 1e-6)
        let still = try #require(run.steps.first { $0.second == 360 })
        #expect(still.steps == walk.steps)
        let run2 = try #require(run.steps.first { $0.second == 480 })
        #expect(run2.steps - still.steps == Int((420 / (0.40 + 0.25 * 3.5)).rounded(.down)) || run2.steps - still.steps == Int((420 / (0.40 + 0.25 * 3.5)).rounded(.down)) + 1)
        let drive = try #require(run.steps.first { $0.second == 600 })
        #expect(drive.steps == run2.steps)
    }

    @Test("A7: cadence in steps/s and pace in s/m while on foot (CMPedometerData's units), none when still")
    func a7CadenceAndPace() {
        var run = Self.run([(30, 1.4)])
        #expect(abs((run.engine.steps.cadence ?? 0) - 1.4 / 0.73) < 1e-9 && abs((run.engine.steps.pace ?? 0) - 1 / 1.4) < 1e-9)
        run.go([(5, 0)])
        #expect(run.engine.steps.cadence == nil && run.engine.steps.pace == nil)
    }

    @Test("A8: the history keeps seven days and at most its capacity, whatever is fed; a query sees the activities begun in its span")
    func a8HistoryBounded() {
        var engine = ActivityEngine()
        // 25,000 changes 30 s apart: 8.7 days.
        for index in 0..<25_000 {
            _ = engine.hold(index % 2 == 0 ? .walking : .running, at: Self.time(index * 30))
        }
        let entries = engine.history.entries
        #expect(entries.count <= ActivityModel.historyCapacity)
        let newest = Self.time(24_999 * 30)
        #expect(entries.allSatisfy { newest.nanoseconds - $0.state.start.nanoseconds <= ActivityModel.historyAge })
        let span = engine.history.activities(from: Self.time(24_990 * 30), to: newest)
        #expect(span.count == 10 && span.allSatisfy { $0.source == .hand })
    }

    @Test("A8: a step query counts the steps between its ends, to the minute")
    func a8StepQuery() {
        let run = Self.run([(600, 1.4)])
        let history = run.engine.history
        let total = history.steps(from: Self.start, to: Self.time(600), now: run.engine.steps)
        #expect(total.steps == run.engine.steps.steps)
        let middle = history.steps(from: Self.time(120), to: Self.time(300), now: run.engine.steps)
        let perMinute = 60 * 1.4 / 0.73
        #expect(abs(Double(middle.steps) - 3 * perMinute) <= 2)
    }

    @Test("A9: the hand's activity over a recorded one over the derived one; auto gives the word back")
    func a9Overrides() {
        var run = Self.run([(30, 1.4)])
        #expect(run.engine.report?.source == .derived)
        let recorded = ActivityState(flags: ActivityFlags([.running]), start: Self.time(31), confidence: .medium, percent: 75)
        #expect(run.engine.recorded(recorded, at: Self.time(31)).report?.source == .recorded)
        let held = run.engine.hold(.automotive, at: Self.time(32))
        #expect(held.report?.source == .hand && held.report?.state.flags.types == [.automotive])
        #expect(held.transitions.map(\.kind) == [.exit, .enter])
        run.go([(30, 1.4)])
        #expect(run.engine.report?.source == .hand)
        #expect(run.engine.hold(nil, at: Self.time(70)).report?.source == .recorded)
    }

    @Test("A10: resumed after nobody listened, the engine counts no steps for the stretch across the gap")
    func a10ResumeSkipsTheGap() {
        var run = Self.run([(30, 1.4)])
        let before = run.engine.steps.steps
        run.engine.resume()
        // 500 m in 600 s is a walking speed: without the resume it would be ~650 steps.
        run.take(Self.fix(630, north: run.north + 500))
        #expect(run.engine.steps.steps == before)
    }
}
