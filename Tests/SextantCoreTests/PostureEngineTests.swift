import SextantCore
import SextantProtocol
import Testing

// Expectations come from RULES P1–P4 by hand.

@Suite("Posture from the hinge angle (RULES P1–P4)")
struct PostureEngineTests {
    @Test(
        "P3: the first sample decides without hysteresis: closed <= 30 < halfOpened < 150 <= flat, previous nil",
        arguments: [
            (0.0, PostureState.closed), (30.0, .closed), (30.01, .halfOpened), (90.0, .halfOpened),
            (149.99, .halfOpened), (150.0, .flat), (180.0, .flat),
            // Inside the later hysteresis bands, the first sample still reads the plain ranges.
            (20.0, .closed), (140.0, .halfOpened),
        ])
    func testP3_firstSample(angle: Double, expected: PostureState) {
        var engine = PostureEngine()
        #expect(engine.state == nil)
        let change = engine.judge(hingeAngle: angle, at: time(0), lastUprightDeviceOrientation: .portrait)
        #expect(change == PostureChange(previous: nil, state: expected, hingeAngle: angle, fold: .vertical, time: time(0)))
        #expect(engine.state == expected)
    }

    struct Transition: Sendable, CustomTestStringConvertible {
        var from: Double
        var to: Double
        var expected: PostureState?
        var testDescription: String { "\(from) → \(to): \(expected.map(\.rawValue) ?? "no change")" }
    }

    @Test(
        "P3 hysteresis: just inside and just outside each threshold",
        arguments: [
            // closed → halfOpened above 30.
            Transition(from: 10, to: 30, expected: nil), Transition(from: 10, to: 30.01, expected: .halfOpened),
            // halfOpened → closed at 5 or less.
            Transition(from: 90, to: 5.01, expected: nil), Transition(from: 90, to: 5, expected: .closed),
            // halfOpened → flat at 150.
            Transition(from: 90, to: 149.99, expected: nil), Transition(from: 90, to: 150, expected: .flat),
            // flat → halfOpened below 125.
            Transition(from: 170, to: 125, expected: nil), Transition(from: 170, to: 124.99, expected: .halfOpened),
            // Inside the bands the state holds where the first-sample ranges would differ.
            Transition(from: 90, to: 20, expected: nil), Transition(from: 170, to: 140, expected: nil),
        ])
    func testP3_hysteresisThresholds(_ t: Transition) {
        var engine = PostureEngine()
        let first = engine.judge(hingeAngle: t.from, at: time(0), lastUprightDeviceOrientation: nil)
        let change = engine.judge(hingeAngle: t.to, at: time(100), lastUprightDeviceOrientation: nil)
        #expect(change?.state == t.expected)
        if let expected = t.expected {
            #expect(change == PostureChange(previous: first?.state, state: expected, hingeAngle: t.to, fold: .vertical, time: time(100)))
        }
    }

    @Test("P3: a sample across two thresholds gives one event, to the far state")
    func testP3_twoThresholdsOneEvent() {
        var opening = PostureEngine()
        _ = opening.judge(hingeAngle: 10, at: time(0), lastUprightDeviceOrientation: nil)
        let opened = opening.judge(hingeAngle: 160, at: time(10), lastUprightDeviceOrientation: nil)
        #expect(opened.map { [$0.previous, $0.state] } == [.closed, .flat])

        var closing = PostureEngine()
        _ = closing.judge(hingeAngle: 170, at: time(0), lastUprightDeviceOrientation: nil)
        let closed = closing.judge(hingeAngle: 3, at: time(10), lastUprightDeviceOrientation: nil)
        #expect(closed.map { [$0.previous, $0.state] } == [.flat, .closed])
    }

    @Test("P3: a full open and close gives one event per change of state")
    func testP3_oneEventPerChange() {
        var engine = PostureEngine()
        var states: [PostureState] = []
        // 0° to 180° and back in 2° steps.
        let angles = Array(stride(from: 0.0, through: 180, by: 2)) + Array(stride(from: 178.0, through: 0, by: -2))
        for (i, angle) in angles.enumerated() {
            if let change = engine.judge(hingeAngle: angle, at: time(Int64(i) * 10), lastUprightDeviceOrientation: nil) {
                states.append(change.state)
            }
        }
        #expect(states == [.closed, .halfOpened, .flat, .halfOpened, .closed])
    }

    @Test("P3: the change comes at the first angle past each threshold on the way")
    func testP3_thresholdAnglesOnTheWay() {
        var engine = PostureEngine()
        var angles: [Double] = []
        let sweep = Array(stride(from: 0.0, through: 180, by: 2)) + Array(stride(from: 178.0, through: 0, by: -2))
        for (i, angle) in sweep.enumerated() {
            if let change = engine.judge(hingeAngle: angle, at: time(Int64(i)), lastUprightDeviceOrientation: nil) {
                angles.append(change.hingeAngle)
            }
        }
        // Opening: 0 (first), 32 (> 30), 150 (>= 150). Closing: 124 (< 125), 4 (<= 5).
        #expect(angles == [0, 32, 150, 124, 4])
    }

    @Test("P3: a sample within 1° of the last accepted angle is ignored, and does not become the reference")
    func testP3_jitterWithin1Degree() {
        var engine = PostureEngine()
        _ = engine.judge(hingeAngle: 149.5, at: time(0), lastUprightDeviceOrientation: nil)
        #expect(engine.state == .halfOpened)
        // 150.3 reaches 150 but is 0.8° from 149.5: ignored.
        #expect(engine.judge(hingeAngle: 150.3, at: time(10), lastUprightDeviceOrientation: nil) == nil)
        // 150.5 is 1.0° from 149.5 (not from 150.3): still within 1°.
        #expect(engine.judge(hingeAngle: 150.5, at: time(20), lastUprightDeviceOrientation: nil) == nil)
        #expect(engine.lastAcceptedAngle == 149.5)
        // 150.6 is 1.1° away: accepted, and it crosses into flat.
        #expect(engine.judge(hingeAngle: 150.6, at: time(30), lastUprightDeviceOrientation: nil)?.state == .flat)
        #expect(engine.lastAcceptedAngle == 150.6)
        // Slow drift: each step 0.6° from the last accepted one is ignored; the reference stays.
        #expect(engine.judge(hingeAngle: 150.0, at: time(40), lastUprightDeviceOrientation: nil) == nil)
        #expect(engine.lastAcceptedAngle == 150.6)
    }

    @Test("P3: an accepted sample that changes nothing sends no event; non-finite angles are ignored")
    func testP3_noEventWithoutChange() {
        var engine = PostureEngine()
        _ = engine.judge(hingeAngle: 90, at: time(0), lastUprightDeviceOrientation: nil)
        #expect(engine.judge(hingeAngle: 100, at: time(10), lastUprightDeviceOrientation: nil) == nil)
        #expect(engine.lastAcceptedAngle == 100)
        #expect(engine.judge(hingeAngle: .nan, at: time(20), lastUprightDeviceOrientation: nil) == nil)
        #expect(engine.lastAcceptedAngle == 100)
    }

    @Test("P3: an orientation change alone sends no posture event")
    func testP3_orientationAloneSendsNothing() {
        var engine = PostureEngine()
        _ = engine.judge(hingeAngle: 90, at: time(0), lastUprightDeviceOrientation: .portrait)
        #expect(engine.judge(hingeAngle: 90, at: time(10), lastUprightDeviceOrientation: .landscapeLeft) == nil)
    }

    @Test(
        "P4: the fold is vertical (book) in portrait and upside down, horizontal (tabletop) in a landscape, else vertical",
        arguments: [
            (DeviceOrientation?.none, FoldDirection.vertical), (.portrait, .vertical), (.portraitUpsideDown, .vertical),
            (.landscapeLeft, .horizontal), (.landscapeRight, .horizontal),
        ])
    func testP4_foldDirection(lastUpright: DeviceOrientation?, expected: FoldDirection) {
        var engine = PostureEngine()
        #expect(engine.judge(hingeAngle: 90, at: time(0), lastUprightDeviceOrientation: lastUpright)?.fold == expected)
        #expect(engine.judge(hingeAngle: 170, at: time(10), lastUprightDeviceOrientation: lastUpright)?.fold == expected)
        #expect(FoldDirection(lastUprightDeviceOrientation: lastUpright) == expected)
    }

    @Test("P4: the fold is read at each event, from the orientation of that moment")
    func testP4_foldFollowsTheLastUprightOrientation() {
        var engine = PostureEngine()
        #expect(engine.judge(hingeAngle: 90, at: time(0), lastUprightDeviceOrientation: .landscapeRight)?.fold == .horizontal)
        #expect(engine.judge(hingeAngle: 170, at: time(10), lastUprightDeviceOrientation: .portrait)?.fold == .vertical)
    }
}

private func time(_ milliseconds: Int64) -> Timestamp { Timestamp(nanoseconds: 1_772_352_000_000_000_000 + milliseconds * 1_000_000) }
