import Foundation
import SextantCore
import SextantProtocol
import SextantTestSupport
import Testing

// Every expectation below comes from RULES O1–O5 by hand: the inputs are gravity vectors
// built from a tilt and an orientation angle (see `gravity(tilt:angle:)`), and the times
// are worked out from the rule's constants in the comments next to them.

@Suite("Device orientation judge (RULES O1–O5)")
struct OrientationJudgeTests {
    // MARK: - O1, O4: the four upright orientations, the first event

    @Test(
        "O1: at rest, each upright orientation is decided 40 ms after the first judged sample",
        arguments: [
            (0.0, DeviceOrientation.portrait), (90.0, .landscapeLeft), (180.0, .portraitUpsideDown),
            (270.0, .landscapeRight),
        ])
    func testO1_uprightOrientationsAtRest(angle: Double, expected: DeviceOrientation) {
        var script = Script()
        script.hold(gravity(tilt: 0, angle: angle), through: t0 + ms(200))
        // Seed at t0, first judged sample at t0 + 10 ms, settled 40 ms later (O2).
        #expect(script.events == [DeviceOrientationChange(previous: .unknown, orientation: expected, time: at(ms(50)))])
    }

    @Test("O1: landscapeLeft is gravity's reaction along +x, landscapeRight along -x")
    func testO1_landscapeAxes() {
        var left = Script()
        left.hold(Acceleration(x: g, y: 0, z: 0), through: t0 + ms(100))
        #expect(left.events.map(\.orientation) == [.landscapeLeft])
        var right = Script()
        right.hold(Acceleration(x: -g, y: 0, z: 0), through: t0 + ms(100))
        #expect(right.events.map(\.orientation) == [.landscapeRight])
    }

    @Test("O4: one event per change; losing the proposal and finding the same one again sends nothing")
    func testO4_eventsOnlyOnChange() {
        var script = Script()
        script.hold(portrait, through: t0 + ms(500))
        // Leaning forward to -30 (below portrait's -25 limit) leaves no proposal (O2), then back.
        script.hold(gravity(tilt: -30, angle: 0), through: t0 + ms(1000))
        script.hold(portrait, through: t0 + ms(2000))
        #expect(script.events.map(\.orientation) == [.portrait])
        #expect(script.judge.orientation == .portrait)
        #expect(script.judge.lastUprightOrientation == .portrait)
    }

    // MARK: - O2: the filter

    @Test("O2 filter: a gap of 1000 ms keeps the filter, 1000 ms + 1 ns restarts it (the next sample only seeds)")
    func testO2_filterResetGap_justInsideAndJustOutside() {
        for (gap, restarts) in [(ms(1000), false), (ms(1000) + 1, true)] {
            var script = Script()
            script.feed(portrait, at: t0)
            script.feed(portrait, at: t0 + gap)  // judged (prediction starts) unless it re-seeds
            script.feed(portrait, at: t0 + gap + ms(40))
            script.feed(portrait, at: t0 + gap + ms(80))
            // Judged: settled 40 ms after the sample at the gap. Re-seeded: the prediction
            // starts at +40 ms and settles at +80 ms.
            let expected = t0 + gap + (restarts ? ms(80) : ms(40))
            #expect(script.events.map(\.time.nanoseconds) == [expected], "gap \(gap) ns")
        }
    }

    @Test("O2 filter: time constant 200 ms, alpha = dt / (200 ms + dt)")
    func testO2_filterTimeConstant() {
        // From rest in landscapeLeft (+x, so c = landscapeLeft), one portrait sample (+y)
        // after dt leaves f = g (1 - alpha, alpha, 0): orientation angle atan((1 - alpha) / alpha).
        // portrait is c + 3 and needs a <= 23 (O2's gap). dt = 470 ms: alpha = 470/670,
        // a = 23.05, accepted at once. dt = 450 ms: alpha = 450/650, a = 23.96 rounds to 24,
        // rejected; 40 ms later alpha = 40/240 brings a to 19.0, accepted then.
        for (dt, predictedAt) in [(ms(470), ms(470)), (ms(450), ms(490))] {
            var script = Script()
            script.hold(Acceleration(x: g, y: 0, z: 0), through: t0 + ms(500))
            #expect(script.events.map(\.orientation) == [.landscapeLeft])
            for step in [dt, dt + ms(40), dt + ms(80)] { script.feed(portrait, at: t0 + ms(500) + step) }
            #expect(script.events.map(\.orientation) == [.landscapeLeft, .portrait], "dt \(dt)")
            #expect(script.events.last?.time == at(ms(500) + predictedAt + ms(40)), "dt \(dt)")
        }
    }

    // MARK: - O2: magnitude

    @Test("O2 magnitude: under 1 m/s² only clears the proposal; from 1 m/s² on it counts as accelerating")
    func testO2_nearZeroMagnitude_justInsideAndJustOutside() {
        for (magnitude, expected) in [(0.99, ms(60)), (1.01, ms(510))] {
            var script = Script()
            script.reach(portrait, at: t0)
            // One sample brings the filtered vector to (0, magnitude, 0), the next back to g.
            script.reach(gravity(tilt: 0, angle: 0, magnitude: magnitude), at: t0 + ms(10))
            script.hold(portrait, through: t0 + ms(1000))
            // 0.99: no proposal at 10 ms; portrait predicted at 20 ms, settled at 60 ms.
            // 1.01: portrait predicted at 10 ms but accelerating there: 500 ms hold-off.
            #expect(script.events.map(\.time) == [at(expected)], "magnitude \(magnitude)")
        }
    }

    @Test(
        "O2 magnitude: accelerating outside 9.80665 ± 4 m/s² (never decided while it lasts)",
        arguments: accelerationLimitCases)
    func testO2_accelerationLimits_justInsideAndJustOutside(magnitude: Double, decides: Bool) {
        var script = Script()
        script.hold(gravity(tilt: 0, angle: 0, magnitude: magnitude), through: t0 + ms(2000))
        #expect(script.events.map(\.time) == (decides ? [at(ms(50))] : []))
    }

    static let accelerationLimitCases: [(magnitude: Double, decides: Bool)] = [
        (g + 4 - 0.01, true), (g + 4 + 0.01, false), (g - 4 + 0.01, true), (g - 4 - 0.01, false),
    ]

    @Test("O2 acceleration hold-off: decided 500 ms after the last accelerating sample, not 1 ns earlier")
    func testO2_accelerationHoldOff500ms() {
        var script = Script()
        script.reach(portrait, at: t0)
        // A shake: one filtered sample at 14 m/s², pointing to portrait.
        script.reach(gravity(tilt: 0, angle: 0, magnitude: 14), at: t0 + ms(10))
        script.hold(portrait, through: t0 + ms(500))
        script.feed(portrait, at: t0 + ms(510) - 1)
        #expect(script.events.isEmpty)
        script.feed(portrait, at: t0 + ms(510))
        #expect(script.events.map(\.time) == [at(ms(510))])
    }

    // MARK: - O2: tilt

    @Test(
        "O2 tilt limits per orientation, in whole degrees rounded half up: just inside and just outside",
        arguments: [
            // (orientation angle, inside tilt, outside tilt): max limits.
            (0.0, 70.4, 70.6), (90.0, 65.4, 65.6), (270.0, 65.4, 65.6), (180.0, 60.4, 60.6),
            // min limit -25 for all: -25.4 rounds to -25, -25.6 to -26.
            (0.0, -25.4, -25.6), (90.0, -25.4, -25.6), (270.0, -25.4, -25.6), (180.0, -25.4, -25.6),
        ])
    func testO2_tiltLimits_justInsideAndJustOutside(angle: Double, inside: Double, outside: Double) {
        var ok = Script()
        ok.hold(gravity(tilt: inside, angle: angle), through: t0 + ms(2000))
        #expect(ok.events.map(\.time) == [at(ms(50))], "tilt \(inside) at angle \(angle)")
        var no = Script()
        no.hold(gravity(tilt: outside, angle: angle), through: t0 + ms(2000))
        #expect(no.events.isEmpty, "tilt \(outside) at angle \(angle)")
    }

    @Test("O2 tilt: a portrait phone leaned back 30° has tilt +30 (inside portrait's limits)")
    func testO2_tiltSign() {
        var script = Script()
        script.hold(gravity(tilt: 30, angle: 0), through: t0 + ms(200))
        #expect(script.events.map(\.orientation) == [.portrait])
        // The same vector read with the opposite sign is tilt -30: outside.
        var flipped = Script()
        flipped.hold(gravity(tilt: -30, angle: 0), through: t0 + ms(200))
        #expect(flipped.events.isEmpty)
    }

    @Test("O2 overhead: entered at tilt -40 (not -39); no proposal until the tilt comes back to -15")
    func testO2_overheadEnter_justInsideAndJustOutside() {
        for (start, entersOverhead) in [(-39.0, false), (-40.0, true)] {
            var script = Script()
            script.hold(gravity(tilt: start, angle: 0), through: t0 + ms(100))
            // -20 is inside portrait's limits; rising 19° or 20° within 300 ms. -39 → -20 is
            // not a swing; -40 → -20 is, but its 300 ms hold-off ends long before 2 s.
            script.reach(gravity(tilt: -20, angle: 0), at: t0 + ms(110))
            script.hold(gravity(tilt: -20, angle: 0), through: t0 + ms(2000))
            #expect(script.events.map(\.time) == (entersOverhead ? [] : [at(ms(150))]), "start \(start)")
        }
    }

    @Test("O2 overhead: left at tilt -15, not at -16")
    func testO2_overheadExit_justInsideAndJustOutside() {
        for (end, leaves) in [(-16.0, false), (-15.0, true)] {
            var script = Script()
            script.hold(gravity(tilt: -45, angle: 0), through: t0 + ms(100))  // overhead
            // Come up in steps under 20° per 300 ms, so that no swing hold-off interferes.
            script.reach(gravity(tilt: -30, angle: 0), at: t0 + ms(110))
            script.hold(gravity(tilt: -30, angle: 0), through: t0 + ms(500))
            script.reach(gravity(tilt: -16, angle: 0), at: t0 + ms(510))
            script.hold(gravity(tilt: -16, angle: 0), through: t0 + ms(1000))
            #expect(script.events.isEmpty, "-16 is still overhead")
            script.reach(gravity(tilt: end, angle: 0), at: t0 + ms(1010))
            script.hold(gravity(tilt: end, angle: 0), through: t0 + ms(2000))
            #expect(script.events.map(\.time) == (leaves ? [at(ms(1050))] : []), "end \(end)")
        }
    }

    // MARK: - O2: orientation angle and hysteresis

    @Test("O2 nearest rotation: sector edges at 45, 135, 225, 315 with no previous decision (no gap)")
    func testO2_nearestRotationSectors() {
        let cases: [(Double, DeviceOrientation)] = [
            (44, .portrait), (45, .landscapeLeft), (134, .landscapeLeft), (135, .portraitUpsideDown),
            (224, .portraitUpsideDown), (225, .landscapeRight), (314, .landscapeRight), (315, .portrait),
            (359, .portrait),
        ]
        for (angle, expected) in cases {
            var script = Script()
            script.hold(gravity(tilt: 0, angle: angle), through: t0 + ms(200))
            #expect(script.events.map(\.orientation) == [expected], "angle \(angle)")
        }
    }

    @Test(
        "O2 hysteresis: a neighbour of c is taken only 22° past the sector edge (66|67, 293|294, 24|23, 336|337, 156|157, 114|113)",
        arguments: [
            // (current angle, angle tried, accepted?, orientation decided)
            // c = portrait: landscapeLeft (c+1) rejected when a < 67.
            (0.0, 66.0, false, DeviceOrientation.landscapeLeft), (0.0, 67.0, true, .landscapeLeft),
            // c = portrait: landscapeRight (c+3) rejected when a > 293.
            (0.0, 294.0, false, .landscapeRight), (0.0, 293.0, true, .landscapeRight),
            // c = landscapeLeft: portrait (c+3, r = 0) rejected when 23 < a <= 45.
            (90.0, 24.0, false, .portrait), (90.0, 23.0, true, .portrait),
            // c = landscapeRight: portrait (c+1, r = 0) rejected when 315 <= a < 337.
            (270.0, 336.0, false, .portrait), (270.0, 337.0, true, .portrait),
            // c = landscapeLeft: portraitUpsideDown (c+1) rejected when a < 157.
            (90.0, 156.0, false, .portraitUpsideDown), (90.0, 157.0, true, .portraitUpsideDown),
            // c = portraitUpsideDown: landscapeLeft (c+3) rejected when a > 113.
            (180.0, 114.0, false, .landscapeLeft), (180.0, 113.0, true, .landscapeLeft),
        ])
    func testO2_hysteresis22_23Boundaries(from: Double, to: Double, accepted: Bool, expected: DeviceOrientation) {
        var script = Script()
        script.hold(gravity(tilt: 0, angle: from), through: t0 + ms(500))
        let first = script.events.map(\.orientation)
        script.reach(gravity(tilt: 0, angle: to), at: t0 + ms(510))
        script.hold(gravity(tilt: 0, angle: to), through: t0 + ms(2000))
        let later = Array(script.events.dropFirst(first.count))
        #expect(first.count == 1)
        #expect(later == (accepted ? [DeviceOrientationChange(previous: first[0], orientation: expected, time: at(ms(550)))] : []))
    }

    @Test("O2 hysteresis: the opposite orientation has no gap (225 is landscapeRight even from landscapeLeft)")
    func testO2_oppositeHasNoGap() {
        var script = Script()
        script.hold(gravity(tilt: 0, angle: 90), through: t0 + ms(500))
        script.reach(gravity(tilt: 0, angle: 225), at: t0 + ms(510))
        script.hold(gravity(tilt: 0, angle: 225), through: t0 + ms(1000))
        #expect(script.events.map(\.orientation) == [.landscapeLeft, .landscapeRight])
        #expect(script.events.last?.time == at(ms(550)))
    }

    // MARK: - O2: settle and hold-offs

    @Test("O2 settle: a proposal is decided once stable for 40 ms, not 1 ns earlier")
    func testO2_settle40ms_justInsideAndJustOutside() {
        var script = Script()
        script.feed(portrait, at: t0)  // seed
        script.feed(portrait, at: t0 + ms(10))  // prediction starts
        script.feed(portrait, at: t0 + ms(30))
        script.feed(portrait, at: t0 + ms(50) - 1)
        #expect(script.events.isEmpty)
        script.feed(portrait, at: t0 + ms(50))
        #expect(script.events.map(\.time) == [at(ms(50))])
    }

    @Test("O2 settle: the 40 ms start again when the prediction changes")
    func testO2_settleRestartsOnNewPrediction() {
        var script = Script()
        script.feed(Acceleration(x: g, y: 0, z: 0), at: t0)
        script.feed(Acceleration(x: g, y: 0, z: 0), at: t0 + ms(10))  // landscapeLeft from 10 ms
        script.reach(gravity(tilt: 0, angle: 0), at: t0 + ms(30))  // portrait from 30 ms
        script.hold(gravity(tilt: 0, angle: 0), through: t0 + ms(200))
        #expect(script.events.map(\.orientation) == [.portrait])
        #expect(script.events.map(\.time) == [at(ms(70))])
    }

    @Test("O2 flat: tilt >= 80 held 1000 ms (not 1 ns less) delays the next decision to 500 ms after flat ended")
    func testO2_flat1000ms_justInsideAndJustOutside() {
        for (heldFor, isFlat) in [(ms(1000) - 1, false), (ms(1000), true)] {
            var script = Script()
            let lying = gravity(tilt: 85, angle: 0)
            script.hold(lying, through: t0 + ms(1000))  // judged from 10 ms on
            let lastFlatSample = t0 + ms(10) + heldFor
            script.feed(lying, at: lastFlatSample)
            // Picked up into portrait 10 ms later. Not flat: settled 40 ms after that.
            // Flat: 500 ms after the last flat sample.
            let pickedUp = t0 + ms(1020)
            script.reach(portrait, at: pickedUp)
            script.hold(portrait, through: t0 + ms(3000))
            let expected = isFlat ? lastFlatSample + ms(500) : pickedUp + ms(40)
            // O3 decides faceUp at 510 ms either way; it ends at the first sample under 70.
            #expect(script.events.map(\.orientation) == [.faceUp, .portrait], "held \(heldFor) ns")
            #expect(script.events.last?.time.nanoseconds == expected, "held \(heldFor) ns")
        }
    }

    @Test("O2 flat: decided exactly 500 ms after the last flat sample, not 1 ns earlier")
    func testO2_flatHoldOff500ms_justInsideAndJustOutside() {
        var script = Script()
        script.hold(gravity(tilt: 85, angle: 0), through: t0 + ms(1500))  // flat from 1010 ms to 1500 ms
        script.reach(portrait, at: t0 + ms(1510))
        script.hold(portrait, through: t0 + ms(1990))
        script.feed(portrait, at: t0 + ms(2000) - 1)
        #expect(script.events.map(\.orientation) == [.faceUp])
        script.feed(portrait, at: t0 + ms(2000))
        #expect(script.events.map(\.orientation) == [.faceUp, .portrait])
        #expect(script.events.last?.time == at(ms(2000)))
    }

    @Test("O2 flat: tilt 80 is flat, 79 is not")
    func testO2_flatAngle80_justInsideAndJustOutside() {
        for (tilt, isFlat) in [(79.4, false), (80.4, true)] {
            var script = Script()
            script.hold(gravity(tilt: tilt, angle: 0), through: t0 + ms(1500))
            script.reach(portrait, at: t0 + ms(1510))
            script.hold(portrait, through: t0 + ms(3000))
            // 79 is also under O3's 80: no faceUp.
            let expected: [DeviceOrientation] = isFlat ? [.faceUp, .portrait] : [.portrait]
            #expect(script.events.map(\.orientation) == expected, "tilt \(tilt)")
            #expect(script.events.last?.time == at(isFlat ? ms(2000) : ms(1550)), "tilt \(tilt)")
        }
    }

    @Test("O2 flat: the tilt history is kept by time, so 1 kHz samples still see 1000 ms of flat")
    func testO2_flatHistoryByTimeAt1kHz() {
        var script = Script()
        script.hold(gravity(tilt: 85, angle: 0), through: t0 + ms(1500), every: ms(1))
        script.reach(portrait, at: t0 + ms(1501))
        script.hold(portrait, through: t0 + ms(3000), every: ms(1))
        // Flat from 1001 ms (1000 ms after the first judged sample at 1 ms) to 1500 ms.
        #expect(script.events.map(\.orientation) == [.faceUp, .portrait])
        #expect(script.events.last?.time == at(ms(2000)))
    }

    @Test("O2 swing: tilt rising 20° within 300 ms (inclusive) holds decisions off for 300 ms; 19° or 300 ms + 1 ns does not")
    func testO2_swing20deg300ms_justInsideAndJustOutside() {
        let cases: [(rise: Double, after: Int64, swings: Bool)] = [
            (20, ms(300), true), (19, ms(300), false), (20, ms(300) + 1, false),
        ]
        for (rise, after, swings) in cases {
            var script = Script()
            script.feed(gravity(tilt: -10, angle: 0), at: t0)
            script.feed(gravity(tilt: -10, angle: 0), at: t0 + ms(10))  // tilt -10 in the history
            let swingTime = t0 + ms(10) + after
            script.reach(gravity(tilt: -10 + rise, angle: 0), at: swingTime)
            script.hold(gravity(tilt: -10 + rise, angle: 0), through: swingTime + ms(290))
            script.feed(gravity(tilt: -10 + rise, angle: 0), at: swingTime + ms(300) - 1)
            script.feed(gravity(tilt: -10 + rise, angle: 0), at: swingTime + ms(300))
            // Portrait predicted since 10 ms: without a swing it is decided at the swing
            // sample itself; with one, 300 ms later.
            let expected = swings ? swingTime + ms(300) : swingTime
            #expect(script.events.map(\.time.nanoseconds) == [expected], "rise \(rise) after \(after) ns")
        }
    }
}
