import Foundation
import SextantCore
import SextantProtocol
import SextantTestSupport
import Testing

/// RULES O3 (faceUp and faceDown), turns with noise and O5 (determinism), with the
/// geometry the tests build their samples from.
extension OrientationJudgeTests {
    // MARK: - O3: faceUp and faceDown

    @Test("O3: faceUp at the first sample that completes 500 ms of tilt >= 80, not 1 ns earlier (50 Hz, as device.set)")
    func testO3_faceUp500ms_justInsideAndJustOutside() {
        var script = Script()
        let faceUp = Acceleration(x: 0, y: 0, z: g)
        script.hold(faceUp, through: t0 + ms(500), every: ms(20))  // judged from 20 ms on
        script.feed(faceUp, at: t0 + ms(520) - 1)
        #expect(script.events.isEmpty)
        script.feed(faceUp, at: t0 + ms(520))
        #expect(script.events == [DeviceOrientationChange(previous: .unknown, orientation: .faceUp, time: at(ms(520)))])
    }

    @Test("O3: faceDown at 500 ms of tilt <= -80")
    func testO3_faceDown500ms() {
        var script = Script()
        let faceDown = Acceleration(x: 0, y: 0, z: -g)
        script.hold(faceDown, through: t0 + ms(500), every: ms(20))
        script.feed(faceDown, at: t0 + ms(520) - 1)
        #expect(script.events.isEmpty)
        script.feed(faceDown, at: t0 + ms(520))
        #expect(script.events.map(\.orientation) == [.faceDown])
        #expect(script.events.map(\.time) == [at(ms(520))])
    }

    @Test(
        "O3: tilt 80 is face up and -80 face down; 79 and -79 are neither",
        arguments: [(80.4, DeviceOrientation?.some(.faceUp)), (79.4, nil), (-80.4, .faceDown), (-79.4, nil)])
    func testO3_faceTilt80_justInsideAndJustOutside(tilt: Double, expected: DeviceOrientation?) {
        var script = Script()
        script.hold(gravity(tilt: tilt, angle: 0), through: t0 + ms(2000))
        #expect(script.events.map(\.orientation) == (expected.map { [$0] } ?? []))
    }

    @Test("O3: a sample under 80 during the 500 ms starts them again")
    func testO3_runRestartsBelow80() {
        var script = Script()
        script.hold(gravity(tilt: 85, angle: 0), through: t0 + ms(300))
        script.reach(gravity(tilt: 78, angle: 0), at: t0 + ms(310))
        script.reach(gravity(tilt: 85, angle: 0), at: t0 + ms(320))
        script.hold(gravity(tilt: 85, angle: 0), through: t0 + ms(1000))
        #expect(script.events.map(\.time) == [at(ms(820))])
    }

    @Test("O3: faceUp ignores O2's hold-offs: decided at 500 ms even while accelerating")
    func testO3_faceUpApartFromHoldOffs() {
        var script = Script()
        script.hold(Acceleration(x: 0, y: 0, z: 14), through: t0 + ms(1000))  // 14 m/s²: accelerating
        #expect(script.events.map(\.orientation) == [.faceUp])
        #expect(script.events.map(\.time) == [at(ms(510))])
    }

    @Test("O3: faceUp lasts while the tilt stays >= 70 (O2 may not decide portrait at 70), ends under 70")
    func testO3_faceUpExit70_justInsideAndJustOutside() {
        for (tilt, ends) in [(70.4, false), (69.4, true)] {
            var script = Script()
            script.hold(gravity(tilt: 85, angle: 0), through: t0 + ms(1500))  // flat until 1500 ms
            script.reach(gravity(tilt: tilt, angle: 0), at: t0 + ms(1510))
            script.hold(gravity(tilt: tilt, angle: 0), through: t0 + ms(4000))
            // 69: O2's portrait (limit 70) is decided 500 ms after flat ended, straight from faceUp.
            let expected: [DeviceOrientation] = ends ? [.faceUp, .portrait] : [.faceUp]
            #expect(script.events.map(\.orientation) == expected, "tilt \(tilt)")
            if ends { #expect(script.events.last?.time == at(ms(2000))) }
        }
    }

    @Test("O3: from faceUp the event goes straight to the next upright decision, whatever c was")
    func testO3_faceUpStraightToUpright() {
        var script = Script()
        script.hold(portrait, through: t0 + ms(500))
        script.reach(gravity(tilt: 85, angle: 0), at: t0 + ms(510))
        script.hold(gravity(tilt: 85, angle: 0), through: t0 + ms(2000))
        script.reach(Acceleration(x: g, y: 0, z: 0), at: t0 + ms(2010))
        script.hold(Acceleration(x: g, y: 0, z: 0), through: t0 + ms(3000))
        #expect(script.events.map(\.orientation) == [.portrait, .faceUp, .landscapeLeft])
        #expect(script.events.map(\.previous) == [.unknown, .portrait, .faceUp])
        // faceUp at 510 + 500 ms; landscapeLeft 500 ms after the last flat sample (2000 ms).
        #expect(script.events.map(\.time) == [at(ms(50)), at(ms(1010)), at(ms(2500))])
        #expect(script.judge.lastUprightOrientation == .landscapeLeft)
    }

    @Test("O3 with O2's gap: back from faceUp, a portrait candidate is still held to the 22° gap against c")
    func testO3_backFromFaceUpKeepsHysteresis() {
        for (angle, decides) in [(24.0, false), (23.0, true)] {
            var script = Script()
            script.hold(Acceleration(x: g, y: 0, z: 0), through: t0 + ms(500))  // c = landscapeLeft
            script.reach(gravity(tilt: 85, angle: 90), at: t0 + ms(510))
            script.hold(gravity(tilt: 85, angle: 90), through: t0 + ms(2000))
            script.reach(gravity(tilt: 0, angle: angle), at: t0 + ms(2010))
            script.hold(gravity(tilt: 0, angle: angle), through: t0 + ms(4000))
            let expected: [DeviceOrientation] = decides ? [.landscapeLeft, .faceUp, .portrait] : [.landscapeLeft, .faceUp]
            #expect(script.events.map(\.orientation) == expected, "angle \(angle)")
        }
    }

    @Test("O3: turned over, faceUp goes to faceDown 500 ms later")
    func testO3_faceUpToFaceDown() {
        var script = Script()
        script.hold(Acceleration(x: 0, y: 0, z: g), through: t0 + ms(1000))
        script.reach(Acceleration(x: 0, y: 0, z: -g), at: t0 + ms(1010))
        script.hold(Acceleration(x: 0, y: 0, z: -g), through: t0 + ms(2000))
        #expect(script.events.map(\.orientation) == [.faceUp, .faceDown])
        #expect(script.events.map(\.time) == [at(ms(510)), at(ms(1510))])
        #expect(script.judge.lastUprightOrientation == nil)
    }

    // MARK: - Realistic turns with noise

    @Test(
        "O2 noisy turns (σ = 0.15 m/s², 100 Hz, 0.4 s, leaning back 20°): the right final decision, no spurious events",
        arguments: [
            (0.0, 90.0, DeviceOrientation.portrait, DeviceOrientation.landscapeLeft),
            (0.0, -90.0, .portrait, .landscapeRight), (90.0, 0.0, .landscapeLeft, .portrait),
        ])
    func testO2_noisyTurns(from: Double, to: Double, start: DeviceOrientation, expected: DeviceOrientation) {
        for seed in UInt64(1)...40 {
            let motion = HandTurn(from: from, to: to, lean: 20, start: t0 + ms(1000), duration: ms(400))
            var script = Script()
            for (time, sample) in motion.samples(through: t0 + ms(3000), period: ms(10), noise: 0.15, seed: seed) {
                script.feed(sample, at: time)
            }
            #expect(script.events.map(\.orientation) == [start, expected], "seed \(seed)")
            let decided = script.events.last?.time.nanoseconds ?? 0
            #expect(decided > motion.start && decided < motion.end + ms(500), "seed \(seed)")
        }
    }

    // MARK: - O5: determinism

    @Test("O5: the same sequence judged twice gives the same decisions at the same times")
    func testO5_sameSequenceSameDecisions() {
        let motion = HandTurn(from: 0, to: 90, lean: 20, start: t0 + ms(1000), duration: ms(400))
        let samples = motion.samples(through: t0 + ms(3000), period: ms(10), noise: 0.15, seed: 7)
        var first = OrientationJudge()
        var second = OrientationJudge()
        let a = samples.compactMap { first.judge($0.1, at: Timestamp(nanoseconds: $0.0)) }
        let b = samples.compactMap { second.judge($0.1, at: Timestamp(nanoseconds: $0.0)) }
        #expect(a.count == 2)
        #expect(a == b)
    }

    @Test("O5: the same motion sampled at 50, 100 and 250 Hz gives the same decisions within two 50 Hz periods")
    func testO5_resampledSameDecisions() {
        // The filter's discretisation moves its delay by about half a sample period and a
        // decision waits for the next sample: two periods of the slowest rate bound both.
        let motion = HandTurn(from: 0, to: 90, lean: 20, start: t0 + ms(1000), duration: ms(400))
        var runs: [[DeviceOrientationChange]] = []
        for period in [ms(20), ms(10), ms(4)] {
            var judge = OrientationJudge()
            runs.append(
                motion.samples(through: t0 + ms(3000), period: period, noise: 0, seed: 0)
                    .compactMap { judge.judge($0.1, at: Timestamp(nanoseconds: $0.0)) })
        }
        for run in runs {
            #expect(run.map(\.orientation) == [.portrait, .landscapeLeft])
            for (event, reference) in zip(run, runs[0]) {
                #expect(abs(event.time.nanoseconds - reference.time.nanoseconds) <= ms(40))
            }
        }
    }
}

// MARK: - Geometry and the test-side sample stream

let g = Acceleration.standardGravity
/// 2026-03-01T08:00:00Z: a realistic epoch, so that nanosecond arithmetic runs near 1.8e18.
let t0: Int64 = 1_772_352_000_000_000_000
let portrait = Acceleration(x: 0, y: g, z: 0)

func ms(_ milliseconds: Int64) -> Int64 { milliseconds * 1_000_000 }
func at(_ offset: Int64) -> Timestamp { Timestamp(nanoseconds: t0 + offset) }

/// The reaction to gravity in the device frame (RULES "Device orientation": x right, y up
/// the screen, z out of it) for a device tilted `tilt` degrees (+ leans the screen back
/// toward the sky; +90 lies face up) and turned to orientation angle `angle` degrees
/// (0 portrait, 90 landscapeLeft: the reaction swings from +y toward +x).
func gravity(tilt: Double, angle: Double, magnitude: Double = g) -> Acceleration {
    let t = tilt * .pi / 180, a = angle * .pi / 180
    return Acceleration(x: magnitude * cos(t) * sin(a), y: magnitude * cos(t) * cos(a), z: magnitude * sin(t))
}

/// Feeds a judge and records its events. It keeps its own copy of RULES O2's low-pass
/// filter (alpha = dt / (200 ms + dt), restarted after a gap over 1000 ms), written from
/// the rule, so that `reach` can compute the one raw sample that brings the filtered vector
/// to a chosen gravity vector: a step change the filter would otherwise smear over a second.
struct Script {
    private(set) var judge = OrientationJudge()
    private(set) var events: [DeviceOrientationChange] = []
    private var filtered: Acceleration?
    private var last: Int64?

    mutating func feed(_ sample: Acceleration, at time: Int64) {
        if let filtered, let last, time - last <= ms(1000) {
            let alpha = Double(time - last) / Double(ms(200) + time - last)
            self.filtered = Acceleration(
                x: filtered.x + alpha * (sample.x - filtered.x), y: filtered.y + alpha * (sample.y - filtered.y),
                z: filtered.z + alpha * (sample.z - filtered.z))
        } else {
            filtered = sample
        }
        last = time
        if let event = judge.judge(sample, at: Timestamp(nanoseconds: time)) { events.append(event) }
    }

    /// Feeds the sample after which the filtered vector is `target`.
    mutating func reach(_ target: Acceleration, at time: Int64) {
        guard let filtered, let last, time - last <= ms(1000) else { return feed(target, at: time) }
        let alpha = Double(time - last) / Double(ms(200) + time - last)
        feed(
            Acceleration(
                x: filtered.x + (target.x - filtered.x) / alpha, y: filtered.y + (target.y - filtered.y) / alpha,
                z: filtered.z + (target.z - filtered.z) / alpha),
            at: time)
    }

    /// Keeps the filtered vector at `target` with a sample every `step`, from one step
    /// after the last sample (or from t0) through `end`.
    mutating func hold(_ target: Acceleration, through end: Int64, every step: Int64 = ms(10)) {
        var time = last.map { $0 + step } ?? t0
        while time <= end {
            reach(target, at: time)
            time += step
        }
    }
}

/// A hand turning the device about the screen's normal, leaned back `lean` degrees: the
/// orientation angle eases from `from` to `to` (a half cosine, slow at both ends) over
/// `duration` from `start`; before and after, the device rests.
struct HandTurn {
    var from: Double
    var to: Double
    var lean: Double
    var start: Int64
    var duration: Int64

    var end: Int64 { start + duration }

    func angle(at time: Int64) -> Double {
        let progress = min(1, max(0, Double(time - start) / Double(duration)))
        return from + (to - from) * (1 - cos(.pi * progress)) / 2
    }

    /// Samples every `period` from t0 through `last`, with Gaussian noise of `noise` m/s²
    /// on each axis.
    func samples(through last: Int64, period: Int64, noise: Double, seed: UInt64) -> [(Int64, Acceleration)] {
        var random = SplitMix64(seed: seed)
        return stride(from: t0, through: last, by: Int(period)).map { time in
            let clean = gravity(tilt: lean, angle: angle(at: time))
            return (
                time,
                Acceleration(
                    x: clean.x + noise * random.gaussian(), y: clean.y + noise * random.gaussian(),
                    z: clean.z + noise * random.gaussian())
            )
        }
    }
}
